package e2e

// The mesh end to end: a hub (package mesh, in the test process) and two agentmux
// sessions in PTYs, each with its own home and runtime folder as two machines, joined
// with --mesh and their credentials. A pane's `agentmux send bob@buildbox` is typed into
// bob on the other session attributed to the pane and its session; `agentmux ls --mesh`
// lists both sessions; a session started with a name the mesh has live is refused.

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/mesh"
)

func TestMeshEndToEnd(t *testing.T) {
	t.Parallel()
	hubDir := filepath.Join(t.TempDir(), "mesh")
	h, err := mesh.Serve(mesh.HubConfig{Dir: hubDir, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	creds := func(name string) string {
		p, err := mesh.WriteCreds(hubDir, name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	join := func(name string) []string {
		return []string{"--session", name, "--mesh", h.URL(), "--mesh-creds", creds(name), "--idle", relayIdle}
	}

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

	ls := laptopEnv.run("ls", "--mesh", "--mesh="+h.URL(), "--mesh-creds", creds("laptop"))
	for _, row := range []string{"buildbox (live)", "bob@buildbox", "laptop (live)", "alice@laptop"} {
		if !strings.Contains(ls, row) {
			t.Errorf("agentmux ls --mesh lacks %q:\n%s", row, ls)
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
