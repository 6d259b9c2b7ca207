package hooks

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

// Hooks: for claude, codex, gemini, qwen and opencode agentmux adds per-session hook settings
// when it starts them, never editing the person's own config files:
//
//   - Claude Code: --settings FILE (a file agentmux owns) with a Stop hook and a
//     Notification hook, each running `agentmux hook stop` / `agentmux hook
//     notification`; Claude merges it over the person's settings.
//   - Codex: -c notify=["agentmux","hook","codex-notify"]; Codex appends its JSON
//     (agent-turn-complete, with last-assistant-message) as the last argument. It
//     replaces a notify program of the person's own config for this run.
//   - Gemini CLI: a home of its own (GEMINI_CLI_HOME) reaching the person's ~/.gemini
//     through links, with an extension whose AfterAgent hook runs `agentmux hook
//     after-agent` (geminihome.go). The answer is read from the chat file the hook
//     points to (transcript_path): the hook's own prompt_response is the streamed
//     chunks joined with spaces, each model call of the turn appended. Its
//     Notification hook (`agentmux hook gemini-notification`, notification_type
//     ToolPermission) runs before it draws a tool's approval prompt, and it waits
//     for the hook: the pane needs the person from then on.
//   - Qwen Code: a settings file of agentmux's as its system defaults layer
//     (QWEN_CODE_SYSTEM_DEFAULTS_PATH) with a Stop hook running `agentmux hook
//     qwen-stop`, its last_assistant_message the answer, and a Notification hook
//     (`agentmux hook qwen-notification`, permission_prompt, run once its approval
//     prompt is up, not waited for) (qwen.go).
//   - opencode: a plugin of agentmux's named by OPENCODE_CONFIG_CONTENT, which on
//     session.idle runs `agentmux hook opencode-idle` with the turn's answer
//     (opencode.go).
//   - pi: -e FILE, an extension of agentmux's whose agent_end handler runs `agentmux
//     hook conversation` with the pi session's id (pi.go). It reports no turn end:
//     pi's turns end by its screen.
//
// `agentmux hook EVENT` reads the hook's JSON, finds the answer as the model wrote it,
// reports it to the session socket ($AGENTMUX_SOCKET) as X_HOOK and always exits 0 at
// once: no socket, no harm.

// Setup writes the hook settings of one run into dir (removed when it ends).
type Setup struct {
	bin string // this agentmux
	dir string
	log *slog.Logger

	// noHooks: the programs get no hooks; mcp: they get agentmux's MCP server (mcp.go).
	noHooks, mcp bool

	mu     sync.Mutex
	gemini []*geminiHome // the Gemini panes' homes
}

// Options say what a run gives the programs besides nothing: NoHooks leaves their
// hooks out (--no-hooks), MCP adds agentmux's MCP server (--mcp).
type Options struct {
	NoHooks bool
	MCP     bool
}

// New makes the run's hook folder in root (a private folder of agentmux's state, made
// 0700 when missing), first finishing the folders of runs that were killed.
func New(root string, log *slog.Logger) (*Setup, error) {
	return NewWith(root, log, Options{})
}

// NewWith is New with options.
func NewWith(root string, log *slog.Logger, o Options) (*Setup, error) {
	bin, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("hooks: find agentmux itself: %w", err)
	}
	root, err = hookRoot(root, log)
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	recoverHookDirs(root, log)
	dir, err := os.MkdirTemp(root, hookDirPattern)
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, hookOwnerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("hooks: %w", err)
	}
	return &Setup{bin: bin, dir: dir, log: log, noHooks: o.NoHooks, mcp: o.MCP}, nil
}

// Close gives the Gemini panes' writes back to the person's home (geminiHome.Close) and
// removes the hook folder.
func (h *Setup) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for _, g := range h.gemini {
		errs = append(errs, g.Close())
	}
	return errors.Join(append(errs, os.RemoveAll(h.dir))...)
}

// command is the shell command a settings file runs for event.
func (h *Setup) command(event string) string {
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

// namedHooks is a settings file's hooks object for Gemini CLI and Qwen Code: each
// event runs one command, named "agentmux" (Gemini shows "Executing Hook: agentmux"
// while it runs, not the command).
func namedHooks(events map[string]string) map[string]any {
	hooks := map[string]any{}
	for event, cmd := range events {
		h := map[string]any{"type": "command", "name": "agentmux", "command": cmd}
		hooks[event] = []any{map[string]any{"hooks": []any{h}}}
	}
	return map[string]any{"hooks": hooks}
}

// off logs why pane id runs without hooks.
func (h *Setup) off(id int, err error) {
	if h.log != nil {
		h.log.Warn("hooks off for a pane", "pane", id, "err", err)
	}
}

// Spec adds pane id's hook settings (and with MCP, agentmux's MCP server) to spec as
// its profile passes them (a session.HookFunc); false when its hooks are not on (the
// pane then ends turns by its screen).
func (h *Setup) Spec(id int, spec session.PaneSpec, prof parser.Profile) (session.PaneSpec, bool) {
	write := func(name string, v any) (string, bool) {
		b, _ := json.MarshalIndent(v, "", "  ")
		path := filepath.Join(h.dir, fmt.Sprintf("%d-%s", id, name))
		return path, os.WriteFile(path, b, 0o600) == nil
	}
	argv := slices.Clone(spec.Argv)
	on := false
	switch prof.Hooks {
	case parser.HooksClaude:
		if !h.noHooks {
			path, ok := write("claude-settings.json", commandHooks(map[string]string{
				"Stop": h.command("stop"), "Notification": h.command("notification"),
			}))
			if ok {
				argv, on = slices.Insert(argv, 1, "--settings", path), true
			}
		}
		if h.mcp {
			argv = claudeMCP(argv, h.mcpServer())
		}
	case parser.HooksCodex:
		if !h.noHooks {
			notify, _ := json.Marshal([]string{h.bin, "hook", "codex-notify"}) // a TOML array too
			argv, on = slices.Insert(argv, 1, "-c", "notify="+string(notify)), true
		}
		if h.mcp {
			argv = slices.Insert(argv, 1, codexMCP(h.bin)...)
		}
	case parser.HooksQwen:
		var events map[string]string
		if !h.noHooks {
			events = map[string]string{"Stop": h.command("qwen-stop"), "Notification": h.command("qwen-notification")}
		}
		env, err := qwenSpec(h.dir, id, spec.Env, events, h.mcpServerIf())
		if err != nil {
			h.off(id, err)
			return spec, false
		}
		spec.Env, on = env, !h.noHooks
	case parser.HooksOpencode:
		if h.noHooks {
			return spec, false
		}
		env, err := opencodeSpec(h.dir, h.bin, id, spec.Env)
		if err != nil {
			h.off(id, err)
			return spec, false
		}
		spec.Env, on = env, true
	case parser.HooksPi:
		if !h.noHooks {
			if path, err := h.piExtension(id); err != nil {
				h.off(id, err)
			} else {
				argv = slices.Insert(argv, 1, "-e", path)
			}
		}
	case parser.HooksGemini:
		var events map[string]string
		if !h.noHooks {
			events = map[string]string{"AfterAgent": h.command("after-agent"), "Notification": h.command("gemini-notification")}
		}
		g, err := newGeminiHome(h.dir, id, spec.Env, events, h.mcpServerIf())
		if err != nil {
			h.off(id, err)
			return spec, false
		}
		h.mu.Lock()
		h.gemini = append(h.gemini, g)
		h.mu.Unlock()
		spec.Env, on = g.env(spec.Env), !h.noHooks
	default:
		return spec, false
	}
	spec.Argv = argv
	return spec, on
}

// Command is the hidden subcommand the programs' hooks run.
const Command = "hook"

// hookTimeout bounds all a hook does: the programs wait for their hooks.
const hookTimeout = 2 * time.Second

// maxHookInput bounds the JSON read from a hook.
const maxHookInput = 16 << 20

// Run is `agentmux hook EVENT [JSON]`: it reports the turn end and the answer to the
// session and returns 0 whatever happens; what went wrong goes to stderr (the programs
// show or log it).
func Run(args []string, stdin io.Reader, stderr io.Writer) int {
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
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(hookTimeout)
	}
	// The pane's proof: only it may end the pane's turn.
	hello := proto.Hello{Agent: "agentmux", Role: proto.RoleControl, Proof: client.HereProof(sock)}
	c, err := client.DialTimeout(sock, hello, time.Until(dl))
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(dl)
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
	h.Conversation = str("session_id") // Claude Code, Gemini CLI, Qwen Code
	switch event {
	case "stop": // Claude Code's Stop hook
		h.CLI = "claude"
		if h.Text = str("last_assistant_message"); h.Text == "" {
			h.Text = lastAssistantText(str("transcript_path"))
		}
		h.Usage = str("transcript_path")
	case "notification", "gemini-notification", "qwen-notification":
		// A notification hook: reported when the program waits for the person's
		// permission (Claude Code and Qwen Code: permission_prompt; Gemini CLI:
		// ToolPermission), with its words; an idle notice is no news.
		h.CLI = map[string]string{"notification": "claude", "gemini-notification": "gemini", "qwen-notification": "qwen"}[event]
		if !asksPermission(str("notification_type")) {
			return h, false
		}
		h.Event, h.Text = proto.HookAsk, str("message")
	case "codex-notify":
		h.CLI = "codex"
		h.Conversation = str("thread-id")
		if str("type") != "agent-turn-complete" {
			return h, false
		}
		h.Text = str("last-assistant-message")
		if in, _ := p["input-messages"].([]any); len(in) == 0 || isTitle(h.Text) {
			return h, false // its own title-generation turn, not the person's
		}
		h.Usage = codexRollout(str("turn-id"), time.Now())
	case "qwen-stop": // Qwen Code's Stop hook: its answer as the model wrote it
		h.CLI = "qwen"
		if h.Text = str("last_assistant_message"); h.Text == qwenNoAnswer {
			h.Text = ""
		}
		h.Usage = str("transcript_path")
	case opencodeIdle: // opencode's session.idle, from agentmux's plugin (opencode.go)
		h.CLI = "opencode"
		h.Text = str("last_assistant_message")
	case proto.HookConversation: // pi's extension (pi.go): the conversation id and its file
		h.CLI = str("cli")
		if !conversationOnly[h.CLI] || h.Conversation == "" {
			return h, false
		}
		h.Usage = str("transcript_path")
	case "after-agent": // Gemini CLI's AfterAgent hook
		h.CLI = "gemini"
		h.Text = lastGeminiText(str("transcript_path"))
		h.Usage = str("transcript_path")
	default:
		return h, false
	}
	return h, true
}

// asksPermission reports whether a notification hook's type says the program waits
// for the person's permission.
func asksPermission(kind string) bool {
	switch kind {
	case "permission_prompt", "ToolPermission", "elicitation_dialog":
		return true
	}
	return false
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

// geminiMessage is one message of a Gemini CLI chat file.
type geminiMessage struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Content json.RawMessage `json:"content"`
}

// lastGeminiText returns the answer of the last turn in a Gemini CLI chat file: the text
// of its messages of type "gemini" after the last of type "user", joined by blank lines;
// "" when there is none or the file cannot be read. The file is JSON lines, read as
// Gemini reads it back: a message (id and type) adds itself, or replaces the one with
// its id in place; {"$set":{"messages":[…]}} replaces them all; {"$rewindTo":id} drops
// that message and all after it. A file ending in .json (older versions) is one object
// holding "messages".
func lastGeminiText(path string) string {
	if path == "" {
		return ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var msgs []geminiMessage
	at := map[string]int{}
	add := func(m geminiMessage) {
		if m.ID == "" || m.Type == "" {
			return
		}
		if i, ok := at[m.ID]; ok {
			msgs[i] = m
			return
		}
		at[m.ID] = len(msgs)
		msgs = append(msgs, m)
	}
	reset := func(ms []geminiMessage) {
		msgs, at = nil, map[string]int{}
		for _, m := range ms {
			add(m)
		}
	}
	if strings.HasSuffix(path, ".json") {
		var whole struct {
			Messages []geminiMessage `json:"messages"`
		}
		if json.Unmarshal(b, &whole) == nil {
			reset(whole.Messages)
		}
		return geminiAnswer(msgs)
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		var record struct {
			geminiMessage
			Set *struct {
				Messages []geminiMessage `json:"messages"`
			} `json:"$set"`
			RewindTo *string `json:"$rewindTo"`
		}
		if json.Unmarshal(l, &record) != nil {
			continue
		}
		switch {
		case record.RewindTo != nil:
			reset(msgs[:at[*record.RewindTo]]) // an unknown id: all of them (Gemini's way)
		case record.Set != nil && record.Set.Messages != nil:
			reset(record.Set.Messages)
		default:
			add(record.geminiMessage)
		}
	}
	return geminiAnswer(msgs)
}

// geminiAnswer is the text of the messages of type "gemini" after the last of type
// "user", joined by blank lines.
func geminiAnswer(msgs []geminiMessage) string {
	var parts []string
	for _, m := range msgs {
		switch m.Type {
		case "user":
			parts = nil
		case "gemini":
			if t := geminiContent(m.Content); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// geminiContent is a chat message's text: a string, or the text of its parts.
func geminiContent(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text    string `json:"text"`
		Thought bool   `json:"thought"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var text []string
	for _, p := range parts {
		if p.Text != "" && !p.Thought {
			text = append(text, p.Text)
		}
	}
	return strings.Join(text, "")
}
