package vterm_test

// The random stream generator of the differential tests (oracle_test.go against vt10x and
// tmux, fuzz_test.go): streams of terminal operations that the oracles agree on, and a
// shrinker that keeps failing streams honest.

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

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
