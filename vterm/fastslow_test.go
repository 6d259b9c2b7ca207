package vterm_test

// The fast paths of Write (printable text in bulk, parameter runs, UTF-8 decoded in place)
// must give exactly what the reference path gives: every byte on its own through the state
// machine table (vterm.SetSlowPath); so must ReadText's (text read up to each row's used
// part, a line of one row taken from the screen's rows read with it). FuzzFastSlow plays each input both ways, the fast
// side in chunks of sizes taken from the input so that sequences and UTF-8 runes are cut
// at every kind of place, and compares screens, history, text and replies; both
// terminals must keep the internal invariants (encoded prefixes included).

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentmux/agentmux/vterm"
)

// fastSlowSeeds are inputs aimed at the fast paths: long printable runs crossing the
// right margin, in insert mode and in the line-drawing set, wide and combining text at
// the margin, SGR runs and text mixed with controls.
var fastSlowSeeds = []string{
	strings.Repeat("abcdefghij", 30) + "\r\n" + strings.Repeat("x", 7),
	"\x1b[4h" + strings.Repeat("ab", 50) + "\x1b[4l" + strings.Repeat("cd", 50),
	"\x1b(0" + strings.Repeat("lqqk", 20) + "\x1b(B" + strings.Repeat("mj", 20) + "\x0e" + "qqq" + "\x0f" + "qqq",
	"\x1b[?7l" + strings.Repeat("0123456789", 20) + "\x1b[?7h" + strings.Repeat("9876543210", 20),
	strings.Repeat("中文字符的宽度 ✅ 😀 déjà vu — ünïcödé ⏺ ⎿ e\u0301a\u0308 ", 10),
	strings.Repeat("\x1b[1;31merror:\x1b[0m text \x1b[38;5;12mblue\x1b[38;2;1;2;3mrgb\x1b[0m\r\n", 20),
	"ab\bc\td\x1b[2D" + strings.Repeat("é", 100) + "\x1b[5b" + "x\x1b[3b",
	"a\u200d\U0001F600" + strings.Repeat("👍🏻🇫🇷", 30) + "❤\ufe0f" + strings.Repeat("\u1100\u1161", 30),
	strings.Repeat("x", 79) + "中" + strings.Repeat("y", 79) + "e\u0301",
	"\xe4\xb8" + "abc" + "\xf0\x9f\x98" + "\x80\x80\x80\x80" + "\xc3" + "\xa9" + "\xff\xfe",
	// whole control sequences taken at once (csiRun) and the ones it leaves to the table
	"\x1b[" + strings.Repeat("1;", 40) + "4m" + "over" + "\x1b[" + strings.Repeat("7:", 33) + "1m" + "x" +
		"\x1b[99999999;3Hbig\x1b[38;5;4294967297mwrap\x1b[;;31;;mempty\x1b[38:2::10:20:30mcolon\x1b[?25l\x1b[?12hhigh\x1b[>0c" +
		"\x1b[1;2\x08;4Hbs\x1b[1 qsp\x1b[2;1$pinter\x1b[1;?2mign\x1b[6n\x1b[0m\x1b" + "[" + "3" + "2m" + "cut\r\n",
	// text left unwritten into cells at a row's end (lazy cells), then edited in place:
	// inserted, deleted, erased, a mark joined to its last letter, moved back over, and
	// scrolled away and back
	"hello world\x1b[6D\x1b[2@ins\x1b[3P\x1b[Kabce\u0301\x1b[1;31mred\x1b[0m plain\x1b[2Ddel\x1b[1K\r\n" +
		strings.Repeat("\x1b[32mlazy\x1b[0m line\r\n", 6) + "\x1b[3A\x1b[3X\x1b[2Sup\x1b[2Tdown\x1b[4lend",
	// printable runs ending at every place of an eight-byte word
	"abcdefg\x7fabcdefgh\x1fabcdefghi\xc3\xa9abcdefghij\x7e~\x7f\x20\x00abcdefghijklmnop\x80q",
}

func FuzzFastSlow(f *testing.F) {
	for _, s := range fuzzSeedInputs() {
		f.Add(s)
	}
	for i, s := range fastSlowSeeds {
		f.Add(fuzzInput(80, 24, 40, 10, byte(i*29), []byte(s)))
		f.Add(fuzzInput(7+i, 3, 9, 4, byte(i*13+1), []byte(s)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runFuzzCase(t, data, func() error { return fastSlowOne(decodeFuzzInput(data)) })
	})
}

// fastSlowOne plays a case through the fast paths and through the reference path and
// compares the two terminals.
func fastSlowOne(c fuzzCase) error {
	fast, fr := fastSlowReplay(c, false)
	slow, sr := fastSlowReplay(c, true)
	for _, term := range []*vterm.Terminal{fast, slow} {
		if msg := vterm.CheckInvariants(term); msg != "" {
			return fmt.Errorf("broken invariant: %s", msg)
		}
	}
	if d := diffSnapshots(fast.Snapshot(), slow.Snapshot()); d != "" {
		return fmt.Errorf("the fast paths differ from the reference path (fast vs slow):\n%s", d)
	}
	if d := diffHistory(fast, slow); d != "" {
		return fmt.Errorf("the fast paths' history differs: %s", d)
	}
	if a, b := fast.TextFrom(0), slow.TextFrom(0); !slices.Equal(a, b) {
		return fmt.Errorf("TextFrom(0) differs:\nfast %+v\nslow %+v", a, b)
	}
	// the relay's readings: the screen's rows and the lines from the screen's top, and
	// from the oldest history line
	for _, from := range []int64{-1, 0} {
		a, b := fast.ReadText(from), slow.ReadText(from)
		if !slices.Equal(a.Rows, b.Rows) || !slices.Equal(a.Lines, b.Lines) {
			return fmt.Errorf("ReadText(%d) differs:\nfast %q\n     %+v\nslow %q\n     %+v", from, a.Rows, a.Lines, b.Rows, b.Lines)
		}
	}
	if !bytes.Equal(fr, sr) {
		return fmt.Errorf("the fast paths' replies %q differ from %q", fr, sr)
	}
	return nil
}

// fastSlowReplay plays a case: slow through the reference path in one Write per part,
// otherwise through the fast paths in chunks whose sizes come from the input.
func fastSlowReplay(c fuzzCase, slow bool) (*vterm.Terminal, []byte) {
	var replies []byte
	term := vterm.New(vterm.Options{
		Cols: c.cols, Rows: c.rows, HistoryLimit: 64, KittyKeyboard: c.kitty, Version: "fuzz",
		Reply:   func(b []byte) { replies = append(replies, b...) },
		OnEvent: func(vterm.Event) {},
	})
	vterm.SetSlowPath(term, slow)
	r := rand.New(rand.NewPCG(uint64(len(c.body)), uint64(c.split)))
	write := func(b []byte) {
		for len(b) > 0 {
			n := len(b)
			if !slow {
				switch r.IntN(3) {
				case 0:
					n = 1 + r.IntN(8)
				case 1:
					n = 1 + r.IntN(300)
				}
			}
			n = min(n, len(b))
			term.Write(b[:n])
			b = b[n:]
		}
	}
	write(c.body[:c.split])
	term.Resize(c.rcols, c.rrows)
	write(c.body[c.split:])
	term.Resize(c.cols, c.rows) // what a narrower screen hid shows again, alike
	return term, replies
}

// TestFastSlowSeeds runs the fast and reference paths over the agent-stream recordings
// and the generator streams whole (the fuzz seeds are cut to 16 KB).
func TestFastSlowSeeds(t *testing.T) {
	inputs := fuzzSeedInputs()
	for i, s := range fastSlowSeeds {
		inputs = append(inputs, fuzzInput(80, 24, 40, 10, byte(i*29), []byte(s)))
	}
	for _, s := range recordedStreams(t) {
		inputs = append(inputs, fuzzInput(80, 24, 100, 30, 0x41, s))
	}
	for i, in := range inputs {
		if err := fastSlowOne(decodeFuzzInput(in)); err != nil {
			t.Errorf("input %d: %v", i, err)
		}
	}
}

// recordedStreams returns every recording in testdata/agent-streams.
func recordedStreams(t testing.TB) [][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtureDir(t), "*.raw"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestPrintableRun checks the eight-at-a-time scan of printable ASCII against a byte
// loop for every byte value at every place of a 24-byte run, and for every pair of
// places holding the values around the edges (a borrow or a carry of one byte must not
// hide or fake the other).
func TestPrintableRun(t *testing.T) {
	want := func(p []byte) int {
		n := 0
		for n < len(p) && p[n] >= 0x20 && p[n] < 0x7f {
			n++
		}
		return n
	}
	base := bytes.Repeat([]byte("a"), 24)
	for at := range base {
		for v := 0; v < 256; v++ {
			p := slices.Clone(base)
			p[at] = byte(v)
			for start := 0; start <= at; start += 3 {
				if got, w := vterm.PrintableRun(p[start:]), want(p[start:]); got != w {
					t.Fatalf("byte %#x at %d, from %d: %d printable, want %d", v, at, start, got, w)
				}
			}
		}
	}
	edges := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0xa0, 0xfe, 0xff}
	for a := range 16 {
		for b := a + 1; b < 16; b++ {
			for _, va := range edges {
				for _, vb := range edges {
					p := slices.Clone(base[:16])
					p[a], p[b] = va, vb
					if got, w := vterm.PrintableRun(p), want(p); got != w {
						t.Fatalf("%#x at %d and %#x at %d: %d printable, want %d", va, a, vb, b, got, w)
					}
				}
			}
		}
	}
}

// TestDecode3 checks the inline three-byte decoder against utf8.DecodeRune for every
// lead byte and every pair of following bytes.
func TestDecode3(t *testing.T) {
	for b0 := 0; b0 < 256; b0++ {
		for b1 := 0; b1 < 256; b1++ {
			for _, b2 := range []byte{0x00, 0x41, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xff} {
				p := []byte{byte(b0), byte(b1), b2}
				r, ok := vterm.Decode3(p)
				want, size := utf8.DecodeRune(p)
				if ok != (size == 3) || ok && r != want {
					t.Fatalf("% x: decode3 = %U, %v; DecodeRune = %U, %d", p, r, ok, want, size)
				}
			}
		}
	}
}
