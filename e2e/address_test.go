package e2e

// Explicit addressing end to end: three fake agents linked in one session; alice's
// opening turn holds a broadcast, a thinking line and a block with a thread. Each
// transcript must hold exactly what was addressed to that agent, the thinking line
// must reach no one's input, and the relay log must show it.

import (
	"strings"
	"testing"
)

func TestAddressBroadcastThinkingAndThread(t *testing.T) {
	t.Parallel()
	greet := strings.Join([]string{
		"@relay:* hello all",
		"@thinking:bob bob seems busy",
		"[[RELAY]]",
		`{"to": "carol",`,
		` "type": "message",`,
		` "thread": "t1",`,
		` "body": "just carol"}`,
		"[[/RELAY]]",
	}, "\n")
	alice := newFake(t, 1, "alice", "inline", "--greet", greet)
	bob := newFake(t, 2, "bob", "plain")
	carol := newFake(t, 3, "carol", "alt")
	// Three deliveries are addressed (two for the broadcast, one block): --turns 3
	// severs the group once they are paid for, so the answers go nowhere.
	rs := startRelay(t, []string{"--link", "--turns", "3"}, alice, bob, carol)
	rs.wait("bob and carol answered what they were sent", func(*screen) bool {
		return len(bob.read().out) == 1 && len(carol.read().out) == 1
	})
	b, c, a := bob.read(), carol.read(), alice.read()
	if len(b.in) != 1 {
		t.Fatalf("bob received %q: want the broadcast only", b.in)
	}
	checkDelivery(t, b.in[0], alice, bob, "hello all", true)
	// Both wait for carol when she is ready: one paste, each part with its attribution.
	if len(c.in) != 1 {
		t.Fatalf("carol received %q: want the broadcast and the block in one paste", c.in)
	}
	checkDelivery(t, c.in[0], alice, carol, "hello all\n\n"+alice.frame()+"\n\njust carol", true)
	if len(a.in) != 0 {
		t.Errorf("alice received %q: a broadcast never reaches its sender", a.in)
	}
	for _, in := range append(b.in, c.in...) {
		if strings.Contains(in, "seems busy") {
			t.Errorf("the thinking line was typed into an agent: %q", in)
		}
	}
	rs.send(prefix + "r")
	rs.wait("the thinking line in the relay log", func(scr *screen) bool {
		return scr.has(`1 alice → 2 bob  thinking  "bob seems busy"`)
	})
}
