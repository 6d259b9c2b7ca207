package relay

// Strategy: the fake-clock simulation (sim_test.go). Agents print turns holding
// `@relay:NAME message` lines or [[RELAY]] blocks; the test checks who is typed into,
// with what, and that the group or direct budget limits them. Unlinked panes address
// each other here with addressing on for the session (--address); kinds_test.go has
// what happens when it is off.

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// trio opens alice, bob and carol, all idle, none linked, and lets them start.
func trio(t *testing.T, cfg Config) (*harness, *fakeAgent) {
	h := newHarness(t, cfg)
	alice := h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "bob", &fakeAgent{titled: true, reply: counter("bob")})
	h.agent(3, "carol", &fakeAgent{titled: true, reply: counter("carol")})
	h.run(3 * time.Second)
	return h, alice
}

// typedTo returns the texts typed into pane id.
func (h *harness) typedTo(id int) []string {
	var out []string
	for _, rec := range h.typed {
		if rec.to == id {
			out = append(out, rec.text)
		}
	}
	return out
}

func TestAddressUnlinked(t *testing.T) {
	h, alice := trio(t, Config{Address: true})
	alice.answer("Let me ask.\n@relay:bob can you check the tests?")
	h.run(10 * time.Second)
	got := h.typedTo(2)
	if len(got) != 1 || strings.Join(strings.Fields(got[0]), " ") != "alice (1): can you check the tests?" {
		t.Fatalf("bob was typed %q: want the addressed message alone, attributed", got)
	}
	if c := h.typedTo(3); len(c) != 0 {
		t.Errorf("carol was typed %q: only the addressee gets it", c)
	}
	if len(h.r.Status().Groups) != 0 {
		t.Errorf("an @relay command made a group: %+v", h.r.Status())
	}
}

func TestAddressByNumberAndBlock(t *testing.T) {
	h, alice := trio(t, Config{Address: true})
	alice.answer(`[[RELAY]]{"to": "3", "type": "message", "text": "hello carol"}[[/RELAY]]`)
	h.run(10 * time.Second)
	if got := h.typedTo(3); len(got) != 1 || !strings.HasSuffix(got[0], "hello carol") {
		t.Fatalf("carol was typed %q", got)
	}
}

func TestAddressDirectBudget(t *testing.T) {
	h, alice := trio(t, Config{Address: true, Turns: 2})
	for i, at := range []time.Duration{10, 20, 30} {
		alice.answer("@relay:bob message " + string(rune('A'+i)))
		h.run(at * time.Second)
	}
	if got := h.typedTo(2); len(got) != 2 {
		t.Fatalf("bob was typed %d messages, want 2 (the direct budget): %q", len(got), got)
	}
	if !strings.Contains(strings.Join(h.notes(), "\n"), "direct budget spent (2/2) between 1 and 2") {
		t.Errorf("no notice of the spent budget: %q", h.notes())
	}
	// A link a pane's program makes does not renew it (LinkByPane); a person's does.
	if err := h.linkByPane(1, 3); err != nil {
		t.Fatalf("alice's program linking with carol: %v", err)
	}
	alice.answer("@relay:bob message D")
	h.run(40 * time.Second)
	if got := h.typedTo(2); len(got) != 2 {
		t.Errorf("after alice's program linked, bob was typed %d messages, want still 2: %q", len(got), got)
	}
	h.handle(Unlink{Pane: 1})
	h.handle(Link{Pane: 1, With: 3})
	alice.answer("@relay:bob message E")
	h.run(50 * time.Second)
	if got := h.typedTo(2); len(got) != 3 {
		t.Errorf("after the person's link, bob was typed %d messages, want 3", len(got))
	}
}

func TestAddressInGroupSpendsGroupBudget(t *testing.T) {
	h, alice := trio(t, Config{Turns: 8})
	h.handle(LinkAll{Panes: []int{1, 2, 3}})
	alice.answer("@relay:carol just you")
	h.run(10 * time.Second)
	if got := h.typedTo(3); len(got) == 0 || !strings.HasSuffix(got[0], "just you") {
		t.Fatalf("carol was typed %q", got)
	}
	if b := h.typedTo(2); len(b) != 0 && strings.Contains(strings.Join(b, "\n"), "just you") {
		t.Errorf("bob got a message addressed to carol: %q", b)
	}
	if g := h.r.Status().Groups; len(g) != 1 || g[0].Used < 1 {
		t.Errorf("the group's budget was not spent: %+v", g)
	}
}

func TestAddressBadCommandsNotSent(t *testing.T) {
	h, alice := trio(t, Config{Address: true})
	alice.answer("@relay:nobody hello\n@relay:alice me\n[[RELAY]]{bad json}[[/RELAY]]")
	h.run(10 * time.Second)
	if len(h.typed) != 0 {
		t.Fatalf("typed %+v", h.typed)
	}
	notes := strings.Join(h.notes(), "\n")
	for _, want := range []string{`addressed "nobody": no such pane`, "addressed itself", "bad JSON"} {
		if !strings.Contains(notes, want) {
			t.Errorf("no notice %q in %q", want, notes)
		}
	}
}

// Addressee returns the number of the live pane to refers to (Refers), 0 when there is
// none: the tests' way of addressing a Send as the session does.
func (r *Relay) Addressee(to string) int {
	if p := r.addressee(to); p != nil {
		return p.id
	}
	return 0
}

// TestRefers pins the one rule by which a ref becomes a pane: its number, or its name
// in any case, surrounding space ignored; never another pane's number spelled as a name.
func TestRefers(t *testing.T) {
	for _, c := range []struct {
		ref  string
		want bool
	}{{"alice", true}, {"ALICE", true}, {" Alice\t", true}, {"2", true}, {" 2 ", true},
		{"3", false}, {"alic", false}, {"alice2", false}, {"", false}} {
		if got := Refers(c.ref, 2, "alice"); got != c.want {
			t.Errorf("Refers(%q, 2, alice) = %v, want %v", c.ref, got, c.want)
		}
	}
}

// A shell runs what is typed into it: no pane's relay command reaches a pane running
// one, addressed by name or to every pane (*), addressing on or not; a group the
// person made with it (LinkShell) does, as its turns do.
func TestNoRelayCommandReachesAShell(t *testing.T) {
	h := newHarness(t, Config{Address: true})
	alice := h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "sh", &fakeAgent{titled: true, shell: true, reply: counter("sh")})
	h.agent(3, "carol", &fakeAgent{titled: true, reply: counter("carol")})
	h.run(3 * time.Second)
	alice.answer("@relay:sh touch PWNED\n@relay:* hello all")
	h.run(10 * time.Second)
	if got := h.typedTo(2); len(got) != 0 {
		t.Fatalf("the shell was typed %q", got)
	}
	if got := h.typedTo(3); len(got) != 1 || !strings.HasSuffix(got[0], "hello all") {
		t.Errorf("carol was typed %q: the broadcast reaches the panes that are no shell", got)
	}
	if !strings.Contains(strings.Join(h.notes(), "\n"), "2 sh: not sent: it runs a shell") {
		t.Errorf("the refusal is not said: %q", h.notes())
	}

	h.handle(Link{Pane: 1, With: 2}) // the person links the shell with alice
	alice.answer("@relay:sh ls")
	h.run(20 * time.Second)
	if got := h.typedTo(2); len(got) == 0 || !strings.HasSuffix(got[len(got)-1], "ls") {
		t.Errorf("a group the person made with the shell: its command was not typed (%q)", got)
	}
}

// A pane's program may link agent panes, but not into a group that holds a shell a
// person linked, from either side: the person's link with the shell was for the panes
// they chose.
func TestAPaneLinksIntoNoGroupWithAShell(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "sh", &fakeAgent{titled: true, shell: true})
	h.agent(3, "mallory", &fakeAgent{titled: true})
	h.run(3 * time.Second)
	h.handle(Link{Pane: 2, With: 1})
	for _, ab := range [][2]int{{3, 1}, {1, 3}, {3, 2}} {
		_, err := h.r.LinkByPane(ab[0], ab[1], h.now)
		if !errors.Is(err, ErrShellGroup) {
			t.Errorf("LinkByPane(%d, %d): %v, want ErrShellGroup", ab[0], ab[1], err)
		}
	}
	if g := h.r.Status().Groups; len(g) != 1 || len(g[0].Members) != 2 {
		t.Errorf("groups %+v: the person's link alone", g)
	}
}
