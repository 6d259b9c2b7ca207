package hub

import (
	"time"

	"github.com/agentmux/agentmux/proto"
)

// Core is what the hub needs of the session core (the panes and the relay). Every method
// is safe to call from any goroutine and does not block for long; the hub calls them
// from its loop. A hub without a core (nil) serves protocol clients only.
type Core interface {
	// Members lists the panes (Client false), numbered, with state, group and waiting.
	Members() []proto.Member
	// Send types text into the pane named or numbered to, attributed to from, like any
	// delivery (idle-gated, never over a person's draft, budget-limited), with the
	// delivery options o. It returns a reference that the core's delivery events (and
	// its mail about the message) carry in Event.ID ("" when it has none).
	Send(from, to, text string, o SendOptions) (ref string, err error)
	// Remind types "[agentmux] reminder: TEXT" into the pane named or numbered to
	// after the delay; the reference is Send's.
	Remind(to, text string, after time.Duration) (ref string, err error)
	// Hook reports that the program in the pane named or numbered pane ended its turn,
	// as its hook (event, of program cli) said, with its answer text ("" when none).
	Hook(pane, event, cli, text string) error
	// PaneOf returns the name of the live pane whose secret (its $AGENTMUX_PROOF) is
	// proof; ok is false for any other string.
	PaneOf(proof string) (name string, ok bool)
	// PaneOfProcess returns the name of the live pane whose process tree (or terminal
	// session) process pid belongs to; ok is false for a process outside every pane
	// or where that cannot be told.
	PaneOfProcess(pid int) (name string, ok bool)
	// Link, Unlink, Hold and Release act on panes named or numbered. Link refuses a
	// pane that runs a shell unless shell.
	Link(a, b string, shell bool) error
	Unlink(a string) error
	Hold(a string) error
	Release(a string) error
	// Capture returns the pane's screen, plus lines of history above it, as text (with
	// SGR escapes when sgr).
	Capture(pane string, lines int, sgr bool) (string, error)
	// Register makes name a member that is not a pane, so that a pane's @relay:name or
	// broadcast is handed to deliver (which never blocks: call it from the core's loop).
	// It fails when a pane (or another member) has the name; the func it returns
	// forgets the name.
	Register(name string, deliver func(RelayMessage)) (unregister func(), err error)
	// Subscribe returns the core's events.
	Subscribe() Events
}

// PaneCore is a Core that also starts, respawns, renames and types into panes: the
// pane commands (X_NEW, X_RESPAWN, X_RENAME, X_TYPE), which the hub takes from the
// person only. A hub whose core lacks them refuses them.
type PaneCore interface {
	// New starts a pane now and returns its number and name.
	New(p proto.NewPane) (number int, name string, err error)
	// Respawn starts the command of the pane named or numbered a again; kill ends a
	// program that still runs first (else that is an error).
	Respawn(a string, kill bool) error
	// Rename gives pane a the name name.
	Rename(a, name string) error
	// TypeText types text into pane a exactly, then a carriage return when enter.
	TypeText(a, text string, enter bool) error
	// SetShare sets pane a's width and height shares (percent of an even share; 0
	// leaves one) and returns them as now in force.
	SetShare(a string, width, height int) ([2]int, error)
	// Diff is what pane a's agent changed in its own worktree (an error when it has
	// none).
	Diff(a string) (string, error)
}

// SendOptions are a message's delivery options (payload_meta): Mode is
// proto.ModeSequential (or ""), ModeImportant or ModeUrgent; a message not typed within
// Timeout (0: the core's default) expires; NotifyOnDelivery and NotifyAfter ask for
// notices to the sender, which the core emits as events of Kind "mail" (Member the
// sender, Text the notice, ID the message's reference).
//
// BeforeSubmit, when set, must be called by the core just before it first writes the
// carriage return that submits the message (from any goroutine, once): the hub records
// there, durably, that the pane's program may read it from then on, so that after a
// crash it is typed again marked as a possible repeat, never unmarked. Its error is the
// core's to report; the message is submitted anyway.
type SendOptions struct {
	// ID is the message's id in the store, the same each time it is handed again
	// (after a restart): a core that forwards it (the mesh) keys duplicates on it.
	ID               string
	Mode             string
	Timeout          time.Duration
	NotifyOnDelivery bool
	NotifyAfter      time.Duration
	// Person says the sender is the person (sender "you", from outside every pane):
	// not loop-limited.
	Person       bool
	BeforeSubmit func() error
	// Link, when set, says the message is a turn of the link with another session of
	// that tag, LinkSpent the turns that side spent on it (RelayMessage.Link): the mesh
	// sets it, and the core types it as a linked member's turn.
	Link      string
	LinkSpent int
}

// Warner is a Core that can tell the person of a fault (on their status line). The
// hub warns through it when it cannot record a delivery's phases.
type Warner interface {
	Warn(text string)
}

// Events is a stream of core events in the eventbox style: Ready receives when events
// are pending and is closed when the stream ends; Next takes them all, in order.
// Delivery phases are events of Kind "delivery" with ID the ref Send returned, Member
// the pane's name and Phase one of typed, submitted, confirmed, failed, dropped. A
// delivery the core queued by itself (a pane's relayed turn or @relay command) comes
// first as an event of Kind "relayed": ID a reference of its own (its phases carry it
// then), Member the pane it is for, Peer the sending pane, State the payload's kind and
// Text the whole body. The hub records it and does not pass it on.
type Events interface {
	Ready() <-chan struct{}
	Next() []proto.Event
	Close()
}

// RelayMessage is a message the core routes to a member that is not a pane: a pane's
// @relay:NAME line or its broadcast.
type RelayMessage struct {
	From string
	// FromPane is the sending pane's number (0: not a pane).
	FromPane int
	To       string
	Text     string
	// Kind is the payload's kind (message when ""), Thread its thread.
	Kind, Thread string
	// Link is the tag of the link with another session whose turn this is (Spent: the
	// turns this side spent on it, this one included), or that ended here (End; Text
	// says why).
	Link  string
	Spent int
	End   bool
}
