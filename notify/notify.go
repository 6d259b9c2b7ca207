package notify

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/proto"
)

// The events a note may be about, as config.toml's [notify] events and the JSON's
// "event" name them.
const (
	NeedsYou = "needs-you" // a pane waits at an approval prompt
	Budget   = "budget"    // a relay budget is spent: a link severed, a message not sent
	Exited   = "exited"    // an agent's program exited or was killed
	Expired  = "expired"   // a message expired before it was delivered
	Turn     = "turn"      // a pane finished a turn (off unless asked for)
	Summary  = "summary"   // several notes that came together
)

// DefaultEvents are the events notified unless [notify] events says otherwise.
var DefaultEvents = []string{NeedsYou, Budget, Exited, Expired}

// AllEvents are every event [notify] events may name.
var AllEvents = []string{NeedsYou, Budget, Exited, Expired, Turn}

// Note is one notification, as the command reads it on its stdin and the webhook
// receives it: a JSON object.
type Note struct {
	Event   string `json:"event"`
	Session string `json:"session"`
	// Pane and Name say which pane (0 and "" for a note about no one pane).
	Pane int    `json:"pane,omitempty"`
	Name string `json:"name,omitempty"`
	// Title and Message say it in words ("claude (2) needs you", the question).
	Title   string `json:"title"`
	Message string `json:"message,omitempty"`
	// Asks (needs-you) is what the pane asks; Excerpt the pane's rows around it.
	Asks    *proto.Asks `json:"asks,omitempty"`
	Excerpt []string    `json:"excerpt,omitempty"`
	// URL is the session's web view's address while it runs (without its secret: a
	// page opened before, or a link from agentmux web, opens it).
	URL string `json:"url,omitempty"`
	// At is when it happened (Unix ms).
	At int64 `json:"at"`
	// Notes (summary) are the notes gathered into this one; Count how many.
	Notes []Note `json:"notes,omitempty"`
	Count int    `json:"count,omitempty"`
}

// Config says where notes go and which are sent.
type Config struct {
	// Session names the session in every note.
	Session string
	// Command runs for each note, the note's JSON (one line) on its stdin.
	Command []string
	// Webhook is POSTed each note's JSON; Ntfy (an ntfy topic's URL) is POSTed its
	// message with a Title, and a Click header when the web view runs.
	Webhook, Ntfy string
	// Events are the events sent (nil: DefaultEvents).
	Events []string
	// Window is how long notes are gathered after the first before they go out as
	// one (0: DefaultWindow).
	Window time.Duration
	// Timeout bounds one command run or request (0: DefaultTimeout).
	Timeout time.Duration
	// URL returns the web view's address, "" when it does not run (nil: none).
	URL func() string
	// Warn tells the person of a notifier that fails (their status line), once per
	// spell of failures; nil logs only.
	Warn func(string)
	// Logger receives what went out and what failed; nil discards it.
	Logger *slog.Logger
}

// Defaults: notes that come within DefaultWindow of the first are sent as one; a
// command or request gets DefaultTimeout; a notifier holds at most QueueLen notes
// behind the one it sends.
const (
	DefaultWindow  = 150 * time.Millisecond
	DefaultTimeout = 10 * time.Second
	QueueLen       = 16
	inLen          = 256
)

// Notifier gathers notes and hands them to the notifiers. Its methods are safe from
// any goroutine.
type Notifier struct {
	cfg    Config
	events map[string]bool
	log    *slog.Logger
	in     chan Note
	sinks  []*sink
	done   chan struct{}

	mu      sync.Mutex
	closed  bool
	dropped int
}

// New starts a Notifier for cfg (which must hold at least one notifier; see Enabled).
func New(cfg Config) *Notifier {
	if cfg.Window <= 0 {
		cfg.Window = DefaultWindow
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	events := cfg.Events
	if events == nil {
		events = DefaultEvents
	}
	n := &Notifier{cfg: cfg, events: map[string]bool{}, log: log, in: make(chan Note, inLen), done: make(chan struct{})}
	for _, e := range events {
		n.events[e] = true
	}
	if len(cfg.Command) > 0 {
		n.sinks = append(n.sinks, newSink("command", n, runCommand))
	}
	if cfg.Webhook != "" {
		n.sinks = append(n.sinks, newSink("webhook", n, postWebhook))
	}
	if cfg.Ntfy != "" {
		n.sinks = append(n.sinks, newSink("ntfy", n, postNtfy))
	}
	go n.loop()
	return n
}

// Enabled reports whether cfg sends notes anywhere.
func (c Config) Enabled() bool { return len(c.Command) > 0 || c.Webhook != "" || c.Ntfy != "" }

// Wants reports whether notes about event are sent.
func (n *Notifier) Wants(event string) bool { return n.events[event] }

// Notify queues a note, never blocking: a note about an event not asked for is
// ignored, and one that finds the queue full is dropped (and logged).
func (n *Notifier) Notify(note Note) {
	if !n.events[note.Event] {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	select {
	case n.in <- note:
	default:
		n.dropped++
		n.log.Warn("notify: queue full, note dropped", "event", note.Event, "pane", note.Pane, "dropped", n.dropped)
	}
}

// Close sends what is gathered, then waits for the notifiers to finish what they
// hold (each bounded by its timeout).
func (n *Notifier) Close() {
	n.mu.Lock()
	if !n.closed {
		n.closed = true
		close(n.in)
	}
	n.mu.Unlock()
	<-n.done
}

// loop gathers notes for Window after the first, then sends them as one.
func (n *Notifier) loop() {
	defer close(n.done)
	defer func() {
		for _, s := range n.sinks {
			s.close()
		}
	}()
	var batch []Note
	var timer *time.Timer
	var fire <-chan time.Time
	flush := func() {
		if len(batch) > 0 {
			n.send(gather(batch))
		}
		batch, fire = nil, nil
	}
	for {
		select {
		case note, ok := <-n.in:
			if !ok {
				if timer != nil {
					timer.Stop()
				}
				flush()
				return
			}
			batch = append(batch, note)
			if fire == nil {
				timer = time.NewTimer(n.cfg.Window)
				fire = timer.C
			}
		case <-fire:
			flush()
		}
	}
}

// send hands note to every notifier.
func (n *Notifier) send(note Note) {
	if n.cfg.URL != nil && note.URL == "" {
		note.URL = n.cfg.URL()
	}
	if note.Session == "" {
		note.Session = n.cfg.Session
	}
	for _, s := range n.sinks {
		s.offer(note)
	}
}

// gather makes one note of notes that came together: itself when alone, else a
// summary that names them all ("6 panes need you: Do you want to proceed?").
func gather(notes []Note) Note {
	if len(notes) == 1 {
		return notes[0]
	}
	notes = slices.Clone(notes)
	slices.SortStableFunc(notes, func(a, b Note) int { return a.Pane - b.Pane }) // in the panes' order
	s := Note{Event: Summary, Session: notes[0].Session, Notes: notes, Count: len(notes), At: notes[len(notes)-1].At}
	names := make([]string, len(notes))
	same := notes[0].Event
	question := notes[0].Message
	for i, n := range notes {
		names[i] = n.Name
		if n.Name == "" {
			names[i] = n.Event
		}
		if n.Event != same {
			same = ""
		}
		if n.Message != question {
			question = ""
		}
	}
	switch same {
	case NeedsYou:
		s.Title = fmt.Sprintf("%d panes need you", len(notes))
	case "":
		s.Title = fmt.Sprintf("%d things happened", len(notes))
	default:
		s.Title = fmt.Sprintf("%d × %s", len(notes), same)
	}
	s.Message = strings.Join(names, ", ")
	if question != "" {
		s.Title += ": " + question
	}
	return s
}

// JSON is note as one line of JSON.
func (note Note) JSON() []byte {
	b, _ := json.Marshal(note)
	return b
}
