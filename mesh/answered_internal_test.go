package mesh

import "testing"

// A link request's answer is taken from the session asked only: another session that
// learnt the request's tag neither links nor ends it, and the request still waits for
// the real answer.
func TestALinkRequestIsAnsweredByTheSessionAskedOnly(t *testing.T) {
	n := &Node{}
	n.links.asked = map[string]askedLink{"T1": {pane: "alice", addr: "bob@buildbox"}}
	if _, ok := n.answered("T1", "mallory"); ok {
		t.Fatal("mallory's answer was taken")
	}
	a, ok := n.answered("T1", "BuildBox")
	if !ok || a.pane != "alice" {
		t.Fatalf("buildbox's answer: %+v %v", a, ok)
	}
	if _, ok := n.answered("T1", "buildbox"); ok {
		t.Error("answered twice")
	}
}
