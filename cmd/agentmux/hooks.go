package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

// Hooks (issue 11): for claude and codex agentmux adds per-session hook settings
// when it starts them, never editing the person's own config files:
//
//   - Claude Code: --settings FILE (a file agentmux owns) with a Stop hook and a
//     Notification hook, each running `agentmux hook stop` / `agentmux hook
//     notification`; Claude merges it over the person's settings.
//   - Codex: -c notify=["agentmux","hook","codex-notify"]; Codex appends its JSON
//     (agent-turn-complete, with last-assistant-message) as the last argument. It
//     replaces a notify program of the person's own config for this run.
//   - Gemini CLI 0.61: none. It reads no settings file from its command line, and the
//     one it reads from the environment (GEMINI_CLI_SYSTEM_DEFAULTS_PATH, or
//     GEMINI_CLI_SYSTEM_SETTINGS_PATH) it skips, with a "Security Warning: Skipping
//     system defaults file" in its window, unless the file and every folder above it
//     are owned by root and writable by neither group nor others (its
//     isFileAndDirectorySecureSync): never true of a file agentmux writes as the person
//     under $TMPDIR. Its other sources are the person's: ~/.gemini/settings.json,
//     ~/.gemini/extensions, the project's .gemini/settings.json. Even where the file is
//     read (root, a root-only folder) the AfterAgent hook's prompt_response is no answer
//     as written: Gemini joins the streamed chunks of a reply with spaces and appends
//     each model call of the prompt, so a Gemini pane ends its turns by its screen.
//
// `agentmux hook EVENT` reads the hook's JSON, finds the answer as the model wrote it,
// reports it to the session socket ($AGENTMUX_SOCKET) as X_HOOK and always exits 0 at
// once: no socket, no harm.

// hookSetup writes the hook settings of one run into dir (removed when it ends).
type hookSetup struct {
	bin string // this agentmux
	dir string
}

// newHookSetup makes the run's hook folder.
func newHookSetup() (*hookSetup, error) {
	bin, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("hooks: find agentmux itself: %w", err)
	}
	dir, err := os.MkdirTemp("", "agentmux-hooks-")
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	return &hookSetup{bin: bin, dir: dir}, nil
}

// Close removes the hook folder.
func (h *hookSetup) Close() error { return os.RemoveAll(h.dir) }

// command is the shell command a settings file runs for event.
func (h *hookSetup) command(event string) string {
	return shellQuote(h.bin) + " hook " + event
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// commandHooks is a settings file's hooks object: each event runs one command.
func commandHooks(events map[string]string) map[string]any {
	hooks := map[string]any{}
	for event, cmd := range events {
		h := map[string]any{"type": "command", "command": cmd}
		hooks[event] = []any{map[string]any{"hooks": []any{h}}}
	}
	return map[string]any{"hooks": hooks}
}

// spec adds pane id's hook settings to spec as its profile passes them (a
// session.HookFunc); false when it cannot (the pane then ends turns by its screen).
func (h *hookSetup) spec(id int, spec session.PaneSpec, prof parser.Profile) (session.PaneSpec, bool) {
	write := func(name string, v any) (string, bool) {
		b, _ := json.MarshalIndent(v, "", "  ")
		path := filepath.Join(h.dir, fmt.Sprintf("%d-%s", id, name))
		return path, os.WriteFile(path, b, 0o600) == nil
	}
	argv := slices.Clone(spec.Argv)
	switch prof.Hooks {
	case parser.HooksClaude:
		path, ok := write("claude-settings.json", commandHooks(map[string]string{
			"Stop": h.command("stop"), "Notification": h.command("notification"),
		}))
		if !ok {
			return spec, false
		}
		spec.Argv = slices.Insert(argv, 1, "--settings", path)
	case parser.HooksCodex:
		notify, _ := json.Marshal([]string{h.bin, "hook", "codex-notify"}) // a TOML array too
		spec.Argv = slices.Insert(argv, 1, "-c", "notify="+string(notify))
	case parser.HooksGemini:
		return spec, false // Gemini CLI 0.61 would skip the file, and warn (see above)
	default:
		return spec, false
	}
	return spec, true
}

// hookCommand is the hidden subcommand the programs' hooks run.
const hookCommand = "hook"

// hookTimeout bounds all a hook does: the programs wait for their hooks.
const hookTimeout = 2 * time.Second

// maxHookInput bounds the JSON read from a hook.
const maxHookInput = 16 << 20

// runHook is `agentmux hook EVENT [JSON]`: it reports the turn end and the answer to the
// session and returns 0 whatever happens; what went wrong goes to stderr (the programs
// show or log it).
func runHook(args []string, stdin io.Reader, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "agentmux hook: no event")
		return 0
	}
	event := args[0]
	var payload []byte
	if len(args) > 1 { // Codex: the JSON is the last argument
		payload = []byte(args[len(args)-1])
	} else if event != "codex-notify" {
		payload, _ = io.ReadAll(io.LimitReader(stdin, maxHookInput))
	}
	h, ok := hookReport(event, payload)
	if !ok {
		return 0
	}
	h.Pane = os.Getenv("AGENTMUX_PANE")
	sock := os.Getenv("AGENTMUX_SOCKET")
	if h.Pane == "" || sock == "" {
		return 0 // not in an agentmux pane: nothing to tell
	}
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	if err := sendHook(ctx, sock, h); err != nil {
		fmt.Fprintln(stderr, "agentmux hook:", err)
	}
	return 0
}

// sendHook sends X_HOOK and waits for its answer.
func sendHook(ctx context.Context, sock string, h proto.Hook) error {
	c, err := client.DialControl(sock)
	if err != nil {
		return err
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	_, err = c.Request(proto.TypeHook, h)
	return err
}

// hookReport reads a hook's payload: the report to send, false for nothing to report
// (a hook that is no turn end, Codex's title-generation turn).
func hookReport(event string, payload []byte) (proto.Hook, bool) {
	h := proto.Hook{Event: event}
	var p map[string]any
	_ = json.Unmarshal(payload, &p) // a payload that is no JSON object: a turn end without text
	str := func(k string) string { s, _ := p[k].(string); return s }
	switch event {
	case "stop": // Claude Code's Stop hook
		h.CLI = "claude"
		if h.Text = str("last_assistant_message"); h.Text == "" {
			h.Text = lastAssistantText(str("transcript_path"))
		}
	case "notification": // Claude Code: a permission prompt or idle notice, no turn end
		return h, false
	case "codex-notify":
		h.CLI = "codex"
		if str("type") != "agent-turn-complete" {
			return h, false
		}
		h.Text = str("last-assistant-message")
		if in, _ := p["input-messages"].([]any); len(in) == 0 || isTitle(h.Text) {
			return h, false // its own title-generation turn, not the person's
		}
	case "after-agent": // Gemini CLI's AfterAgent hook (agentmux gives it none: see above)
		h.CLI = "gemini"
		h.Text = str("prompt_response")
	default:
		return h, false
	}
	return h, true
}

// isTitle reports whether an answer is a title generator's JSON ({"title": …}).
func isTitle(s string) bool {
	var v map[string]any
	if json.Unmarshal([]byte(strings.TrimSpace(s)), &v) != nil {
		return false
	}
	_, ok := v["title"]
	return ok && len(v) == 1
}

// lastAssistantText returns the text of the last assistant message in a Claude Code
// transcript (JSON lines; one message's blocks may span several lines with the same
// message id), "" when there is none or the file cannot be read.
func lastAssistantText(path string) string {
	if path == "" {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type line struct {
		Type    string `json:"type"`
		Message struct {
			ID      string          `json:"id"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	var id string
	var parts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxHookInput)
	for sc.Scan() {
		var l line
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		if l.Type == "user" && !bytes.HasPrefix(bytes.TrimSpace(l.Message.Content), []byte("[")) {
			id, parts = "", nil // a new prompt: the answer is after it
			continue
		}
		if l.Type != "assistant" || l.Message.Role != "assistant" {
			continue
		}
		var blocks []block
		if json.Unmarshal(l.Message.Content, &blocks) != nil {
			continue
		}
		var text []string
		for _, b := range blocks {
			if b.Type == "text" && b.Text != "" {
				text = append(text, b.Text)
			}
		}
		if len(text) == 0 {
			continue
		}
		if l.Message.ID != id || id == "" {
			id, parts = l.Message.ID, nil
		}
		parts = append(parts, text...)
	}
	return strings.Join(parts, "\n\n")
}
