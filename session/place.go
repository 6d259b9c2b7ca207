package session

import (
	"errors"
	"fmt"
)

// Place is where a process runs, as far as telling the person from a pane's program
// goes: its user namespace (nsfs device and inode), that namespace's uid map, and the
// boot they belong to. A session's record keeps its server's (the person's), and a
// restore started from anywhere else is refused (Admits): a pane's program, which runs
// in a user namespace of its own, would otherwise bring back a session of the person's
// with itself as the person, and lock the person out of it.
type Place struct {
	Boot   string `json:"boot"`
	Dev    uint64 `json:"dev"`
	Ino    uint64 `json:"ino"`
	UIDMap string `json:"uid_map"`
}

// initUserNSIno is the inode of the system's own user namespace, the same on every
// boot (the kernel's PROC_USER_INIT_INO).
const initUserNSIno = 0xEFFFFFFD

// ErrNotThePersonsPlace means a restore ran in another user namespace than the
// session it would bring back: most likely in a pane of a session.
var ErrNotThePersonsPlace = errors.New("only the person who ran a session restores it")

// Admits says whether a process at here may restore a session whose server ran at
// rec (nil: a record from before places were kept). A Boot "" on both sides is a system
// without user namespaces (not Linux), where processes are told apart by their parents:
// no check; on Linux a place that cannot be read (a pane can hide /proc/sys in a mount
// namespace of its own) admits nothing. In the
// same boot the namespace must be rec's own; after a reboot, when namespaces are made
// anew, one with the same uid map (the system's own is the whole identity map, which
// a pane's never is). A record without a place is restored only from the system's
// own namespace.
func (rec *Place) Admits(here Place) error {
	switch {
	case here.Boot == "" && !placesKnown && (rec == nil || rec.Boot == ""):
		return nil
	case here.Boot == "":
		return fmt.Errorf("%w: where this process runs cannot be read", ErrNotThePersonsPlace)
	case rec == nil && here.Ino == initUserNSIno:
		return nil
	case rec == nil:
		return fmt.Errorf("%w: this process runs in a user namespace of its own (an agentmux pane's, a container's), and the record is from before agentmux noted where its person ran: restore it from outside", ErrNotThePersonsPlace)
	case rec.Boot == here.Boot && (rec.Dev != here.Dev || rec.Ino != here.Ino),
		rec.Boot != here.Boot && rec.UIDMap != here.UIDMap:
		return fmt.Errorf("%w: this process runs in another user namespace than the session did (an agentmux pane's?): restore it where it was started", ErrNotThePersonsPlace)
	}
	return nil
}
