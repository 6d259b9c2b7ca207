package vterm

import (
	"sync"
)

// RGBColor is a 24-bit colour used to answer colour queries (OSC 4/10/11/12).
type RGBColor struct {
	R, G, B uint8
}

// IsZero reports whether c is the zero value, which Colors reads as "use the default".
func (c RGBColor) IsZero() bool { return c == RGBColor{} }

// Colors are the colours a Terminal reports when a program asks (OSC 10, 11, 12 and 4).
// Zero-valued fields mean "use the default"; the host usually copies the outer
// terminal's answers here so programs pick a theme that matches what the user sees.
type Colors struct {
	FG, BG, Cursor RGBColor
	// Palette is the 256-colour palette; nil means the xterm defaults.
	Palette *[256]RGBColor
}

// EventKind says what an Event reports.
type EventKind uint8

// The kinds of Event a Terminal reports through Options.OnEvent.
const (
	// EventBell is a BEL character (Text is empty).
	EventBell EventKind = iota + 1
	// EventTitle is a title change through OSC 0 or OSC 2 (Text is the new title).
	EventTitle
	// EventNotify is a desktop notification through OSC 9 or OSC 777 (Text is its body,
	// Title the OSC 777 title when one was given).
	EventNotify
	// EventClipboard is a clipboard write through OSC 52 (Text is the text, decoded).
	// A host forwards it only where the person allowed it; clipboard reads (OSC 52
	// with "?") are never answered.
	EventClipboard
)

// Event is something a program signalled that a host may want to show: a bell, a new
// title or a notification.
type Event struct {
	Kind EventKind
	Text string
	// Title is the notification title of an OSC 777 notification ("" otherwise).
	Title string
}

// Options configure a new Terminal.
type Options struct {
	// Cols and Rows are the screen size; values below 1 become 1 (0 means 80×24).
	Cols, Rows int
	// HistoryLimit is the number of main-screen lines kept in history; 0 means 10000,
	// a negative value keeps no history.
	HistoryLimit int
	// Reply receives the answers to terminal queries (DA1, DSR, colours, ...). It is
	// called inside Write with the Terminal's lock held: it must not block and must not
	// call the Terminal; it must copy the slice if it keeps it.
	Reply func([]byte)
	// Colors answer OSC 10/11/12 and OSC 4; zero values are sensible defaults.
	Colors Colors
	// KittyKeyboard says the host encodes keys in the kitty keyboard protocol, so the
	// kitty keyboard query (CSI ? u) is answered. Otherwise it is left unanswered, as a
	// legacy terminal does.
	KittyKeyboard bool
	// Version is reported by XTVERSION as "agentmux <Version>".
	Version string
	// OnEvent receives bells, title changes and notifications. It is called inside
	// Write with the lock held: it must not block and must not call the Terminal.
	OnEvent func(Event)
}

// Terminal is an in-memory terminal emulator: bytes a program writes go in through
// Write, an immutable picture of the screen comes out through Snapshot.
//
// Locking: a Terminal is safe for one writer goroutine calling Write and Resize and any
// number of goroutines calling Snapshot and the other readers at the same time. Every
// method takes the Terminal's mutex; the Reply and OnEvent callbacks run with it held.
type Terminal struct {
	mu sync.Mutex

	reply   func([]byte)
	onEvent func(Event)
	version string
	kitty   bool
	colors  Colors
	palette [256]RGBColor // palette as changed by OSC 4 (starts from colors.Palette or xterm's)

	cols, rows int
	main, alt  *screen
	scr        *screen // the active screen: main or alt

	cur    cursorState
	modes  Modes
	margin struct{ top, bot int } // scroll region, inclusive rows
	tabs   []bool
	lnm    bool // LNM: LF also returns the carriage

	// last printed character (with the runes joined to it), for REP
	lastRune  rune
	lastWidth int
	lastComb  string

	title  string
	titles []string // the title stack (XTPUSHTITLE), at most maxTitles
	bells  uint64

	hist history
	// frames are the alternate screen's states no reader saw (KeepFrames).
	frames frameLog
	// pushed counts every main-screen row ever pushed into history, less those a taller
	// screen took back: the absolute number of main-screen row 0.
	pushed int64

	links  linkTable
	hcache [hcacheSize]hcacheEntry
	gclass gclassCache
	combs  combTable

	p parser
	// slow sends every byte through feedByte, the reference path, instead of the fast
	// paths of feed, and reads text cell by cell (ReadText, textCells) (set by tests
	// and benchmarks only).
	slow bool

	seq  uint64
	snap *Snapshot
	// cut is where a narrower resize pulled the cursor in from (Resize).
	cut cursorCut

	rbuf []byte // scratch for replies
}

// New returns a Terminal of the given size with a blank screen.
func New(o Options) *Terminal {
	blankOnce.Do(makeBlankRow)
	cols, rows := o.Cols, o.Rows
	if cols == 0 && rows == 0 {
		cols, rows = 80, 24
	}
	cols, rows = clampSize(cols, rows)
	limit := o.HistoryLimit
	if limit == 0 {
		limit = 10000
	}
	if limit < 0 {
		limit = 0
	}
	t := &Terminal{
		reply:   o.Reply,
		onEvent: o.OnEvent,
		version: o.Version,
		kitty:   o.KittyKeyboard,
		cols:    cols,
		rows:    rows,
	}
	t.hist.limit = limit
	t.setColors(o.Colors)
	t.main = newScreen(cols, rows)
	t.alt = newScreen(cols, rows)
	t.scr = t.main
	t.tabs = make([]bool, cols)
	resetTabs(t.tabs, 0)
	t.resetState()
	t.p.init()
	return t
}

// maxSize bounds the screen size so that a hostile or mistaken Resize cannot exhaust memory.
const maxSize = 4096

func clampSize(cols, rows int) (int, int) {
	cols = max(1, min(cols, maxSize))
	rows = max(1, min(rows, maxSize))
	return cols, rows
}

// resetState puts modes, cursor, margins and pen to their power-on values (used by New,
// RIS and, partly, DECSTR).
func (t *Terminal) resetState() {
	t.cur = cursorState{}
	t.modes = Modes{Autowrap: true}
	t.cursorVisible(true)
	t.margin.top, t.margin.bot = 0, t.rows-1
	t.lnm = false
	t.main.saved = savedCursor{}
	t.alt.saved = savedCursor{}
	t.main.kitty = kittyStack{}
	t.alt.kitty = kittyStack{}
	t.lastRune, t.lastWidth, t.lastComb = 0, 0, ""
}

// cursorVisible records DECTCEM; the snapshot reads it from cur.
func (t *Terminal) cursorVisible(on bool) { t.cur.hidden = !on }

// Write feeds program output to the terminal. It always consumes all of p and returns
// len(p), nil. Replies and events are delivered through the Options callbacks before
// it returns.
func (t *Terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	if len(p) > 0 {
		for rest := p; len(rest) > 0; {
			n := t.frameEnd(rest)
			t.keepFrame()
			t.feed(rest[:n])
			rest = rest[n:]
		}
		t.seq++
	}
	t.mu.Unlock()
	return len(p), nil
}

// WriteString is Write for a string.
func (t *Terminal) WriteString(s string) (int, error) {
	return t.Write([]byte(s))
}

// SetColors changes the colours reported to OSC 10/11/12/4 queries. Palette entries a
// program set with OSC 4 are replaced.
func (t *Terminal) SetColors(c Colors) {
	t.mu.Lock()
	t.setColors(c)
	t.mu.Unlock()
}

func (t *Terminal) setColors(c Colors) {
	t.colors = c
	if c.Palette != nil {
		t.palette = *c.Palette
	} else {
		t.palette = xtermPalette()
	}
}

// SetKittyKeyboard says whether the host encodes keys in the kitty keyboard protocol,
// which decides whether the kitty keyboard query (CSI ? u) is answered.
func (t *Terminal) SetKittyKeyboard(on bool) {
	t.mu.Lock()
	t.kitty = on
	t.mu.Unlock()
}

// Link returns the URI of the OSC 8 hyperlink with the given id (Style.Link), or "" when
// the id is unknown or was forgotten (the table keeps the most recent links only).
func (t *Terminal) Link(id uint32) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.links.uri(id)
}

// Title returns the current window title (OSC 0 / OSC 2).
func (t *Terminal) Title() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.title
}

// Size returns the current screen size.
func (t *Terminal) Size() (cols, rows int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cols, t.rows
}

// sendReply hands b to the reply sink; b is t.rbuf or a constant and is reused after.
func (t *Terminal) sendReply(b []byte) {
	if t.reply != nil {
		t.reply(b)
	}
}

func (t *Terminal) event(e Event) {
	if t.onEvent != nil {
		t.onEvent(e)
	}
}
