package hub_test

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/proto"
)

// fakeCore is a Core for tests: panes are names; Send records and hands each delivery
// to the test on sent; Emit sends core events. Like the session, it resolves a name in
// any case or a number to the pane's number, and its pane commands take numbers.
type fakeCore struct {
	mu         sync.Mutex
	panes      []proto.Member
	registered map[string]bool
	sinks      map[string]func(proto.RelayMessage)
	actions    []string
	sent       chan fakeSend
	ev         *fakeEvents
	refuse     map[string]error
	opts       []proto.SendOptions
	reminds    chan fakeRemind
	warned     chan string    // what Warn told the person
	inside     map[int]string // process id → the pane it runs in
	// usageIn, when set, is told each Usage call begins, which then waits for
	// usageGate to close.
	usageIn, usageGate chan struct{}
}

type fakeRemind struct {
	id, to, text string
	after        time.Duration
	from         string
}

// fakeSend is a Send the core got: id is the caller's message id (SendOptions.ID).
type fakeSend struct{ id, from, to, text string }

func newFakeCore(panes ...string) *fakeCore {
	f := &fakeCore{registered: map[string]bool{}, sinks: map[string]func(proto.RelayMessage){}, sent: make(chan fakeSend, 1000), reminds: make(chan fakeRemind, 100), warned: make(chan string, 100), ev: newFakeEvents(), refuse: map[string]error{}}
	for i, p := range panes {
		f.panes = append(f.panes, proto.Member{Number: i + 1, Name: p, Program: "claude", State: "idle"})
	}
	return f
}

func (f *fakeCore) Panes() []proto.Member {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]proto.Member(nil), f.panes...)
}

// Resolve finds a pane by name, in any case, or by number.
func (f *fakeCore) Resolve(ref string) (int, error) {
	n, numErr := strconv.Atoi(ref)
	for _, p := range f.Panes() {
		if strings.EqualFold(p.Name, ref) || numErr == nil && p.Number == n {
			return p.Number, nil
		}
	}
	return 0, fmt.Errorf("no pane %q", ref)
}

// name is pane id's name ("?" for none).
func (f *fakeCore) name(id int) string {
	for _, p := range f.Panes() {
		if p.Number == id {
			return p.Name
		}
	}
	return "?"
}

func (f *fakeCore) Send(from, to, text string, o proto.SendOptions) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.refuse[to]; err != nil {
		return err
	}
	f.opts = append(f.opts, o)
	f.sent <- fakeSend{o.ID, from, to, text}
	return nil
}

func (f *fakeCore) Remind(from, to, text string, after time.Duration, o proto.SendOptions) error {
	f.reminds <- fakeRemind{o.ID, to, text, after, from}
	return nil
}

// Warn makes fakeCore a hub.Warner.
func (f *fakeCore) Warn(text string) { f.warned <- text }

// sentOptions returns the options of every Send so far.
func (f *fakeCore) sentOptions() []proto.SendOptions {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]proto.SendOptions(nil), f.opts...)
}

func (f *fakeCore) Hook(pane, text, source string) error {
	return f.act("hook " + pane + " " + source + " " + text)
}

func (f *fakeCore) Usage(pane, cli, path string) error {
	if f.usageIn != nil {
		f.usageIn <- struct{}{}
		<-f.usageGate
	}
	return f.act("usage " + pane + " " + cli + " " + path)
}

func (f *fakeCore) act(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, s)
	return nil
}

// proofOf is the fake pane's proof (a real pane's is random).
func proofOf(pane string) string { return "proof-of-" + pane }

func (f *fakeCore) PaneOf(proof string) (int, string, bool) {
	for _, p := range f.Panes() {
		if proof == proofOf(p.Name) {
			return p.Number, p.Name, true
		}
	}
	return 0, "", false
}

func (f *fakeCore) Origin(pid int) proto.Origin {
	f.mu.Lock()
	name, ok := f.inside[pid]
	f.mu.Unlock()
	switch {
	case !ok:
		return proto.Origin{Person: true}
	case name == "":
		return proto.Origin{Why: "a process of another session's pane"}
	}
	return proto.Origin{Pane: name}
}

// runIn says process pid runs in pane.
func (f *fakeCore) runIn(pid int, pane string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.inside == nil {
		f.inside = map[int]string{}
	}
	f.inside[pid] = pane
}

func (f *fakeCore) Link(a, b int) error { return f.act("link " + f.name(a) + " " + f.name(b)) }
func (f *fakeCore) LinkShell(a, b int) error {
	return f.act("link " + f.name(a) + " " + f.name(b) + " shell")
}
func (f *fakeCore) LinkByPane(a, b int) error {
	return f.act("link " + f.name(a) + " " + f.name(b) + " by pane")
}
func (f *fakeCore) Unlink(a int) error  { return f.act("unlink " + f.name(a)) }
func (f *fakeCore) Hold(a int) error    { return f.act("hold " + f.name(a)) }
func (f *fakeCore) Release(a int) error { return f.act("release " + f.name(a)) }

func (f *fakeCore) Capture(id, lines int, sgr bool) (string, error) {
	pane := f.name(id)
	for _, p := range f.Panes() {
		if p.Name == pane && lines >= 10000 { // a long history in colour: more than a frame
			var b strings.Builder
			for i := range lines {
				fmt.Fprintf(&b, "\x1b[38;5;%dmline %d of %s <history>\x1b[0m\n", i%256, i, pane)
			}
			return b.String(), nil
		}
		if p.Name == pane {
			return fmt.Sprintf("screen of %s lines=%d sgr=%v", pane, lines, sgr), nil
		}
	}
	return "", fmt.Errorf("no pane %q", pane)
}

func (f *fakeCore) RegisterMember(name string, deliver func(proto.RelayMessage)) (func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.panes {
		if p.Name == name {
			return nil, fmt.Errorf("register %q: name taken", name)
		}
	}
	f.registered[name] = true
	f.sinks[name] = deliver
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.registered, name)
	}, nil
}

// relay is a pane addressing a registered member: the core calls its sink.
func (f *fakeCore) relay(from, to, text string) {
	f.mu.Lock()
	deliver := f.sinks[to]
	f.mu.Unlock()
	deliver(proto.RelayMessage{From: from, To: to, Text: text})
}

func (f *fakeCore) isRegistered(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.registered[name]
}

func (f *fakeCore) Events() proto.Events { return f.ev }

func (f *fakeCore) Actions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.actions...)
}

// fakeEvents is an eventbox: Emit appends and signals.
type fakeEvents struct {
	mu    sync.Mutex
	q     []proto.Event
	ready chan struct{}
}

func newFakeEvents() *fakeEvents { return &fakeEvents{ready: make(chan struct{}, 1)} }

func (e *fakeEvents) Emit(ev proto.Event) {
	e.mu.Lock()
	e.q = append(e.q, ev)
	e.mu.Unlock()
	select {
	case e.ready <- struct{}{}:
	default:
	}
}

func (e *fakeEvents) Ready() <-chan struct{} { return e.ready }

func (e *fakeEvents) Next() []proto.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	q := e.q
	e.q = nil
	return q
}

func (e *fakeEvents) Close() {}
