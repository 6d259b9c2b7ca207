package proto

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// This file holds what the session socket's server (package hub) and the session core
// (package session) both name: the core's side of the seam between them. The hub
// declares the interface it needs; the core's methods take and return these types, so
// neither package imports the other.

// SendOptions are a message's delivery options as the socket hands a message to the
// core: Mode is ModeSequential (or ""), ModeImportant or ModeUrgent; a message not
// typed within Timeout (0: the core's default) expires; NotifyOnDelivery and
// NotifyAfter ask for notices to the sender, which the core emits as events of Kind
// "mail" (Member the sender, Text the notice, ID the message's id).
type SendOptions struct {
	// ID is the caller's id of the message (its id in the store), the same each time
	// it is handed again (after a restart): the core's delivery events and mail about
	// the message carry it back, and a core that forwards it (the mesh) keys
	// duplicates on it.
	ID               string
	Mode             string
	Timeout          time.Duration
	NotifyOnDelivery bool
	NotifyAfter      time.Duration
	// Person says the sender is the person (sender "you", from outside every pane):
	// not loop-limited. Only the host sets it; a client's claim is never taken for it.
	Person bool
	// BeforeSubmit, when set, is called by the core just before it first writes the
	// carriage return that submits the message (from any goroutine, once): the caller
	// records there, durably, that the pane's program may read it from then on, so
	// that after a crash it is typed again marked as a possible repeat, never
	// unmarked. Its error is the core's to report; the message is submitted anyway.
	BeforeSubmit func() error
	// Link, when set, says the message is a turn of the link with another session of
	// that tag, LinkSpent the turns that side spent on it (RelayMessage.Link): the mesh
	// sets it, and the core types it as a linked member's turn.
	Link      string
	LinkSpent int
}

// RelayMessage is a message the core routes to a member that is not a pane (a client
// of the socket, a member of another session): a pane's @relay:NAME line, its
// broadcast, or a relay notice for it as a sender (Kind state, From "agentmux").
type RelayMessage struct {
	// From is the sender's name; FromPane its pane's number (0: not a pane).
	From     string
	FromPane int
	// To is the member's name.
	To   string
	Text string
	// Kind is the payload's kind (message when ""), Thread its thread.
	Kind, Thread string
	// Link is the tag of the link with another session whose turn this is (Spent: the
	// turns this side spent on it, this one included), or that ended here (End; Text
	// says why).
	Link  string
	Spent int
	End   bool
	// Rename (with Link) says this side's pane of the link is now called From (Text:
	// its name before), so that the other side's link follows it.
	Rename bool
}

// Events is a stream of the core's events in the eventbox style: Ready receives when
// events are pending and is closed when the stream ends; Next takes them all, in
// order; Close ends the stream.
//
// Delivery phases are events of Kind EventDelivery with ID the message's id (the one
// SendOptions.ID gave, or the core's own: below), Member and To the pane's name, From
// the sender and Phase one of the Phase constants. A delivery the core queued by
// itself (a pane's relayed turn or @relay command) comes first as an event of Kind
// EventRelayed: ID the id the core gave it (NewID; its phases carry it), Member and To
// the pane it is for, From the sending pane, MsgKind the payload's kind and Text the
// whole body. The socket records it and does not pass it on.
type Events interface {
	Ready() <-chan struct{}
	Next() []Event
	Close()
}

// NewToken returns 128 random bits in hex: a secret, or a name no one can tell in
// advance (a pane's proof, a resume token, a mesh link's tag).
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// NewID returns a new message id made at now: the milliseconds in hex (ids sort by
// time), then random bits. Ids are unique across restarts of a session, so one made
// by the core for a delivery of its own is a message id in the store as well.
func NewID(now time.Time) string {
	var r [5]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf("m%011x%s", now.UnixMilli(), hex.EncodeToString(r[:]))
}

// Origin is where a process that connected to the session socket runs, as the kernel
// says (its peer credentials, then its user namespace or its parents): the person (a
// process outside every pane of every session), a pane of this session, or neither.
// Nothing a client sends changes it.
type Origin struct {
	// Person is true for a process outside every pane of every session: only then
	// may the client act as the person.
	Person bool
	// Pane is the pane of this session the process runs in ("" when none or unknown).
	Pane string
	// Why says, when the process is neither the person nor a known pane, what it is
	// instead ("a process of another session's pane", …).
	Why string
}

// OriginEnded is the origin of a client whose connecting process ended before where it
// runs was read (peer.Process.Alive): its id may name another process by then, so it
// is neither the person nor a pane, whatever runs with that id.
var OriginEnded = Origin{Why: "a process that ended after it connected"}

// Where names o for an error message: "pane NAME", Why, or "the person".
func (o Origin) Where() string {
	switch {
	case o.Pane != "":
		return "pane " + o.Pane
	case !o.Person && o.Why != "":
		return o.Why
	case !o.Person:
		return "a process that is not the person"
	}
	return "the person"
}

// Isolation names how a session tells its panes' processes from the person's: a user
// namespace of each pane's own (IsolationUserNS), or the processes' parents alone
// (IsolationLineage: best effort, where user namespaces cannot be made).
const (
	IsolationUserNS  = "user-namespace"
	IsolationLineage = "process-lineage"
)
