//go:build agents

package agents

// Needs you, notified and answered, end to end with the real CLIs in agentmux: the mock
// model answers a prompt holding the trigger word with a shell tool call, so the CLI
// stops at its approval prompt. agentmux runs with --notify-command (a script that
// stamps the time it ran and keeps the note's JSON line) and --notify-webhook (a local
// HTTP receiver). For each round the test checks: `agentmux ls --json` shows the pane
// `needs you` with the question and options; the command got exactly one JSON line and
// the webhook one POST; `agentmux answer 1 yes` (the person, from a shell) runs the tool
// (its file appears), its result reaches the model, and the pane leaves `needs you`.
// It logs, per CLI, the latency from the session seeing the prompt (asks.since) to the
// notifier command running, and to the webhook's POST arriving.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

// notifyRounds is how many prompts each CLI is stopped at.
const notifyRounds = 3

func TestNotifyAndAnswer(t *testing.T) {
	bin := buildAgentmux(t)
	for _, name := range []string{"claude", "codex", "gemini", "qwen"} {
		t.Run(name, func(t *testing.T) { notifyAndAnswer(t, bin, cliNamed(t, name), false) })
	}
}

// TestAnswerAtOnce is TestNotifyAndAnswer with the answer sent the moment the session's
// member event says the pane needs you, as a script or an agent would send it: Claude
// Code 2.1.332 drops a key typed within 100-200 ms of drawing its prompt, and the
// session holds such an answer until the prompt has stood 300 ms (session.askSettle).
func TestAnswerAtOnce(t *testing.T) {
	bin := buildAgentmux(t)
	for _, name := range []string{"claude", "codex", "gemini"} {
		t.Run(name, func(t *testing.T) { notifyAndAnswer(t, bin, cliNamed(t, name), true) })
	}
}

// asksJSON is a member of `agentmux ls --json` with what it asks.
type asksJSON struct {
	Name, State string
	Asks        *struct {
		Question string
		Options  []struct{ Key, Label string }
		Since    int64
	}
}

// askingTool is the tool call that makes c ask for approval: approvalTool, but for Qwen
// Code 0.24.4, which ran the same command again unasked in the session after "Yes,
// allow once", a command of its own each round.
func askingTool(c cli) *mockmodel.Tool {
	if c.name != "qwen" {
		return approvalTool
	}
	n := 0
	return &mockmodel.Tool{Trigger: approvalTool.Trigger, Name: "run_shell_command", ArgsFrom: func([]byte) map[string]any {
		n++
		return map[string]any{"command": fmt.Sprintf("%s && echo round %d", approvalTool.Command, n), "description": "Run the command the test asked for"}
	}}
}

// notifyAndAnswer runs notifyRounds prompts of c; atOnce answers each at the member
// event that says the pane needs you, before anything else is checked.
func notifyAndAnswer(t *testing.T, bin string, c cli, atOnce bool) {
	tool := askingTool(c)
	srv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Fixed("TOOL-DONE the command ran"), Duration: time.Second, Tool: tool})
	url := serveMock(t, c.name, srv)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	_ = os.Remove(filepath.Join(project, probeFile))
	env := baseEnv(t, home)
	switch c.name {
	case "codex":
		env = append(env, setupCodexWith(t, home, project, url, "approval_policy = \"on-request\"\n")...)
	case "qwen":
		env = append(env, setupQwenAsking(t, home, project, url)...)
	case "claude":
		env = append(env, setupClaudeAsking(t, home, project, url)...)
	default:
		env = append(env, c.setup(t, home, project, url)...)
	}
	state := t.TempDir()
	env = append(env, "XDG_STATE_HOME="+state, "XDG_RUNTIME_DIR="+t.TempDir())

	// The notifier command: the time it ran (ns), then the note's JSON line, written
	// into a FIFO the test reads.
	fifo := filepath.Join(t.TempDir(), "notes")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	notes := make(chan string, 100)
	go readFIFO(fifo, notes)
	script := filepath.Join(t.TempDir(), "notify.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nd=$(date +%s%N)\nIFS= read -r l\nprintf '%s %s\\n' \"$d\" \"$l\" > "+fifo+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	posts := make(chan time.Time, 100)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		posts <- time.Now()
	}))
	defer hook.Close()

	tm := startTerm(t, "agentmux", []string{bin, "--log-level", "debug", "--notify-command", script, "--notify-webhook", hook.URL, c.command()}, project, env, 140, 45)
	defer func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
			t.Logf("agentmux.log:\n%s", log)
		}
	}()
	tm.waitPaneReady(c)
	events := agentmuxEvents(t, bin, project, env)
	ls := func() asksJSON {
		cmd := exec.Command(bin, "ls", "--json")
		cmd.Dir, cmd.Env = project, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("agentmux ls --json: %v\n%s", err, out)
		}
		var ms []asksJSON
		if err := json.Unmarshal(out, &ms); err != nil || len(ms) == 0 {
			t.Fatalf("agentmux ls --json: %v\n%s", err, out)
		}
		return ms[0]
	}
	var cmdLat, hookLat []time.Duration
	for round := 1; round <= notifyRounds; round++ {
		_ = os.Remove(filepath.Join(project, probeFile))
		asked := time.Now().UnixMilli()
		tm.submit(fmt.Sprintf("please run-tool now, round %d", round))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if _, err := srv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn && r.N == 2*round-1 }); err != nil {
			tm.typeText("\r") // Gemini CLI may have taken the first Enter as a newline (as in approval_test.go)
		}
		cancel()
		waitTurn(t, tm, srv, c.name+" (the tool call)", 2*round-1, 90*time.Second)
		if !atOnce {
			tm.waitFor("the pane to say needs you", 60*time.Second, func(s []string, _ string) bool {
				return strings.Contains(borderRow(s, "1", c.name), "needs you")
			})
		}
		seen := time.Now()
		// The session's member event says it, with what is asked (this round's prompt:
		// a program's hook may say it needs you before its prompt's choices are drawn).
		ev := waitEvent(t, events, 30*time.Second, func(ev eventJSON) bool {
			return ev.Kind == "member" && ev.Member == c.name && ev.State == "needs you" && ev.Asks != nil && len(ev.Asks.Options) > 0 &&
				ev.Asks.Since >= asked
		})
		answer := func(question string) {
			ans := exec.Command(bin, "answer", "--question", question, "1", "yes")
			ans.Dir, ans.Env = project, env
			start := time.Now()
			if out, err := ans.CombinedOutput(); err != nil {
				t.Fatalf("round %d: agentmux answer: %v\n%s", round, err, out)
			} else {
				t.Logf("round %d: %s (%d ms after since, taking %d ms)", round, strings.TrimSpace(string(out)),
					start.UnixMilli()-ev.Asks.Since, time.Since(start).Milliseconds())
			}
		}
		m := asksJSON{Name: ev.Member, State: ev.State, Asks: ev.Asks}
		if atOnce {
			answer(ev.Asks.Question)
		} else {
			m = ls()
			if m.State != "needs you" || m.Asks == nil || len(m.Asks.Options) == 0 {
				t.Fatalf("round %d: ls --json: %+v, want needs you with options\n%s", round, m, tm.dump())
			}
		}
		t.Logf("round %d: asks %q %v (seen on the border %d ms after since)", round, m.Asks.Question, m.Asks.Options,
			seen.UnixMilli()-m.Asks.Since)

		// One note each: the command's line and the webhook's POST.
		var line string
		select {
		case line = <-notes:
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: the notifier command did not run", round)
		}
		stamp, note, _ := strings.Cut(line, " ")
		ns, _ := strconv.ParseInt(stamp, 10, 64)
		var got struct {
			Event string
			Pane  int
			Asks  *struct{ Question string }
		}
		if err := json.Unmarshal([]byte(note), &got); err != nil || got.Event != "needs-you" || got.Asks == nil {
			t.Fatalf("round %d: the command got %q (%v)", round, note, err)
		}
		cmdLat = append(cmdLat, time.Unix(0, ns).Sub(time.UnixMilli(m.Asks.Since)))
		select {
		case at := <-posts:
			hookLat = append(hookLat, at.Sub(time.UnixMilli(m.Asks.Since)))
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: the webhook got no POST", round)
		}

		if !atOnce { // the person answers from a shell
			answer(m.Asks.Question)
		}
		waitTurn(t, tm, srv, c.name+" (the tool's result)", 2*round, 60*time.Second)
		tm.waitFor("the pane to leave needs you", 30*time.Second, func(s []string, _ string) bool {
			return !strings.Contains(borderRow(s, "1", c.name), "needs you")
		})
		tm.waitText(60*time.Second, "TOOL-DONE")
		if _, err := os.Stat(filepath.Join(project, probeFile)); err != nil {
			t.Errorf("round %d: the approved command did not run: %v", round, err)
		}
	}
	select { // one note per prompt: none more came
	case line := <-notes:
		t.Errorf("a note more than one per prompt: %q", line)
	case at := <-posts:
		t.Errorf("a POST more than one per prompt, at %s", at)
	default:
	}
	t.Logf("%s: prompt seen (since) → command ran: %s; → webhook POST arrived: %s", c.name, stats(cmdLat), stats(hookLat))
}

// setupQwenAsking is setupQwen with the person's approval mode "default" (Ask
// Permissions): Qwen Code 0.24's own default, "auto", lets an LLM classifier (here the
// mock model) approve the shell call, and it runs without asking.
func setupQwenAsking(t *testing.T, home, project, url string) []string {
	env := setupQwen(t, home, project, url)
	path := filepath.Join(home, ".qwen", "settings.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(b, &settings); err != nil {
		t.Fatal(err)
	}
	settings["tools"] = map[string]any{"approvalMode": "default"}
	writeFile(t, path, settings)
	return env
}

// readFIFO sends each line written into the FIFO at path, each writer in turn.
func readFIFO(path string, lines chan<- string) {
	for {
		f, err := os.Open(path) // blocks until a writer opens it
		if err != nil {
			return
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		f.Close()
	}
}

// eventJSON is a line of `agentmux events`.
type eventJSON struct {
	Kind, Member, State string
	Asks                *struct {
		Question string
		Options  []struct{ Key, Label string }
		Since    int64
	}
}

// agentmuxEvents streams the session's events.
func agentmuxEvents(t *testing.T, bin, dir string, env []string) <-chan eventJSON {
	ev := exec.Command(bin, "events")
	ev.Dir, ev.Env = dir, env
	out, err := ev.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Start(); err != nil {
		t.Fatalf("agentmux events: %v", err)
	}
	t.Cleanup(func() { _ = ev.Process.Kill(); _ = ev.Wait() })
	ch := make(chan eventJSON, 1000)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e eventJSON
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				ch <- e
			}
		}
	}()
	return ch
}

// waitEvent waits for an event that matches.
func waitEvent(t *testing.T, ch <-chan eventJSON, timeout time.Duration, match func(eventJSON) bool) eventJSON {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatal("agentmux events ended")
			}
			if match(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no matching event in %s", timeout)
		}
	}
}

// stats is the samples, their median and largest.
func stats(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no samples"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	var parts []string
	for _, d := range ds {
		parts = append(parts, d.Round(time.Millisecond).String())
	}
	return fmt.Sprintf("median %s, max %s (%s)", s[len(s)/2].Round(time.Millisecond), s[len(s)-1].Round(time.Millisecond), strings.Join(parts, " "))
}
