package e2e

// Relay tests: agentmux links fake agents (the demo's simulated CLIs, answering
// "NAME heard: first words" after a short busy time) and the tests check, against the README,
// what the agents received: each fake agent logs every message submitted to it and every
// answer it gives (demo --transcript), so a delivery is compared exactly with the answer
// it carries. A human message starts each conversation; the relay carries it on. Waits
// are on the screen and the transcripts together (relaySession.wait); "nothing more
// happens" is checked after a positive sign that the relay is done (the status line, the
// relay log, the agents' borders), for a short bounded time explained where it is used.
// The tests run in parallel, each with its own agentmux, agents and temp dir.

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRelayConversation links two agents by keys (prefix l 2 in pane 1) for each pair of
// screen styles and checks four deliveries: each carries "NAME (N):", a blank line and
// exactly the sender's answer (its newlines typed as spaces into the plain agent, which
// has no bracketed paste), nothing is delivered twice, and --turns 4 then severs the link.
func TestRelayConversation(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{{"inline", "alt"}, {"alt", "plain"}, {"plain", "inline"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			t.Parallel()
			alice, bob := newFake(t, 1, "alice", pair[0]), newFake(t, 2, "bob", pair[1])
			rs := startRelay(t, []string{"--turns", "4"}, alice, bob)
			rs.send(prefix + "l2")
			rs.wait("the link 1⇄2 0/4 on the status line", func(scr *screen) bool { return scr.statusHas("1⇄2 0/4") })
			rs.send("hi\r")
			ab := [2]*fake{alice, bob}
			for d := 1; d <= 4; d++ {
				from, to := ab[(d-1)%2], ab[d%2]
				k := (d - 1) / 2 // from's answer carried, to's delivery received
				idx := k         // the delivery's place in to's transcript
				if to == alice {
					idx++ // after the human's "hi"
				}
				var got talk
				rs.wait(fmt.Sprintf("delivery %d: %s's answer submitted to %s", d, from.name, to.name), func(scr *screen) bool {
					got = to.read()
					return len(got.in) > idx && len(from.read().out) > k &&
						(d > 1 || scr.paneHas(to.n, from.frame())) // the first one also seen on screen
				})
				if len(got.in) != idx+1 {
					t.Errorf("after delivery %d %s received %d messages, want %d:\n%s", d, to.name, len(got.in), idx+1, rs.transcripts())
				}
				checkDelivery(t, got.in[idx], from, to, from.read().out[k], true)
			}
			rs.wait("the budget spent after four deliveries", func(scr *screen) bool {
				return severed(scr) && len(scr.groups()) == 0
			})
			if t.Failed() {
				t.Logf("last screen:\n%s", rs.describe())
			}
		})
	}
}

// TestRelayBudgetStopsAtExactlyN starts linked (--link) with --turns 3: exactly three
// deliveries are made (alice → bob, bob → alice, alice → bob), the status line and the
// relay log say the group was severed, and bob's answer to the third is not delivered.
func TestRelayBudgetStopsAtExactlyN(t *testing.T) {
	t.Parallel()
	alice, bob := newFake(t, 1, "alice", "inline"), newFake(t, 2, "bob", "alt")
	rs := startRelay(t, []string{"--link", "--turns", "3"}, alice, bob)
	rs.wait("the link 1⇄2 0/3 on the status line", func(scr *screen) bool { return scr.statusHas("1⇄2 0/3") })
	rs.send("hi\r")
	rs.wait("the third delivery answered by bob, the group severed and both agents idle", func(scr *screen) bool {
		return len(bob.read().in) >= 2 && len(bob.read().out) >= 2 && severed(scr) &&
			len(scr.groups()) == 0 && scr.titleHas(1, "idle") && scr.titleHas(2, "idle")
	})
	// Bob's last answer has been printed and the relay has seen bob go idle: a delivery of
	// it would be typed at once into alice (idle) and submitted after the relay's 200 ms
	// submit delay, or wait for the settle time (300 ms) first. 1.5 s covers that with room
	// to spare under the race detector. A fourth delivery, even typed and not yet
	// submitted, would change alice's pane, idle until then.
	before, _ := rs.screen().pane(1)
	rs.holds("no fourth delivery", 1500*time.Millisecond, func(scr *screen) bool {
		p, _ := scr.pane(1)
		return len(alice.read().in) == 2 && len(bob.read().in) == 2 && p.text() == before.text()
	})
	a, b := alice.read(), bob.read()
	checkDelivery(t, b.in[0], alice, bob, a.out[0], true)
	checkDelivery(t, a.in[1], bob, alice, b.out[0], true)
	checkDelivery(t, b.in[1], alice, bob, a.out[1], true)

	rs.send(prefix + "r")
	scr := rs.wait("the relay log with the budget spent", func(scr *screen) bool { return severed(scr) && len(deliveryRows(scr)) >= 3 })
	if rows := deliveryRows(scr); len(rows) != 3 {
		t.Errorf("the relay log shows %d deliveries, want 3:\n%s", len(rows), strings.Join(rows, "\n"))
	}
}

// severed reports whether the screen says a group was severed (its budget spent).
func severed(scr *screen) bool {
	s := strings.ToLower(scr.text())
	return strings.Contains(s, "severed") || strings.Contains(s, "budget spent")
}

// deliveryRow matches a delivery in the relay log: "… 1 alice → 2 bob …".
var deliveryRow = regexp.MustCompile(`\d+ \S+ → \d+ \S+`)

// deliveryRows are the relay log's delivery rows on the screen.
func deliveryRows(scr *screen) []string {
	var rows []string
	for y := range scr.cells {
		if r := scr.row(y); deliveryRow.MatchString(r) {
			rows = append(rows, r)
		}
	}
	return rows
}

// TestRelayHoldsWhileDrafting types a draft into bob, then has alice answer a message:
// the delivery to bob waits (the status line counts it) and nothing is typed into bob, the
// draft intact on screen, for longer than the hold after a last keystroke. Once the draft
// is cleared (Ctrl+U) and the hold has passed, the delivery arrives.
func TestRelayHoldsWhileDrafting(t *testing.T) {
	t.Parallel()
	alice, bob := newFake(t, 1, "alice", "inline"), newFake(t, 2, "bob", "alt")
	rs := startRelay(t, []string{"--turns", "4"}, alice, bob)
	rs.send(prefix + "l2")
	rs.wait("the link 1⇄2 on the status line", func(scr *screen) bool { return scr.statusHas("1⇄2 0/4") })
	rs.focus(2)
	rs.send("half a thought")
	rs.wait("bob's draft", func(scr *screen) bool { return scr.paneHas(2, "› half a thought") })
	lastKey := time.Now()
	rs.focus(1)
	rs.send("hi\r")
	draftHeld := func(scr *screen) bool {
		return len(bob.read().in) == 0 && scr.paneHas(2, "› half a thought") && !scr.paneHas(2, alice.frame())
	}
	rs.wait("alice's answer waiting for bob's draft", func(scr *screen) bool {
		return len(alice.read().out) == 1 && scr.statusHas("1 waiting") && draftHeld(scr)
	})
	// The draft, not only the recent keystrokes, must hold the delivery: hold past the
	// relay's 3 s typing hold after the last keystroke (with 1 s to spare).
	rs.holds("bob's draft holding the delivery", time.Until(lastKey.Add(4*time.Second)), draftHeld)
	if got := alice.read().in; len(got) != 1 {
		t.Errorf("alice received %q, want only the person's message (bob's draft is not a turn)", got)
	}

	rs.focus(2)
	rs.send("\x15") // Ctrl+U clears the draft
	cleared := time.Now()
	rs.wait("the draft cleared", func(scr *screen) bool { return !scr.paneHas(2, "half a thought") })
	rs.wait("the delivery into bob once the hold passed", func(scr *screen) bool { return len(bob.read().in) == 1 })
	after := time.Since(cleared)
	t.Logf("delivered %v after the draft was cleared", after.Round(time.Millisecond))
	if after < time.Second {
		t.Errorf("delivered %v after the draft was cleared: the hold after a keystroke should last a few seconds", after)
	}
	checkDelivery(t, bob.read().in[0], alice, bob, alice.read().out[0], true)
}

// TestRelayUnlinkAndRelink links alice with bob (prefix l 2), unlinks her (prefix u) and
// links her with carol (prefix l 3): her answer then reaches carol, not bob.
func TestRelayUnlinkAndRelink(t *testing.T) {
	t.Parallel()
	alice, bob, carol := newFake(t, 1, "alice", "inline"), newFake(t, 2, "bob", "alt"), newFake(t, 3, "carol", "alt")
	rs := startRelay(t, []string{"--turns", "1"}, alice, bob, carol)
	rs.send(prefix + "l2")
	rs.wait("the link 1⇄2", func(scr *screen) bool { return strings.Join(scr.groups(), " ") == "1⇄2 0/1" })
	rs.send(prefix + "u")
	rs.wait("no group after the unlink", func(scr *screen) bool { return len(scr.groups()) == 0 })
	rs.send(prefix + "l3")
	rs.wait("the link 1⇄3", func(scr *screen) bool { return strings.Join(scr.groups(), " ") == "1⇄3 0/1" })
	rs.send("hi\r")
	// Carol and bob would be served by the same turn end of alice's, at the same moment:
	// carol's delivery is the sign that bob's would have come.
	rs.wait("alice's answer delivered to carol", func(scr *screen) bool { return len(carol.read().in) == 1 })
	checkDelivery(t, carol.read().in[0], alice, carol, alice.read().out[0], false)
	if got := bob.read().in; len(got) != 0 || rs.screen().paneHas(2, alice.frame()) {
		t.Errorf("bob, unlinked, received %q:\n%s", got, rs.describe())
	}
}

// TestRelayLinkAll links three agents with prefix L: bob's answer reaches both others.
func TestRelayLinkAll(t *testing.T) {
	t.Parallel()
	alice, bob, carol := newFake(t, 1, "alice", "inline"), newFake(t, 2, "bob", "alt"), newFake(t, 3, "carol", "plain")
	rs := startRelay(t, []string{"--turns", "2"}, alice, bob, carol)
	rs.send(prefix + "L")
	rs.wait("the group 1⇄2⇄3", func(scr *screen) bool { return strings.Join(scr.groups(), " ") == "1⇄2⇄3 0/2" })
	rs.focus(2)
	rs.send("hi\r")
	rs.wait("bob's answer delivered to alice and carol", func(scr *screen) bool {
		return len(alice.read().in) == 1 && len(carol.read().in) == 1
	})
	words := bob.read().out[0]
	checkDelivery(t, alice.read().in[0], bob, alice, words, false)
	checkDelivery(t, carol.read().in[0], bob, carol, words, false)
}

// TestRelayExitLeavesGroup starts three agents linked (--link); carol exits (Ctrl+D) and
// leaves the group, which goes on between alice and bob; bob exits after his first answer
// and the group, down to one member, ends.
func TestRelayExitLeavesGroup(t *testing.T) {
	t.Parallel()
	alice, bob := newFake(t, 1, "alice", "inline"), newFake(t, 2, "bob", "alt", "--exit-after", "1")
	carol := newFake(t, 3, "carol", "plain")
	rs := startRelay(t, []string{"--link"}, alice, bob, carol)
	rs.wait("all three linked from the start", func(scr *screen) bool { return strings.Join(scr.groups(), " ") == "1⇄2⇄3 0/8" })
	rs.focus(3)
	rs.send("\x04") // Ctrl+D on an empty draft: carol exits
	rs.wait("carol gone from the group", func(scr *screen) bool {
		return scr.titleHas(3, "exited (0)") && strings.Join(scr.groups(), " ") == "1⇄2 0/8"
	})
	rs.focus(1)
	rs.send("hi\r")
	rs.wait("alice's answer delivered to bob", func(scr *screen) bool { return len(bob.read().in) == 1 })
	checkDelivery(t, bob.read().in[0], alice, bob, alice.read().out[0], false)
	rs.wait("bob exited after answering, the group ended", func(scr *screen) bool {
		return scr.titleHas(2, "exited (0)") && len(scr.groups()) == 0
	})
}

// TestRelayDemoConverses runs agentmux demo: its two agents, linked from the start, hold
// an attributed conversation by themselves and the status line counts the turns.
func TestRelayDemoConverses(t *testing.T) {
	t.Parallel()
	s := start(t, "demo")
	s.waitScreen("an attributed conversation with turns counted", func(scr *screen) bool {
		return scr.paneHas(2, "alice (1):") && scr.paneHas(1, "bob (2):") &&
			regexp.MustCompile(`1⇄2 [2-8]/8`).MatchString(scr.status())
	}, 45*time.Second)
}
