package demo

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// The simulated agent takes hook settings the way the CLIs it imitates do, so tests see
// agentmux's hooks work end to end: --settings FILE as Claude Code (its Stop hooks run
// after each answer is drawn, with {"hook_event_name":"Stop","last_assistant_message":…}
// on stdin) and -c notify=[…] as Codex (the program runs with
// {"type":"agent-turn-complete","input-messages":[…],"last-assistant-message":…} as its
// last argument). Hooks run in the background; their failures are ignored, as the CLIs
// do.

// hooks is what to run after each answer.
type hooks struct {
	stop   []string // shell commands (Claude's Stop hooks)
	notify []string // an argument vector (Codex's notify)
	// conversation is the conversation's id: session_id in a Stop hook's payload,
	// thread-id in notify's.
	conversation string
	// usage names a file to which each answer's usage is appended as Claude Code writes
	// its transcript (--usage); a Stop hook's payload names it as transcript_path.
	usage string
	n     int // answers whose usage was written, for request ids
}

// What the simulated agent reports each answer used, with --usage: known numbers a test
// can sum.
const (
	UsageModel  = "claude-sonnet-4-5"
	UsageInput  = 800
	UsageOutput = 200
)

// writeUsage appends one answer's usage to the --usage file, as a Claude Code transcript
// entry, before the answer's hooks run (Claude Code writes it before its Stop hook).
func (h *hooks) writeUsage() {
	if h.usage == "" {
		return
	}
	h.n++
	line, _ := json.Marshal(map[string]any{
		"type": "assistant", "timestamp": time.Now().UTC().Format(time.RFC3339Nano), "sessionId": h.conversation,
		"requestId": fmt.Sprintf("req_%s_%d_%d", h.conversation, os.Getpid(), h.n),
		"message": map[string]any{"id": fmt.Sprintf("msg_%d_%d", os.Getpid(), h.n), "role": "assistant", "model": UsageModel,
			"usage": map[string]int{"input_tokens": UsageInput, "output_tokens": UsageOutput}},
	})
	_ = appendLine(h.usage, string(line))
}

// loadSettings reads a Claude Code settings file's Stop hooks.
func (h *hooks) loadSettings(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("settings %s: %w", path, err)
	}
	for _, m := range s.Hooks["Stop"] {
		for _, c := range m.Hooks {
			if c.Type == "command" {
				h.stop = append(h.stop, c.Command)
			}
		}
	}
	return nil
}

// setConfig takes a Codex -c KEY=VALUE; only notify (a JSON/TOML array of strings).
func (h *hooks) setConfig(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || k != "notify" {
		return nil // other keys mean nothing to the simulation
	}
	return json.Unmarshal([]byte(v), &h.notify)
}

// answered runs the hooks for an answer to asked.
func (h *hooks) answered(asked, answer string) {
	h.writeUsage()
	if len(h.stop) > 0 {
		p := map[string]any{"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": answer, "session_id": h.conversation}
		if h.usage != "" {
			p["transcript_path"] = h.usage
		}
		payload, _ := json.Marshal(p)
		for _, c := range h.stop {
			cmd := exec.Command("sh", "-c", c)
			cmd.Stdin = strings.NewReader(string(payload))
			background(cmd)
		}
	}
	if len(h.notify) > 0 {
		payload, _ := json.Marshal(map[string]any{"type": "agent-turn-complete", "thread-id": h.conversation, "turn-id": "1", "input-messages": []string{asked}, "last-assistant-message": answer})
		background(exec.Command(h.notify[0], append(h.notify[1:], string(payload))...))
	}
}

// background starts cmd and reaps it when it ends.
func background(cmd *exec.Cmd) {
	if cmd.Start() == nil {
		go cmd.Wait() //nolint:errcheck // a hook's failure is the hook's business
	}
}
