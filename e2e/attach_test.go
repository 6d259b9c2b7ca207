package e2e

// These tests drive a session as a server through the binary: the starting terminal
// detaches (prefix d) or is killed, another terminal attaches and must see the whole
// picture (pane contents, a program on the alternate screen, borders and status line),
// the server is killed under an attached terminal, two terminals share a session, and a
// read-only terminal looks around without changing anything.

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"

	"github.com/agentmux/agentmux/internal/oswait"
)

// attachEnv is one test's HOME and runtime folder, shared by the terminals that start
// and attach to its session.
type attachEnv struct {
	t    *testing.T
	opts options
}

func newAttachEnv(t *testing.T) attachEnv {
	return attachEnv{t: t, opts: options{home: t.TempDir(), runtime: runtimeDir(t)}}
}

// start runs agentmux with args in a new terminal of this environment.
func (e attachEnv) start(args ...string) *session { return startWith(e.t, e.opts, args...) }

// serverPid is the session server's process id, from agentmux sessions --json.
func (e attachEnv) serverPid(s *session, name string) int {
	e.t.Helper()
	return serverPid(e.t, s.env, name)
}

// serverPid is the process id of session name's server, from agentmux sessions --json
// run with environment env.
func serverPid(t *testing.T, env []string, name string) int {
	t.Helper()
	cmd := exec.Command(agentmuxBin, "sessions", "--json")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("agentmux sessions: %v", err)
	}
	var list []struct {
		Name string `json:"name"`
		Pid  int    `json:"pid"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("agentmux sessions --json: %v: %s", err, out)
	}
	for _, l := range list {
		if l.Name == name && l.Pid > 0 {
			return l.Pid
		}
	}
	t.Fatalf("no server pid for session %s in %s", name, out)
	return 0
}

// readyPair starts a session "att" with an inline agent a and a full-screen agent b,
// and types a turn into a so its pane has something to show.
func (e attachEnv) readyPair() *session {
	s := e.start("--session", "att", agent("a", "--style", "inline"), agent("b", "--style", "alt"))
	s.waitScreen("both agents ready", func(scr *screen) bool {
		return scr.paneHas(1, "a · simulated agent") && scr.paneHas(2, ">_ b (simulated agent)")
	}, waitLong)
	s.send("hello there\r")
	s.waitScreen("a's answer", func(scr *screen) bool { return scr.paneHas(1, "a heard: hello there") }, waitLong)
	return s
}

// wholePicture waits until a terminal shows the session as readyPair left it.
func wholePicture(s *session) *screen {
	return s.waitScreen("the whole session again", func(scr *screen) bool {
		return scr.paneHas(1, "a heard: hello there") && scr.paneHas(2, ">_ b (simulated agent)") &&
			scr.titleHas(1, "1 a") && scr.titleHas(2, "2 b") && scr.statusHas("^A")
	}, waitLong)
}

func TestDetachThenAttachShowsEverything(t *testing.T) {
	e := newAttachEnv(t)
	s := e.readyPair()
	s.send(prefix + "d")
	if code := s.waitExit(waitLong); code != 0 {
		t.Errorf("detach exited with %d, want 0", code)
	}
	<-s.eof
	if !s.screen().has("detached from session att (agentmux attach att to return)") {
		t.Errorf("no detach line on the restored terminal:\n%s", s.screen().dump())
	}
	if s.term.VT().Snapshot().AltScreen {
		t.Error("the terminal was left on the alternate screen")
	}
	a := e.start("attach")
	wholePicture(a)
	a.send("again\r") // the agents kept running: the attached terminal types into them
	a.waitScreen("a's second answer", func(scr *screen) bool { return scr.paneHas(1, "a heard: again") }, waitLong)
}

func TestClientKilledServerGoesOn(t *testing.T) {
	e := newAttachEnv(t)
	s := e.readyPair()
	pid := e.serverPid(s, "att")
	s.term.Stop(syscall.SIGKILL, waitLong)
	if !alive(pid) {
		t.Fatal("the server died with its client")
	}
	a := e.start("attach", "att")
	wholePicture(a)
}

// SIGQUIT to the client (kill -QUIT) detaches it as SIGTERM does: the terminal is
// restored, where Go's stack dump landed on the alternate screen and left it raw.
func TestClientQuitSignalDetaches(t *testing.T) {
	e := newAttachEnv(t)
	s := e.readyPair()
	pid := e.serverPid(s, "att")
	if s.term.Stop(syscall.SIGQUIT, waitLong) {
		t.Fatal("the client did not end on SIGQUIT")
	}
	<-s.eof
	scr := s.screen()
	if !scr.has("detached from session att") || scr.has("goroutine ") {
		t.Errorf("the client did not detach cleanly:\n%s", scr.dump())
	}
	if s.term.VT().Snapshot().AltScreen {
		t.Error("the terminal was left on the alternate screen")
	}
	if !alive(pid) {
		t.Error("the server ended with its client")
	}
}

func TestServerKilledClientRestoresTheTerminal(t *testing.T) {
	e := newAttachEnv(t)
	s := e.readyPair()
	pid := e.serverPid(s, "att")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := s.waitExit(waitLong); code != 1 {
		t.Errorf("the client exited with %d, want 1", code)
	}
	<-s.eof
	scr := s.screen()
	if !scr.has("session att ended: its server is gone") {
		t.Errorf("the client did not say the session ended:\n%s", scr.dump())
	}
	if s.term.VT().Snapshot().AltScreen {
		t.Error("the terminal was left on the alternate screen")
	}
}

func TestTwoClientsShareASession(t *testing.T) {
	e := newAttachEnv(t)
	s := e.readyPair()
	second := e.start("attach")
	wholePicture(second)
	// The second terminal types: both see it; then it takes control and resizes.
	second.send("from two\r")
	for _, c := range []*session{s, second} {
		c.waitScreen("the second terminal's turn", func(scr *screen) bool { return scr.paneHas(1, "a heard: from two") }, waitLong)
	}
	for i := range 6 { // a resize storm from both
		s.resize(100+i, 30+i%3)
		second.resize(110-i, 35-i%3)
	}
	second.resize(cols, rows)
	second.send("x") // the latest to be active: its size wins
	second.waitScreen("the draft", func(scr *screen) bool { return scr.paneHas(1, "❯ x") }, waitLong)
	second.send(prefix + "d")
	if code := second.waitExit(waitLong); code != 0 {
		t.Errorf("the second terminal's detach exited with %d", code)
	}
	// The first carries on, in control again, drawing whole.
	s.resize(cols, rows)
	s.send("\x15first\r")
	s.waitScreen("the first terminal's turn", func(scr *screen) bool {
		return scr.paneHas(1, "a heard: first") && scr.paneHas(2, ">_ b (simulated agent)") && scr.statusHas("^A")
	}, waitLong)
	out := e.sessions(s)
	if !regexp.MustCompile(`(?m)^att +attached +1: `).MatchString(out) {
		t.Errorf("agentmux sessions should show one client attached: %q", out)
	}
}

func TestKillSessionEndsTheClient(t *testing.T) {
	e := newAttachEnv(t)
	s := e.readyPair()
	cmd := exec.Command(agentmuxBin, "kill-session", "ATT") // names in any case
	cmd.Env = s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kill-session: %v: %s", err, out)
	}
	if code := s.waitExit(waitLong); code != 0 {
		t.Errorf("the client exited with %d after kill-session, want 0", code)
	}
	// The socket goes as the server ends.
	_ = oswait.Until(waitLong, func() bool { return !listed(e.sessions(s), "att") }, filepath.Join(e.opts.runtime, "agentmux"))
	if out := e.sessions(s); listed(out, "att") {
		t.Errorf("the session still runs: %q", out)
	}
}

// listed reports whether agentmux sessions' output out has a row for session name.
func listed(out, name string) bool {
	return regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` `).MatchString(out)
}

// sessions is agentmux sessions' output.
func (e attachEnv) sessions(s *session) string {
	cmd := exec.Command(agentmuxBin, "sessions")
	cmd.Env = s.env
	out, _ := cmd.Output()
	return string(out)
}

// TestLinkedPairRelaysWhileDetached links two agents, types the first message and
// detaches at once: the four turns the budget allows are relayed while no terminal is
// attached, and a new attach shows them, in the panes and in the relay log (with the
// budget spent).
func TestLinkedPairRelaysWhileDetached(t *testing.T) {
	e := newAttachEnv(t)
	alice, bob := newFake(t, 1, "alice", "inline"), newFake(t, 2, "bob", "alt")
	s := e.start("--session", "pair", "--idle", relayIdle, "--link", "--turns", "4", alice.arg(), bob.arg())
	rs := &relaySession{session: s, agents: []*fake{alice, bob}}
	rs.diag = rs.transcripts
	rs.wait("both agents ready", func(scr *screen) bool { return alice.ready(scr) && bob.ready(scr) })
	rs.send("hi\r")
	rs.send(prefix + "d")
	if code := s.waitExit(waitLong); code != 0 {
		t.Fatalf("detach exited with %d", code)
	}
	// Nobody watches: wait on the agents' transcripts (files the fake agents write).
	relayed := func() bool { return len(alice.read().in) >= 3 && len(bob.read().in) >= 2 }
	if err := oswait.Until(relayWait, relayed, filepath.Dir(alice.transcript), filepath.Dir(bob.transcript)); err != nil {
		t.Fatalf("the pair stopped relaying while detached (%v):\n%s", err, rs.transcripts())
	}
	a := e.start("attach", "pair")
	ra := &relaySession{session: a, agents: rs.agents}
	ra.diag = ra.transcripts
	ra.wait("the deliveries in both panes", func(scr *screen) bool {
		return scr.paneHas(2, alice.frame()) && scr.paneHas(1, bob.frame())
	})
	a.send(prefix + "r")
	scr := ra.wait("four deliveries and the budget spent in the relay log", func(scr *screen) bool {
		return len(deliveryRows(scr)) >= 4 && severed(scr)
	})
	if n := len(deliveryRows(scr)); n != 4 {
		t.Errorf("the relay log shows %d deliveries, want 4:\n%s", n, scr.dump())
	}
}

// TestAPaneCannotAttachOrEndItsSession runs agentmux attach and kill-session from a
// pane's program, with the pane's variables removed (a prompt-injected agent would):
// both are refused by the process's place, and the session goes on.
func TestAPaneCannotAttachOrEndItsSession(t *testing.T) {
	e := newAttachEnv(t)
	script := fmt.Sprintf(`env -u AGENTMUX_PANE -u AGENTMUX_NAME -u AGENTMUX_PROOF %[1]s attach inj || echo ATTACH-REFUSED; `+
		`env -u AGENTMUX_PANE -u AGENTMUX_NAME -u AGENTMUX_PROOF %[1]s kill-session inj || echo KILL-REFUSED; exec cat`, agentmuxBin)
	s := e.start("--session", "inj", shArg("mallory", script), agent("a", "--style", "inline"))
	s.waitText(waitLong, "ATTACH-REFUSED", "KILL-REFUSED")
	scr := s.screen()
	if !scr.has("a process of pane mallory cannot attach") { // the row wraps after it
		t.Errorf("the refusal does not say why:\n%s", scr.dump())
	}
	s.send(prefix + "2")
	s.send("still here\r")
	s.waitScreen("a's answer", func(scr *screen) bool { return scr.paneHas(2, "a heard: still here") }, waitLong)
}

// attach --read-only looks around (focus, zoom, the relay log, help) without changing
// the session: read-only shows on its status line from the start, typing reaches no
// pane and is said once, a command that would change the session is refused.
func TestReadOnlyAttachLooks(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "ro", "a=sh -c 'echo A-READY; exec cat'", "b=sh -c 'echo B-READY; exec cat'")
	s.waitScreen("both panes", func(sc *screen) bool { return sc.paneHas(1, "A-READY") && sc.paneHas(2, "B-READY") }, waitLong)
	ro := startWith(t, env.opts(), "attach", "--read-only", "ro")
	ro.waitScreen("read-only on the status line", func(sc *screen) bool { return sc.paneHas(1, "A-READY") && sc.statusHas("read-only") }, waitLong)
	ro.send("typed-nowhere")
	ro.waitScreen("the dropped keys said", func(sc *screen) bool { return sc.statusHas("read-only: what you type reaches no pane") }, waitLong)
	ro.send(prefix + "z")
	ro.waitScreen("zoomed", func(sc *screen) bool { return sc.statusHas("ZOOM") }, waitLong)
	ro.send(prefix + "z" + prefix + "r")
	ro.waitScreen("the relay log", func(sc *screen) bool { return sc.has("relay log") }, waitLong)
	ro.send(prefix + "r" + prefix + "?")
	ro.waitScreen("help", func(sc *screen) bool { return sc.statusHas("HELP") }, waitLong)
	ro.send("\x1b" + prefix + "x")
	ro.waitScreen("close refused", func(sc *screen) bool { return sc.statusHas("read-only: that would change the session") }, waitLong)
	// The writing terminal shows nothing typed into the panes, and both still run.
	s.send("from-writer\r")
	sc := s.waitScreen("the writer's keys", func(sc *screen) bool { return sc.paneHas(1, "from-writer") }, waitLong)
	if sc.has("typed-nowhere") || !sc.titleHas(2, "2 b") {
		t.Errorf("the read-only terminal changed the session:\n%s", sc.dump())
	}
}
