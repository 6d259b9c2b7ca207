package vterm_test

// Benchmarks for vterm's performance targets, at 200×50 with inputs generated
// deterministically in process (about 1 MB each): plain text, SGR-coloured compiler
// output and full-screen TUI redraws (CUP to each row, SGR, 200 characters). Targets:
// plain ≥ 40 MB/s, SGR ≥ 24 MB/s, redraw ≥ 38 MB/s (twice tmux 3.3a through a PTY),
// 0 allocations per op in steady state; Snapshot of an unchanged screen in constant time,
// of a fully changed one under 100 µs (also measured together with the Write that changed
// it, since rows are copied on write); the relay's ReadText of a coloured screen; 10,000 lines of 200-column history under 10 MB
// (reported as the custom metric MB/10klines). BenchmarkVT10xWrite runs the same inputs
// through hinshun/vt10x for a ratio.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hinshun/vt10x"

	"github.com/agentmux/agentmux/vterm"
)

const benchCols, benchRows, benchSize = 200, 50, 1 << 20

var benchWords = strings.Fields(`the quick brown fox jumps over a lazy dog while compiling
	package main import fmt func return error nil if else for range go build test vet
	lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor`)

// benchText returns n bytes of word text from r.
func benchText(r *rand.Rand, b *strings.Builder, n int) {
	for start := b.Len(); b.Len()-start < n; {
		b.WriteString(benchWords[r.IntN(len(benchWords))])
		b.WriteByte(' ')
	}
}

// benchPlain is ordinary text in lines of 20 to 190 columns.
func benchPlain() []byte {
	r := rand.New(rand.NewPCG(1, 1))
	var b strings.Builder
	for b.Len() < benchSize {
		benchText(r, &b, 20+r.IntN(170))
		b.WriteString("\r\n")
	}
	return []byte(b.String())
}

// benchSGR is compiler-style output: coloured file:line prefixes, severities and notes.
func benchSGR() []byte {
	r := rand.New(rand.NewPCG(2, 2))
	var b strings.Builder
	sev := []string{"\x1b[1;31merror:\x1b[0m ", "\x1b[1;35mwarning:\x1b[0m ", "\x1b[1;36mnote:\x1b[0m "}
	for b.Len() < benchSize {
		fmt.Fprintf(&b, "\x1b[1m%s.go:%d:%d:\x1b[0m %s", benchWords[r.IntN(len(benchWords))], 1+r.IntN(999), 1+r.IntN(80), sev[r.IntN(3)])
		benchText(r, &b, 20+r.IntN(60))
		fmt.Fprintf(&b, "\x1b[38;5;%dm", r.IntN(256))
		benchText(r, &b, 10+r.IntN(40))
		b.WriteString("\x1b[0m\r\n")
	}
	return []byte(b.String())
}

// benchRedraw is full-screen redraws: every row addressed, coloured and filled.
func benchRedraw() []byte {
	r := rand.New(rand.NewPCG(3, 3))
	var b strings.Builder
	for b.Len() < benchSize {
		b.WriteString("\x1b[?2026h")
		for row := 1; row <= benchRows; row++ {
			fmt.Fprintf(&b, "\x1b[%d;1H\x1b[38;5;%d;48;5;%dm", row, r.IntN(256), r.IntN(256))
			line := make([]byte, benchCols)
			for i := range line {
				line[i] = byte('!' + r.IntN(94))
			}
			b.Write(line)
		}
		b.WriteString("\x1b[0m\x1b[?2026l")
	}
	return []byte(b.String())
}

// benchWideWords are words of CJK, accented (precomposed and with combining marks),
// emoji and box-drawing text.
var benchWideWords = strings.Fields(`中文字符的宽度 日本語のテキスト 한국어 텍스트 déjà vu ünïcödé
	café naïve Ångström ✅ 😀 🚀 ⏺ ⎿ ── │ ├── └── ✗ ✓ → ← «ε» Ελληνικά русский`)

// benchWide is text of wide characters and combining marks, mixed with ASCII words, in
// lines of 20 to 120 columns.
func benchWide() []byte {
	r := rand.New(rand.NewPCG(6, 6))
	var b strings.Builder
	for b.Len() < benchSize {
		for n := 10 + r.IntN(60); n > 0; n-- {
			if r.IntN(3) == 0 {
				b.WriteString(benchWords[r.IntN(len(benchWords))])
			} else {
				b.WriteString(benchWideWords[r.IntN(len(benchWideWords))])
			}
			b.WriteByte(' ')
		}
		b.WriteString("\r\n")
	}
	return []byte(b.String())
}

// benchBuildLog is a coloured build and test log: go test and compiler lines with
// coloured PASS/FAIL/ok markers, file:line prefixes and long plain lines between.
func benchBuildLog() []byte {
	r := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	for b.Len() < benchSize {
		switch r.IntN(6) {
		case 0:
			fmt.Fprintf(&b, "\x1b[32m=== RUN\x1b[0m   Test%s/%s\r\n", benchWords[r.IntN(len(benchWords))], benchWords[r.IntN(len(benchWords))])
		case 1:
			fmt.Fprintf(&b, "\x1b[1;32m--- PASS\x1b[0m: Test%s \x1b[2m(0.%02ds)\x1b[0m\r\n", benchWords[r.IntN(len(benchWords))], r.IntN(100))
		case 2:
			fmt.Fprintf(&b, "\x1b[1;31m--- FAIL\x1b[0m: Test%s (0.%02ds)\r\n    \x1b[36m%s_test.go:%d\x1b[0m: ", benchWords[r.IntN(len(benchWords))], r.IntN(100), benchWords[r.IntN(len(benchWords))], r.IntN(900))
			benchText(r, &b, 30+r.IntN(60))
			b.WriteString("\r\n")
		case 3:
			fmt.Fprintf(&b, "\x1b[32mok\x1b[0m  \tgithub.com/agentmux/agentmux/%s\t\x1b[33m%d.%03ds\x1b[0m\r\n", benchWords[r.IntN(len(benchWords))], r.IntN(9), r.IntN(1000))
		default:
			benchText(r, &b, 40+r.IntN(120))
			b.WriteString("\r\n")
		}
	}
	return []byte(b.String())
}

// benchColoredLog is the log of the whole-program cat benchmark (internal/sysbench's
// genSGR) as a PTY hands it on: a bold file:line:col, a coloured severity, text, a
// 256-colour or truecolour run and a run on a 256-colour background, each line ended by
// CR LF (the PTY's onlcr).
func benchColoredLog() []byte {
	r := rand.New(rand.NewPCG(2, 2))
	var b strings.Builder
	sev := []string{"\x1b[1;31merror:\x1b[0m ", "\x1b[1;35mwarning:\x1b[0m ", "\x1b[1;36mnote:\x1b[0m "}
	for b.Len() < benchSize {
		fmt.Fprintf(&b, "\x1b[1m%s/%s.go:%d:%d:\x1b[0m %s", benchWords[r.IntN(len(benchWords))], benchWords[r.IntN(len(benchWords))],
			1+r.IntN(999), 1+r.IntN(80), sev[r.IntN(3)])
		benchText(r, &b, 20+r.IntN(30))
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "\x1b[38;5;%dm", r.IntN(256))
		} else {
			fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm", r.IntN(256), r.IntN(256), r.IntN(256))
		}
		benchText(r, &b, 10+r.IntN(20))
		fmt.Fprintf(&b, "\x1b[0m\x1b[48;5;%dm", r.IntN(256))
		benchText(r, &b, 5+r.IntN(10))
		b.WriteString("\x1b[0m\r\n")
	}
	return []byte(b.String())
}

// benchAgent is the recorded agent streams of testdata/agent-streams played one after
// another until about 1 MB.
func benchAgent() []byte {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "agent-streams", "*.raw"))
	var b bytes.Buffer
	for b.Len() < benchSize && len(paths) > 0 {
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				panic(err)
			}
			b.Write(data)
			b.WriteString("\x1b[?1049l\x1b[0m\x1b[r\r\n") // leave each recording's modes behind
		}
	}
	return b.Bytes()
}

var benchInputs = []struct {
	name string
	gen  func() []byte
}{
	{"plain", benchPlain}, {"sgr", benchSGR}, {"redraw", benchRedraw},
	{"wide", benchWide}, {"buildlog", benchBuildLog}, {"coloredlog", benchColoredLog},
	{"agent", benchAgent},
}

// BenchmarkNew makes a terminal of a pane's size in a 200x50 window: a pane's start
// waits for it.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		vterm.New(vterm.Options{Cols: 198, Rows: 47})
	}
}

// BenchmarkWrite writes each input whole; the -ref sub-benchmarks write the same through
// the reference byte-at-a-time path (vterm.SetSlowPath), for the fast paths' ratio in
// the same run.
func BenchmarkWrite(b *testing.B) {
	for _, in := range benchInputs {
		data := in.gen()
		for _, ref := range []bool{false, true} {
			name := in.name
			if ref {
				name += "-ref"
			}
			b.Run(name, func(b *testing.B) {
				term := vterm.New(vterm.Options{Cols: benchCols, Rows: benchRows})
				vterm.SetSlowPath(term, ref)
				term.Write(data) // reach steady state: history full of lines, rows allocated
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				cpu := startCPU()
				for b.Loop() {
					term.Write(data)
				}
				cpu.report(b, len(data))
			})
		}
	}
}

func BenchmarkVT10xWrite(b *testing.B) {
	for _, in := range benchInputs {
		data := in.gen()
		b.Run(in.name, func(b *testing.B) {
			vt := vt10x.New(vt10x.WithSize(benchCols, benchRows))
			vt.Write(data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				vt.Write(data)
			}
		})
	}
}

// benchFrames returns two full-screen frames that differ in every row.
func benchFrames() [2][]byte {
	var frames [2][]byte
	for f := range frames {
		var b strings.Builder
		for row := 1; row <= benchRows; row++ {
			fmt.Fprintf(&b, "\x1b[%d;1H\x1b[38;5;%dm%s", row, 1+f, strings.Repeat(string(rune('a'+f)), benchCols))
		}
		frames[f] = []byte(b.String())
	}
	return frames
}

func BenchmarkSnapshot(b *testing.B) {
	frames := benchFrames()
	b.Run("unchanged", func(b *testing.B) {
		term := vterm.New(vterm.Options{Cols: benchCols, Rows: benchRows})
		term.Write(frames[0])
		term.Snapshot()
		b.ReportAllocs()
		for b.Loop() {
			term.Snapshot()
		}
	})
	b.Run("fully-changed", func(b *testing.B) {
		term := vterm.New(vterm.Options{Cols: benchCols, Rows: benchRows})
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			b.StopTimer()
			term.Write(frames[i%2])
			i++
			b.StartTimer()
			s := term.Snapshot()
			if s.Lines[benchRows-1].Cells[0].Rune == 0 {
				b.Fatal("snapshot does not show the frame")
			}
		}
	})
	// The terminal copies a row shared with a snapshot when it next changes it, so the
	// cost of a changed screen is split between Write and Snapshot: measure both.
	b.Run("fully-changed-with-write", func(b *testing.B) {
		term := vterm.New(vterm.Options{Cols: benchCols, Rows: benchRows})
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			term.Write(frames[i%2])
			i++
			term.Snapshot()
		}
	})
}

// BenchmarkReadText is the relay's reading of a pane after output (ReadText from the
// screen's top: the rows and the lines) on a screen of the coloured log.
func BenchmarkReadText(b *testing.B) {
	term := vterm.New(vterm.Options{Cols: benchCols, Rows: benchRows})
	term.Write(benchColoredLog())
	b.ReportAllocs()
	for b.Loop() {
		if r := term.ReadText(-1); len(r.Rows) != benchRows {
			b.Fatalf("%d rows", len(r.Rows))
		}
	}
}

// BenchmarkHistoryMemory reports the live heap of a terminal holding 10,000 lines of
// 200-column ordinary text in its history (the screen and the Terminal included).
func BenchmarkHistoryMemory(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 4))
	var sb strings.Builder
	for range 10000 + benchRows {
		var line strings.Builder
		benchText(r, &line, benchCols)
		sb.WriteString(line.String()[:benchCols])
		sb.WriteString("\r\n")
	}
	data := []byte(sb.String())
	var mb float64
	for b.Loop() {
		before := heapInUse()
		term := vterm.New(vterm.Options{Cols: benchCols, Rows: benchRows, HistoryLimit: 10000})
		term.Write(data)
		after := heapInUse()
		if n := term.Snapshot().HistoryLen; n != 10000 {
			b.Fatalf("history holds %d lines, want 10000", n)
		}
		runtime.KeepAlive(term)
		mb = float64(int64(after)-int64(before)) / 1e6
	}
	b.ReportMetric(mb, "MB/10klines")
}

// histLines returns n lines of 80 columns, each ended by CRLF: plain ASCII text, or the
// coloured compiler output of benchSGR cut to lines (a few style runs each).
func histLines(n int, coloured bool) []byte {
	r := rand.New(rand.NewPCG(5, 5))
	var b strings.Builder
	for range n {
		if coloured {
			fmt.Fprintf(&b, "\x1b[1m%s.go:%d:\x1b[0m \x1b[1;31merror:\x1b[0m ", benchWords[r.IntN(len(benchWords))], 1+r.IntN(999))
			var line strings.Builder
			benchText(r, &line, 50)
			fmt.Fprintf(&b, "%s\x1b[38;5;%dm%s\x1b[0m\r\n", line.String()[:40], r.IntN(256), line.String()[40:50])
			continue
		}
		var line strings.Builder
		benchText(r, &line, 80)
		b.WriteString(line.String()[:80])
		b.WriteString("\r\n")
	}
	return []byte(b.String())
}

// BenchmarkHistoryBytesPerLine reports what one 80-column line of history costs in steady
// state: the live heap of an 80×24 terminal holding 10,000 lines, less that of one fed
// the same bytes with no history, per line (the custom metric B/line).
func BenchmarkHistoryBytesPerLine(b *testing.B) {
	for _, coloured := range []bool{false, true} {
		name := map[bool]string{false: "ascii", true: "sgr"}[coloured]
		data := histLines(20000, coloured)
		b.Run(name, func(b *testing.B) {
			var perLine float64
			for b.Loop() {
				base := heapInUse()
				none := vterm.New(vterm.Options{Cols: 80, Rows: 24, HistoryLimit: -1})
				none.Write(data)
				withNone := heapInUse()
				term := vterm.New(vterm.Options{Cols: 80, Rows: 24, HistoryLimit: 10000})
				term.Write(data)
				withHist := heapInUse()
				if n := term.HistoryLen(); n != 10000 {
					b.Fatalf("history holds %d lines, want 10000", n)
				}
				runtime.KeepAlive(none)
				runtime.KeepAlive(term)
				perLine = (float64(withHist-withNone) - float64(withNone-base)) / 10000
			}
			b.ReportMetric(perLine, "B/line")
		})
	}
}

// BenchmarkHistoryRead reads a full history of 10,000 coloured 80-column lines the ways
// the host does: a page of 24 lines at a time moving through it (the scroll view and copy
// mode), and all of it at once (agentmux capture --lines). MB/s counts cells of 80 columns
// at one byte each.
func BenchmarkHistoryRead(b *testing.B) {
	term := vterm.New(vterm.Options{Cols: 80, Rows: 24, HistoryLimit: 10000})
	term.Write(histLines(10000+24, true))
	held := term.HistoryLen()
	b.Run("page", func(b *testing.B) {
		b.SetBytes(24 * 80)
		b.ReportAllocs()
		start := 0
		cpu := startCPU()
		for b.Loop() {
			if ls := term.HistoryLines(start, 24); len(ls) != 24 {
				b.Fatalf("%d lines", len(ls))
			}
			start = (start + 24) % (held - 24)
		}
		cpu.report(b, 24*80)
	})
	b.Run("all", func(b *testing.B) {
		b.SetBytes(int64(held) * 80)
		b.ReportAllocs()
		cpu := startCPU()
		for b.Loop() {
			if ls := term.HistoryLines(0, held); len(ls) != held {
				b.Fatalf("%d lines", len(ls))
			}
		}
		cpu.report(b, held*80)
	})
}

// cpuMeter measures the CPU time of a benchmark loop on its locked OS thread.
type cpuMeter struct{ start time.Duration }

// startCPU locks the goroutine to its thread and starts measuring.
func startCPU() cpuMeter {
	runtime.LockOSThread()
	return cpuMeter{threadCPU()}
}

// report adds the metric cpu_MB/s, the bytes written per op over the loop's CPU time
// per op, and unlocks the thread.
func (m cpuMeter) report(b *testing.B, bytes int) {
	used := threadCPU() - m.start
	runtime.UnlockOSThread()
	if used > 0 && b.N > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/used.Seconds(), "cpu_MB/s")
	}
}

// BenchmarkKeepFrames writes a full-screen program's redraws (every row of a 200×50
// screen, new colours and text) in 4 KiB writes, as a PTY is read, with a reader taking
// the frames every 256 writes (a loop reading a 64 MB/s flood every 16 ms), keeping
// frames as a session's panes do (8) or not: what keeping costs a flood on the
// alternate screen (a main screen's costs nothing), unsynchronized and synchronized
// (where every frame's end may be kept, not only a write's).
func BenchmarkKeepFrames(b *testing.B) {
	unsynced := append([]byte("\x1b[?1049h"), bytes.ReplaceAll(bytes.ReplaceAll(benchRedraw(),
		[]byte("\x1b[?2026h"), nil), []byte("\x1b[?2026l"), nil)...)
	synced := append([]byte("\x1b[?1049h"), benchRedraw()...)
	for _, c := range []struct {
		name string
		data []byte
		keep int
	}{{"keep=0", unsynced, 0}, {"keep=8", unsynced, 8}, {"synced/keep=0", synced, 0}, {"synced/keep=8", synced, 8}} {
		data, keep := c.data, c.keep
		b.Run(c.name, func(b *testing.B) {
			term := vterm.New(vterm.Options{Cols: benchCols, Rows: benchRows})
			term.KeepFrames(keep)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				for i, n := 0, 0; i < len(data); i, n = i+4096, n+1 {
					term.Write(data[i:min(i+4096, len(data))])
					if n%256 == 255 {
						term.ReadFrames(-1)
					}
				}
			}
		})
	}
}
