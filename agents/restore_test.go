//go:build agents

package agents

// agentmux restore with the real CLIs, offline against the fake model: two turns in a
// session, then its server and every agent SIGKILLed (as a reboot would), then
// `agentmux restore`; the next message must reach the model with the earlier turns in its
// request (the CLI resumed its own conversation, the id agentmux learned from its hook),
// not as the first message of a fresh one. A message queued for the pane (held) before
// the kill is typed once after it: the conversation holds it once.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
	"github.com/agentmux/agentmux/internal/oswait"
)

func TestRestoreResumesTheConversation(t *testing.T) {
	bin := buildAgentmux(t)
	for _, name := range restoreCLIs {
		t.Run(name, func(t *testing.T) {
			if !installed(t, name) {
				t.Skipf("%s not installed", name)
			}
			restoreResumes(t, bin, cliNamed(t, name))
		})
	}
}

// restoreCLIs are the CLIs whose conversation agentmux resumes.
var restoreCLIs = []string{"claude", "codex", "gemini", "qwen", "pi", "opencode"}

func restoreResumes(t *testing.T, bin string, c cli) {
	// Answers quote one word of the prompt: the queued message's words are then in a
	// request once for each time it was typed.
	srv, url := startMock(t, c.name, mockmodel.Numbered("ans", 1), answerTime)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	state, runtime := t.TempDir(), t.TempDir()
	env := append(append(baseEnv(t, home), c.setup(t, home, project, url)...), "XDG_STATE_HOME="+state, "XDG_RUNTIME_DIR="+runtime)
	name := "restore-" + c.name
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("agentmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	t.Cleanup(func() {
		cmd := exec.Command(bin, "kill-session", name)
		cmd.Env = env
		_ = cmd.Run()
	})
	logPath := filepath.Join(state, "agentmux", "agentmux.log")
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(logPath)
			t.Logf("agentmux.log:\n%s", log)
		}
	})
	kept := func() int {
		b, _ := os.ReadFile(logPath)
		return strings.Count(string(b), `msg="hook: conversation kept" pane=1 `)
	}

	// opencode is slow to start and to send its first request on a loaded machine (2.3 min
	// to its first screen, 90 s to its first request, measured under a load of 28).
	ready, turn := 2*time.Minute, 2*time.Minute
	if c.name == "opencode" {
		ready, turn = 6*time.Minute, 4*time.Minute
	}
	tm := startTerm(t, "agentmux", []string{bin, "--session", name, "--log-level", "debug", c.command()}, project, env, 120, 40)
	tm.waitPaneReadyWithin(c, ready)
	// The turns are typed at the keyboard, but Gemini CLI's first: it takes an Enter
	// typed in its first seconds as part of a paste, so that one goes in as the
	// person's message (agentmux send), which the relay types once the CLI is ready.
	if c.name == "gemini" {
		run("send", "--session", name, "1", "first zebra")
	} else {
		tm.submit("first zebra")
	}
	waitTurn(t, tm, srv, c.name, 1, turn)
	tm.waitText(60*time.Second, "ans-1 to:")
	tm.submit("second walrus")
	waitTurn(t, tm, srv, c.name, 2, turn)
	tm.waitText(60*time.Second, "ans-2 to: second")
	// A turn's hook (or pi's extension) carries the conversation id: the hub logs it
	// kept (at debug level), after the CLI wrote the turn (Qwen Code's record of the
	// second answer is written by then). Codex may skip a notify: one is enough there.
	want := 2
	if c.name == "codex" {
		want = 1
	}
	// The log is watched, not the screen: an idle CLI's screen may not change again.
	if err := oswait.Until(60*time.Second, func() bool { return kept() >= want }, filepath.Dir(logPath)); err != nil {
		t.Fatalf("the conversation id kept %d times, want %d: %v\n%s", kept(), want, err, tm.dump())
	}
	if c.name == "claude" {
		// Claude Code 2.1.332 writes a turn into its record once its Stop hook has
		// returned, after the hook told the hub: the kill would race that write.
		dirs, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*"))
		if err := oswait.Until(10*time.Second, func() bool { return recordHas(c.name, home, "ans-2 to:") }, dirs...); err != nil {
			t.Logf("claude's record lacks its second answer 10 s after its hook: %v", err)
		}
	}
	// A message queued for the pane and not yet typed (the pane held) when the server dies.
	run("hold", "--session", name, "1")
	run("send", "--session", name, "1", "queued otter")

	pid := sessionPid(t, bin, env, name)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The kill is sent, not done: until the server is gone its socket still answers,
	// and restore would find the session running.
	if !oswait.Exited(pid, 10*time.Second) {
		t.Fatalf("the session server (pid %d) lived on 10 s after SIGKILL", pid)
	}
	killStragglers(t, project) // the agents too, as a reboot would
	// What the restored conversation must hold: the turns before the kill. Qwen Code
	// writes an answer into its record lazily (the first one 13 s after its Stop hook
	// here, the second not before the kill), Claude Code after its Stop hook: what a CLI
	// had not written, no restore can resume, so its record says which answers count.
	earlier := []string{"first zebra", "second walrus", "ans-1", "ans-2"}
	if c.name == "qwen" || c.name == "claude" {
		t.Logf("%s's record at the kill, the lines holding ans-2:\n%s", c.name, recordLines(c.name, home, "ans-2 to:"))
	}
	if (c.name == "qwen" || c.name == "claude") && !recordHas(c.name, home, "ans-2 to:") {
		t.Logf("%s had not written its second answer into its record when it was killed", c.name)
		earlier = earlier[:3]
	}

	start := time.Now()
	tm2 := startTerm(t, "restore", []string{bin, "restore", name}, project, env, 120, 40)
	resumed := c
	if c.resumedReady != nil {
		resumed.paneReady = c.resumedReady
	}
	tm2.waitPaneReadyWithin(resumed, ready)
	t.Logf("%s: restore to the pane ready in %v", c.name, time.Since(start).Round(time.Millisecond))
	// The hold came back with the session; released, the queued message is typed.
	run("release", "--session", name, "1")
	r := waitTurn(t, tm2, srv, c.name, 3, turn)
	if !strings.Contains(r.Prompt, "queued otter") {
		t.Errorf("the model's third turn was %q, want the queued message", r.Prompt)
	}
	tm2.waitText(60*time.Second, "ans-3 to:")
	tm2.submit("fourth yak")
	r = waitTurn(t, tm2, srv, c.name, 4, turn)
	if r.Prompt != "fourth yak" {
		t.Errorf("the model's fourth turn was %q", r.Prompt)
	}
	for _, earlier := range append(earlier, "ans-3") {
		if !strings.Contains(r.Body, earlier) {
			t.Errorf("the request after the restore lacks %q: the conversation was not resumed (%d bytes)\n%s", earlier, len(r.Body), tm2.dump())
			if c.name == "qwen" || c.name == "claude" {
				t.Logf("%s's record, the lines holding %q:\n%s", c.name, earlier, recordLines(c.name, home, earlier))
			}
		}
	}
	if n := strings.Count(r.Body, "queued otter"); n != 1 {
		t.Errorf("the conversation holds the queued message %d times, want once", n)
	}
	typed := 0
	for _, q := range srv.Requests() {
		if q.Kind == mockmodel.KindTurn && strings.Contains(q.Prompt, "queued otter") {
			typed++
		}
	}
	if typed != 1 {
		t.Errorf("the queued message reached the model %d times, want once", typed)
	}
	b, _ := os.ReadFile(logPath)
	if !strings.Contains(string(b), "restore: pane resumes its conversation") {
		t.Errorf("agentmux.log does not say the pane resumed its conversation")
	}
}

// recordHas reports whether a conversation record of cli (see recordEntries) under
// home holds text in an answer's entry (type assistant), whole.
func recordHas(cli, home, text string) bool {
	for _, l := range recordEntries(cli, home, text) {
		// The answer's own entry; a system entry (a hook's, telemetry) may quote it
		// before the answer is written.
		if strings.Contains(l, `"type":"assistant"`) {
			return true
		}
	}
	return false
}

// recordEntries are the whole lines (JSON, ended by a newline) of the conversation
// records of cli (qwen: Qwen Code's, claude: Claude Code's) under home that hold text,
// each after its file's name: a line the kill cut short is not in the record.
func recordEntries(cli, home, text string) []string {
	pattern := filepath.Join(home, ".qwen", "projects", "*", "chats", "*.jsonl")
	if cli == "claude" {
		pattern = filepath.Join(home, ".claude", "projects", "*", "*.jsonl")
	}
	files, _ := filepath.Glob(pattern)
	var out []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.Split(string(b), "\n")
		for _, l := range lines[:len(lines)-1] { // the last is unended, or empty
			if strings.Contains(l, text) && json.Valid([]byte(l)) {
				out = append(out, filepath.Base(f)+": "+l)
			}
		}
	}
	return out
}

// recordLines is recordEntries for a log: one a line, each cut to 300 bytes.
func recordLines(cli, home, text string) string {
	es := recordEntries(cli, home, text)
	for i, e := range es {
		es[i] = e[:min(len(e), 300)]
	}
	return strings.Join(es, "\n")
}

// sessionPid is the server pid of session name, as agentmux sessions --json says it.
func sessionPid(t *testing.T, bin string, env []string, name string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "sessions", "--json")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("agentmux sessions: %v", err)
	}
	var list []struct {
		Name string
		Pid  int
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatal(err)
	}
	for _, l := range list {
		if l.Name == name && l.Pid > 0 {
			return l.Pid
		}
	}
	t.Fatalf("no server of session %s in %s", name, out)
	return 0
}
