package e2e

// The session socket end to end: agentmux runs with --session in a PTY, each test with
// its own XDG_RUNTIME_DIR and XDG_STATE_HOME; the agentmux commands run as separate
// processes against it, and a protocol member is a Go client (package client). What
// is checked: `agentmux send` from inside a pane reaches another pane attributed to the
// sending pane; a pane's @relay line reaches a member as DELIVER; ls, capture, history
// and events answer from the running binary; messages waiting for a busy pane survive a
// SIGKILL and are delivered once after a restart; a stale socket is replaced and a live
// one never taken over.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
)

// sockEnv is where a test's sessions keep their sockets (runtime) and their store
// (home's XDG_STATE_HOME), shared by agentmux and the commands run against it.
type sockEnv struct {
	t             *testing.T
	home, runtime string
}

func newSockEnv(t *testing.T) sockEnv {
	return sockEnv{t: t, home: t.TempDir(), runtime: runtimeDir(t)}
}

func (e sockEnv) opts() options { return options{home: e.home, runtime: e.runtime} }

func (e sockEnv) environ() []string {
	return append(os.Environ(),
		"HOME="+e.home,
		"XDG_STATE_HOME="+filepath.Join(e.home, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(e.home, "config"),
		"XDG_RUNTIME_DIR="+e.runtime,
		"AGENTMUX_SESSION=", "AGENTMUX_SOCKET=", "AGENTMUX_NAME=", "AGENTMUX_PROOF=",
	)
}

// socket is session name's socket.
func (e sockEnv) socket(name string) string {
	return filepath.Join(e.runtime, "agentmux", name+".sock")
}

// command is an agentmux command against the test's sessions.
func (e sockEnv) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, agentmuxBin, args...)
	cmd.Env = e.environ()
	return cmd
}

// run runs an agentmux command and returns its output; it fails the test unless the
// command exits 0 with no race report.
func (e sockEnv) run(args ...string) string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandWait)
	defer cancel()
	var stderr strings.Builder
	cmd := e.command(ctx, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || strings.Contains(stderr.String(), "DATA RACE") {
		e.t.Fatalf("agentmux %s: %v\n%s%s", strings.Join(args, " "), err, stderr.String(), out)
	}
	return string(out)
}

// events runs `agentmux events` and returns its lines as they come, once the stream
// has said it is subscribed. The process ends with the test.
func (e sockEnv) events(session string) <-chan string {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := e.command(ctx, "events", "--session", session)
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	lines := make(chan string, 256)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	awaitLine(e.t, lines, "the subscribed event", func(l string) bool { return strings.Contains(l, `"kind":"subscribed"`) })
	return lines
}

// awaitLine reads lines until one matches, and returns it.
func awaitLine(t *testing.T, lines <-chan string, what string, match func(string) bool) string {
	t.Helper()
	timeout := time.NewTimer(waitLong)
	defer timeout.Stop()
	var seen []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("%s: the stream ended; it said:\n%s", what, strings.Join(seen, "\n"))
			}
			if match(l) {
				return l
			}
			seen = append(seen, l)
		case <-timeout.C:
			t.Fatalf("%s: not within %v; the stream said:\n%s", what, waitLong, strings.Join(seen, "\n"))
		}
	}
}

// shArg is an AGENT argument running script with sh as pane name.
func shArg(name, script string) string {
	return name + "=sh -c '" + script + "'"
}

// agentmux send from inside a pane reaches another pane attributed to the sending pane;
// a member's DELIVER carries a pane's @relay line; ls, capture, history and events
// answer from the running binary.
func TestSessionSocketEndToEnd(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// alice sends bob a message with agentmux send (attributed by AGENTMUX_NAME), then,
	// once the test writes to the fifo (its member is connected by then), prints a
	// relay command for the member.
	alice := &fake{n: 1, name: "alice"}
	script := fmt.Sprintf(`%s send bob "hi from alice"; read x < %s; echo "@relay:bot build is green"; exec cat`, agentmuxBin, fifo)
	bob := newFake(t, 2, "bob", "plain")
	s := startWith(t, env.opts(), "--session", "wire", "--address", "--idle", relayIdle, shArg("alice", script), bob.arg())
	rs := &relaySession{session: s, agents: []*fake{bob}}
	rs.diag = rs.transcripts
	rs.wait("bob got alice's agentmux send", func(*screen) bool { return len(bob.read().in) == 1 })
	checkDelivery(t, bob.read().in[0], alice, bob, "hi from alice", true)

	// The events follower, a process start, is up before the bot connects: the bot
	// answers the session's PINGs only while it reads.
	events := env.events("wire")
	bot, err := client.Dial(env.socket("wire"), proto.Hello{Agent: "bot", CLI: "e2e"})
	if err != nil {
		t.Fatal(err)
	}
	defer bot.Close()
	bot.SetDeadline(time.Now().Add(waitLong))
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	var d *proto.Envelope
	for d == nil || d.Type != proto.TypeDeliver {
		if d, err = bot.Read(); err != nil {
			t.Fatalf("bot waiting for its DELIVER: %v; screen:\n%s", err, rs.describe())
		}
	}
	p, err := proto.DecodePayload[proto.Send](d)
	if err != nil {
		t.Fatal(err)
	}
	if d.From != "alice" || p.Body != "build is green" || p.Kind != proto.KindMessage {
		t.Errorf("bot's DELIVER: from %q, %+v; want alice's message \"build is green\"", d.From, p)
	}
	if err := bot.Ack(d); err != nil {
		t.Fatal(err)
	}
	// The bot stays connected for ls below, a process start away: reading on, it answers
	// the session's PINGs, without which it would be dropped as dead after two
	// heartbeats (10 s) of silence, which a loaded machine can take.
	bot.SetDeadline(time.Time{})
	go func() {
		for {
			if _, err := bot.Read(); err != nil {
				return // closed at the test's end
			}
		}
	}()
	awaitLine(t, events, "the message event for bot", func(l string) bool {
		return strings.Contains(l, `"kind":"message"`) && strings.Contains(l, `"member":"alice"`) && strings.Contains(l, `"peer":"bot"`)
	})

	ls := env.run("ls", "--session", "wire")
	for _, row := range []string{"1  alice", "2  bob", "bot"} {
		if !strings.Contains(ls, row) {
			t.Errorf("agentmux ls lacks %q:\n%s", row, ls)
		}
	}
	if capture := env.run("capture", "bob", "--session", "wire"); !strings.Contains(capture, "hi from alice") {
		t.Errorf("agentmux capture bob lacks the message:\n%s", capture)
	}
	history := env.run("history", "--session", "wire")
	for _, x := range []string{"alice → bob", "hi from alice", "alice → bot", "build is green"} {
		if !strings.Contains(history, x) {
			t.Errorf("agentmux history lacks %q:\n%s", x, history)
		}
	}
}

// Messages waiting for a busy pane survive a SIGKILL of agentmux: started again with
// the same --session and pane names, it delivers each once, and the one typed before
// the kill is not typed again. The killed session's socket is stale and replaced; a
// live session's is never taken over (the next agentmux with its name is refused).
func TestSessionSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	// bob thinks for a minute after each message: what comes after the first waits.
	bob := newFake(t, 1, "bob", "inline", "--busy", "1m")
	args := []string{"--session", "crash", "--idle", relayIdle, bob.arg()}
	first := startWith(t, env.opts(), args...)
	first.waitScreen("bob's start screen", bob.ready, waitLong)

	events := env.events("crash")
	id := strings.Fields(env.run("send", "bob", "zero"))[0]
	awaitLine(t, events, "zero typed", func(l string) bool {
		return strings.Contains(l, `"id":"`+id+`"`) && strings.Contains(l, `"phase":"typed"`)
	})
	env.run("send", "bob", "one")
	env.run("send", "bob", "two")
	// A read of the store writes the phases reached first: zero is marked typed.
	var msgs []proto.Message
	if err := json.Unmarshal([]byte(env.run("history", "--json", "--session", "crash")), &msgs); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 || msgs[0].Typed == 0 || msgs[1].Typed != 0 || msgs[2].Typed != 0 {
		t.Fatalf("history before the kill: %+v; want zero typed, one and two waiting", msgs)
	}

	// A second agentmux with the same explicit --session is refused before it takes
	// the screen (exit 2, saying why): the live one is kept, and no crash-2 appears
	// for a script's later --session crash to miss.
	other := startWith(t, env.opts(), "--session", "crash", shArg("cat", "exec cat"))
	if code := other.waitExit(waitLong); code != 2 {
		t.Errorf("a second --session crash exited %d, want 2", code)
	}
	<-other.eof
	if got := other.screen().text(); !strings.Contains(got, "--session crash: a running session has that name") {
		t.Errorf("the refused start says:\n%s", got)
	}
	if got := env.run("sessions"); !listed(got, "crash") || strings.Contains(got, "crash-2") {
		t.Errorf("agentmux sessions: %q; want crash alone", got)
	}

	// The session is its server: kill that (the client then says the session ended).
	if err := syscall.Kill(serverPid(t, env.environ(), "crash"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.waitExit(waitLong)
	if _, err := os.Stat(env.socket("crash")); err != nil {
		t.Fatalf("the killed session left no socket to replace: %v", err)
	}
	second := startWith(t, env.opts(), args...)
	rs := &relaySession{session: second, agents: []*fake{bob}}
	rs.diag = rs.transcripts
	rs.wait("one and two delivered after the restart", func(*screen) bool { return len(bob.read().in) >= 2 })
	in := bob.read().in
	all := strings.Join(in, "\n")
	if len(in) != 2 || strings.Count(all, "zero") != 1 || strings.Count(all, "one") != 1 || strings.Count(all, "two") != 1 {
		t.Errorf("bob received %q: want zero before the kill, then one and two once", in)
	}
	if got := env.run("sessions"); !listed(got, "crash") || strings.Contains(got, "crash-3") {
		t.Errorf("agentmux sessions: %q; the stale socket should have been replaced", got)
	}
}

// A bad client never crashes the session: garbage on the socket gets an ERROR, and
// the next command is answered.
func TestSessionSocketShrugsOffGarbage(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "bad", shArg("cat", "exec cat"))
	s.waitText(waitLong, "1 cat")
	c, err := client.DialRaw(env.socket("bad"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Raw().Close()
	c.SetDeadline(time.Now().Add(waitLong))
	if _, err := c.Raw().Write([]byte("\x00\x00\x00\x05hello")); err != nil {
		t.Fatal(err)
	}
	e, err := c.Read()
	if err != nil || e.Type != proto.TypeError {
		t.Fatalf("garbage answered with %+v, %v; want ERROR", e, err)
	}
	if _, err := c.Read(); !errors.Is(err, io.EOF) && err == nil {
		t.Errorf("the connection stayed open after a fatal ERROR")
	}
	if ls := env.run("ls", "--session", "bad"); !strings.Contains(ls, "1  cat") {
		t.Errorf("agentmux ls after the garbage:\n%s", ls)
	}
}

// commandIn is an agentmux command run in folder dir.
func (e sockEnv) commandIn(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(agentmuxBin, args...)
	cmd.Env, cmd.Dir = e.environ(), dir
	return cmd
}

// runIn runs an agentmux command in folder dir and returns its output; it fails the
// test unless the command exits 0.
func (e sockEnv) runIn(dir string, args ...string) string {
	e.t.Helper()
	out, err := e.commandIn(dir, args...).CombinedOutput()
	if err != nil {
		e.t.Fatalf("agentmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
