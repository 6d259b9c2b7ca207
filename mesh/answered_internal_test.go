package mesh

import (
	"os"
	"strings"
	"testing"
)

// A link request's answer is taken from the session asked only: another session that
// learnt the request's tag neither links nor ends it, and the request still waits for
// the real answer.
func TestALinkRequestIsAnsweredByTheSessionAskedOnly(t *testing.T) {
	n := &Node{}
	n.links.asked = map[string]askedLink{"T1": {pane: "alice", addr: "bob@buildbox"}}
	if _, ok := n.answered("T1", "mallory"); ok {
		t.Fatal("mallory's answer was taken")
	}
	if _, ok := n.answered("T1", "BuildBox"); ok {
		t.Fatal("BuildBox's answer was taken: session names are exact")
	}
	a, ok := n.answered("T1", "buildbox")
	if !ok || a.pane != "alice" {
		t.Fatalf("buildbox's answer: %+v %v", a, ok)
	}
	if _, ok := n.answered("T1", "buildbox"); ok {
		t.Error("answered twice")
	}
}

// On a file system that ignores case, BOB's credentials file is bob's: the hub makes
// none for BOB over bob's, and logs in no session with a file of another's.
func TestCredentialsAreTheSessionsExactly(t *testing.T) {
	dir := t.TempDir()
	path, err := WriteCreds(dir, "bob")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := sessionKey(dir, "bob")
	if err != nil || pub == "" {
		t.Fatalf("bob's key: %q %v", pub, err)
	}
	// What a case-folding file system does: BOB's path is bob's file.
	if err := os.Link(path, credsPath(dir, "BOB")); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteCreds(dir, "BOB"); err == nil || !strings.Contains(err.Error(), "holds session bob's credentials") {
		t.Errorf("BOB's creds over bob's file: %v", err)
	}
	if k, err := sessionKey(dir, "BOB"); err == nil {
		t.Errorf("BOB logs in with bob's key %s", k)
	}
}
