package ui

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/vterm"
)

// Process is what a pane needs from its child process. *ptyhost.Proc satisfies it; tests
// use a fake so the model runs without real processes.
type Process interface {
	// Write queues b for the child's input, in order, without blocking.
	Write(b []byte)
	// Resize sets the child's window size.
	Resize(cols, rows int) error
	// Close ends the child's process group and waits for its goroutines.
	Close() error
	// Updates signals (capacity 1, coalesced) that new output reached the emulator.
	Updates() <-chan struct{}
	// Done is closed when the child has exited and its output is drained.
	Done() <-chan struct{}
	// ExitCode is the child's exit status, valid after Done.
	ExitCode() int
}

var _ Process = (*ptyhost.Proc)(nil)

// StartFunc starts a pane's program with its output written to out (the pane's emulator).
type StartFunc func(spec ptyhost.Spec, out io.Writer) (Process, error)

// StartPTY starts spec in a real PTY with ptyhost.
func StartPTY(spec ptyhost.Spec, out io.Writer) (Process, error) {
	p, err := ptyhost.Start(spec, out)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// PaneSpec is a pane to start: its name and its program's argument vector.
type PaneSpec struct {
	Name string
	Argv []string
	// Env holds KEY=VALUE entries added to the program's environment.
	Env []string
	// Profile names the relay profile for the pane's program ("claude", "codex",
	// "generic", or one from the profiles file); "" picks it by the program's name.
	Profile string
}

// Pane is one pane: its number, name, emulator and process, and whether it still runs.
// Its fields are written only by the Host's owner goroutine.
type Pane struct {
	// ID is the pane's number, 1..N in the order panes were started; never reused.
	ID int
	// Name is the name shown in the border.
	Name string
	// Argv is the command the pane runs.
	Argv []string
	// Term is the pane's emulator; the process's reader goroutine writes it.
	Term *vterm.Terminal
	// Proc is the pane's child process.
	Proc Process
	// Exited is true once the child has exited; Code is its exit status then.
	Exited bool
	// Code is the exit status (valid when Exited): a ptyhost.ExitStatus, -N when signal N killed it.
	Code int

	cols, rows int
	reply      *replySink
	alerts     *paneAlerts // bells and notifications (alerts.go)
}

// HostOptions configure a Host.
type HostOptions struct {
	// Start starts a pane's process; nil means StartPTY.
	Start StartFunc
	// Version is what the emulators answer to XTVERSION.
	Version string
	// HistoryLimit is the lines of history per pane (0: vterm's default).
	HistoryLimit int
	// Logger receives the host's diagnostics; nil discards them.
	Logger *slog.Logger
}

// Host owns the panes: their emulators, processes, numbers and sizes. It has no bubbletea
// dependency so it can later move behind a socket for detach and reattach; the model only
// renders its snapshots and forwards input to it.
//
// Lock rule: a Host is owned by one goroutine (the ui's Update loop). Its Terminals are
// also written by each process's reader goroutine, which vterm's own lock serialises; the
// replies vterm produces go through replySink to the process's ordered writer.
type Host struct {
	opts   HostOptions
	log    *slog.Logger
	panes  []*Pane
	nextID int
	colors vterm.Colors
	kitty  bool
}

// NewHost returns an empty Host.
func NewHost(o HostOptions) *Host {
	if o.Start == nil {
		o.Start = StartPTY
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Host{opts: o, log: log, nextID: 1}
}

// Start creates a pane running spec at cols×rows and gives it the next number.
func (h *Host) Start(spec PaneSpec, cols, rows int) (*Pane, error) {
	cols, rows = max(cols, 1), max(rows, 1)
	id := h.nextID
	sink := &replySink{}
	alerts := &paneAlerts{}
	term := vterm.New(vterm.Options{
		Cols:          cols,
		Rows:          rows,
		HistoryLimit:  h.opts.HistoryLimit,
		Reply:         sink.write,
		Colors:        h.colors,
		KittyKeyboard: h.kitty,
		Version:       h.opts.Version,
		OnEvent: func(ev vterm.Event) {
			alerts.record(ev)
			h.log.Debug("pane event", "pane", id, "kind", ev.Kind, "text", ev.Text)
		},
	})
	proc, err := h.opts.Start(ptyhost.Spec{
		Argv: spec.Argv,
		Env:  spec.Env,
		Cols: cols,
		Rows: rows,
		Pane: id,
		Name: spec.Name,
	}, term)
	if err != nil {
		return nil, fmt.Errorf("start pane %d %q: %w", id, spec.Name, err)
	}
	sink.attach(proc)
	h.nextID++
	p := &Pane{ID: id, Name: spec.Name, Argv: spec.Argv, Term: term, Proc: proc, cols: cols, rows: rows, reply: sink, alerts: alerts}
	h.panes = append(h.panes, p)
	h.log.Info("pane started", "pane", id, "name", spec.Name, "argv", spec.Argv, "cols", cols, "rows", rows)
	return p, nil
}

// Panes returns the live panes in number order. The slice is the Host's: do not keep it.
func (h *Host) Panes() []*Pane { return h.panes }

// Pane returns pane id, or nil.
func (h *Host) Pane(id int) *Pane {
	for _, p := range h.panes {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// Write queues b for pane id's program (keys, pastes, mouse reports and, later, relay
// injections), in order. Writes to an exited or unknown pane are dropped.
func (h *Host) Write(id int, b []byte) {
	if p := h.Pane(id); p != nil && !p.Exited && len(b) > 0 {
		p.Proc.Write(b)
	}
}

// Resize sets pane id's emulator and window size to cols×rows (at least 1×1); it does
// nothing when the size is unchanged.
func (h *Host) Resize(id, cols, rows int) {
	p := h.Pane(id)
	cols, rows = max(cols, 1), max(rows, 1)
	if p == nil || p.cols == cols && p.rows == rows {
		return
	}
	p.cols, p.rows = cols, rows
	p.Term.Resize(cols, rows)
	if !p.Exited {
		if err := p.Proc.Resize(cols, rows); err != nil {
			h.log.Warn("resize pane", "pane", id, "err", err)
		}
	}
}

// Size returns pane id's current size.
func (h *Host) Size(id int) (cols, rows int) {
	if p := h.Pane(id); p != nil {
		return p.cols, p.rows
	}
	return 0, 0
}

// MarkExited records that pane id's program exited with code.
func (h *Host) MarkExited(id, code int) {
	if p := h.Pane(id); p != nil {
		p.Exited, p.Code = true, code
		h.log.Info("pane exited", "pane", id, "code", code)
	}
}

// Remove takes pane id out of the Host and returns it; the caller closes its process
// (Close can wait for a grace period, so not on the ui goroutine).
func (h *Host) Remove(id int) *Pane {
	for i, p := range h.panes {
		if p.ID == id {
			h.panes = append(h.panes[:i:i], h.panes[i+1:]...)
			return p
		}
	}
	return nil
}

// CloseAll ends every pane's process group concurrently and waits for them all.
func (h *Host) CloseAll() error {
	panes := h.panes
	h.panes = nil
	errs := make([]error, len(panes))
	var wg sync.WaitGroup
	for i, p := range panes {
		wg.Go(func() {
			if err := p.Proc.Close(); err != nil {
				errs[i] = fmt.Errorf("close pane %d: %w", p.ID, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// SetColors hands the outer terminal's default colours to every pane's emulator (for its
// OSC 10/11 answers), now and for panes started later.
func (h *Host) SetColors(c vterm.Colors) {
	h.colors = c
	for _, p := range h.panes {
		p.Term.SetColors(c)
	}
}

// SetKittyKeyboard tells every emulator, now and later, that keys can be encoded in the
// kitty keyboard protocol, so they answer a program's CSI ? u query.
func (h *Host) SetKittyKeyboard(on bool) {
	h.kitty = on
	for _, p := range h.panes {
		p.Term.SetKittyKeyboard(on)
	}
}

// KittyKeyboard reports whether the outer terminal speaks the kitty keyboard protocol.
func (h *Host) KittyKeyboard() bool { return h.kitty }

// replySink carries an emulator's query replies to its process's writer. The emulator
// exists before the process (the process writes into it), so replies produced before the
// process is attached are held and sent first. write runs inside vterm.Write with its
// lock held: it only appends or enqueues, never blocks.
type replySink struct {
	mu      sync.Mutex
	proc    Process
	pending []byte
}

// write forwards (or holds) one reply.
func (s *replySink) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		s.proc.Write(b)
		return
	}
	s.pending = append(s.pending, b...)
}

// attach connects the process and sends any held replies.
func (s *replySink) attach(p Process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) > 0 {
		p.Write(s.pending)
		s.pending = nil
	}
	s.proc = p
}
