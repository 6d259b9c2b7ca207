package relay

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/usage"
)

// Phase is where a delivery stands, as the relay log shows it.
type Phase int

// The phases of a delivery. Waiting, WaitingPerson and Held are queued; Typed and
// Submitted are in flight; the rest are final.
const (
	// Waiting means waiting for the target to be idle (or for earlier deliveries to it).
	Waiting Phase = iota
	// WaitingPerson means a person is typing in the target or must answer a prompt there.
	WaitingPerson
	// Held means the target's deliveries are held (prefix p).
	Held
	// Typed means the text was typed; the submitting carriage return follows.
	Typed
	// Submitted means the carriage return was sent; the target has not gone busy yet.
	Submitted
	// Confirmed means the target went busy after the submit: delivered.
	Confirmed
	// Failed means the target never went busy, even after a second carriage return.
	Failed
	// Dropped means the delivery was abandoned: the target left, exited or was closed.
	Dropped
	// Expired means the delivery was not typed within its timeout: it never will be.
	Expired
)

// String returns the phase as the relay log shows it.
func (p Phase) String() string {
	switch p {
	case Waiting:
		return "waiting for idle"
	case WaitingPerson:
		return "waiting for the person"
	case Held:
		return "held"
	case Typed:
		return "typed"
	case Submitted:
		return "submitted"
	case Confirmed:
		return "confirmed"
	case Failed:
		return "failed"
	case Dropped:
		return "dropped"
	case Expired:
		return "expired"
	}
	return fmt.Sprintf("phase(%d)", int(p))
}

// Final reports whether the phase will not change again.
func (p Phase) Final() bool { return p >= Confirmed }

// Entry is one line of the relay log: a delivery (Delivery > 0), whose Phase changes
// in place as it progresses, or a notice (Delivery == 0) such as a link, a group severed
// because its budget is spent, or a repeated delta that was not sent.
type Entry struct {
	// At is when the entry was made; Changed when it last changed.
	At, Changed time.Time
	// Delivery numbers a delivery (from 1); 0 for a notice. ID is its message id: the
	// caller's (Options.ID, Remind.ID), or one Config.NewID made for a delivery the
	// relay queued by itself; "" for anything else.
	Delivery int
	ID       string
	// Own marks a delivery the relay queued by itself, which no caller sent: a pane's
	// turn relayed to its group, or its relay command.
	Own bool
	// From and To are pane numbers (0 when not about one pane), FromName and ToName
	// their names.
	From, To         int
	FromName, ToName string
	// Size is the delivery's length in characters, words included, frame excluded.
	Size int
	// Words are the delivery's first words, on one line.
	Words string
	// Phase is the delivery's phase (meaningless for a notice).
	Phase Phase
	// Note says more: why a delivery was dropped, or the notice itself.
	Note string
	// Kind is the kind of the relay command behind the entry ("" for a turn or a
	// notice): a message or action is a delivery; a thinking or state command is never
	// typed, and is an entry of its own (Delivery 0) with its whole Body, for history
	// and protocol clients. Thread is the command's thread.
	Kind   parser.Kind
	Thread string
	// Body is the whole text behind Words: a delivery's words as typed (frame excluded,
	// at most Config.Limit characters, so the log stays bounded at LogLimit entries of
	// that), or a thinking or state command's body; "" for a notice.
	Body string
	// Mode is a sent message's mode (Sequential for everything else).
	Mode Mode
	// Source says where a relayed turn's words came from: SourceHook (the program's
	// hook gave the answer as the model wrote it) or SourceScreen (the screen's delta);
	// "" for everything else.
	Source string
}

// String renders the entry as one relay-log line.
func (e Entry) String() string {
	ts := e.At.Format("15:04:05")
	if e.Delivery == 0 {
		return ts + "  " + e.Note
	}
	s := fmt.Sprintf("%s  %d %s → %d %s  %d chars  %q  %s", ts, e.From, e.FromName, e.To, e.ToName, e.Size, e.Words, e.Phase)
	if e.Mode != Sequential {
		s += "  " + e.Mode.String()
	}
	if e.Note != "" {
		s += " (" + e.Note + ")"
	}
	return s
}

// firstWords is how many characters of a delivery's words its log entry shows.
const firstWords = 60

// summary returns the first words of text on one line.
func summary(text string) string {
	s := strings.Join(strings.Fields(text), " ")
	if r := []rune(s); len(r) > firstWords {
		s = string(r[:firstWords-1]) + "…"
	}
	return s
}

// log appends an entry, dropping the oldest past the limit, and returns it for later
// updates.
func (r *Relay) log(e Entry) *Entry {
	if e.Changed.IsZero() {
		e.Changed = e.At
	}
	p := &e
	r.logged++
	r.entries = append(r.entries, p)
	if over := len(r.entries) - r.cfg.LogLimit; over > 0 {
		for _, old := range r.entries[:over] {
			if old.Delivery != 0 && !old.Phase.Final() {
				r.rolled = append(r.rolled, old)
			}
		}
		r.entries = append(r.entries[:0], r.entries[over:]...)
	}
	return p
}

// Rolled returns copies of the entries of deliveries that left the log (past
// Config.LogLimit) before they ended, oldest first, and forgets the ones that have
// ended: a host that reads after every event it handles sees each one's final phase
// once. They are as many as the deliveries still on their way.
func (r *Relay) Rolled() []Entry {
	if len(r.rolled) == 0 {
		return nil
	}
	out := make([]Entry, len(r.rolled))
	for i, e := range r.rolled {
		out[i] = *e
	}
	r.rolled = slices.DeleteFunc(r.rolled, func(e *Entry) bool { return e.Phase.Final() })
	return out
}

// notice logs a notice about pane (0 for none).
func (r *Relay) notice(now time.Time, pane int, format string, args ...any) {
	e := Entry{At: now, Note: fmt.Sprintf(format, args...)}
	if p := r.panes[pane]; p != nil {
		e.From, e.FromName = p.id, p.name
	}
	r.log(e)
}

// Logged returns how many entries were ever added to the relay log (old ones are
// dropped past the limit; this count never goes down), so a host can tell what is new
// without copying the log.
func (r *Relay) Logged() int { return r.logged }

// Log returns a copy of the relay log, oldest first.
func (r *Relay) Log() []Entry {
	out := make([]Entry, len(r.entries))
	for i, e := range r.entries {
		out[i] = *e
	}
	return out
}

// GroupStatus describes one group for the status line.
type GroupStatus struct {
	// ID numbers the group (from 1, never reused).
	ID int
	// Members are the member panes, by number.
	Members []int
	// Remote is the member of another session the group's one pane is linked with
	// ("" for a group of this session's panes).
	Remote string
	// Used and Budget are the turns spent and allowed (for a link with another
	// session, by both sides).
	Used, Budget int
	// Tag names a link with another session on both sides, and Peer is the part of
	// Used the other side spent ("" and 0 for a group of this session's panes).
	Tag  string
	Peer int
	// Limit is the group's spend budget (zero: none) and Spent what the turns its
	// deliveries started spent.
	Limit usage.Budget
	Spent SpendTotal
}

// String renders the group as the status line shows it, e.g. "1⇄2 3/8".
func (g GroupStatus) String() string {
	ids := make([]string, len(g.Members))
	for i, m := range g.Members {
		ids[i] = fmt.Sprint(m)
	}
	if g.Remote != "" {
		ids = append(ids, g.Remote)
	}
	s := fmt.Sprintf("%s %d/%d", strings.Join(ids, "⇄"), g.Used, g.Budget)
	if !g.Limit.IsZero() {
		s += " " + g.Spent.Short(g.Limit)
	}
	return s
}

// Status summarises the relay for the status line.
type Status struct {
	// Groups are the live groups, by ID.
	Groups []GroupStatus
	// Waiting counts deliveries not yet typed; InFlight those typed and not yet
	// confirmed or failed.
	Waiting, InFlight int
}

// String renders the summary, e.g. "1⇄2 3/8 · 1 waiting"; "" when there is nothing to say.
func (s Status) String() string {
	var parts []string
	for _, g := range s.Groups {
		parts = append(parts, g.String())
	}
	if s.Waiting > 0 {
		parts = append(parts, fmt.Sprintf("%d waiting", s.Waiting))
	}
	return strings.Join(parts, " · ")
}

// Status returns the summary for the status line.
func (r *Relay) Status() Status {
	var s Status
	for _, g := range r.groups {
		s.Groups = append(s.Groups, GroupStatus{ID: g.id, Members: append([]int(nil), g.members...), Remote: g.remote, Used: g.spent(), Budget: g.budget,
			Tag: g.tag, Peer: g.peer, Limit: g.limit, Spent: g.spend})
	}
	sort.Slice(s.Groups, func(i, j int) bool { return s.Groups[i].ID < s.Groups[j].ID })
	for _, p := range r.panes {
		s.Waiting += len(p.queue)
		if p.inflight != nil {
			s.InFlight++
		}
	}
	return s
}

// PaneStatus describes one pane for its border.
type PaneStatus struct {
	// State is what the pane's title and screen last said (Unknown for a program no
	// profile reads); Idle is also reported once a quiet program passed --idle.
	State parser.State
	// Started is true once the program finished starting (idle and quiet for --idle):
	// only then is anything typed into it, or a turn of it relayed.
	Started bool
	// Group is the pane's group ID, 0 when not linked.
	Group int
	// Held is true while deliveries into the pane are held; Typing while a person's
	// draft or recent keystrokes hold them.
	Held, Typing bool
	// Waiting counts deliveries queued for the pane.
	Waiting int
	// Typed is true while a delivery has been typed into the pane and its submitting
	// carriage return has not been sent yet: a host holds the person's input to the
	// pane meanwhile, so it cannot mix into the delivery (see Submit).
	Typed bool
	// Exited is true once the pane's program exited or it was closed.
	Exited bool
	// Aside is true while the person's draft is set aside for deliveries (aside.go).
	Aside bool
}

// Pane returns a pane's status, and false for a pane never opened.
func (r *Relay) Pane(id int) (PaneStatus, bool) {
	p := r.panes[id]
	if p == nil {
		return PaneStatus{}, false
	}
	s := PaneStatus{
		State:   p.state,
		Started: p.started,
		Held:    p.held,
		Typing:  p.typing(r.now, r.cfg),
		Waiting: len(p.queue),
		Typed:   p.inflight != nil && p.inflight.phase == Typed,
		Exited:  p.exited,
		Aside:   p.aside != nil,
	}
	if s.State == parser.Unknown && p.quietFor(r.now, r.cfg) {
		s.State = parser.Idle
	}
	if p.group != nil {
		s.Group = p.group.id
	}
	return s, true
}
