//go:build agents

package agents

// A delivery into an agent CLI that is stalled (its event loop busy: loading a resumed
// conversation, starting, a loaded machine) must still be submitted. Gemini CLI reads
// its input in chunks and takes an Enter that comes within 30 ms of a paste (its
// bufferFastReturn, FAST_RETURN_TIMEOUT; and for 40 ms after an untrusted paste, its
// recentUnsafePasteTime) as a newline: a stalled Gemini reads the pasted text and the
// carriage returns the relay sent meanwhile in one read, and the message stays in its
// input box. The stall is made with SIGSTOP, long enough for the relay's submit and its
// second carriage return (200 ms and 2.5 s after the text) to be written while the CLI
// reads nothing.

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
	"github.com/agentmux/agentmux/internal/oswait"
)

func TestStalledCLIGetsItsMessageSubmitted(t *testing.T) {
	if !installed(t, "gemini") {
		t.Skip("gemini not installed")
	}
	bin := buildAgentmux(t)
	c := cliNamed(t, "gemini")
	srv, url := startMock(t, c.name, mockmodel.Numbered("ans", 1), answerTime)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	state, runtime := t.TempDir(), t.TempDir()
	env := append(append(baseEnv(t, home), c.setup(t, home, project, url)...), "XDG_STATE_HOME="+state, "XDG_RUNTIME_DIR="+runtime)
	name := "stall-" + c.name
	t.Cleanup(func() {
		cmd := exec.Command(bin, "kill-session", name)
		cmd.Env = env
		_ = cmd.Run()
	})
	tm := startTerm(t, "agentmux", []string{bin, "--session", name, "--log-level", "debug", c.command()}, project, env, 120, 40)
	tm.waitPaneReady(c)
	// The first message goes as the person's (agentmux send), as in the restore test:
	// an Enter typed at the keyboard in Gemini's first seconds may be lost.
	run := exec.Command(bin, "send", "--session", name, "1", "first zebra")
	run.Env = env
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("agentmux send: %v\n%s", err, out)
	}
	waitTurn(t, tm, srv, c.name, 1, 120*time.Second)
	tm.waitText(60*time.Second, "ans-1 to:")
	// The turn over (its AfterAgent hook came: the hub logs the conversation kept),
	// Gemini waits for input; then it stalls.
	logPath := filepath.Join(state, "agentmux", "agentmux.log")
	hooked := func() bool {
		b, _ := os.ReadFile(logPath)
		return strings.Contains(string(b), `msg="hook: conversation kept" pane=1 `)
	}
	if err := oswait.Until(60*time.Second, hooked, filepath.Dir(logPath)); err != nil {
		t.Fatalf("no hook after the first turn: %v\n%s", err, tm.dump())
	}

	typed := deliveryTyped(t, bin, env, name)
	stopped := signalCLI(t, project, syscall.SIGSTOP)
	t.Cleanup(func() { signalCLI(t, project, syscall.SIGCONT) })
	send := exec.Command(bin, "send", "--session", name, "1", "stalled heron")
	send.Env = env
	if out, err := send.CombinedOutput(); err != nil {
		t.Fatalf("agentmux send: %v\n%s", err, out)
	}
	select {
	case <-typed:
	case <-time.After(60 * time.Second):
		t.Fatalf("the message was never typed\n%s", tm.dump())
	}
	// The stall: as long as the relay's submit and its second carriage return take.
	time.Sleep(6 * time.Second)
	signalCLI(t, project, syscall.SIGCONT)
	t.Logf("stopped %d processes of gemini for 6 s after the message was typed", stopped)
	r := waitTurn(t, tm, srv, c.name, 2, 120*time.Second)
	if !strings.Contains(r.Prompt, "stalled heron") {
		t.Errorf("the model's second turn was %q", r.Prompt)
	}
}

// signalCLI sends sig to every node process of the test's CLI running in project (not
// agentmux's server) and returns how many there were.
func signalCLI(t *testing.T, project string, sig syscall.Signal) int {
	n := 0
	procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, p := range procs {
		pidDir := filepath.Dir(p)
		dir, err := os.Readlink(p)
		if err != nil || dir != project || !startedBy(t, filepath.Base(pidDir)) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(pidDir, "cmdline"))
		if !strings.Contains(string(cmdline), "node") {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(pidDir))
		if err == nil && syscall.Kill(pid, sig) == nil {
			n++
		}
	}
	return n
}

// deliveryTyped streams the session's events and closes the channel it returns when a
// delivery is typed in session.
func deliveryTyped(t *testing.T, bin string, env []string, session string) <-chan struct{} {
	ev := exec.Command(bin, "events", "--session", session)
	ev.Env = env
	out, err := ev.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Start(); err != nil {
		t.Fatalf("agentmux events: %v", err)
	}
	typed, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		seen := false
		for sc.Scan() {
			var e struct{ Kind, Phase string }
			_ = json.Unmarshal(sc.Bytes(), &e)
			if e.Kind == "delivery" && e.Phase == "typed" && !seen {
				seen = true
				close(typed)
			}
		}
	}()
	t.Cleanup(func() {
		_ = ev.Process.Kill()
		<-done
		_ = ev.Wait()
	})
	return typed
}
