package vterm

// Allocation and throughput checks for the hot paths. Strategy: build representative
// streams (plain text lines, SGR-coloured compiler output, full-screen redraws at
// 200×50), warm the terminal until its history ring is full (the steady state), then
// assert with testing.AllocsPerRun that writing more allocates nothing, and measure MB/s
// with benchmarks. The shared benchmarks live in bench_test.go; these are the
// package-internal ones used while tuning.

import (
	"bytes"
	"strconv"
	"testing"
)

// plainStream is lines of ordinary text, about 100 columns each.
func plainStream(lines int) []byte {
	var b bytes.Buffer
	for i := 0; i < lines; i++ {
		b.WriteString("the quick brown fox jumps over the lazy dog; ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" lorem ipsum dolor sit amet, consectetur adipiscing elit sed do\r\n")
	}
	return b.Bytes()
}

// sgrStream is coloured compiler-like output.
func sgrStream(lines int) []byte {
	var b bytes.Buffer
	for i := 0; i < lines; i++ {
		b.WriteString("\x1b[1m\x1b[38;5;12msrc/main.go:")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(":7:\x1b[0m \x1b[31;1merror:\x1b[0m undefined: \x1b[38;2;200;120;50mfooBar\x1b[0m (\x1b[2mtypecheck\x1b[22m)\r\n")
	}
	return b.Bytes()
}

// redrawStream is full-screen frames of a 200×50 TUI: every row addressed with CUP and
// repainted with a few colour runs.
func redrawStream(frames int) []byte {
	var b bytes.Buffer
	for f := 0; f < frames; f++ {
		b.WriteString("\x1b[?2026h\x1b[H")
		for y := 1; y <= 50; y++ {
			b.WriteString("\x1b[")
			b.WriteString(strconv.Itoa(y))
			b.WriteString(";1H\x1b[48;5;236m\x1b[38;5;250m")
			for x := 0; x < 4; x++ {
				b.WriteString("│ cell ")
				b.WriteString(strconv.Itoa(f + x + y))
				b.WriteString(" \x1b[1;32mok\x1b[22;39m status text here   ")
			}
			b.WriteString("\x1b[0m\x1b[K")
		}
		b.WriteString("\x1b[?2026l")
	}
	return b.Bytes()
}

// wideStream is non-ASCII text that never forms clusters: box drawing, CJK, emoji and
// accented letters, each rune checked against the grapheme rules.
func wideStream(lines int) []byte {
	var b bytes.Buffer
	for i := 0; i < lines; i++ {
		b.WriteString("│ ─────────── ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" 中文字符的宽度 ✅ 😀 déjà vu — ünïcödé ⏺ ⎿ ───────────── │\r\n")
	}
	return b.Bytes()
}

func TestSteadyStateWritesDoNotAllocate(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"plain", plainStream(50)},
		{"sgr", sgrStream(50)},
		{"redraw", redrawStream(1)},
		{"wide", wideStream(50)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := New(Options{Cols: 200, Rows: 50, HistoryLimit: 100})
			for i := 0; i < 10; i++ { // fill the history ring: the steady state
				term.Write(tc.data)
			}
			allocs := testing.AllocsPerRun(20, func() { term.Write(tc.data) })
			if allocs != 0 {
				t.Errorf("Write of %d bytes allocates %.1f times in steady state, want 0", len(tc.data), allocs)
			}
		})
	}
}

func benchWrite(b *testing.B, data []byte) {
	term := New(Options{Cols: 200, Rows: 50})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		term.Write(data)
	}
}

func BenchmarkInternalPlain(b *testing.B)  { benchWrite(b, plainStream(1000)) }
func BenchmarkInternalSGR(b *testing.B)    { benchWrite(b, sgrStream(1000)) }
func BenchmarkInternalRedraw(b *testing.B) { benchWrite(b, redrawStream(20)) }
func BenchmarkInternalWide(b *testing.B)   { benchWrite(b, wideStream(1000)) }

// BenchmarkInternalSnapshotChanged touches every row (one character each) and takes a
// snapshot: the cost of a fully changed screen, plus a small write.
func BenchmarkInternalSnapshotChanged(b *testing.B) {
	term := New(Options{Cols: 200, Rows: 50})
	term.Write(redrawStream(1))
	var touch []byte
	for y := 1; y <= 50; y++ {
		touch = append(touch, "\x1b["+strconv.Itoa(y)+";1Hx"...)
	}
	b.ReportAllocs()
	for b.Loop() {
		term.Write(touch)
		term.Snapshot()
	}
}

func BenchmarkInternalSnapshotUnchanged(b *testing.B) {
	term := New(Options{Cols: 200, Rows: 50})
	term.Write(redrawStream(1))
	term.Snapshot()
	b.ReportAllocs()
	for b.Loop() {
		term.Snapshot()
	}
}
