package proto

import (
	"encoding/json"
	"errors"
)

// This file is X_EVENT's vocabulary: what kinds of events there are and the phases of
// a delivery, each with its wire name, so that writers and readers share constants
// rather than strings. Display words ("waiting for idle") are the screens' business,
// never the wire's.

// EventKind names what an X_EVENT says happened (docs/protocol.md).
type EventKind string

// The event kinds.
const (
	// EventSubscribed comes first, once, on a connection that asked for events.
	EventSubscribed EventKind = "subscribed"
	// EventMember says Member connected, disconnected or changed state (State).
	EventMember EventKind = "member"
	// EventMessage says a message From a member To recipients was queued.
	EventMessage EventKind = "message"
	// EventDelivery is a phase (Phase) of message ID's delivery From a sender To a
	// recipient (Member, To).
	EventDelivery EventKind = "delivery"
	// EventRelayed is a delivery the core queued by itself (a pane's relayed turn or
	// @relay command): From a pane To a member, MsgKind its payload's kind, Text its
	// body. The socket records it and does not pass it on.
	EventRelayed EventKind = "relayed"
	// EventMail is a notice (Text) to sender Member about its message ID.
	EventMail EventKind = "mail"
	// EventTurn is the words (Text) of a turn pane Member just finished.
	EventTurn EventKind = "turn"
	// EventNotice is a notice of the session (Text).
	EventNotice EventKind = "notice"
	// EventExit, EventClosed and EventAlert are pane Member's (by number): its
	// program exited (Code), it was closed, it asks for the person (Text).
	EventExit   EventKind = "exit"
	EventClosed EventKind = "closed"
	EventAlert  EventKind = "alert"
	// EventLinkRequest is a request From NAME@SESSION to link with pane Member (To),
	// waiting for the person; ID is the link's tag.
	EventLinkRequest EventKind = "link-request"
	// EventSpend is what pane Member's program spent on a turn (Spend), To the link the
	// turn counts to ("" for the pane alone).
	EventSpend EventKind = "spend"
	// EventRenamed says the pane named From is named Member now.
	EventRenamed EventKind = "renamed"
)

// Phase is a delivery's phase as the wire names it.
type Phase string

// The phases of a delivery. Queued, Waiting, WaitingPerson and Held are before any
// byte is typed; Typed, Submitting and Submitted are in flight or landed; Delivered is a
// client member's (its DELIVER sent); the rest are final (Final).
const (
	PhaseQueued        Phase = "queued"
	PhaseWaiting       Phase = "waiting"        // for the pane to be idle
	PhaseWaitingPerson Phase = "waiting-person" // for the person typing in it
	PhaseHeld          Phase = "held"           // the pane's deliveries are held
	PhaseDelivered     Phase = "delivered"
	PhaseTyped         Phase = "typed"
	PhaseSubmitted     Phase = "submitted"
	PhaseConfirmed     Phase = "confirmed"
	PhaseFailed        Phase = "failed"
	PhaseDropped       Phase = "dropped"
	PhaseExpired       Phase = "expired"
)

// ErrNotStarted is a core's refusal of a message for a pane whose program could not
// start (a restored pane whose CLI is not installed any more, which shows a note): the
// hub keeps the message, held, and hands it to the pane once its program runs (prefix
// R then f after installing it again, or a later restore). The hub says it keeps it:
// another caller (a message from another session, the web view without a store) keeps
// nothing, and its refusal must not say otherwise.
var ErrNotStarted = errors.New("its program did not start")

// legacyPhases are the relay log's words that sessions before the wire names sent for
// the waiting phases (over the socket and the mesh): read as the phase they meant.
var legacyPhases = map[string]Phase{
	"waiting for idle":       PhaseWaiting,
	"waiting for the person": PhaseWaitingPerson,
}

// UnmarshalText reads a phase, taking an older session's display words for the
// waiting phases as their wire names.
func (p *Phase) UnmarshalText(b []byte) error {
	if ph, ok := legacyPhases[string(b)]; ok {
		*p = ph
		return nil
	}
	*p = Phase(b)
	return nil
}

// Final reports whether p is a message's last phase: it never changes after.
func (p Phase) Final() bool {
	switch p {
	case PhaseConfirmed, PhaseFailed, PhaseDropped, PhaseExpired:
		return true
	}
	return false
}

// Landed reports whether a message in phase p is in its pane (submitted or
// confirmed): the turn the pane finishes next is its answer.
func (p Phase) Landed() bool { return p == PhaseSubmitted || p == PhaseConfirmed }

// Recorded reports whether p is a phase the store keeps a time of (typed, submitted
// and the final ones).
func (p Phase) Recorded() bool { return p == PhaseTyped || p == PhaseSubmitted || p.Final() }

// MarshalJSON writes e with "peer", the field X_EVENT had before "from" and "to", for
// clients of version 1: the sender of a delivery, relayed message or link request, the
// recipients of a message.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	peer := e.From
	if e.Kind == EventMessage || e.Kind == EventSpend {
		peer = e.To
	}
	return json.Marshal(struct {
		plain
		Peer string `json:"peer,omitempty"`
	}{plain(e), peer})
}
