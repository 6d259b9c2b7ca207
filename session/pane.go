package session

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/vterm"
)

// pane is one pane: its number, name, emulator and process. Owned by the loop, except
// term (written by the process's reader goroutine; vterm locks internally), reply and
// alerts (written inside vterm.Write).
type pane struct {
	id   int
	name string
	// spec is what the program was started from (before the hook settings): a
	// respawn starts it again.
	spec PaneSpec
	// run is the spec it runs: spec with the hook settings (prepare).
	run     PaneSpec
	argv    []string
	profile parser.Profile
	term    *vterm.Terminal
	proc    Process // nil until its program started (attach)
	screen  *Screen

	hooks      bool   // the program reports its turn ends through hooks (Options.Hooks)
	proof      string // the secret in its environment (AGENTMUX_PROOF): see PaneOf
	userNS     nsID   // the user namespace its program started in (zero: none of its own)
	exited     bool
	linked     []int  // the panes it was linked with when its program exited (a respawn links it again)
	share      [2]int // width and height, percent of an even share (0: even): Member.Share
	code       int
	cols, rows int

	reply      *replySink
	alerts     *alerts
	alertsSeen uint64
	noteSeen   string
	clipsSeen  uint64

	// outputs counts the pane's observed outputs; ask is what its prompt asks, read at
	// askRead outputs (see asks.go), nil while it does not need the person.
	outputs uint64
	ask     *Asks
	askRead uint64
	// hookAsk is what the program's notification hook said it asks the person ("":
	// nothing), until the person types into it, its screen says it works, or its turn
	// ends (HookAsk).
	hookAsk string
	// hookAskOut is set once the pane was read not busy since its hook said it asks: a
	// busy screen from then on says it works again (an answer). Gemini CLI runs its
	// hook before it draws its prompt, its screen still busy.
	hookAskOut bool
	// personKey is when the person last typed into the pane (toPerson): an answer
	// from elsewhere is refused while they act at its prompt (Answer).
	personKey time.Time
	// held is an answer from elsewhere that waits for its prompt to settle
	// (askSettle); nil when none waits.
	held *heldAnswer
	// answeredAsk is the prompt an answer from elsewhere was last typed into (Answer
	// refuses a second one while it stands); loop only
	answeredAsk *Asks

	// rearm (capacity 1) lets the pane's watcher take the next output signal: the loop
	// sends on it once it has observed the last one (pacing.go).
	rearm chan struct{}

	// shellNow is whether it runs a shell as the relay was last told (runsShell);
	// shellOK that the person linked it knowing it does (a link with --shell, the y/n
	// of prefix l). Loop only.
	shellNow, shellOK bool

	// meter reads its usage files (spend.go); spent is what it spent, kept across a
	// respawn.
	meter *meter
	spent Spend
}

// program is the base name of the pane's program.
func (p *pane) program() string {
	if len(p.argv) == 0 {
		return ""
	}
	return filepath.Base(p.argv[0])
}

// Screen is a read-only view of one pane's emulator, safe to use from any goroutine
// (vterm locks internally): what a renderer needs to draw the pane. It stays valid after
// the pane is closed (its last picture).
type Screen struct{ t *vterm.Terminal }

// Snapshot returns the pane's current picture: an immutable copy whose unchanged lines
// keep their pointers from one snapshot to the next.
func (s *Screen) Snapshot() *vterm.Snapshot { return s.t.Snapshot() }

// ScreenTop returns the absolute number of the main screen's first row.
func (s *Screen) ScreenTop() int64 { return s.t.ScreenTop() }

// HistoryLen returns how many history rows are held above the screen.
func (s *Screen) HistoryLen() int { return s.t.HistoryLen() }

// HistoryLines returns n history rows from start (0: the oldest held).
func (s *Screen) HistoryLines(start, n int) []*vterm.Line { return s.t.HistoryLines(start, n) }

// Link resolves an OSC 8 hyperlink id of the pane's cells to its URI.
func (s *Screen) Link(id uint32) string { return s.t.Link(id) }

// termScreen adapts a pane's emulator to relay.Screen, and its process (when it can
// tell, as a real terminal does) to relay.InputQueue. proc is read on the loop, where
// the relay calls it.
type termScreen struct {
	t    *vterm.Terminal
	proc func() Process
}

var (
	_ relay.InputQueue  = termScreen{}
	_ relay.FrameScreen = termScreen{}
)

// screenOf is the relay's view of pane p.
func screenOf(p *pane) termScreen {
	return termScreen{t: p.term, proc: func() Process { return p.proc }}
}

// unreader is a Process that tells how much typed into it its program has not read
// (ptyhost.Proc).
type unreader interface {
	Unread() (int, error)
}

// quieter is a process that says when its program's output pauses (ptyhost.Proc): the
// loop then observes held output at once, once per interval (pacing.quiet).
type quieter interface {
	Quiet() <-chan struct{}
	IsQuiet() bool
}

// quietOf returns proc's pause signal, nil when it has none (a nil channel never
// receives).
func quietOf(proc Process) <-chan struct{} {
	if q, ok := proc.(quieter); ok {
		return q.Quiet()
	}
	return nil
}

// isQuiet reports whether proc's output is paused; false when it cannot tell.
func isQuiet(proc Process) bool {
	q, ok := proc.(quieter)
	return ok && q.IsQuiet()
}

// expecter is a process that can give the echo of a key the right of way
// (ptyhost.Proc.Expect).
type expecter interface {
	Expect()
}

// Unread returns how many bytes typed into the pane its program has not read; ok is
// false when its process cannot tell.
func (s termScreen) Unread() (int, bool) {
	if s.proc == nil {
		return 0, false
	}
	u, ok := s.proc().(unreader)
	if !ok {
		return 0, false
	}
	n, err := u.Unread()
	return n, err == nil
}

// Read reads the title, the modes, the cursor's row and the text the relay needs under
// the emulator's one lock: the program's output, written on its reader goroutine, lands
// wholly before or after a reading.
func (s termScreen) Read(from int64) relay.Reading {
	if from == relay.FromTop {
		from = -1 // vterm: from the main screen's first row
	}
	return reading(s.t.ReadText(from))
}

// keptFrames bounds the alternate-screen states a pane's emulator keeps for the relay
// between two of its readings (vterm.KeepFrames): one per write (a PTY read, 4 KiB at
// most) or per synchronized frame's end while 8 are held, then thinned to states spread over all the writes, so the
// relay sees a full-screen program's transcript scroll by in small steps however late
// the loop reads (a chat program draws a step of its answer in a write; in the relay's
// simulation with the loop up to 1.5 s late, every answer arrives whole). Keeping costs
// a main screen nothing, a flood of full-screen redraws read late a reading of its
// screen for one write in ten (BenchmarkKeepFrames).
const keptFrames = 8

// ReadFrames makes termScreen a relay.FrameScreen: the states of the alternate screen
// the relay did not read, and a reading from the main screen's first row.
func (s termScreen) ReadFrames() ([]relay.Reading, relay.Reading) {
	kept, now := s.t.ReadFrames(-1)
	rds := make([]relay.Reading, len(kept))
	for i, k := range kept {
		rds[i] = reading(k)
	}
	return rds, reading(now)
}

// reading converts an emulator's reading to the relay's.
func reading(tr vterm.TextReading) relay.Reading {
	lines := make([]relay.Line, len(tr.Lines))
	for i, l := range tr.Lines {
		lines[i] = relay.Line{N: l.N, Text: l.Text}
	}
	return relay.Reading{
		Info: relay.Info{
			Title:          tr.Title,
			AltScreen:      tr.AltScreen,
			BracketedPaste: tr.Modes.BracketedPaste,
			MidFrame:       tr.Modes.SyncOutput,
			HasCursor:      true,
			CursorRow:      tr.Cursor.Y,
		},
		Top: tr.Top, Rows: tr.Rows, Lines: lines,
	}
}

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

// alerts counts a pane's bells and notifications (BEL, OSC 9, OSC 777). The emulator
// reports them inside Write, on the pane's reader goroutine, with its lock held: alerts
// only counts them and keeps the newest notification's text, never blocking. The loop
// reads the count when it observes the pane's output (a bell is output too).
type alerts struct {
	n    atomic.Uint64
	note atomic.Pointer[string]
	// clips counts the program's clipboard writes (OSC 52); clip is the newest one.
	clips atomic.Uint64
	clip  atomic.Pointer[string]
}

// record takes one emulator event; titles are not alerts (snapshots carry them).
func (a *alerts) record(ev vterm.Event) {
	switch ev.Kind {
	case vterm.EventBell:
		a.n.Add(1)
	case vterm.EventNotify:
		text := ev.Text
		a.note.Store(&text)
		a.n.Add(1)
	case vterm.EventClipboard:
		text := ev.Text
		a.clip.Store(&text)
		a.clips.Add(1)
	}
}

// clipboard is the newest clipboard write and how many the pane has made.
func (a *alerts) clipboard() (string, uint64) {
	n := a.clips.Load()
	if p := a.clip.Load(); p != nil {
		return *p, n
	}
	return "", n
}

// count is how many alerts the pane has raised.
func (a *alerts) count() uint64 { return a.n.Load() }

// notice is the newest notification's text ("" if none).
func (a *alerts) notice() string {
	if p := a.note.Load(); p != nil {
		return *p
	}
	return ""
}
