package e2e

// The mesh end to end: a hub (package mesh, in the test process) and two agentmux
// sessions in PTYs, each with its own home and runtime folder as two machines, joined
// with --mesh and their credentials. A pane's `agentmux send bob@buildbox` is typed into
// bob on the other session attributed to the pane and its session; `agentmux ls --mesh`
// lists both sessions, given the mesh or asking the session; a session started with a
// name the mesh has live is refused; `agentmux link alice bob@buildbox` makes the two
// agents talk across it within one budget.

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/mesh"
)

func TestMeshEndToEnd(t *testing.T) {
	t.Parallel()
	hub := startMeshHub(t)
	join := func(name string) []string { return hub.join(name, "--idle", relayIdle) }

	buildboxEnv := newSockEnv(t)
	bob := newFake(t, 1, "bob", "plain")
	buildbox := startWith(t, buildboxEnv.opts(), append(join("buildbox"), bob.arg())...)
	rb := &relaySession{session: buildbox, agents: []*fake{bob}}
	rb.diag = rb.transcripts
	rb.wait("bob ready", bob.ready)

	laptopEnv := newSockEnv(t)
	script := fmt.Sprintf(`%s send bob@buildbox "hi across"; exec cat`, agentmuxBin)
	startWith(t, laptopEnv.opts(), append(join("laptop"), shArg("alice", script))...)
	rb.wait("bob got alice's message across the mesh", func(*screen) bool { return len(bob.read().in) == 1 })
	if got := bob.read().in[0]; !strings.Contains(got, "alice@laptop (1):") || !strings.Contains(got, "hi across") {
		t.Errorf("bob got %q: want \"hi across\" attributed to alice@laptop (1)", got)
	}
	if h := buildboxEnv.run("history", "--session", "buildbox"); !strings.Contains(h, "alice@laptop → bob") {
		t.Errorf("buildbox's history lacks the message:\n%s", h)
	}

	// With the mesh's URL and credentials, or with none: the running session lists the
	// mesh it joined on its command line.
	for _, args := range [][]string{
		{"ls", "--mesh", "--mesh=" + hub.h.URL(), "--mesh-creds", hub.creds("laptop")},
		{"ls", "--mesh", "--session", "laptop"},
	} {
		ls := laptopEnv.run(args...)
		for _, row := range []string{"buildbox (live)", "bob@buildbox", "laptop (live)", "alice@laptop"} {
			if !strings.Contains(ls, row) {
				t.Errorf("agentmux %s lacks %q:\n%s", strings.Join(args, " "), row, ls)
			}
		}
	}

	// A second buildbox (another machine) is refused, saying how to pick another name.
	second := startWith(t, options{home: t.TempDir(), runtime: runtimeDir(t), record: true}, append(join("buildbox"), "sh")...)
	if code := second.waitExit(waitLong); code == 0 {
		t.Errorf("a second buildbox exited 0: want it refused")
	}
	<-second.eof
	if txt := strings.ReplaceAll(second.screen().text(), "\n", ""); !strings.Contains(txt, "taken") || !strings.Contains(txt, "--session") {
		t.Errorf("a second buildbox: want it refused, saying to pick another name with --session; screen:\n%s", second.screen().dump())
	}
}

// remoteGroup matches a link with another session's member on the status line, e.g.
// "1⇄bob@buildbox 3/8".
var remoteGroup = regexp.MustCompile(`⇄\S+@\S+ \d+/\d+`)

// `agentmux link alice bob@buildbox` through the binary: a word typed into alice starts
// a conversation that crosses the mesh both ways, typed on each side as "NAME@SESSION
// (1):", until the pair's one budget (laptop's --turns 4) is spent: four deliveries in
// all, on the two sides together, and both status lines (and ls) show the count while
// it runs. alice renamed carol keeps the link, buildbox naming her anew.
func TestMeshLinkEndToEnd(t *testing.T) {
	t.Parallel()
	p := startMeshPair(t, 4)
	buildboxEnv, laptopEnv, bob, alice, buildbox, laptop := p.buildboxEnv, p.laptopEnv, p.bob, p.alice, p.buildbox, p.laptop

	laptopEnv.run("link", "--session", "laptop", "alice", "bob@buildbox")
	// Nothing is linked until buildbox's person says yes; the request shows on its
	// status line and in agentmux link --pending.
	buildbox.wait("the request on buildbox's status line", func(scr *screen) bool { return scr.statusHas("link request") })
	if got := buildboxEnv.run("link", "--pending", "--session", "buildbox"); !strings.Contains(got, "alice@laptop asks to link with bob (4 turns)") {
		t.Errorf("agentmux link --pending on buildbox: want alice's request:\n%s", got)
	}
	if ls := buildboxEnv.run("ls", "--session", "buildbox"); !strings.Contains(ls, "pending: alice@laptop asks to link with bob (4 turns)") {
		t.Errorf("agentmux ls on buildbox: want the pending request:\n%s", ls)
	}
	buildboxEnv.run("link", "--accept", "--session", "buildbox")
	laptop.wait("the link on laptop's status line", func(scr *screen) bool { return scr.statusHas("1⇄bob@buildbox 0/4") })
	buildbox.wait("the link on buildbox's status line", func(scr *screen) bool { return scr.statusHas("1⇄alice@laptop 0/4") })
	// ls counts the link's turns as the status line does, in text and JSON.
	if ls := laptopEnv.run("ls", "--session", "laptop"); !regexp.MustCompile(`alice .*1⇄bob@buildbox 0/4`).MatchString(ls) {
		t.Errorf("agentmux ls on laptop: want alice's group as 1⇄bob@buildbox 0/4:\n%s", ls)
	}
	if ls := buildboxEnv.run("ls", "--json", "--session", "buildbox"); !strings.Contains(ls, `"group":"1⇄alice@laptop","x_turns":{"used":0,"budget":4}`) {
		t.Errorf("agentmux ls --json on buildbox: want the group with x_turns 0 of 4:\n%s", ls)
	}
	// Renamed, alice keeps the link: buildbox names her anew, and her turns carry it.
	laptopEnv.run("rename", "--session", "laptop", "alice", "carol")
	buildbox.wait("the link renamed on buildbox's status line", func(scr *screen) bool { return scr.statusHas("1⇄carol@laptop 0/4") })
	laptop.send("plan the parser split\r")
	buildbox.wait("bob's first turn from carol", func(*screen) bool { return len(bob.read().in) >= 1 })
	if got := bob.read().in[0]; !strings.HasPrefix(got, "carol@laptop (1):") {
		t.Errorf("bob got %q: want it attributed to carol@laptop (1)", got)
	}
	laptop.wait("alice's turn from bob", func(*screen) bool {
		in := alice.read().in
		return len(in) >= 2 && strings.HasPrefix(in[1], "bob@buildbox (1):")
	})
	buildbox.wait("bob's second turn, and the budget spent", func(*screen) bool { return len(bob.read().in) >= 2 })
	laptop.wait("alice's second turn from bob", func(*screen) bool { return len(alice.read().in) >= 3 })
	for _, s := range []*relaySession{laptop, buildbox} {
		s.wait("the link severed", func(scr *screen) bool { return !remoteGroup.MatchString(scr.status()) })
	}
	if a, b := len(alice.read().in), len(bob.read().in); a != 3 || b != 2 {
		t.Errorf("alice got %d, bob %d: want 1+2 and 2 (4 turns for the pair)", a, b)
	}
}

// Prefix l then a name typed on laptop's status line links alice with bob@buildbox as
// `agentmux link` does: the ui reaches the mesh through the session, never importing it.
func TestMeshLinkByKey(t *testing.T) {
	t.Parallel()
	p := startMeshPair(t, 0)
	buildboxEnv, buildbox, laptop := p.buildboxEnv, p.buildbox, p.laptop

	laptop.send(prefix + "lbob@buildbox")
	laptop.wait("the name prompt", func(scr *screen) bool { return scr.statusHas("link 1 alice with: bob@buildbox") })
	laptop.send("\r")
	buildbox.wait("the request on buildbox's status line", func(scr *screen) bool { return scr.statusHas("link request") })
	buildboxEnv.run("link", "--accept", "alice@laptop", "--session", "buildbox")
	laptop.wait("the link on laptop's status line", func(scr *screen) bool { return scr.statusHas("1⇄bob@buildbox 0/") })
	buildbox.wait("the link on buildbox's status line", func(scr *screen) bool { return scr.statusHas("1⇄alice@laptop 0/") })
}

// meshPair is two sessions joined to one mesh hub as two machines, each with its own
// home and runtime folder: buildbox runs the fake bob, laptop the fake alice, both
// ready when startMeshPair returns.
type meshPair struct {
	hub                    meshHub
	buildboxEnv, laptopEnv sockEnv
	bob, alice             *fake
	buildbox, laptop       *relaySession
}

// startMeshPair starts the hub, then buildbox, then laptop, whose links get turns
// turns when turns is above zero (the default budget otherwise). The diagnostics of
// a failed wait on laptop show both sessions' transcripts.
func startMeshPair(t *testing.T, turns int) *meshPair {
	t.Helper()
	p := &meshPair{hub: startMeshHub(t), buildboxEnv: newSockEnv(t), laptopEnv: newSockEnv(t)}
	join := func(name string, extra ...string) []string {
		return p.hub.join(name, append([]string{"--idle", relayIdle}, extra...)...)
	}
	p.bob, p.alice = newFake(t, 1, "bob", "plain"), newFake(t, 1, "alice", "plain")
	p.buildbox = &relaySession{session: startWith(t, p.buildboxEnv.opts(), join("buildbox", p.bob.arg())...), agents: []*fake{p.bob}}
	p.buildbox.diag = p.buildbox.transcripts
	p.buildbox.wait("bob ready", p.bob.ready)
	var budget []string
	if turns > 0 {
		budget = []string{"--turns", strconv.Itoa(turns)}
	}
	p.laptop = &relaySession{session: startWith(t, p.laptopEnv.opts(), join("laptop", append(budget, p.alice.arg())...)...), agents: []*fake{p.alice}}
	p.laptop.diag = func() string { return p.laptop.transcripts() + p.buildbox.transcripts() }
	p.laptop.wait("alice ready", p.alice.ready)
	return p
}

// meshHub is a mesh hub in the test process, closed when the test ends (after the
// sessions the test started, which were started after it).
type meshHub struct {
	t   *testing.T
	dir string
	h   *mesh.Hub
}

func startMeshHub(t *testing.T) meshHub {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mesh")
	h, err := mesh.Serve(mesh.HubConfig{Dir: dir, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return meshHub{t: t, dir: dir, h: h}
}

// creds writes session name's credentials and returns their file.
func (m meshHub) creds(name string) string {
	m.t.Helper()
	p, err := mesh.WriteCreds(m.dir, name)
	if err != nil {
		m.t.Fatal(err)
	}
	return p
}

// join is the flags that start session name joined to the hub, then extra.
func (m meshHub) join(name string, extra ...string) []string {
	return append([]string{"--session", name, "--mesh", m.h.URL(), "--mesh-creds", m.creds(name)}, extra...)
}
