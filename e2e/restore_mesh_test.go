package e2e

// A --mesh session restored after its server was SIGKILLed comes back joined, with its
// link to another session's member made again on its side under the same tag and with
// the turns spent, while the other side, which never heard of the kill, still holds
// its half: a turn that crossed afterwards reaches the restored pane and counts on
// both status lines. The hub runs in the test process; the two sessions are two
// machines (homes and runtime folders of their own).

import (
	"strings"
	"syscall"
	"testing"
)

func TestRestoreRejoinsTheMeshWithItsLink(t *testing.T) {
	t.Parallel()
	p := startMeshPair(t, 6)
	buildboxEnv, laptopEnv, alice, buildbox, laptop := p.buildboxEnv, p.laptopEnv, p.alice, p.buildbox, p.laptop

	laptopEnv.run("link", "--session", "laptop", "alice", "bob@buildbox")
	buildbox.wait("the request on buildbox", func(scr *screen) bool { return scr.statusHas("link request") })
	buildboxEnv.run("link", "--accept", "--session", "buildbox")
	buildbox.wait("the link on buildbox", func(scr *screen) bool { return scr.statusHas("1⇄alice@laptop 0/6") })
	// bob held: alice's turn crosses and waits there, one turn of the link spent.
	buildboxEnv.run("hold", "--session", "buildbox", "bob")
	laptop.send("plan the parser split\r")
	laptop.wait("alice's turn spent", func(scr *screen) bool { return scr.statusHas("1⇄bob@buildbox 1/6") })
	buildbox.wait("alice's turn counted on buildbox", func(scr *screen) bool { return scr.statusHas("1⇄alice@laptop 1/6") })

	if err := syscall.Kill(serverPid(t, laptopEnv.environ(), "laptop"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	laptop.waitExit(waitLong)

	restored := &relaySession{session: startWith(t, laptopEnv.opts(), "restore", "laptop"), agents: []*fake{alice}}
	restored.diag = laptop.diag
	restored.wait("the link made again with its turn spent", func(scr *screen) bool {
		return alice.ready(scr) && scr.statusHas("1⇄bob@buildbox 1/6")
	})
	if ls := laptopEnv.run("ls", "--mesh", "--session", "laptop"); !strings.Contains(ls, "buildbox (live)") || !strings.Contains(ls, "laptop (live)") {
		t.Errorf("the restored session is not joined:\n%s", ls)
	}
	// bob released answers alice: his turn crosses to the restored session and is typed
	// into alice as a turn of the link; both sides count it.
	before := len(alice.read().in)
	buildboxEnv.run("release", "--session", "buildbox", "bob")
	restored.wait("bob's turn typed into the restored alice", func(*screen) bool {
		in := alice.read().in
		return len(in) > before && strings.HasPrefix(in[len(in)-1], "bob@buildbox (1):")
	})
	buildbox.wait("bob's turn counted on buildbox", func(scr *screen) bool {
		return strings.Contains(scr.status(), "1⇄alice@laptop") && !scr.statusHas("1⇄alice@laptop 1/6")
	})
	restored.wait("bob's turn counted on laptop", func(scr *screen) bool {
		return strings.Contains(scr.status(), "1⇄bob@buildbox") && !scr.statusHas("1⇄bob@buildbox 1/6")
	})
}
