package worktree

import (
	"fmt"
	"strings"
)

// This file is the lock a tree carries while a pane runs in it: git's own worktree
// lock (git worktree lock --reason), so git worktree prune and remove, and agentmux
// worktree rm, leave the tree alone, and the reason names who holds it.

// Holder is who runs in a locked tree: a pane of a session, served by process PID.
type Holder struct {
	Session, Pane string
	PID           int
}

// holderFormat is a lock's reason: the words a person reads in git worktree list.
const holderFormat = "agentmux session %s pane %s (pid %d)"

// Reason is the lock's reason naming h.
func (h Holder) Reason() string { return fmt.Sprintf(holderFormat, h.Session, h.Pane, h.PID) }

// ParseHolder reads a lock's reason written by Reason; false for any other reason
// (git's "initializing", a person's own).
func ParseHolder(reason string) (Holder, bool) {
	var h Holder
	n, err := fmt.Sscanf(reason, holderFormat, &h.Session, &h.Pane, &h.PID)
	if err != nil || n != 3 || h.Reason() != strings.TrimSpace(reason) {
		return Holder{}, false
	}
	return h, true
}

// Lock locks the tree for h (git worktree lock), so that git and agentmux leave it
// alone while h's pane runs in it.
func (t *Tree) Lock(h Holder) error {
	if _, err := git(t.Repo, "worktree", "lock", "--reason", h.Reason(), t.Path); err != nil {
		return err
	}
	t.Locked, t.LockReason = true, h.Reason()
	return nil
}

// Unlock unlocks the tree; a tree that is not locked is no error.
func (t *Tree) Unlock() error {
	if _, err := git(t.Repo, "worktree", "unlock", t.Path); err != nil && !strings.Contains(err.Error(), "not locked") {
		return err
	}
	t.Locked, t.LockReason = false, ""
	return nil
}
