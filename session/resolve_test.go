package session

// Resolve is the one reader of pane names and numbers: names in any case, numbers as
// given, anything else ErrNoPane.

import (
	"errors"
	"testing"
)

func TestResolveNamesInAnyCaseAndNumbers(t *testing.T) {
	r := newRig(t, Options{}, "alice", "bob")
	for ref, want := range map[string]int{"alice": 1, "Alice": 1, "BOB": 2, "2": 2, " 1 ": 1} {
		if got, err := r.s.Resolve(ref); err != nil || got != want {
			t.Errorf("Resolve(%q) = %d, %v; want %d", ref, got, err, want)
		}
	}
	for _, ref := range []string{"carol", "3", ""} {
		if _, err := r.s.Resolve(ref); !errors.Is(err, ErrNoPane) {
			t.Errorf("Resolve(%q): %v, want ErrNoPane", ref, err)
		}
	}
}
