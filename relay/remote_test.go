package relay

// Strategy: two relays, each its own fake-clock simulation (sim_test.go), stand for two
// sessions; the test carries each side's Mail to the other as the mesh does (a linked
// turn becomes a Send with Options.Link, an end an UnlinkRemote) and checks what is
// typed on each side, the attribution, the one budget both sides show, and the ends.

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sides are two relays linked across sessions: alice (pane 1 on laptop) and bob (pane
// 1 on buildbox).
type sides struct {
	t          *testing.T
	lap, build *harness
	alice, bob *fakeAgent
	crossed    int // turns carried
}

func newSides(t *testing.T, budget int) *sides {
	s := &sides{t: t, lap: newHarness(t, Config{}), build: newHarness(t, Config{})}
	s.alice = s.lap.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	s.bob = s.build.agent(1, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	s.lap.run(3 * time.Second)
	s.build.run(3 * time.Second)
	s.lap.handle(External{Name: "bob@buildbox"})
	s.build.handle(External{Name: "alice@laptop"})
	s.lap.handle(LinkRemote{Pane: 1, Name: "bob@buildbox", Tag: "L1", Budget: budget})
	s.build.handle(LinkRemote{Pane: 1, Name: "alice@laptop", Tag: "L1", Budget: budget})
	return s
}

// carry hands from's mail to to, as the mesh does; from names from's session.
func (s *sides) carry(from, to *harness, session string) {
	for _, m := range from.r.TakeMail() {
		switch {
		case m.End:
			to.handle(UnlinkRemote{Tag: m.Link, Why: m.From + "@" + session + " " + m.Text})
		case m.Link != "":
			s.crossed++
			_, acts, err := to.r.Message(Send{FromName: m.From + "@" + session + " (1)", To: 1, Text: m.Text,
				Options: Options{Link: m.Link, Spent: m.Spent}}, to.now)
			if err != nil {
				s.t.Fatalf("carrying %+v: %v", m, err)
			}
			to.apply(acts)
		}
	}
}

// run runs both sides to d, carrying mail both ways every second.
func (s *sides) run(d time.Duration) {
	for at := s.lap.now.Sub(t0) + time.Second; at <= d; at += time.Second {
		s.lap.run(at)
		s.carry(s.lap, s.build, "laptop")
		s.build.run(at)
		s.carry(s.build, s.lap, "buildbox")
	}
}

func groupOf(h *harness) string {
	st := h.r.Status()
	if len(st.Groups) != 1 {
		return ""
	}
	return st.Groups[0].String()
}

// Each side's finished turn crosses once and is typed on the other side attributed to
// its sender there; one budget for the pair, counted once: both sides show the same
// count, and both sever when it is spent.
func TestRemoteLinkTurnsAndBudget(t *testing.T) {
	s := newSides(t, 4)
	if g := groupOf(s.lap); g != "1⇄bob@buildbox 0/4" {
		t.Fatalf("laptop's group %q", g)
	}
	s.alice.answer("hello bob")
	s.run(6 * time.Second)
	if got := s.build.typedTo(1); len(got) != 1 || got[0] != "alice@laptop (1):\n\nhello bob" {
		t.Fatalf("typed into bob: %q", got)
	}
	want := fmt.Sprintf("%d/4", s.crossed)
	if a, b := groupOf(s.lap), groupOf(s.build); a != "1⇄bob@buildbox "+want || b != "1⇄alice@laptop "+want {
		t.Errorf("after %d turns crossed: laptop %q, buildbox %q: want %s on both", s.crossed, a, b, want)
	}
	s.run(60 * time.Second)
	if s.crossed != 4 {
		t.Errorf("%d turns crossed, want the budget's 4", s.crossed)
	}
	if got := s.lap.typedTo(1); len(got) != 2 || !strings.HasPrefix(got[0], "bob@buildbox (1):\n\nbob reply 1") {
		t.Errorf("typed into alice: %q", got)
	}
	if got := s.build.typedTo(1); len(got) != 2 {
		t.Errorf("typed into bob: %q", got)
	}
	for _, h := range []*harness{s.lap, s.build} {
		if g := groupOf(h); g != "" {
			t.Errorf("a group left after the budget: %q", g)
		}
		if !strings.Contains(strings.Join(h.notes(), "\n"), "budget spent (4/4)") {
			t.Errorf("no budget notice: %q", h.notes())
		}
	}
}

// Unlinking on either side ends the link on both: the side that unlinked mails an end,
// the other side ends its group and mails nothing back; a turn of the ended link is
// refused.
func TestRemoteUnlinkEndsBothSides(t *testing.T) {
	s := newSides(t, 8)
	s.build.handle(Unlink{Pane: 1})
	mail := s.build.r.TakeMail()
	if len(mail) != 1 || !mail[0].End || mail[0].Link != "L1" || mail[0].From != "bob" || mail[0].Text != "unlinked" {
		t.Fatalf("buildbox's mail after unlink: %+v", mail)
	}
	s.lap.handle(UnlinkRemote{Tag: mail[0].Link, Why: "bob@buildbox " + mail[0].Text})
	if g := groupOf(s.lap); g != "" {
		t.Errorf("laptop still has %q", g)
	}
	if m := s.lap.r.TakeMail(); len(m) != 0 {
		t.Errorf("the laptop answered an end with %+v", m)
	}
	if n := s.lap.notes(); n[len(n)-1] != "1⇄bob@buildbox ended: bob@buildbox unlinked" {
		t.Errorf("laptop's last notice %q", n[len(n)-1])
	}
	_, _, err := s.lap.r.Message(Send{FromName: "bob@buildbox (1)", To: 1, Text: "late", Options: Options{Link: "L1", Spent: 1}}, s.lap.now)
	if !errors.Is(err, ErrNotLinked) {
		t.Errorf("a turn of the ended link: err %v, want ErrNotLinked", err)
	}
	// An earlier link's end does not end a new one.
	s.lap.handle(LinkRemote{Pane: 1, Name: "bob@buildbox", Tag: "L2"})
	s.lap.handle(UnlinkRemote{Tag: "L1"})
	if g := groupOf(s.lap); g != "1⇄bob@buildbox 0/8" {
		t.Errorf("the new link after an old end: %q", g)
	}
	// Linking the pane with a pane of its own session ends the link with the other.
	s.lap.agent(2, "carol", &fakeAgent{titled: true})
	s.lap.handle(Link{Pane: 2, With: 1})
	if m := s.lap.r.TakeMail(); len(m) != 1 || !m[0].End || m[0].Link != "L2" {
		t.Errorf("mail after linking alice locally: %+v", m)
	}
	if g := groupOf(s.lap); g != "1⇄2 0/8" {
		t.Errorf("group %q, want the local pair", g)
	}
}

// Tell types a notice into a pane without spending a turn, its answer not relayed, and
// is Mail for any other name.
func TestTell(t *testing.T) {
	h, _ := trio(t, Config{})
	h.handle(Link{Pane: 1, With: 2})
	h.handle(Tell{To: "alice", Text: "[agentmux] delivered to bob@buildbox", Hush: true})
	h.handle(Tell{To: "you", Text: "[agentmux] delivered to bob@buildbox"})
	h.run(20 * time.Second)
	if got := h.typedTo(1); len(got) != 1 || got[0] != "[agentmux] delivered to bob@buildbox" {
		t.Errorf("typed into alice: %q", got)
	}
	if got := h.typedTo(2); len(got) != 0 {
		t.Errorf("the answer to a notice was relayed to bob: %q", got)
	}
	if m := h.r.TakeMail(); len(m) != 1 || m[0].To != "you" {
		t.Errorf("mail %+v", m)
	}
	if g := groupOf(h); g != "1⇄2 0/8" {
		t.Errorf("group %q: a notice spends no turn", g)
	}
}

// A pane renamed on one side mails the link's tag and its new name; the other side,
// told, names the link's member anew: its status, its notice and the next turn's
// addressee follow, and a rename for an ended link's tag changes nothing.
func TestRemoteRenameFollows(t *testing.T) {
	s := newSides(t, 8)
	s.lap.handle(Rename{Pane: 1, Name: "carol"})
	mail := s.lap.r.TakeMail()
	if len(mail) != 1 || !mail[0].Rename || mail[0].Link != "L1" || mail[0].From != "carol" || mail[0].Text != "alice" || mail[0].To != "bob@buildbox" {
		t.Fatalf("laptop's mail after the rename: %+v", mail)
	}
	s.build.handle(External{Name: "carol@laptop"})
	s.build.handle(RenameRemote{Tag: "L1", Name: "carol@laptop"})
	if g := groupOf(s.build); g != "1⇄carol@laptop 0/8" {
		t.Errorf("buildbox's group after the rename %q", g)
	}
	if n := s.build.notes(); n[len(n)-1] != "alice@laptop renamed carol@laptop: linked 1⇄carol@laptop" {
		t.Errorf("buildbox's last notice %q", n[len(n)-1])
	}
	s.bob.answer("over to carol")
	s.build.run(6 * time.Second)
	if m := s.build.r.TakeMail(); len(m) != 1 || m[0].To != "carol@laptop" || m[0].Link != "L1" {
		t.Errorf("bob's turn after the rename: %+v", m)
	}
	if s.lap.r.LinkedPane("L1") != 1 || s.lap.r.LinkedPane("L9") != 0 {
		t.Errorf("LinkedPane: L1 %d, L9 %d: want 1 and 0", s.lap.r.LinkedPane("L1"), s.lap.r.LinkedPane("L9"))
	}

	s.build.handle(Unlink{Pane: 1})
	s.build.r.TakeMail()
	s.build.handle(External{Name: "dave@laptop"})
	s.build.handle(RenameRemote{Tag: "L1", Name: "dave@laptop"})
	if g := groupOf(s.build); g != "" {
		t.Errorf("a rename for an ended link made %q", g)
	}
}

// A link made again under its tag with the turns spent before (a restored session's
// side) counts on from them: its status shows them with the other side's part, the
// next turn sent carries this side's count, and the pair's budget still holds.
func TestRemoteLinkRestoredCountsOn(t *testing.T) {
	lap := newHarness(t, Config{})
	alice := lap.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	lap.run(3 * time.Second)
	lap.handle(External{Name: "bob@buildbox"})
	lap.handle(LinkRemote{Pane: 1, Name: "bob@buildbox", Tag: "L1", Budget: 6, Used: 2, Peer: 1})
	st := lap.r.Status()
	if len(st.Groups) != 1 || st.Groups[0].String() != "1⇄bob@buildbox 3/6" || st.Groups[0].Tag != "L1" || st.Groups[0].Peer != 1 {
		t.Fatalf("laptop's groups after the restored link: %+v", st.Groups)
	}
	alice.answer("hello again")
	lap.run(6 * time.Second)
	mail := lap.r.TakeMail()
	if len(mail) != 1 || mail[0].Link != "L1" || mail[0].Spent != 3 {
		t.Fatalf("laptop's mail after alice's turn: %+v; want one turn of L1, this side's third", mail)
	}
	if g := groupOf(lap); g != "1⇄bob@buildbox 4/6" {
		t.Errorf("laptop's group %q, want 4/6", g)
	}
}

// A link with another session made again by a restore renews none of its pane's
// budgets; one a person makes does.
func TestRemoteLinkRestoredRenewsNothing(t *testing.T) {
	h, _ := trio(t, Config{Turns: 2})
	h.handle(External{Name: "bob@buildbox"})
	spent := Budgets{Left: []LeftBudget{{Pane: 1, Used: 2, Budget: 2}}, Direct: []DirectBudget{{A: 1, B: 2, Used: 2}}}
	h.handle(RestoreBudgets{Budgets: spent})
	h.handle(LinkRemote{Pane: 1, Name: "bob@buildbox", Tag: "L1", Budget: 6, Used: 2, Restored: true})
	if got := h.r.Budgets(); !reflect.DeepEqual(got, spent) {
		t.Errorf("budgets after the restored link %+v, want %+v", got, spent)
	}
	h.handle(LinkRemote{Pane: 1, Name: "bob@buildbox", Tag: "L2", Budget: 6})
	if got := h.r.Budgets(); !got.IsZero() {
		t.Errorf("budgets after a person's new link %+v, want them renewed", got)
	}
}

// A link with another session is ended or renamed by that session only: an end or a
// rename that names the link's tag from any other session (one that learnt the tag)
// changes nothing.
func TestRemoteLinkEndedOrRenamedByItsSessionOnly(t *testing.T) {
	s := newSides(t, 8)
	s.lap.handle(UnlinkRemote{Tag: "L1", Session: "mallory", Why: "eve@mallory unlinked"})
	s.lap.handle(External{Name: "eve@mallory"})
	s.lap.handle(RenameRemote{Tag: "L1", Name: "eve@mallory"})
	// Session names are exact: BuildBox is another session than buildbox.
	s.lap.handle(UnlinkRemote{Tag: "L1", Session: "BuildBox", Why: "eve@BuildBox unlinked"})
	s.lap.handle(External{Name: "eve@BuildBox"})
	s.lap.handle(RenameRemote{Tag: "L1", Name: "eve@BuildBox"})
	if g := groupOf(s.lap); g != "1⇄bob@buildbox 0/8" {
		t.Errorf("laptop's link after mallory's end and rename: %q", g)
	}
	s.lap.handle(UnlinkRemote{Tag: "L1", Session: "buildbox", Why: "bob@buildbox unlinked"})
	if g := groupOf(s.lap); g != "" {
		t.Errorf("laptop still has %q after buildbox ended it", g)
	}
}
