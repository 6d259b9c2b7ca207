package relay

// Strategy: a fake-clock scenario (sim_test.go) following message ids: the caller's id
// of a Send or a Remind is on every entry of its delivery and on the mail about it; a
// delivery the relay queues by itself gets one from Config.NewID and is marked Own; a
// notice to a pane is no message and has none.

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMessageIDsAreCarried(t *testing.T) {
	made := 0
	cfg := Config{NewID: func(time.Time) string { made++; return "own" + strconv.Itoa(made) }}
	h, _, _ := twoAgents(t, cfg, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.handle(Send{FromName: "ops", To: 2, Text: "hello", Options: Options{ID: "m1", NotifyOnDelivery: true}})
	h.handle(Send{From: 2, To: 1, Text: "from a pane", Options: Options{ID: "m2", NotifyOnDelivery: true}})
	h.handle(Remind{Pane: 1, Text: "check the build", After: time.Minute, ID: "m3"})
	h.run(2 * time.Minute)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "work")    // alice answers: her turn goes to bob, a delivery of the relay's own
	h.run(4 * time.Minute) // run's times count from the start

	if m := h.r.TakeMail(); len(m) != 1 || m[0].ID != "m1" {
		t.Errorf("mail %+v: want one, about m1", m)
	}
	type seen struct {
		id  string
		own bool
	}
	got := map[string]seen{}
	for _, e := range h.r.Log() {
		if e.Delivery > 0 {
			if old, ok := got[e.Words]; ok && old != (seen{e.ID, e.Own}) {
				t.Errorf("%q: id changed from %+v to %+v", e.Words, old, seen{e.ID, e.Own})
			}
			got[e.Words] = seen{e.ID, e.Own}
		}
	}
	want := map[string]seen{
		"hello":                                {"m1", false},
		"from a pane":                          {"m2", false},
		"[agentmux] reminder: check the build": {"m3", false},
		`[agentmux] delivered to alice (1): "from a pane"`: {"", false},
	}
	for words, w := range want {
		if g, ok := got[words]; !ok || g != w {
			t.Errorf("%q: got %+v (logged: %v), want %+v", words, g, ok, w)
		}
	}
	ids := map[string]bool{}
	for words, g := range got {
		if g.own {
			if !strings.HasPrefix(g.id, "own") || ids[g.id] {
				t.Errorf("%q: own delivery with id %q (not NewID's, or not its own)", words, g.id)
			}
			ids[g.id] = true
		}
	}
	if len(ids) == 0 || len(ids) != made {
		t.Errorf("%d deliveries of the relay's own with ids, NewID made %d: %+v", len(ids), made, got)
	}
}
