package vterm_test

// Robustness: FuzzWrite plays arbitrary bytes, with sizes and a resize taken from the
// first bytes of the input (and a resize back to the first size at the end), and checks after every step that nothing panicked, Write
// consumed everything, the cursor is inside the screen, every row (history included) is
// whole (exactly Cols cells on screen, no orphan wide halves), ScreenText agrees with
// the cells, and that feeding the same bytes one at a time gives the identical terminal.
// Seeds: the agent-stream fixtures, generator streams and known-nasty sequences.
//
// Bounded work and memory are tested separately with plain tests: each pathological
// input must finish under a generous deadline (a goroutine and a timer, no timing
// assertions), and megabytes of unterminated OSC/DCS/APC must not grow the heap.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/vterm"
)

// fuzzHeader is the number of leading input bytes that choose sizes and options.
const fuzzHeader = 5

// fuzzCase is what the first bytes of a fuzz input say.
type fuzzCase struct {
	cols, rows   int // initial size (1-90 × 1-40)
	rcols, rrows int // resize request, possibly zero or negative
	kitty        bool
	split        int // body offset of the resize
	body         []byte
}

func decodeFuzzInput(data []byte) fuzzCase {
	var h [fuzzHeader]byte
	copy(h[:], data)
	body := data[min(len(data), fuzzHeader):]
	return fuzzCase{
		cols:  1 + int(h[0])%90,
		rows:  1 + int(h[1])%40,
		rcols: int(int8(h[2])) % 100,
		rrows: int(int8(h[3])) % 50,
		kitty: h[4]&1 == 1,
		split: len(body) * int(h[4]>>1) / 128,
		body:  body,
	}
}

// fuzzInput builds an input from a header and a body (for seeds).
func fuzzInput(cols, rows, rcols, rrows int, flags byte, body []byte) []byte {
	return append([]byte{byte(cols - 1), byte(rows - 1), byte(int8(rcols)), byte(int8(rrows)), flags}, body...)
}

// nastySeeds are inputs known to break terminal emulators.
var nastySeeds = []string{
	"\x1b[-5@", "\x1b[-5P", "\x1b[-5L", "\x1b[-1;-1H", "\x1b[99999999999I", "\x1b[99999999999@",
	"\x1b[99999999999P", "\x1b[99999999999L", "\x1b[99999999999M", "\x1b[99999999999X",
	"\x1b[99999999999S", "\x1b[99999999999T", "\x1b[99999999999Z", "x\x1b[99999999999b",
	"\x1b[99999999999;99999999999H", "\x1b[4294967296C", "\x1b[?1049l", "\x1b[?1049h\x1b[?1049h\x1b[?1049l\x1b[?1049l",
	"\x1b]0;unterminated", "\x1bPqunterminated dcs", "\x1b_Gi=1;AAAA", "\x1b^pm", "\x1bXsos",
	"\xff\xfe\xfd\xc3\x28\xe2\x82\xf0\x9f\x98", "\xe4\xb8", "中\x1b[1;1H\x1b[2@", "中文字\x1b[1;2H\x1b[P",
	"\x1b[38:2:1:2:3:4:5:6:7:8m", "\x1b[38;5;999m\x1b[48;2;300;300;300m", "\x1b[4:9m\x1b[58:5:300m",
	"\x1b[2;1r\x1b[10;5r\x1b[0;0r\x1bM\x1bD", "\x1b[?6h\x1b[5;3r\x1b[99;99H\x1b[6n",
	"\x1b[?2004h\x1b[?1000h\x1b[?1006h\x1b[>31u\x1b[<99u\x1b[=7;3u\x1b[?u",
	"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "\x1b]4;300;?\x07\x1b]10;?\x1b\\", "\x1b[18t\x1b[14t\x1b[?2026$p",
	"e\u0301\u200d\U0001F600\u200d\U0001F600\ufe0f", "\x1b#8\x1b[?3h\x1b[?5h", "\x1bc\x1b[!p",
	"\t\t\t\x1bH\x1b[3g\x1b[0g\x1b[9I\x1b[9Z", "\x1b[?7l" + strings.Repeat("中", 50), "\x1b[4h" + strings.Repeat("ab中", 40),
	"\x1b[" + strings.Repeat("1;", 5000) + "m", "\x1b[" + strings.Repeat("9", 5000) + "m",
	"\x1b[" + strings.Repeat(":", 5000) + "m", "\x1b]" + strings.Repeat("1;", 5000) + "\x07",
	"👍🏻🇫🇷🇩🇪🇫❤\ufe0f⚠\ufe0f\u1100\u1161\u0915\u093e", "\x1b[?7lab❤\ufe0f\x1b[1;1H\x1b[4h❤\ufe0f🏻", "🏻🏻🏻\x1b[5b",
	"\x1bP$qm\x1b\\\x1bP$qr\x1b\\\x1bP$q q\x1b\\\x1bP+q544e;436f;zz\x1b\\", "\x1bP" + strings.Repeat("$q", 2000),
	strings.Repeat("\x1b[22;0t", 30) + strings.Repeat("\x1b[23;2t", 40), "\x1b]52;c;" + strings.Repeat("QUFB", 500) + "\x07",
}

// fuzzSeedInputs returns the seed corpus: nasty sequences at a few sizes, generator
// streams, and the head of every fixture.
func fuzzSeedInputs() [][]byte {
	var out [][]byte
	for i, s := range nastySeeds {
		out = append(out, fuzzInput(1+i%20, 1+i%7, 80-i, 24-i, byte(i), []byte(s)))
		out = append(out, fuzzInput(1, 1, -1, 0, 0x81, []byte(s)))
	}
	for seed := range uint64(8) {
		cfg := genConfig{cols: 20, rows: 5, extended: true, wide: seed%2 == 0}
		ops := genStream(rand.New(rand.NewPCG(seed, 99)), cfg, 60)
		out = append(out, fuzzInput(cfg.cols, cfg.rows, 7, 3, byte(seed*37), encodeOps(ops)))
	}
	raws, _ := filepath.Glob(filepath.Join("..", "testdata", "agent-streams", "*.raw"))
	for i, p := range raws {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		out = append(out, fuzzInput(80, 24, 40+i, 10, byte(i*50), b[:min(len(b), 16<<10)]))
	}
	return out
}

func FuzzWrite(f *testing.F) {
	for _, s := range fuzzSeedInputs() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runFuzzCase(t, data, func() error { return fuzzOne(decodeFuzzInput(data)) })
	})
}

// runFuzzCase runs one fuzz input's check. The fuzzing engine has no per-input time
// limit: a hang would only show as a stalled exec count, so each input runs under a
// deadline and fails with its bytes; a panic fails with its stack.
func runFuzzCase(t *testing.T, data []byte, check func() error) {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v\n%s", p, debug.Stack())
			}
		}()
		done <- check()
	}()
	timer := time.NewTimer(fuzzDeadline * raceSlowdown)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-timer.C:
		t.Fatalf("input of %d bytes did not finish within %v: %s", len(data), fuzzDeadline, quoteStream(data))
	}
}

// fuzzDeadline bounds one fuzz input: generous, since a 16 KB seed is replayed twice.
const fuzzDeadline = 10 * time.Second

// fuzzOne replays a case whole and byte by byte and compares the two terminals.
func fuzzOne(c fuzzCase) error {
	whole, wr, err := fuzzReplay(c, false)
	if err != nil {
		return err
	}
	bytewise, br, err := fuzzReplay(c, true)
	if err != nil {
		return fmt.Errorf("byte by byte: %w", err)
	}
	if d := diffSnapshots(whole.Snapshot(), bytewise.Snapshot()); d != "" {
		return fmt.Errorf("byte-by-byte replay differs from whole writes (whole vs bytewise):\n%s", d)
	}
	if d := diffHistory(whole, bytewise); d != "" {
		return fmt.Errorf("byte-by-byte history differs: %s", d)
	}
	if !bytes.Equal(wr, br) {
		return fmt.Errorf("byte-by-byte replies %q differ from %q", br, wr)
	}
	return nil
}

// fuzzReplay plays a fuzz case (bytewise: one byte per Write), checking the invariants
// after each step, and returns the terminal and its replies.
func fuzzReplay(c fuzzCase, bytewise bool) (*vterm.Terminal, []byte, error) {
	var replies []byte
	term := vterm.New(vterm.Options{
		Cols: c.cols, Rows: c.rows, HistoryLimit: 64, KittyKeyboard: c.kitty, Version: "fuzz",
		Reply:   func(b []byte) { replies = append(replies, b...) },
		OnEvent: func(vterm.Event) {},
	})
	write := func(b []byte) error {
		if !bytewise {
			if n, err := term.Write(b); n != len(b) || err != nil {
				return fmt.Errorf("Write of %d bytes returned %d, %v", len(b), n, err)
			}
			return nil
		}
		for i := range b {
			if n, err := term.Write(b[i : i+1]); n != 1 || err != nil {
				return fmt.Errorf("Write of 1 byte returned %d, %v", n, err)
			}
		}
		return nil
	}
	cols, rows := max(c.rcols, 1), max(c.rrows, 1)
	for _, step := range []func() error{
		func() error { return write(c.body[:c.split]) },
		func() error { return checkTerminal(term, c.cols, c.rows, "before the resize", false) },
		func() error { term.Resize(c.rcols, c.rrows); return nil },
		func() error {
			return checkTerminal(term, cols, rows, fmt.Sprintf("after Resize(%d, %d)", c.rcols, c.rrows), c.rcols != c.cols)
		},
		func() error { return write(c.body[c.split:]) },
		func() error { return checkTerminal(term, cols, rows, "after the rest", c.rcols != c.cols) },
		// back to the first size: what a narrower screen hid of rows the rest left
		// alone shows again
		func() error { term.Resize(c.cols, c.rows); return nil },
		func() error { return checkTerminal(term, c.cols, c.rows, "back at the first size", c.rcols != c.cols) },
	} {
		if err := step(); err != nil {
			return nil, nil, err
		}
	}
	return term, replies, nil
}

// checkTerminal checks the snapshot invariants, ScreenText, history rows and text lines;
// resized says the width changed since the first write (rows then read as written).
func checkTerminal(term *vterm.Terminal, cols, rows int, when string, resized bool) error {
	s := term.Snapshot()
	if err := checkInvariants(s, cols, rows); err != nil {
		return fmt.Errorf("%s: %w", when, err)
	}
	if d := diffRows(rowsOfSnapshot(s), trimRows(term.ScreenText())); d != "" {
		return fmt.Errorf("%s: ScreenText disagrees with the snapshot cells (cells vs ScreenText):\n%s", when, d)
	}
	if s.HistoryLen < 0 || s.HistoryLen > 64 {
		return fmt.Errorf("%s: history holds %d lines, limit 64", when, s.HistoryLen)
	}
	for i, l := range term.HistoryLines(0, s.HistoryLen) {
		if err := checkWidePairs(l.Cells); err != nil {
			return fmt.Errorf("%s: history line %d: %w", when, i, err)
		}
	}
	prev := int64(-1)
	for _, tl := range term.TextFrom(0) {
		if tl.N <= prev || tl.Rows < 1 {
			return fmt.Errorf("%s: TextFrom(0) line %+v after absolute row %d", when, tl, prev)
		}
		prev = tl.N + int64(tl.Rows) - 1
	}
	if err := checkScreenLines(term, s, resized); err != nil {
		return fmt.Errorf("%s: %w", when, err)
	}
	return nil
}

// checkScreenLines checks ScreenLines against the snapshot's soft-wrap flags, ScreenText
// and, on the main screen, TextFrom: one line per row that starts one, a line of one row
// is that row's ScreenText (after a change of width, its text as written: the
// ScreenText then a part a narrower width hides), and a line TextFrom reads from the
// screen has its text.
func checkScreenLines(term *vterm.Terminal, s *vterm.Snapshot, resized bool) error {
	lines := term.ScreenLines()
	var starts []int // the screen row each line starts at
	for y := range s.Lines {
		if y == 0 || !s.Lines[y-1].Wrapped {
			starts = append(starts, y)
		}
	}
	if len(lines) != len(starts) {
		return fmt.Errorf("ScreenLines gives %d lines for %d rows starting one: %q", len(lines), len(starts), lines)
	}
	text := term.ScreenText()
	at := make(map[int]int, len(starts)) // start row -> line
	for k, y := range starts {
		at[y] = k
		if !s.Lines[y].Wrapped && lines[k] != text[y] && !(resized && strings.HasPrefix(lines[k], text[y])) {
			return fmt.Errorf("ScreenLines line %d is %q, row %d's ScreenText %q", k, lines[k], y, text[y])
		}
	}
	if s.AltScreen {
		return nil
	}
	top := term.ScreenTop()
	for _, tl := range term.TextFrom(top) {
		k, ok := at[int(tl.N-top)]
		if tl.N < top || !ok {
			return fmt.Errorf("TextFrom(%d) has a line at row %d where ScreenLines starts none", top, tl.N)
		}
		if lines[k] != tl.Text {
			return fmt.Errorf("ScreenLines line %d is %q, TextFrom's %q", k, lines[k], tl.Text)
		}
	}
	return nil
}

// TestWriteBoundedWork plays pathological inputs under a generous deadline: a hang or a
// loop over a huge count fails instead of stalling the suite.
func TestWriteBoundedWork(t *testing.T) {
	const mb = 1 << 20
	cases := map[string][]byte{
		"1 MB unterminated OSC":     append([]byte("\x1b]0;"), bytes.Repeat([]byte("a"), mb)...),
		"1 MB unterminated DCS":     append([]byte("\x1bPq"), bytes.Repeat([]byte("#0;2;0;0;0"), mb/10)...),
		"1 MB unterminated APC":     append([]byte("\x1b_G"), bytes.Repeat([]byte("A"), mb)...),
		"1 MB of one CSI parameter": append(append([]byte("\x1b["), bytes.Repeat([]byte("9"), mb)...), 'm'),
		"100k CSI parameters":       append(append([]byte("\x1b["), bytes.Repeat([]byte("1;"), 100000)...), 'm'),
		"100k colon sub-parameters": append(append([]byte("\x1b[38"), bytes.Repeat([]byte(":2"), 100000)...), 'm'),
		"1 MB invalid UTF-8":        bytes.Repeat([]byte{0xff, 0xc3, 0xe2, 0x82}, mb/4),
		"1 MB wide characters":      bytes.Repeat([]byte("中"), mb/3),
		"1 MB combining marks":      append([]byte("e"), bytes.Repeat([]byte("\u0301"), mb/2)...),
		"1 MB of newlines":          bytes.Repeat([]byte("\n"), mb),
	}
	for _, final := range "@ILMPSTXZbCDEF" {
		cases["huge count CSI "+string(final)] = []byte("x\x1b[99999999999" + string(final))
	}
	cases["huge count CHT"] = []byte("\x1b[99999999999I")
	cases["huge CUP"] = []byte("\x1b[99999999999;99999999999H")
	cases["huge REP x100"] = bytes.Repeat([]byte("x\x1b[99999999999b"), 100)
	cases["huge SU/SD x1000"] = bytes.Repeat([]byte("\x1b[99999999999S\x1b[99999999999T"), 1000)
	for name, in := range cases {
		for _, size := range [][2]int{{200, 50}, {1, 1}} {
			t.Run(fmt.Sprintf("%s at %dx%d", name, size[0], size[1]), func(t *testing.T) {
				term := vterm.New(vterm.Options{Cols: size[0], Rows: size[1], Reply: func([]byte) {}})
				within(t, 5*time.Second, "Write", func() { term.Write(in) })
				if err := checkInvariants(term.Snapshot(), size[0], size[1]); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// TestUnterminatedStringsAreDropped writes 16 MB of unterminated OSC, DCS and APC and
// checks the heap did not grow with it, the string did not reach the title, and the
// terminal prints normally once the string is terminated.
func TestUnterminatedStringsAreDropped(t *testing.T) {
	cases := []struct{ name, open, close string }{
		{"OSC title", "\x1b]2;", "\x07"},
		{"DCS", "\x1bPq", "\x1b\\"},
		{"APC", "\x1b_G", "\x1b\\"},
	}
	chunk := bytes.Repeat([]byte("abcdefgh"), 8<<10) // 64 KB
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			term := vterm.New(vterm.Options{Cols: 80, Rows: 24})
			term.Write([]byte(c.open))
			before := heapInUse()
			within(t, 5*time.Second, "16 MB write", func() {
				for range 256 {
					term.Write(chunk)
				}
			})
			grown := int64(heapInUse()) - int64(before)
			if grown > 4<<20 {
				t.Errorf("heap grew by %d bytes while 16 MB of an unterminated string were written", grown)
			}
			term.Write([]byte(c.close + "hello"))
			if got := term.ScreenText()[0]; got != "hello" {
				t.Errorf("after the terminator, row 0 is %q, want %q", got, "hello")
			}
			if title := term.Snapshot().Title; title != "" {
				t.Errorf("the overlong string set the title (%d bytes)", len(title))
			}
			runtime.KeepAlive(term)
		})
	}
}

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
