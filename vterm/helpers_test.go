package vterm_test

// Shared helpers for the black-box tests of the emulator (oracle, fixture, fuzz and
// benchmark files). Strategy: every test here is in package vterm_test and uses only the
// public contract (New, Write, Resize, Snapshot, ScreenText, HistoryLines...), so the tests
// say what a host can rely on and never depend on, or collide with, the emulator's
// internals. The helpers compare whole snapshots field by field, check the structural
// invariants every snapshot must hold (sizes, cursor inside, no orphan wide halves), and
// run a call under a deadline so a hang fails the test instead of stalling it.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/vterm"
)

// fixtureDir returns the recorded agent streams kept in the repository
// (testdata/agent-streams at the module root). A checkout without them is broken, so the
// test fails rather than skips.
func fixtureDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "agent-streams"))
	if err != nil {
		t.Fatalf("resolve fixture dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Fatalf("agent-stream fixtures missing at %s: %v", dir, err)
	}
	return dir
}

// rowsOfSnapshot renders a snapshot's lines the way ScreenText promises to: wide
// characters once, empty cells as spaces, trailing blanks trimmed.
func rowsOfSnapshot(s *vterm.Snapshot) []string {
	out := make([]string, len(s.Lines))
	var b strings.Builder
	for i, l := range s.Lines {
		b.Reset()
		for _, c := range l.Cells {
			b.WriteString(c.String())
		}
		out[i] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// trimRows trims trailing spaces from every row (oracles and ScreenText may differ only
// in trailing blanks, which no terminal distinguishes).
func trimRows(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(r, " ")
	}
	return out
}

// diffRows describes the rows where want and got differ, or returns "".
func diffRows(want, got []string) string {
	var b strings.Builder
	if len(want) != len(got) {
		fmt.Fprintf(&b, "row count: want %d, got %d\n", len(want), len(got))
	}
	for i := 0; i < len(want) || i < len(got); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "row %2d: want %q\n        got  %q\n", i, w, g)
		}
	}
	return b.String()
}

// checkInvariants returns what is wrong with a snapshot of a cols×rows terminal, or nil:
// sizes, every line exactly Cols cells, the cursor inside the screen, cell widths in
// {0,1,2} with every wide lead followed by its continuation and no orphan continuation.
func checkInvariants(s *vterm.Snapshot, cols, rows int) error {
	if s.Cols != cols || s.Rows != rows {
		return fmt.Errorf("snapshot is %dx%d, want %dx%d", s.Cols, s.Rows, cols, rows)
	}
	if len(s.Lines) != rows {
		return fmt.Errorf("snapshot has %d lines, want %d", len(s.Lines), rows)
	}
	if s.Cursor.X < 0 || s.Cursor.X >= cols || s.Cursor.Y < 0 || s.Cursor.Y >= rows {
		return fmt.Errorf("cursor %d,%d outside %dx%d", s.Cursor.X, s.Cursor.Y, cols, rows)
	}
	for y, l := range s.Lines {
		if l == nil {
			return fmt.Errorf("line %d is nil", y)
		}
		if len(l.Cells) != cols {
			return fmt.Errorf("line %d has %d cells, want %d", y, len(l.Cells), cols)
		}
		if err := checkWidePairs(l.Cells); err != nil {
			return fmt.Errorf("line %d: %w", y, err)
		}
	}
	return nil
}

// checkWidePairs checks that wide characters in a row are whole: a Width 2 cell is always
// followed by a Width 0 cell and a Width 0 cell always follows a Width 2 cell.
func checkWidePairs(cells []vterm.Cell) error {
	for x, c := range cells {
		switch c.Width {
		case 1:
		case 2:
			if x+1 >= len(cells) || cells[x+1].Width != 0 {
				return fmt.Errorf("wide lead %q at column %d without a continuation cell", c.String(), x)
			}
		case 0:
			if x == 0 || cells[x-1].Width != 2 {
				return fmt.Errorf("orphan continuation cell at column %d", x)
			}
		default:
			return fmt.Errorf("cell at column %d has width %d", x, c.Width)
		}
	}
	return nil
}

// diffSnapshots describes the first differences between two snapshots (everything but
// Seq, which is allowed to differ between terminals), or returns "".
func diffSnapshots(a, b *vterm.Snapshot) string {
	var d strings.Builder
	if a.Cols != b.Cols || a.Rows != b.Rows {
		return fmt.Sprintf("size %dx%d vs %dx%d", a.Cols, a.Rows, b.Cols, b.Rows)
	}
	if a.Cursor != b.Cursor {
		fmt.Fprintf(&d, "cursor %+v vs %+v\n", a.Cursor, b.Cursor)
	}
	if a.Modes != b.Modes {
		fmt.Fprintf(&d, "modes %+v vs %+v\n", a.Modes, b.Modes)
	}
	if a.Title != b.Title {
		fmt.Fprintf(&d, "title %q vs %q\n", a.Title, b.Title)
	}
	if a.AltScreen != b.AltScreen || a.HistoryLen != b.HistoryLen || a.Bells != b.Bells {
		fmt.Fprintf(&d, "alt/history/bells %v/%d/%d vs %v/%d/%d\n",
			a.AltScreen, a.HistoryLen, a.Bells, b.AltScreen, b.HistoryLen, b.Bells)
	}
	shown := 0
	for y := 0; y < len(a.Lines) && y < len(b.Lines); y++ {
		if msg := diffLine(a.Lines[y], b.Lines[y]); msg != "" {
			fmt.Fprintf(&d, "row %d: %s\n", y, msg)
			if shown++; shown >= 5 {
				d.WriteString("...\n")
				break
			}
		}
	}
	return d.String()
}

// diffLine describes the first difference between two lines, or returns "".
func diffLine(a, b *vterm.Line) string {
	if a.Wrapped != b.Wrapped {
		return fmt.Sprintf("wrapped %v vs %v", a.Wrapped, b.Wrapped)
	}
	if len(a.Cells) != len(b.Cells) {
		return fmt.Sprintf("%d cells vs %d", len(a.Cells), len(b.Cells))
	}
	for x := range a.Cells {
		if a.Cells[x] != b.Cells[x] {
			return fmt.Sprintf("column %d: %+v vs %+v", x, a.Cells[x], b.Cells[x])
		}
	}
	return ""
}

// diffHistory compares the history lines two terminals hold, or returns "".
func diffHistory(a, b *vterm.Terminal) string {
	sa, sb := a.Snapshot(), b.Snapshot()
	if sa.HistoryLen != sb.HistoryLen {
		return fmt.Sprintf("history length %d vs %d", sa.HistoryLen, sb.HistoryLen)
	}
	ha, hb := a.HistoryLines(0, sa.HistoryLen), b.HistoryLines(0, sb.HistoryLen)
	if len(ha) != len(hb) {
		return fmt.Sprintf("HistoryLines returned %d vs %d lines", len(ha), len(hb))
	}
	for i := range ha {
		if msg := diffLine(ha[i], hb[i]); msg != "" {
			return fmt.Sprintf("history line %d: %s", i, msg)
		}
	}
	return ""
}

// raceSlowdown is how much longer work takes under the race detector (which records
// itself in the test binary's build settings), so deadlines catch hangs, not slowness.
var raceSlowdown = func() time.Duration {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				return 10
			}
		}
	}
	return 1
}()

// within runs f in a goroutine and fails the test if it panics or does not finish within
// d (times raceSlowdown). A hang leaves the goroutine behind, acceptable in a failing test.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	d *= raceSlowdown
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case p := <-done:
		if p != nil {
			t.Fatalf("%s: panic: %v", what, p)
		}
	case <-timer.C:
		t.Fatalf("%s: did not finish within %v", what, d)
	}
}

// quoteStream renders bytes for a failure message, short enough to paste into a test.
func quoteStream(b []byte) string {
	const max = 4000
	if len(b) > max {
		return fmt.Sprintf("%q... (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// ---- Random stream generator for the differential tests ----
//
// genStream builds a stream as a list of operations while keeping a shadow model of the
// cursor (column, row, pending wrap), the scroll region and the screen in use. It emits
// an operation only when xterm and the oracle agree on its effect in the current state:
// after a character lands in the last column (the pending-wrap state, where tmux, xterm
// and vt10x disagree about LF, BS, tabs, cursor-left and erases) only more text, CR,
// CRLF, CUP and SGR may follow. Against tmux: no BS in column 0 (tmux goes back over a
// soft wrap), no IL/DL outside the scroll region (tmux edits there anyway), no REP past
// the right margin (tmux stops there), no ICH of more than half the rest of the row (tmux
// 3.3a garbles or ignores it), no wrap in insert mode (tmux overwrites with the character
// that wraps), no ?1047h onto an alternate screen that may hold text (tmux clears it,
// xterm shows it). Wide characters are only used in "wide" streams,
// which keep every wide character and every edit on even columns (even widths, even
// counts, no EL/ED 1, no insert mode), because tmux 3.3a and xterm disagree about
// erasing, shifting or overwriting half of a wide character. validOps replays a list
// through the same model, so the shrinker only ever proposes honest streams.

type opKind uint8

const (
	opText opKind = iota // s: text to print
	opCR
	opLF
	opCRLF
	opBS   // a: count of BS bytes (0 = 1)
	opCUP  // a, b: 1-based row and column (0 = parameter left out), may exceed the screen
	opCUU  // a: count (0 = no parameter)
	opCUD  // a: count
	opCUF  // a: count
	opCUB  // a: count
	opEL   // a: 0..2
	opED   // a: 0..2
	opIL   // a: count
	opDL   // a: count
	opSGR  // s: parameters
	opSTBM // a, b: 1-based top and bottom; a == 0 resets (CSI r)
	opRI
	// The extended vocabulary, used against tmux only.
	opTab
	opICH // a: count
	opDCH // a: count
	opECH // a: count
	opREP // a: count
	opSU  // a: count
	opSD  // a: count
	opIND
	opNEL
	opSave    // ESC 7
	opRestore // ESC 8
	opAlt     // a: 1049 or 1047, b: 1 set, 0 reset
	opIRM     // a: 1 set, 0 reset
	opCount
)

type op struct {
	kind opKind
	a, b int
	s    string
}

// encode appends the bytes of o to dst.
func (o op) encode(dst []byte) []byte {
	csi := func(params string, final byte) []byte {
		dst = append(dst, "\x1b["...)
		dst = append(dst, params...)
		return append(dst, final)
	}
	count := func(n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprint(n)
	}
	switch o.kind {
	case opText:
		return append(dst, o.s...)
	case opCR:
		return append(dst, '\r')
	case opLF:
		return append(dst, '\n')
	case opCRLF:
		return append(dst, "\r\n"...)
	case opBS:
		for range max(o.a, 1) {
			dst = append(dst, '\b')
		}
		return dst
	case opCUP:
		switch {
		case o.a == 0 && o.b == 0:
			return csi("", 'H')
		case o.b == 0:
			return csi(fmt.Sprint(o.a), 'H')
		default:
			return csi(fmt.Sprintf("%d;%d", o.a, o.b), 'H')
		}
	case opCUU:
		return csi(count(o.a), 'A')
	case opCUD:
		return csi(count(o.a), 'B')
	case opCUF:
		return csi(count(o.a), 'C')
	case opCUB:
		return csi(count(o.a), 'D')
	case opEL:
		return csi(count(o.a), 'K')
	case opED:
		return csi(count(o.a), 'J')
	case opIL:
		return csi(count(o.a), 'L')
	case opDL:
		return csi(count(o.a), 'M')
	case opSGR:
		return csi(o.s, 'm')
	case opSTBM:
		if o.a == 0 {
			return csi("", 'r')
		}
		return csi(fmt.Sprintf("%d;%d", o.a, o.b), 'r')
	case opRI:
		return append(dst, "\x1bM"...)
	case opTab:
		return append(dst, '\t')
	case opICH:
		return csi(count(o.a), '@')
	case opDCH:
		return csi(count(o.a), 'P')
	case opECH:
		return csi(count(o.a), 'X')
	case opREP:
		return csi(count(o.a), 'b')
	case opSU:
		return csi(count(o.a), 'S')
	case opSD:
		return csi(count(o.a), 'T')
	case opIND:
		return append(dst, "\x1bD"...)
	case opNEL:
		return append(dst, "\x1bE"...)
	case opSave:
		return append(dst, "\x1b7"...)
	case opRestore:
		return append(dst, "\x1b8"...)
	case opAlt:
		if o.b == 1 {
			return csi(fmt.Sprintf("?%d", o.a), 'h')
		}
		return csi(fmt.Sprintf("?%d", o.a), 'l')
	case opIRM:
		if o.a == 1 {
			return csi("4", 'h')
		}
		return csi("4", 'l')
	}
	panic(fmt.Sprintf("unknown op kind %d", o.kind))
}

// encodeOps returns the bytes of a whole stream.
func encodeOps(ops []op) []byte {
	var b []byte
	for _, o := range ops {
		b = o.encode(b)
	}
	return b
}

// genConfig says what a generated stream may contain.
type genConfig struct {
	cols, rows int
	extended   bool // the tmux vocabulary: combining text, tabs, ICH/DCH/ECH, REP, SU/SD, alt screen...
	wide       bool // extended, with wide characters under the even-column discipline (cols must be even)
}

// shadow is the generator's model of the cursor state that decides which operations are
// unambiguous next.
type shadow struct {
	cfg        genConfig
	x, y       int
	pending    bool // a character was written in the last column: the next one wraps
	top, bot   int  // scroll region, 0-based inclusive
	alt        int  // 0 on the main screen, else the mode (1049 or 1047) that entered the alternate one
	saved      bool // ESC 7 was used since the last screen switch
	sx, sy     int
	ax, ay     int // cursor saved by ?1049h
	lastASCII  byte
	prevWasTxt bool
	irm        bool // insert mode
	altUsed    bool // the alternate screen may hold text (it was not left through 1047)
	midRegion  bool // a scroll region not starting at the first row was set
}

func newShadow(cfg genConfig) *shadow {
	return &shadow{cfg: cfg, bot: cfg.rows - 1}
}

// lf moves down one row, scrolling at the bottom margin.
func (s *shadow) lf() {
	if s.y != s.bot && s.y < s.cfg.rows-1 {
		s.y++
	}
}

// print advances the cursor over text the way xterm does with autowrap on. It reports
// false when a wide character would start on an odd column.
func (s *shadow) print(text string) bool {
	ok := true
	for _, r := range text {
		w := runeCells(r)
		if w == 0 {
			continue
		}
		if s.pending {
			if s.irm {
				ok = false // tmux overwrites instead of inserting the character that wraps
			}
			s.pending = false
			s.x = 0
			s.lf()
		}
		if w == 2 && s.x%2 == 1 {
			ok = false
		}
		if w == 2 && s.x == s.cfg.cols-1 {
			s.x = 0
			s.lf()
		}
		s.x += w
		if s.x >= s.cfg.cols {
			s.x = s.cfg.cols - 1
			s.pending = true
		}
	}
	return ok
}

// valid reports whether o has one agreed meaning in the current state.
func (s *shadow) valid(o op) bool {
	if !s.valid1(o) {
		return false
	}
	after := *s
	if !after.apply(o) {
		return false
	}
	// The even-column discipline: the cursor never rests on an odd column.
	return !s.cfg.wide || after.pending || after.x%2 == 0
}

// valid1 is valid without the even-column discipline.
func (s *shadow) valid1(o op) bool {
	c := s.cfg
	if o.kind > opRI && !c.extended {
		return false
	}
	if s.pending {
		switch o.kind {
		case opText, opCR, opCRLF, opCUP, opSGR:
		case opREP:
		default:
			return false
		}
	}
	n := max(o.a, 1)
	switch o.kind {
	case opCUU:
		limit := 0
		if s.y >= s.top {
			limit = s.top
		}
		return c.extended || limit == 0 || s.y-n >= limit
	case opCUD:
		limit := c.rows - 1
		if s.y <= s.bot {
			limit = s.bot
		}
		return c.extended || limit == c.rows-1 || s.y+n <= limit
	case opED, opEL:
		if o.a == 1 && c.wide {
			return false // erasing through the cursor cuts the wide character under it
		}
		return !(o.kind == opED && o.a == 1 && s.y == 1) // vt10x leaves row 0 alone for ED 1 on row 1
	case opIRM:
		return !c.wide
	case opICH, opDCH, opECH:
		if c.wide && n%2 == 1 {
			return false // an odd shift or erase cuts a wide character
		}
		return o.kind != opICH || 2*n <= c.cols-s.x // tmux 3.3a garbles or ignores larger insertions
	case opREP:
		return s.prevWasTxt && s.lastASCII != 0 && !s.pending && s.x+n <= c.cols
	case opIL, opDL:
		return !c.extended || (s.y >= s.top && s.y <= s.bot) // tmux edits outside the region
	case opBS:
		return !c.extended || s.x > 0 // tmux moves back over a soft wrap
	case opSTBM:
		return o.a == 0 || (o.a >= 1 && o.a < o.b && o.b <= c.rows)
	case opRestore:
		return s.saved
	case opAlt:
		if o.b == 1 {
			// ?1047h shows what the alternate screen held: tmux always clears it.
			return s.alt == 0 && (o.a == 1049 || !s.altUsed)
		}
		return s.alt == o.a
	case opText:
		for _, r := range o.s {
			if runeCells(r) == 2 && !c.wide {
				return false
			}
		}
	}
	return true
}

// apply updates the model for o, which must be valid; it reports false when text put a
// wide character on an odd column.
func (s *shadow) apply(o op) bool {
	c := s.cfg
	ok := true
	n := max(o.a, 1)
	wasTxt := s.prevWasTxt
	s.prevWasTxt = false
	switch o.kind {
	case opText:
		ok = s.print(o.s)
		s.prevWasTxt = true
		s.lastASCII = 0
		if r := []rune(o.s); len(r) > 0 && r[len(r)-1] < 0x80 {
			s.lastASCII = byte(r[len(r)-1])
		}
	case opREP:
		ok = s.print(strings.Repeat(string(rune(s.lastASCII)), n))
		s.prevWasTxt = wasTxt
	case opIRM:
		s.irm = o.a == 1
	case opCR:
		s.x, s.pending = 0, false
	case opLF, opIND:
		s.lf()
	case opCRLF, opNEL:
		s.x, s.pending = 0, false
		s.lf()
	case opBS:
		s.x = max(s.x-n, 0)
	case opTab:
		s.x = min((s.x/8+1)*8, c.cols-1)
	case opCUP:
		s.y = min(max(o.a, 1), c.rows) - 1
		s.x = min(max(o.b, 1), c.cols) - 1
		s.pending = false
	case opCUU:
		limit := 0
		if s.y >= s.top {
			limit = s.top
		}
		s.y = max(s.y-n, limit)
	case opCUD:
		limit := c.rows - 1
		if s.y <= s.bot {
			limit = s.bot
		}
		s.y = min(s.y+n, limit)
	case opCUF:
		s.x = min(s.x+n, c.cols-1)
	case opCUB:
		s.x = max(s.x-n, 0)
	case opSTBM:
		if o.a == 0 {
			s.top, s.bot = 0, c.rows-1
		} else {
			s.top, s.bot = o.a-1, o.b-1
			s.midRegion = s.midRegion || s.top > 0
		}
		s.x, s.y, s.pending = 0, 0, false
	case opRI:
		if s.y != s.top && s.y > 0 {
			s.y--
		}
	case opSave:
		s.saved, s.sx, s.sy = true, s.x, s.y
	case opRestore:
		s.x, s.y = s.sx, s.sy
	case opAlt:
		s.saved = false
		if o.b == 1 {
			s.alt = o.a
			s.altUsed = true
			if o.a == 1049 {
				s.ax, s.ay = s.x, s.y
			}
		} else {
			s.altUsed = o.a != 1047
			s.alt = 0
			if o.a == 1049 {
				s.x, s.y = s.ax, s.ay
			}
		}
	}
	return ok
}

// validOps reports whether every operation of ops is valid in turn.
func validOps(cfg genConfig, ops []op) bool {
	s := newShadow(cfg)
	for _, o := range ops {
		if !s.valid(o) {
			return false
		}
		s.apply(o)
	}
	return true
}

// historyComparable reports whether the history of a valid stream means the same in
// tmux and here: tmux also keeps the lines scrolled out of a region that does not start
// at the first row (xterm and vterm do not), and the stream must end on the main
// screen.
func historyComparable(cfg genConfig, ops []op) bool {
	s := newShadow(cfg)
	for _, o := range ops {
		s.apply(o)
	}
	return !s.midRegion && s.alt == 0
}

// runeCells is the width the generator assumes for the runes it uses.
func runeCells(r rune) int {
	switch {
	case r == 0x301: // combining acute accent
		return 0
	case r >= 0x4e00 && r <= 0x9fff, r >= 0xac00 && r <= 0xd7a3:
		return 2
	}
	return 1
}

var (
	genWords  = []string{"the", "a", "quick", "fox", "build", "error:", "ok", "main.go:12", "--", "[x]", "$", "42", "lorem", "ipsum", "dolor"}
	genWide   = []string{"中", "文", "字", "한", "글"}
	genNarrow = []string{"é", "ñ", "─", "│", "→", "e\u0301"}
	genSGR    = []string{"", "0", "1", "4", "7", "22", "24", "27", "31", "32;1", "44", "39;49", "90", "107", "1;4;7"}
	genSGRExt = []string{"2", "3", "9", "38;5;208", "48;2;10;20;30", "4:3", "53"}
)

// genText returns random printable text, longer than a row now and then. In a wide
// stream it is made of two-column units (a wide character or two narrow ones).
func genText(r *rand.Rand, cfg genConfig) string {
	var b strings.Builder
	n := 1 + r.IntN(max(cfg.cols*3/2, 2))
	if r.IntN(4) == 0 {
		n = 1 + r.IntN(4)
	}
	if cfg.wide {
		narrow := func() string {
			if r.IntN(8) == 0 {
				return genNarrow[r.IntN(len(genNarrow))]
			}
			return string(rune(0x21 + r.IntN(0x7e-0x21+1)))
		}
		for w := 0; w < n; w += 2 {
			if r.IntN(3) == 0 {
				b.WriteString(genWide[r.IntN(len(genWide))])
			} else {
				b.WriteString(narrow() + narrow())
			}
		}
		return b.String()
	}
	for b.Len() < n {
		switch {
		case cfg.extended && r.IntN(10) == 0:
			b.WriteString(genNarrow[r.IntN(len(genNarrow))])
		case r.IntN(5) == 0:
			b.WriteByte(byte(0x21 + r.IntN(0x7e-0x21+1)))
		default:
			b.WriteString(genWords[r.IntN(len(genWords))])
		}
		if r.IntN(3) > 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// randOp proposes a random operation (which may turn out invalid in the current state).
func randOp(r *rand.Rand, cfg genConfig) op {
	weights := []int{
		opText: 30, opCR: 6, opLF: 6, opCRLF: 8, opBS: 3, opCUP: 8, opCUU: 3, opCUD: 3, opCUF: 3,
		opCUB: 3, opEL: 4, opED: 2, opIL: 2, opDL: 2, opSGR: 5, opSTBM: 2, opRI: 2,
		opTab: 3, opICH: 2, opDCH: 2, opECH: 2, opREP: 2, opSU: 1, opSD: 1, opIND: 1, opNEL: 1,
		opSave: 1, opRestore: 1, opAlt: 2, opIRM: 1,
	}
	total := 0
	for k, w := range weights {
		if opKind(k) > opRI && !cfg.extended {
			break
		}
		total += w
	}
	pick := r.IntN(total)
	kind := opText
	for k, w := range weights {
		if pick < w {
			kind = opKind(k)
			break
		}
		pick -= w
	}
	small := func() int { // a count: often left out, sometimes 0, sometimes past the screen
		switch r.IntN(8) {
		case 0:
			return 0
		case 1:
			return 2 * max(cfg.cols, cfg.rows)
		default:
			return 1 + r.IntN(max(cfg.rows, 3))
		}
	}
	o := op{kind: kind}
	switch kind {
	case opText:
		o.s = genText(r, cfg)
	case opCUP:
		o.a, o.b = r.IntN(cfg.rows+3), r.IntN(cfg.cols+3)
		if o.a == 0 && o.b != 0 {
			o.a = 1 // an empty first parameter is one of vt10x's bugs
		}
	case opCUU, opCUD, opCUF, opCUB, opIL, opDL, opICH, opDCH, opECH, opSU, opSD:
		o.a = small()
	case opREP:
		o.a = r.IntN(cfg.cols + 2)
	case opBS:
		if cfg.wide {
			o.a = 2
		}
	case opEL, opED:
		o.a = r.IntN(3)
	case opSGR:
		o.s = genSGR[r.IntN(len(genSGR))]
		if cfg.extended && r.IntN(3) == 0 {
			o.s = genSGRExt[r.IntN(len(genSGRExt))]
		}
	case opSTBM:
		if r.IntN(4) > 0 {
			o.a = 1 + r.IntN(cfg.rows)
			o.b = o.a + 1 + r.IntN(cfg.rows)
		}
	case opAlt:
		o.a = 1049
		if r.IntN(3) == 0 {
			o.a = 1047
		}
		o.b = r.IntN(2)
	case opIRM:
		o.a = r.IntN(2)
	}
	return o
}

// genStream returns a random valid stream of about n operations.
func genStream(r *rand.Rand, cfg genConfig, n int) []op {
	s := newShadow(cfg)
	ops := make([]op, 0, n)
	for tries := 0; len(ops) < n && tries < 20*n; tries++ {
		o := randOp(r, cfg)
		if o.kind == opAlt && o.b == 0 && s.alt != 0 {
			o.a = s.alt
		}
		if !s.valid(o) {
			continue
		}
		s.apply(o)
		ops = append(ops, o)
	}
	return ops
}

// shrinkOps drops chunks of operations while the stream stays valid and still fails,
// trying at most budget candidates, and returns the smallest failing stream found.
func shrinkOps(cfg genConfig, ops []op, fails func([]op) bool, budget int) []op {
	for size := len(ops) / 2; size >= 1 && budget > 0; size /= 2 {
		for i := 0; i < len(ops) && budget > 0; {
			cand := append(append([]op(nil), ops[:i]...), ops[min(i+size, len(ops)):]...)
			if !validOps(cfg, cand) {
				i += size
				continue
			}
			budget--
			if fails(cand) {
				ops = cand
			} else {
				i += size
			}
		}
	}
	return ops
}
