package ui

// Benchmarks for the two ui performance targets: a full 4-pane 240×60 frame of coloured
// text (every row rebuilt, < 2 ms), and a keystroke's way to the pane's Proc.Write
// (median < 1 ms), through the session's loop, both from Update alone and from the terminal's input through a
// running program. The frame benchmarks also report the cached case, where
// only the rows that changed are rebuilt.

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/tty"
)

// colouredScreen is a screenful of text with a new SGR colour every few words, in 16,
// 256 and 24-bit forms, with bold and underline mixed in.
func colouredScreen(cols, rows, seed int) string {
	var b strings.Builder
	words := []string{"func", "return", "agentmux", "pane", "relay", "vterm", "snapshot", "render", "世界", "ok"}
	for r := range rows {
		col := 0
		fmt.Fprintf(&b, "\x1b[%d;1H", r+1)
		for i := 0; col < cols-12; i++ {
			n := seed + r*7 + i
			switch n % 4 {
			case 0:
				fmt.Fprintf(&b, "\x1b[3%dm", n%8)
			case 1:
				fmt.Fprintf(&b, "\x1b[1;38;5;%dm", n%256)
			case 2:
				fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm", n%256, (n*3)%256, (n*7)%256)
			case 3:
				fmt.Fprintf(&b, "\x1b[4;48;5;%dm", (n*5)%256)
			}
			w := words[n%len(words)]
			b.WriteString(w + " ")
			col += len([]rune(w)) + 1
			if strings.ContainsRune(w, '世') {
				col += 2
			}
			b.WriteString("\x1b[m")
		}
	}
	return b.String()
}

// fourPanes is a 240×60 screen of four panes full of coloured text.
func fourPanes(b *testing.B) *harness {
	hs := newHarness(b, 240, 60, "a", "b", "c", "d")
	for id := 1; id <= 4; id++ {
		sn := hs.m.views[id].screen.Snapshot()
		hs.output(id, colouredScreen(sn.Cols, sn.Rows, id))
	}
	hs.view()
	hs.m.scr = discardScreen{} // as in the program: rows for the screen writer, no joined string
	return hs
}

// discardScreen is a presenter that drops frames.
type discardScreen struct{}

func (discardScreen) Present([]string, int, int, tty.Cursor) {}
func (discardScreen) Send(string)                            {}

func BenchmarkFrameFull4x240x60(b *testing.B) {
	hs := fourPanes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, v := range hs.m.views {
			clear(v.cache.cur) // every row rebuilt from cells
			clear(v.cache.next)
			v.stale = true
			v.borderKey = borderKey{}
		}
		hs.m.fr.invalidate()
		_ = hs.m.View()
	}
}

func BenchmarkFrameOneRowChanged4x240x60(b *testing.B) {
	hs := fourPanes(b)
	term, sc := hs.procs[1].Out, hs.m.views[1].screen
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		_, _ = fmt.Fprintf(term, "\x1b[5;1H\x1b[32mtick %d\x1b[m", i)
		hs.m.views[1].snap = sc.Snapshot()
		hs.m.views[1].stale = true
		hs.m.fr.invalidate()
		_ = hs.m.View()
	}
}

// BenchmarkKeystrokeToWrite measures Update(inputMsg{key}) until the key's bytes reach
// the pane's Proc.Write (through the session's loop), and reports the median.
func BenchmarkKeystrokeToWrite(b *testing.B) {
	hs := newHarness(b, 240, 60, "a", "b", "c", "d")
	f := hs.procs[1]
	got := make(chan time.Time, 1)
	f.SetOnWrite(func() { got <- time.Now() })
	msg := inputMsg{Events: []keys.Event{keys.Key{Code: keys.KeyRune, Rune: 'x'}}}
	lat := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		hs.m.Update(msg)
		lat = append(lat, (<-got).Sub(start))
		if f.Size() > 1<<20 {
			f.Sent()
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "ns-median")
}

// BenchmarkKeystrokeThroughProgram measures a key's whole way inside agentmux: bytes
// written to the terminal's input (a pipe here), read and decoded by the input
// goroutines, delivered to a running bubbletea program, encoded by Update and handed to
// the pane's Proc.Write. It reports the median.
func BenchmarkKeystrokeThroughProgram(b *testing.B) {
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ir, err := tty.StartInput(ctx, r)
	if err != nil {
		b.Fatal(err)
	}
	defer ir.Close()
	hs := newHarness(b, 240, 60, "a", "b", "c", "d")
	hs.m.now = time.Now
	got := make(chan time.Time, 1)
	hs.procs[1].SetOnWrite(func() { got <- time.Now() })
	p := tea.NewProgram(hs.m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = p.Run()
	}()
	go forwardInput(ctx, p, nil, ir.Events())
	lat := make([]time.Duration, 0, 1<<16)
	for b.Loop() {
		start := time.Now()
		if _, err := w.Write([]byte("x")); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, (<-got).Sub(start))
	}
	b.StopTimer()
	p.Quit()
	<-done
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "ns-median")
}
