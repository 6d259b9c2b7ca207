package session

// The core as the socket sees it: events in their wire form (pure: wireEvent over
// hand-made events), the panes as LIST gives them, and a pane's own delivery followed
// through a real loop: announced once as "relayed" under the id the core made, its
// phases then carrying that id, with no table of references anywhere.

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/relay"
)

// A delivery a caller sent carries the caller's id through every phase (the phase names
// are the store's); a pane's own delivery is announced once, at its first event, as
// "relayed" with its whole body, then carries its id like any; a delivery from no pane
// (a brief) carries none; mail names the message; output is not sent.
func TestWireEvents(t *testing.T) {
	delivery := func(id string, own, fresh bool, from int, fromName string, ph Phase) []proto.Event {
		return wireEvent(Delivery{Fresh: fresh, Entry: Entry{Delivery: 4, ID: id, Own: own, From: from, FromName: fromName, ToName: "claude",
			Phase: ph, Words: "please rebase", Body: "please rebase now"}})
	}
	assert.Equal(t, []proto.Event{
		{Kind: "relayed", ID: "m4", Member: "claude", From: "codex", To: "claude", MsgKind: "message", Text: "please rebase now"},
		{Kind: "delivery", ID: "m4", Member: "claude", From: "codex", To: "claude", Phase: "waiting", Text: "please rebase"},
	}, delivery("m4", true, true, 2, "codex", Waiting))
	assert.Equal(t, []proto.Event{{Kind: "delivery", ID: "m4", Member: "claude", From: "codex", To: "claude", Phase: "typed", Text: "please rebase"}},
		delivery("m4", true, false, 2, "codex", Typed), "announced once")
	assert.Equal(t, []proto.Event{{Kind: "delivery", ID: "m5", Member: "claude", From: "codex", To: "claude", Phase: "waiting", Text: "please rebase"}},
		delivery("m5", false, true, 2, "codex", Waiting), "a pane's Send through the socket is the caller's: never announced")
	assert.Equal(t, proto.PhaseConfirmed, delivery("m5", false, false, 0, "ops", Confirmed)[0].Phase)
	assert.Equal(t, []proto.Event{{Kind: "delivery", Member: "claude", From: "agentmux", To: "claude", Phase: "waiting", Text: "please rebase"}},
		delivery("", false, true, 0, "agentmux", Waiting), "a brief is no message")

	assert.Equal(t, []proto.Event{{Kind: "mail", ID: "m5", Member: "ops", Text: "[agentmux] delivered"}},
		wireEvent(Mail{To: "ops", Text: "[agentmux] delivered", Delivery: 4, ID: "m5"}))
	assert.Equal(t, []proto.Event{{Kind: "member", Member: "claude", State: "busy"}},
		wireEvent(MemberChanged{Member: Member{Pane: 1, Name: "claude", State: Busy}}))
	evs := wireEvent(Exit{Pane: 2, Code: 3})
	assert.Equal(t, 3, *evs[0].Code)
	assert.Equal(t, []proto.Event{{Kind: "closed", Member: "2"}}, wireEvent(Closed{Pane: 2}))
	assert.Empty(t, wireEvent(Closed{Pane: 2, Done: true}))
	assert.Empty(t, wireEvent(Output{Pane: 1}))
}

// A member is listed as its border and the status line show it: its group as "2⇄3⇄4"
// with its turns, an exited pane with its code or signal, held and addressing, its
// profile.
func TestWireMember(t *testing.T) {
	labels, turns := map[int]string{1: "2⇄3⇄4"}, map[int]proto.Turns{1: {Used: 3, Budget: 8}}
	assert.Equal(t, proto.Member{Number: 2, Name: "codex", Program: "codex", State: "idle", Group: "2⇄3⇄4", Turns: &proto.Turns{Used: 3, Budget: 8},
		Waiting: 3, Held: true, Addressing: true, Profile: "codex"},
		wireMember(Member{Pane: 2, Name: "codex", Program: "codex", State: Idle, Group: 1, Waiting: 3, Held: true, Addressing: true, Profile: "codex"}, labels, turns))
	assert.Equal(t, "killed (SIGSEGV)", wireMember(Member{Pane: 1, State: Exited, Code: -11}, labels, turns).State)
	assert.Equal(t, "exited (3)", wireMember(Member{Pane: 1, State: Exited, Code: 3}, labels, turns).State)
	assert.Nil(t, wireMember(Member{Pane: 1, State: Idle}, labels, turns).Turns, "no group, no turns")
}

// A pane's turn relayed to its linked peer, through the real loop: the socket's stream
// announces it once as "relayed" under a message id the core made, and its typed phase
// carries the same id. Panes lists both panes in their group.
func TestRelayedTurnCarriesTheCoresID(t *testing.T) {
	r := newRig(t, Options{Idle: time.Second, Turns: 6}, "alice", "bob")
	evs := r.s.Events()
	defer evs.Close()
	r.started(1, 2)
	require.NoError(t, r.s.Link(1, 2))
	panes := r.s.Panes()
	require.Len(t, panes, 2)
	assert.Equal(t, "1⇄2", panes[0].Group)
	assert.Equal(t, &proto.Turns{Used: 0, Budget: 6}, panes[0].Turns, "the group's turns as the status line counts them")

	r.printed(1, "\r\nthe tests pass\r\n> ")
	r.advance(2 * time.Second) // alice is quiet: her turn goes to bob
	r.advance(time.Second)
	var relayed, typed []proto.Event
	deadline := time.After(10 * time.Second)
	for len(typed) == 0 {
		select {
		case <-evs.Ready():
		case <-deadline:
			t.Fatalf("no typed phase; relayed %+v", relayed)
		}
		for _, ev := range evs.Next() {
			switch {
			case ev.Kind == "relayed":
				relayed = append(relayed, ev)
			case ev.Kind == "delivery" && ev.Phase == "typed":
				typed = append(typed, ev)
			}
		}
	}
	require.Len(t, relayed, 1, "announced once")
	assert.Regexp(t, `^m[0-9a-f]{21}$`, relayed[0].ID, "a message id as the store's")
	assert.Equal(t, "bob", relayed[0].Member)
	assert.Equal(t, "alice", relayed[0].From)
	assert.Contains(t, relayed[0].Text, "the tests pass")
	assert.Equal(t, relayed[0].ID, typed[0].ID)
}

// Every phase of the relay has a wire name, and the wire's Final agrees with the
// relay's: the two rules of a message's last phase are pinned together.
func TestEveryPhaseHasAWireName(t *testing.T) {
	for ph := Waiting; ph <= relay.Expired; ph++ {
		wire, ok := wirePhases[ph]
		if !ok || wire == "" {
			t.Errorf("phase %v has no wire name", ph)
			continue
		}
		assert.Equal(t, ph.Final(), wire.Final(), "Final of %v (%s)", ph, wire)
		assert.NotContains(t, string(wire), " ", "a wire name, not the relay log's words")
	}
}
