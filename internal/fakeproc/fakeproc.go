// Package fakeproc is a pane's process with no process behind it, for tests of the
// session core and its clients (it has the shape of session.Process): what the test
// prints goes straight into the pane's emulator and is signalled as ptyhost's reader
// does, and what the pane is sent is kept for the test to read. It imports only ptyhost,
// for the start spec.
package fakeproc

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentmux/agentmux/ptyhost"
)

// Proc is a fake process. Its methods are safe from any goroutine.
type Proc struct {
	// Spec is what the pane was started with; Out is its emulator.
	Spec ptyhost.Spec
	Out  io.Writer

	mu      sync.Mutex
	in      bytes.Buffer // everything the program was sent and not yet taken
	sizes   [][2]int
	updates chan struct{}
	quiet   chan struct{}
	paused  atomic.Bool // since Pause, until the next Print
	done    chan struct{}
	code    int
	closed  bool
	echo    bool     // echo what is written at once, as a terminal's line discipline does
	expects int      // Expect calls: keys whose echo was given the right of way
	onWrite func()   // called after each Write
	fg      []string // the foreground program's command line (SetForeground)
}

// SetForeground makes argv the command line of the program its terminal's foreground
// runs, as a real pane's shell would be when its program ran one.
func (p *Proc) SetForeground(argv ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fg = argv
}

// ForegroundCommand is what SetForeground set (nil: the program itself).
func (p *Proc) ForegroundCommand() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fg
}

// New returns a running fake process started with spec, printing into out.
func New(spec ptyhost.Spec, out io.Writer) *Proc {
	return &Proc{Spec: spec, Out: out, updates: make(chan struct{}, 1), quiet: make(chan struct{}, 1), done: make(chan struct{})}
}

// Write keeps b as sent to the program (and echoes it when SetEcho is on).
func (f *Proc) Write(b []byte) {
	f.mu.Lock()
	f.in.Write(b)
	if f.echo {
		f.Print(strings.ReplaceAll(string(b), "\r", "\r\n"))
	}
	cb := f.onWrite
	f.mu.Unlock()
	if cb != nil {
		cb()
	}
}

// Expect counts a person's key whose echo goes first (ptyhost.Proc.Expect).
func (f *Proc) Expect() {
	f.mu.Lock()
	f.expects++
	f.mu.Unlock()
}

// Expects returns how many times Expect was called.
func (f *Proc) Expects() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.expects
}

// Resize records the new size.
func (f *Proc) Resize(cols, rows int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sizes = append(f.sizes, [2]int{cols, rows})
	return nil
}

// Close ends the fake child as ptyhost does: Done is closed.
func (f *Proc) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.done)
	}
	return nil
}

// Updates receives after output was printed; Done is closed once the program ended.
func (f *Proc) Updates() <-chan struct{} { return f.updates }

// Done is closed once the program ended (Close, Exit).
func (f *Proc) Done() <-chan struct{} { return f.done }

// ExitCode is the code Exit gave (0 before).
func (f *Proc) ExitCode() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.code
}

// SetEcho turns the line discipline's echo on or off.
func (f *Proc) SetEcho(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.echo = on
}

// SetOnWrite sets a func called after each Write (benchmarks time writes with it).
func (f *Proc) SetOnWrite(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.onWrite = fn
}

// Pause says the program's output paused, as ptyhost's reader does QuietAfter after
// the last bytes it read.
func (f *Proc) Pause() {
	f.paused.Store(true)
	select {
	case f.quiet <- struct{}{}:
	default:
	}
}

// Quiet receives after Pause.
func (f *Proc) Quiet() <-chan struct{} { return f.quiet }

// IsQuiet reports whether the output is paused: from Pause until the next Print.
func (f *Proc) IsQuiet() bool { return f.paused.Load() }

// Print writes s into the pane's emulator and signals it, as ptyhost's reader does.
func (f *Proc) Print(s string) {
	f.paused.Store(false)
	_, _ = f.Out.Write([]byte(s))
	select {
	case f.updates <- struct{}{}:
	default:
	}
}

// Exit ends the fake program with code.
func (f *Proc) Exit(code int) {
	f.mu.Lock()
	f.code = code
	f.mu.Unlock()
	_ = f.Close()
}

// Sent returns and clears what the program was sent.
func (f *Proc) Sent() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.in.String()
	f.in.Reset()
	return s
}

// Peek returns what the program was sent, without clearing it.
func (f *Proc) Peek() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.in.String()
}

// Size is how many bytes the program was sent and not yet taken.
func (f *Proc) Size() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.in.Len()
}

// IsClosed reports whether the process was ended.
func (f *Proc) IsClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

// LastSize is the last size the pane was resized to (the start size if none).
func (f *Proc) LastSize() [2]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sizes) == 0 {
		return [2]int{f.Spec.Cols, f.Spec.Rows}
	}
	return f.sizes[len(f.sizes)-1]
}
