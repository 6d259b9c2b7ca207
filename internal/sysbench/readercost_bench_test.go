package sysbench

// BenchmarkPTYReaderCost: what a PTY's reader may spend on each read before the output
// slows. Each op cats the 64 MB coloured log into a 200×50 PTY read as catThroughPTY
// reads it, once dropping the bytes (the floor) and once for each cost, the reader
// spending a fixed amount of CPU per 4 KiB read (a counted loop, calibrated once) before
// its next read, in a random order. Metrics ratio_Nus: that time over the floor's, for
// N µs per 4 KiB; vterm spends about 7-8 µs per 4 KiB of this log (BenchmarkWrite/
// coloredlog), so ratio_8us is where any reader that emulates as it reads stands. On the
// 2-core VM (2026-11-30, two runs of 20 ops): ratio_0us 1.011 and 1.003, 8 µs 1.097 and
// 1.065, 15 µs 1.184 and 1.174, 30 µs 1.589 and 1.543 (floor 0.68-0.69 s): half to
// four fifths of the reader's CPU shows in the time, the cat and the kernel's worker
// needing the other core.

import (
	"fmt"
	"testing"
	"time"
)

// spinSink is the sink of a reader that spends perRead of CPU on each 4 KiB it reads.
type spinSink struct {
	perRead time.Duration
	loops   float64 // iterations of burn per nanosecond
	sum     uint64
}

// burn runs n iterations of a loop the compiler cannot drop.
func burn(n int, x uint64) uint64 {
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// calibrate measures burn's iterations per nanosecond, the best of three short runs.
func calibrate() float64 {
	const n = 1 << 22
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		sinkSum = burn(n, sinkSum|1)
		best = min(best, time.Since(start))
	}
	return float64(n) / float64(best.Nanoseconds())
}

var sinkSum uint64

func (s *spinSink) write(p []byte) {
	n := int(s.loops * float64(s.perRead.Nanoseconds()) * float64(len(p)) / 4096)
	s.sum = burn(n, s.sum|uint64(len(p)))
}

func BenchmarkPTYReaderCost(b *testing.B) {
	log := input(b, kindSGR, catLogSize)
	loops := calibrate()
	costs := []int{0, 8, 15, 30}
	total := make([]time.Duration, len(costs))
	var floor time.Duration
	runs := []func(){func() { floor += catThroughPTY(b, log, nil) }}
	for i, us := range costs {
		s := &spinSink{perRead: time.Duration(us) * time.Microsecond, loops: loops}
		runs = append(runs, func() { total[i] += catThroughPTY(b, log, s.write) })
	}
	runShuffled(b, runs)
	b.ReportMetric(floor.Seconds()/float64(b.N), "pty_floor_s")
	for i, us := range costs {
		b.ReportMetric(total[i].Seconds()/floor.Seconds(), fmt.Sprintf("ratio_%dus", us))
	}
}
