package vterm_test

// Differential tests: the same byte stream is played into our Terminal and into an
// independent oracle, and the screens (text rows, trailing blanks trimmed) and cursors
// must match. Oracle one is hinshun/vt10x, fed only streams from its sound subset
// (printable ASCII, CR, LF, BS, CUP and relative moves, EL/ED, IL/DL, basic SGR, DECSTBM,
// RI) in states where it agrees with xterm (see the generator in helpers_test.go). Oracle
// two is a real tmux (3.3a here) on a private socket, fed the wider vocabulary (wide and
// combining characters, tabs, ICH/DCH/ECH, REP, SU/SD, alternate screen, insert mode)
// plus hand-written cases; it is skipped when tmux is not installed.
//
// Streams come from seeded generators: -oracle.seed picks the base seed (default fixed,
// so CI is reproducible) and -oracle.n the number of streams per size. A failure prints
// the seed and a shrunk stream (chunks of operations dropped while it still fails).

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hinshun/vt10x"

	"github.com/agentmux/agentmux/vterm"
)

var (
	oracleSeed = flag.Uint64("oracle.seed", 1, "base seed of the differential stream generators")
	oracleN    = flag.Int("oracle.n", 300, "random streams per screen size in the vt10x differential test (tmux runs a tenth)")
)

// oracleSizes are the screen sizes the differential tests use.
var oracleSizes = [][2]int{{80, 24}, {20, 5}, {7, 3}}

// ourScreen plays b into a fresh Terminal and returns its trimmed rows and cursor.
func ourScreen(cols, rows int, b []byte) ([]string, vterm.Cursor) {
	term := vterm.New(vterm.Options{Cols: cols, Rows: rows})
	term.Write(b)
	return trimRows(term.ScreenText()), term.Snapshot().Cursor
}

// vt10xScreen plays b into vt10x and returns its trimmed rows and cursor.
func vt10xScreen(cols, rows int, b []byte) ([]string, int, int) {
	vt := vt10x.New(vt10x.WithSize(cols, rows))
	vt.Write(b)
	vt.Lock()
	defer vt.Unlock()
	out := make([]string, rows)
	line := make([]rune, cols)
	for y := range rows {
		for x := range cols {
			line[x] = vt.Cell(x, y).Char
			if line[x] == 0 {
				line[x] = ' '
			}
		}
		out[y] = string(line)
	}
	c := vt.Cursor()
	return trimRows(out), c.X, c.Y
}

// diffVT10x compares our screen with vt10x's for one stream, returning "" when equal.
func diffVT10x(cols, rows int, b []byte) string {
	want, wx, wy := vt10xScreen(cols, rows, b)
	got, cur := ourScreen(cols, rows, b)
	d := diffRows(want, got)
	if cur.X != wx || cur.Y != wy {
		d += "cursor: want " + strconv.Itoa(wx) + "," + strconv.Itoa(wy) + ", got " + strconv.Itoa(cur.X) + "," + strconv.Itoa(cur.Y) + "\n"
	}
	return d
}

func TestOracleVT10x(t *testing.T) {
	n := *oracleN
	if testing.Short() {
		n /= 10
	}
	for _, size := range oracleSizes {
		cfg := genConfig{cols: size[0], rows: size[1]}
		t.Run(strconv.Itoa(cfg.cols)+"x"+strconv.Itoa(cfg.rows), func(t *testing.T) {
			failures := 0
			for i := range n {
				seed := *oracleSeed + uint64(i)
				ops := genStream(rand.New(rand.NewPCG(seed, uint64(cfg.cols))), cfg, 20+int(seed%120))
				b := encodeOps(ops)
				if diffVT10x(cfg.cols, cfg.rows, b) == "" {
					continue
				}
				small := shrinkOps(cfg, ops, func(o []op) bool {
					return diffVT10x(cfg.cols, cfg.rows, encodeOps(o)) != ""
				}, 2000)
				sb := encodeOps(small)
				t.Errorf("seed %d at %dx%d differs from vt10x; shrunk stream (%d of %d ops):\n%s\n%s",
					seed, cfg.cols, cfg.rows, len(small), len(ops), quoteStream(sb), diffVT10x(cfg.cols, cfg.rows, sb))
				if failures++; failures == 3 {
					t.Fatalf("stopping after %d failing seeds", failures)
				}
			}
		})
	}
}

// TestOracleVT10xCases pins hand-written streams in vt10x's sound subset, so the common
// shapes are covered whatever the generator draws.
func TestOracleVT10xCases(t *testing.T) {
	cases := []struct {
		name       string
		cols, rows int
		in         string
	}{
		{"wrap exactly at margin then CRLF", 10, 3, "0123456789\r\nnext"},
		{"long line wraps twice", 10, 4, "abcdefghijklmnopqrstuvwxy"},
		{"scroll off top", 10, 3, "a\r\nb\r\nc\r\nd\r\ne"},
		{"overwrite with CR", 10, 2, "hello\rJ"},
		{"BS then overwrite", 10, 2, "abc\b\bX"},
		{"CUP and EL", 10, 3, "xxxxxxxxxx\x1b[1;4H\x1b[K"},
		{"EL 1 and 2", 10, 3, "xxxxxxxxxx\r\nyyyyyyyyyy\x1b[1;4H\x1b[1K\x1b[2;1H\x1b[2K"},
		{"ED 0 mid screen", 10, 3, "aaaaaaaaaa\r\nbbbbbbbbbb\r\ncccccccccc\x1b[2;5H\x1b[J"},
		{"ED 1 on last row", 10, 3, "aaaaaaaaaa\r\nbbbbbbbbbb\r\ncccccccccc\x1b[3;5H\x1b[1J"},
		{"ED 2 keeps cursor", 10, 3, "abc\r\ndef\x1b[2J"},
		{"IL inside region", 10, 5, "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[3;1H\x1b[L"},
		{"DL inside region", 10, 5, "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[2;1H\x1b[2M"},
		{"IL outside region is ignored", 10, 5, "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[5;1H\x1b[L"},
		{"LF scrolls region only", 10, 5, "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[4;1H\n\nX"},
		{"RI at top of region", 10, 5, "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[2;1H\x1bMX"},
		{"CUP clamps", 10, 3, "\x1b[99;99HX\x1b[0;0HY"},
		{"relative moves clamp", 10, 3, "\x1b[5;5H\x1b[99A1\x1b[99B2\x1b[99C3\x1b[99D4"},
		{"SGR does not move", 10, 2, "\x1b[1;31mred\x1b[0m plain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := diffVT10x(c.cols, c.rows, []byte(c.in)); d != "" {
				t.Errorf("stream %q at %dx%d differs from vt10x:\n%s", c.in, c.cols, c.rows, d)
			}
		})
	}
}

// ---- tmux oracle ----

// tmuxOracle is a detached tmux server on a private socket; each play runs in a fresh
// session of the requested size whose pane cats the stream with the tty in raw mode (so
// LF is not turned into CRLF) and then idles.
type tmuxOracle struct {
	t    testing.TB
	bin  string
	sock string
	dir  string
	mu   sync.Mutex
	n    int
}

// tmuxScreen is what tmux shows after a stream.
type tmuxScreen struct {
	rows    []string
	cx, cy  int
	alt     bool
	history []string // oldest first
	joined  []string // history and screen with soft-wrapped rows joined (capture-pane -J)
}

func newTmuxOracle(t *testing.T) *tmuxOracle {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not on PATH: skipping the tmux differential test")
	}
	o := &tmuxOracle{
		t:    t,
		bin:  bin,
		sock: fmt.Sprintf("agentmux-vterm-test-%d-%d", os.Getpid(), time.Now().UnixNano()),
		dir:  t.TempDir(),
	}
	// The base session keeps the server alive between plays; kill-server runs before the
	// temporary directory is removed (cleanups run last-registered first).
	// scroll-on-clear off: tmux 3.3a would push the screen into history on ED 2, xterm does not.
	if _, err := o.cmd("new-session", "-d", "-s", "base", "-x", "80", "-y", "24", "exec sleep 100000",
		";", "set-option", "-g", "status", "off", ";", "set-option", "-g", "scroll-on-clear", "off"); err != nil {
		t.Fatalf("start tmux server: %v", err)
	}
	t.Cleanup(func() { _, _ = o.cmd("kill-server") })
	return o
}

// cmd runs one tmux client command against the private server.
func (o *tmuxOracle) cmd(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	full := append([]string{"-u", "-L", o.sock, "-f", "/dev/null"}, args...)
	c := exec.CommandContext(ctx, o.bin, full...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			c.Env = append(c.Env, kv)
		}
	}
	var stderr strings.Builder
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %w (stderr %q)", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// play shows b in a fresh cols×rows pane and returns the screen once tmux has parsed all
// of it: the stream ends with an OSC 2 title sentinel, and a pane-title-changed hook
// signals a wait-for channel when the sentinel arrives (ordered after every earlier byte).
func (o *tmuxOracle) play(cols, rows int, b []byte) (tmuxScreen, error) {
	o.mu.Lock()
	o.n++
	name := fmt.Sprintf("c%d", o.n)
	o.mu.Unlock()
	done := "agentmux-done-" + name
	file := filepath.Join(o.dir, name+".bin")
	data := append(append([]byte(nil), b...), "\x1b]2;"+done+"\x07"...)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return tmuxScreen{}, fmt.Errorf("write stream: %w", err)
	}
	hook := fmt.Sprintf("if-shell -F '#{==:#{pane_title},%s}' 'wait-for -S %s'", done, done)
	shell := fmt.Sprintf("stty raw -echo && cat '%s'; exec sleep 100000", file)
	if _, err := o.cmd("set-hook", "-g", "pane-title-changed", hook, ";",
		"new-session", "-d", "-s", name, "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), shell); err != nil {
		return tmuxScreen{}, err
	}
	defer func() { _, _ = o.cmd("kill-session", "-t", name) }()
	if _, err := o.cmd("wait-for", done); err != nil {
		return tmuxScreen{}, fmt.Errorf("waiting for the end-of-stream sentinel: %w", err)
	}
	out, err := o.cmd("capture-pane", "-p", "-t", name)
	if err != nil {
		return tmuxScreen{}, err
	}
	st, err := o.cmd("display-message", "-p", "-t", name,
		"#{cursor_x} #{cursor_y} #{alternate_on} #{pane_width} #{pane_height} #{history_size}")
	if err != nil {
		return tmuxScreen{}, err
	}
	var s tmuxScreen
	var alt, w, h, hist int
	if _, err := fmt.Sscan(st, &s.cx, &s.cy, &alt, &w, &h, &hist); err != nil {
		return tmuxScreen{}, fmt.Errorf("parse tmux state %q: %w", st, err)
	}
	if hist > 0 {
		out, err := o.cmd("capture-pane", "-p", "-t", name, "-S", "-", "-E", "-1")
		if err != nil {
			return tmuxScreen{}, err
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != hist {
			return tmuxScreen{}, fmt.Errorf("tmux history_size %d but %d history lines captured", hist, len(lines))
		}
		s.history = trimRows(lines)
	}
	joined, err := o.cmd("capture-pane", "-p", "-J", "-t", name, "-S", "-")
	if err != nil {
		return tmuxScreen{}, err
	}
	s.joined = trimRows(strings.Split(strings.TrimSuffix(joined, "\n"), "\n"))
	if w != cols || h != rows {
		return tmuxScreen{}, fmt.Errorf("tmux pane is %dx%d, want %dx%d", w, h, cols, rows)
	}
	s.alt = alt == 1
	s.cx = min(s.cx, cols-1) // tmux puts a pending-wrap cursor one past the last column
	s.rows = trimRows(strings.Split(strings.TrimSuffix(out, "\n"), "\n"))
	return s, nil
}

// tmuxCompare says what diffTmux compares beyond the screen, cursor and screen in use.
type tmuxCompare struct {
	history bool // the history rows
	joins   bool // TextFrom(0) against capture-pane -J (history and screen, soft wraps joined)
}

// diffTmux compares our terminal with tmux's for one stream, returning "" when equal.
func (o *tmuxOracle) diffTmux(cols, rows int, b []byte, cmp tmuxCompare) (string, error) {
	want, err := o.play(cols, rows, b)
	if err != nil {
		return "", err
	}
	term := vterm.New(vterm.Options{Cols: cols, Rows: rows})
	term.Write(b)
	snap := term.Snapshot()
	d := diffRows(want.rows, trimRows(term.ScreenText()))
	if snap.Cursor.X != want.cx || snap.Cursor.Y != want.cy {
		d += fmt.Sprintf("cursor: want %d,%d, got %d,%d\n", want.cx, want.cy, snap.Cursor.X, snap.Cursor.Y)
	}
	if snap.AltScreen != want.alt {
		d += fmt.Sprintf("alternate screen: want %v, got %v\n", want.alt, snap.AltScreen)
	}
	if cmp.history {
		var got []string
		for _, l := range term.HistoryLines(0, snap.HistoryLen) {
			got = append(got, rowsOfSnapshot(&vterm.Snapshot{Lines: []*vterm.Line{l}})[0])
		}
		if hd := diffRows(want.history, got); hd != "" {
			d += "history (oldest first):\n" + hd
		}
	}
	if cmp.joins {
		var joined []string
		for _, tl := range term.TextFrom(0) {
			joined = append(joined, strings.TrimRight(tl.Text, " "))
		}
		if hd := diffRows(dropTrailingEmpty(want.joined), dropTrailingEmpty(joined)); hd != "" {
			d += "TextFrom(0) against capture-pane -J (logical lines):\n" + hd
		}
	}
	return d, nil
}

// comparable says what of a generated stream's result tmux and vterm's contract agree on.
func comparable(cfg genConfig, ops []op) tmuxCompare {
	h := historyComparable(cfg, ops)
	return tmuxCompare{history: h, joins: h && joinsComparable(ops)}
}

// joinsComparable reports whether a stream avoids the operations after which tmux and
// xterm may disagree about which rows are soft-wrapped into the next: tmux un-wraps the
// row above lines it inserts, deletes, scrolls or wholly erases, and above the screen
// after an alternate-screen round trip.
func joinsComparable(ops []op) bool {
	for _, o := range ops {
		switch o.kind {
		case opIL, opDL, opSU, opSD, opRI, opED, opEL, opECH, opICH, opDCH, opAlt:
			return false
		}
	}
	return true
}

// dropTrailingEmpty drops the empty lines at the end of a list.
func dropTrailingEmpty(l []string) []string {
	for len(l) > 0 && l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

func TestOracleTmux(t *testing.T) {
	o := newTmuxOracle(t)
	n := max(*oracleN/10, 3)
	if testing.Short() {
		n = 3
	}
	for _, size := range oracleSizes {
		cfg := genConfig{cols: size[0], rows: size[1], extended: true}
		t.Run(fmt.Sprintf("%dx%d", cfg.cols, cfg.rows), func(t *testing.T) {
			failures := 0
			for i := range n {
				seed := *oracleSeed + uint64(i)
				cfg := cfg
				cfg.wide = cfg.cols%2 == 0 && seed%2 == 0
				ops := genStream(rand.New(rand.NewPCG(seed, uint64(cfg.cols)+1000)), cfg, 20+int(seed%80))
				d, err := o.diffTmux(cfg.cols, cfg.rows, encodeOps(ops), comparable(cfg, ops))
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if d == "" {
					continue
				}
				small := shrinkOps(cfg, ops, func(c []op) bool {
					d, err := o.diffTmux(cfg.cols, cfg.rows, encodeOps(c), comparable(cfg, c))
					return err == nil && d != ""
				}, 150)
				sb := encodeOps(small)
				d, _ = o.diffTmux(cfg.cols, cfg.rows, sb, comparable(cfg, small))
				t.Errorf("seed %d at %dx%d (wide %v) differs from tmux; shrunk stream (%d of %d ops):\n%s\n%s",
					seed, cfg.cols, cfg.rows, cfg.wide, len(small), len(ops), quoteStream(sb), d)
				if failures++; failures == 2 {
					t.Fatalf("stopping after %d failing seeds", failures)
				}
			}
		})
	}
}

// TestOracleTmuxCases plays hand-written streams of the wider vocabulary in tmux.
func TestOracleTmuxCases(t *testing.T) {
	o := newTmuxOracle(t)
	const region = "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r"
	cases := []struct {
		name       string
		cols, rows int
		in         string
	}{
		{"wide char wraps at the margin", 10, 3, "abcdefghi中x"},
		{"wide chars fill a row exactly", 10, 3, "中文字中文x"},
		{"wide after pending wrap", 10, 3, "abcdefghij中"},
		{"overwrite wide lead", 10, 2, "中文\x1b[1;1HX"},
		{"wide over a wide half", 10, 2, "a中文\x1b[1;1H字"},
		{"emoji and combining", 12, 2, "😀x e\u0301 cafe\u0301"},
		{"combining after wide", 12, 2, "中\u0301x"},
		{"tabs default stops", 30, 2, "a\tb\tc\td"},
		{"tab clamps at margin", 20, 2, "abcdefghijklmnopq\tX"},
		{"CBT", 40, 2, "\x1b[1;30H\x1b[2ZY"},
		{"CNL CPL CHA VPA HPA", 20, 6, "\x1b[2EA\x1b[FB\x1b[10GC\x1b[4dD\x1b[15`E"},
		{"HTS then tab", 30, 2, "\x1b[1;4H\x1bH\r\tX"},
		{"TBC 0 and 3", 30, 2, "\x1b[1;9H\x1b[g\r\tX\r\n\x1b[3g\tY"},
		{"SU in region", 10, 5, region + "\x1b[S"},
		{"SD in region", 10, 5, region + "\x1b[2T"},
		{"SU past region height", 10, 5, region + "\x1b[9S"},
		{"IND and NEL at region bottom", 10, 5, region + "\x1b[4;3H\x1bDX\x1bEY"},
		{"RI at region top", 10, 5, region + "\x1b[2;3H\x1bMX"},
		{"IL and DL counts past region", 10, 5, region + "\x1b[3;1H\x1b[9L\x1b[4;1H\x1b[9M"},
		{"origin mode", 10, 5, region + "\x1b[?6h\x1b[1;1HX\x1b[9;1HY\x1b[?6l"},
		{"REP", 20, 2, "ab\x1b[3b"},
		{"alt screen round trip", 20, 4, "main\x1b[?1049halt\x1b[?1049l!"},
		{"alt screen left on", 20, 4, "main\x1b[2;3H\x1b[?1049halt"},
		{"1047 keeps cursor", 20, 4, "main\x1b[?1047halt\x1b[?1047lX"},
		{"set 1049 twice", 20, 4, "m\x1b[?1049ha\x1b[?1049hb"},
		{"reset 1049 twice", 20, 4, "m\x1b[?1049ha\x1b[?1049l\x1b[?1049lb"},
		{"insert mode", 10, 2, "abcdef\r\x1b[4hXY\x1b[4lZ"},
		{"insert mode pushes off edge", 10, 2, "abcdefghi\r\x1b[4hXY"},
		{"autowrap off", 10, 2, "\x1b[?7labcdefghijklm\x1b[?7h"},
		{"DECSC DECRC", 20, 5, "\x1b[2;3H\x1b7\x1b[5;5Hx\x1b8X"},
		{"DECRC keeps autowrap off", 10, 3, "\x1b7\x1b[?7l\x1b8abcdefghijklm\x1b[?7h"},
		{"VT and FF are LF", 10, 4, "a\vb\fc"},
		{"RIS", 10, 3, "junk\x1b[2;3r\x1bcok"},
		{"ED 3 leaves the screen", 10, 3, "a\r\nb\r\nc\r\nd\x1b[3J"},
		{"CR LF at pending wrap", 10, 3, "0123456789\r\nX"},
		{"CUP at pending wrap", 10, 3, "0123456789\x1b[2;2HX"},
		{"control chars inside CSI", 10, 3, "ab\x1b[2\rC"},
		{"CAN aborts CSI", 10, 3, "ab\x1b[3\x18C"},
		{"unknown CSI is ignored", 10, 3, "ab\x1b[?1234zcd"},
		{"OSC and APC are invisible", 20, 2, "a\x1b]0;title\x07b\x1b_Gi=1;AAAA\x1b\\c\x1b]7501;?\x07d"},
		{"EL at pending wrap", 10, 3, "0123456789\x1b[KX"},
		{"ECH DCH ICH at pending wrap", 10, 4, "0123456789\x1b[X\x1b[P\x1b[@X\r\n0123456789\x1b[3P"},
		{"ED at pending wrap", 10, 3, "\x1b[2;1Hbelow\x1b[1;1H0123456789\x1b[JX"},
		{"EL at pending wrap without autowrap", 10, 3, "\x1b[?7l0123456789\x1b[K"},
		{"EL 1 and 2 at pending wrap", 10, 3, "0123456789\x1b[1K\r\n0123456789\x1b[2KX"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := o.diffTmux(c.cols, c.rows, []byte(c.in), tmuxCompare{})
			if err != nil {
				t.Fatal(err)
			}
			if d != "" {
				t.Errorf("stream %q at %dx%d differs from tmux:\n%s", c.in, c.cols, c.rows, d)
			}
		})
	}
}

// TestOracleTmuxJoins compares history and soft-wrap joins (TextFrom) for hand-written
// streams whose logical lines are unambiguous.
func TestOracleTmuxJoins(t *testing.T) {
	o := newTmuxOracle(t)
	cases := []struct {
		name       string
		cols, rows int
		in         string
	}{
		{"wrapped line joins", 4, 3, "abcdefghij"},
		{"wrapped line joins across history", 4, 3, "abcdefghijklmnopq\r\nx\r\ny"},
		{"printed spaces at the wrap point stay", 4, 3, "ab  cd\r\n"},
		{"blank cells inside a wrapped row are spaces", 4, 3, "abcdef\x1b[1;1H\x1b[2P"},
		{"wide character wraps early", 5, 3, "abcd中x"},
		{"overwritten wrapped row keeps joining", 4, 3, "abcdefgh\x1b[1;1HXY"},
		{"CRLF at the margin does not join", 4, 3, "abcd\r\nefgh"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := o.diffTmux(c.cols, c.rows, []byte(c.in), tmuxCompare{history: true, joins: true})
			if err != nil {
				t.Fatal(err)
			}
			if d != "" {
				t.Errorf("stream %q at %dx%d differs from tmux:\n%s", c.in, c.cols, c.rows, d)
			}
		})
	}
}

// TestTmuxDeviations pins xterm's result for streams where tmux 3.3a is known to differ
// from xterm (found by the tmux differential test, checked against xterm's source): tmux
// keeps or drops halves of wide characters that are erased, shifted or overwritten
// (xterm blanks the whole character), garbles ICH of more than half the rest of the row
// and ignores ICH of all of it, overwrites with the character that wraps in insert mode,
// lacks CHT, HPR, VPR and DECSTR, stops REP at the
// margin, and drops invalid UTF-8 (vterm's contract: U+FFFD).
func TestTmuxDeviations(t *testing.T) {
	cases := []struct {
		name       string
		cols, rows int
		in         string
		want       []string
		x, y       int
	}{
		{"overwrite wide continuation", 10, 2, "中文\x1b[1;2HX", []string{" X文", ""}, 2, 0},
		{"ICH inside wide", 10, 2, "中文字中文\x1b[1;2H\x1b[@", []string{"   文字中", ""}, 1, 0},
		{"ICH pushes wide off the edge", 10, 2, "ab中文字中\x1b[1;1H\x1b[@", []string{" ab中文字", ""}, 0, 0},
		{"DCH on wide continuation", 10, 2, "中文字\x1b[1;2H\x1b[P", []string{" 文字", ""}, 1, 0},
		{"DCH on wide lead", 10, 2, "中文字\x1b[1;3H\x1b[P", []string{"中 字", ""}, 2, 0},
		{"ECH on wide continuation", 10, 2, "中文字\x1b[1;4H\x1b[X", []string{"中  字", ""}, 3, 0},
		{"EL from wide continuation", 10, 2, "中文字\x1b[1;4H\x1b[K", []string{"中", ""}, 3, 0},
		{"EL 1 on wide lead", 10, 2, "中文字\x1b[1;3H\x1b[1K", []string{"    字", ""}, 2, 0},
		{"ICH of more than half the rest", 10, 2, "abcdefghij\x1b[1;3H\x1b[5@", []string{"ab     cde", ""}, 2, 0},
		{"ICH of the whole rest", 10, 2, "abcdefghij\x1b[1;3H\x1b[8@", []string{"ab", ""}, 2, 0},
		{"insert mode wraps and keeps inserting", 5, 3, "\x1b[2;1Hxyz\x1b[1;1H\x1b[4habcdefg", []string{"abcde", "fgxyz", ""}, 2, 1},
		{"CHT", 40, 2, "\x1b[2IX", []string{"                X", ""}, 17, 0},
		{"HPR and VPR", 20, 3, "\x1b[1;3H\x1b[2aF\x1b[eG", []string{"    F", "     G", ""}, 6, 1},
		{"REP wraps", 10, 3, "x\x1b[25b", []string{"xxxxxxxxxx", "xxxxxxxxxx", "xxxxxx"}, 6, 2},
		{"DECSTR resets margins, origin and insert mode", 10, 4,
			"\x1b[2;3r\x1b[?6h\x1b[4h\x1b[!pab\x1b[1;1HX", []string{"X", "ab", "", ""}, 1, 0},
		{"invalid UTF-8 shows U+FFFD", 10, 2, "a\xffb\xc3c", []string{"a\ufffdb\ufffdc", ""}, 5, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, cur := ourScreen(c.cols, c.rows, []byte(c.in))
			d := diffRows(c.want, got)
			if cur.X != c.x || cur.Y != c.y {
				d += fmt.Sprintf("cursor: want %d,%d, got %d,%d\n", c.x, c.y, cur.X, cur.Y)
			}
			if d != "" {
				t.Errorf("stream %q at %dx%d:\n%s", c.in, c.cols, c.rows, d)
			}
		})
	}
}
