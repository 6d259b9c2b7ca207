package hub_test

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// fakeCore is a Core for tests: panes are names; Send records and hands each delivery
// to the test on sent; Emit sends core events.
type fakeCore struct {
	mu         sync.Mutex
	panes      []proto.Member
	registered map[string]bool
	sinks      map[string]func(hub.RelayMessage)
	actions    []string
	refs       int
	sent       chan fakeSend
	ev         *fakeEvents
	refuse     map[string]error
	opts       []hub.SendOptions
	reminds    chan fakeRemind
	warned     chan string    // what Warn told the person
	inside     map[int]string // process id → the pane it runs in
}

type fakeRemind struct {
	ref, to, text string
	after         time.Duration
}

type fakeSend struct{ ref, from, to, text string }

func newFakeCore(panes ...string) *fakeCore {
	f := &fakeCore{registered: map[string]bool{}, sinks: map[string]func(hub.RelayMessage){}, sent: make(chan fakeSend, 1000), reminds: make(chan fakeRemind, 100), warned: make(chan string, 100), ev: newFakeEvents(), refuse: map[string]error{}}
	for i, p := range panes {
		f.panes = append(f.panes, proto.Member{Number: i + 1, Name: p, Program: "claude", State: "idle"})
	}
	return f
}

func (f *fakeCore) Members() []proto.Member {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]proto.Member(nil), f.panes...)
}

func (f *fakeCore) Send(from, to, text string, o hub.SendOptions) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.refuse[to]; err != nil {
		return "", err
	}
	f.opts = append(f.opts, o)
	f.refs++
	ref := "d" + strconv.Itoa(f.refs)
	f.sent <- fakeSend{ref, from, to, text}
	return ref, nil
}

func (f *fakeCore) Remind(to, text string, after time.Duration) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refs++
	ref := "d" + strconv.Itoa(f.refs)
	f.reminds <- fakeRemind{ref, to, text, after}
	return ref, nil
}

// Warn makes fakeCore a hub.Warner.
func (f *fakeCore) Warn(text string) { f.warned <- text }

// sentOptions returns the options of every Send so far.
func (f *fakeCore) sentOptions() []hub.SendOptions {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]hub.SendOptions(nil), f.opts...)
}

func (f *fakeCore) Hook(pane, event, cli, text string) error {
	return f.act("hook " + pane + " " + event + " " + cli + " " + text)
}

func (f *fakeCore) act(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, s)
	return nil
}

// proofOf is the fake pane's proof (a real pane's is random).
func proofOf(pane string) string { return "proof-of-" + pane }

func (f *fakeCore) PaneOf(proof string) (string, bool) {
	for _, p := range f.Members() {
		if proof == proofOf(p.Name) {
			return p.Name, true
		}
	}
	return "", false
}

func (f *fakeCore) PaneOfProcess(pid int) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name, ok := f.inside[pid]
	return name, ok
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

func (f *fakeCore) Link(a, b string, shell bool) error {
	if shell {
		return f.act("link " + a + " " + b + " shell")
	}
	return f.act("link " + a + " " + b)
}
func (f *fakeCore) Unlink(a string) error  { return f.act("unlink " + a) }
func (f *fakeCore) Hold(a string) error    { return f.act("hold " + a) }
func (f *fakeCore) Release(a string) error { return f.act("release " + a) }

func (f *fakeCore) Capture(pane string, lines int, sgr bool) (string, error) {
	for _, p := range f.Members() {
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

func (f *fakeCore) Register(name string, deliver func(hub.RelayMessage)) (func(), error) {
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
	deliver(hub.RelayMessage{From: from, To: to, Text: text})
}

func (f *fakeCore) isRegistered(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.registered[name]
}

func (f *fakeCore) Subscribe() hub.Events { return f.ev }

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
