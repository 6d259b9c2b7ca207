package sysbench

// BenchmarkKeystrokeEcho: the target "its echo is on screen within one frame" (16.7 ms).
// agentmux runs in a 200×50 PTY with one pane: sh -c "stty raw -echo; printf READY; exec
// cat", so the pane's program (not the line discipline) echoes every key. The position of
// the READY marker on agentmux's screen gives the pane's first column. Each op writes one
// letter to the outer PTY and waits until that letter is drawn in its cell, as read back
// through vterm (an op is echoKeys such keys): the whole path (agentmux reads and decodes the key, writes it to the
// pane's PTY, cat echoes it, agentmux parses and draws it, the frame crosses the outer
// PTY). Keys fill a run of 40 cells; before each new run an untimed CR takes cat's cursor
// back to the first column, and the runs alternate lower and upper case so every key
// changes its cell. Metrics: median_us, p95_us and p99_us over all the keystrokes.
//
// Two cadences. typed: each key is sent typeGap after the previous echo was seen (50 keys
// a second, faster than anyone types; the gap is the input's pace, not a wait for anything,
// and counts in ns/op so b.N stays small): the latency of one key. burst: each key right
// after the previous echo. Frames are capped at 60 a second, but the echo of a key may draw
// 2 ms after the previous frame (one early frame per key), so burst measures that path
// rather than the 16.7 ms cap. typed-flood: typed, while a second pane prints a coloured
// log over and over (the target: p99 within 5 ms while another pane floods).

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agentmux/agentmux/vterm"
)

const (
	echoRun = 40
	typeGap = 20 * time.Millisecond
	// echoKeys is the work of one op.
	echoKeys = 20
)

func BenchmarkKeystrokeEcho(b *testing.B) {
	inProcess := []string{"--in-process"}
	b.Run("typed", func(b *testing.B) { benchEcho(b, typeGap, nil) })
	b.Run("typed-in-process", func(b *testing.B) { benchEcho(b, typeGap, inProcess) })
	b.Run("burst", func(b *testing.B) { benchEcho(b, 0, nil) })
	b.Run("burst-in-process", func(b *testing.B) { benchEcho(b, 0, inProcess) })
	// typed into the first pane while a second pane prints a coloured log over and over
	b.Run("typed-flood", func(b *testing.B) {
		log := input(b, kindSGR, 8<<20)
		benchEcho(b, typeGap, nil, fmt.Sprintf(`flood=sh -c "while :; do cat %s; done"`, log))
	})
	b.Run("typed-flood-in-process", func(b *testing.B) {
		log := input(b, kindSGR, 8<<20)
		benchEcho(b, typeGap, inProcess, fmt.Sprintf(`flood=sh -c "while :; do cat %s; done"`, log))
	})
}

// benchEcho types echoKeys keys per op into the first pane (focused at start), with more
// panes running the commands of panes, each key gap after the previous echo (the first
// gap after the start-up screen), and reports the latencies. flags go to agentmux: the
// -in-process runs serve the session from the terminal's own process (--in-process),
// so the difference is what a second process and its socket cost.
func benchEcho(b *testing.B, gap time.Duration, flags []string, panes ...string) {
	bin := agentmux(b)
	argv := append(append([]string{bin}, flags...), `echo=sh -c "stty raw -echo; printf 'READY-%s' MARK; exec cat"`)
	argv = append(argv, panes...)
	s := startSession(b, argv...)
	snap := s.waitText(20*time.Second, "READY-MARK")
	row, col, _ := find(snap, "READY-MARK")
	lat := make([]time.Duration, 0, b.N*echoKeys)
	pace := time.NewTimer(gap)
	b.ResetTimer()
	for k := range b.N * echoKeys {
		if k%echoRun == 0 {
			s.send([]byte{'\r'})
		}
		<-pace.C
		ch := rune('a' + k%26)
		if k/echoRun%2 == 1 {
			ch = rune('A' + k%26)
		}
		x := col + k%echoRun
		start := time.Now()
		s.send([]byte{byte(ch)})
		s.waitScreen("the echo of "+string(ch), 10*time.Second, func(snap *vterm.Snapshot) bool {
			return snap.Lines[row].Cells[x].Rune == ch
		})
		lat = append(lat, time.Since(start))
		pace.Reset(gap)
	}
	b.StopTimer()
	reportLatencies(b, lat)
}

// BenchmarkBurstEnd: how soon the end of a burst of output is on screen. The pane's
// program answers each key in two writes 3 ms apart, as an agent streams an answer:
// "one ", then "two-N". The first write is drawn at once (the key's echo slot); the second
// comes inside the frame interval, so it is held, and is drawn when the program pauses
// (ptyhost.QuietAfter later) rather than at the next tick of the 60 Hz frame rate. Each
// op sends echoKeys keys, each typeGap after the previous answer was seen, and times
// from the key to "two-N" on agentmux's screen: median_us, p95_us and p99_us.
func BenchmarkBurstEnd(b *testing.B) {
	bin := agentmux(b)
	s := startSession(b, bin, `burst=sh -c "stty raw -echo; printf 'READY-%s' MARK; i=0; while :; do dd bs=1 count=1 >/dev/null 2>&1; i=\$((i+1)); printf '\r\033[Kone '; sleep 0.003; printf 'two-%d' \$i; done"`)
	s.waitText(20*time.Second, "READY-MARK")
	lat := make([]time.Duration, 0, b.N*echoKeys)
	pace := time.NewTimer(typeGap)
	b.ResetTimer()
	for k := range b.N * echoKeys {
		<-pace.C
		want := fmt.Sprintf("two-%d", k+1)
		start := time.Now()
		s.send([]byte{'k'})
		s.waitText(10*time.Second, want)
		lat = append(lat, time.Since(start))
		pace.Reset(typeGap)
	}
	b.StopTimer()
	reportLatencies(b, lat)
}

// reportLatencies reports the median, p95 and p99 of lat (sorted here).
func reportLatencies(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "median_us")
	b.ReportMetric(float64(lat[(len(lat)*95)/100].Microseconds()), "p95_us")
	b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds()), "p99_us")
}
