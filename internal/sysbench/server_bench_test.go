package sysbench

// The session as a server, measured through the binary.
//
// BenchmarkAttachFirstFrame: a session of four panes, each having printed 10 000 numbered
// lines (history) and a marker, detached; each op runs `agentmux attach` in a new 200×50
// PTY and times from its start until all four markers and the status line are on its
// screen (the first full frame: process start, handshake, probe, drawing from the
// emulators), then detaches it. Metric: median_ms, max_ms.
//
// BenchmarkServerIdleCPU: four idle cat panes; CPU (% of a core) and wake-ups of the
// agentmux processes over one idle window (-sysbench.idle): attached (the server and its
// terminal), with a second terminal attached (the server and both), and detached (the
// server alone).
//
// BenchmarkServerMemory: RSS of the session server and of its terminal's process with
// four panes × 10 000 lines of history, against agentmux --in-process (server and terminal in one process)
// holding the same, in the same run.

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// historyPanes are the arguments of four panes that each print lines numbered lines and
// a marker, and the markers.
func historyPanes(lines int) (args, marks []string) {
	for i := 1; i <= 4; i++ {
		args = append(args, fmt.Sprintf(`p%d=sh -c "seq -f 'history line %%g of pane %d' %d; printf 'P%%s-END' %d; exec cat"`, i, i, lines, i))
		marks = append(marks, fmt.Sprintf("P%d-END", i))
	}
	return args, marks
}

// detach types prefix d into a terminal and waits for its client to exit.
func (s *session) detach() {
	s.tb.Helper()
	s.send([]byte("\x01d"))
	select {
	case <-s.exited:
	case <-time.After(20 * time.Second):
		s.tb.Fatalf("prefix d did not detach; screen:\n%s", s.dump())
	}
}

func BenchmarkAttachFirstFrame(b *testing.B) {
	bin := agentmux(b)
	args, marks := historyPanes(10000)
	first := startSession(b, append([]string{bin, "--session", "hist"}, args...)...)
	first.waitText(60*time.Second, marks...)
	first.detach()
	var took []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		a := startSessionEnv(b, first.env, bin, "attach", "hist")
		a.waitText(20*time.Second, append(marks, "^A")...)
		took = append(took, time.Since(start))
		b.StopTimer()
		a.detach()
		a.close()
		b.StartTimer()
	}
	b.StopTimer()
	first.close() // kills the server
	reportMedianMax(b, "", took)
}

// reportMedianMax reports the median and the maximum of took, in milliseconds, as
// prefix+"median_ms" and prefix+"max_ms" (took is sorted).
func reportMedianMax(b *testing.B, prefix string, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, prefix+"median_ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, prefix+"max_ms")
}

func BenchmarkServerIdleCPU(b *testing.B) {
	bin := agentmux(b)
	var one, two, detached idleSample
	b.ResetTimer()
	for range b.N {
		s := startSession(b, bin, "--session", "idle", "p1=cat", "p2=cat", "p3=cat", "p4=cat")
		s.waitText(20*time.Second, "p1", "p2", "p3", "p4")
		s.waitQuiet(time.Second, 20*time.Second)
		server := s.serverPid("idle")
		if server == 0 {
			b.Fatal("no session server")
		}
		one.add(measureWindow(b, s, []int{server, s.pid()}))
		other := startSessionEnv(b, s.env, bin, "attach", "idle")
		other.waitText(20*time.Second, "p1", "p4")
		other.waitQuiet(time.Second, 20*time.Second)
		two.add(measureWindow(b, s, []int{server, s.pid(), other.pid()}))
		other.detach()
		s.detach()
		detached.add(measureWindow(b, nil, []int{server}))
		other.close()
		s.close()
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(one.cpuPercent/n, "cpu_percent_attached")
	b.ReportMetric(two.cpuPercent/n, "cpu_percent_two_clients")
	b.ReportMetric(detached.cpuPercent/n, "cpu_percent_detached")
	b.ReportMetric(one.wakeups/n, "wakeups/s_attached")
	b.ReportMetric(two.wakeups/n, "wakeups/s_two_clients")
	b.ReportMetric(detached.wakeups/n, "wakeups/s_detached")
}

func BenchmarkServerMemory(b *testing.B) {
	bin := agentmux(b)
	args, marks := historyPanes(10000)
	var server, client, inproc int64
	b.ResetTimer()
	for range b.N {
		s := startSession(b, append([]string{bin, "--session", "mem"}, args...)...)
		s.waitText(60*time.Second, marks...)
		_, rs, err := memoryKB(s.serverPid("mem"))
		if err != nil {
			b.Fatal(err)
		}
		_, rc, err := memoryKB(s.pid())
		if err != nil {
			b.Fatal(err)
		}
		server, client = server+rs, client+rc
		s.close()
		p := startSession(b, append([]string{bin, "--in-process"}, args...)...)
		p.waitText(60*time.Second, marks...)
		_, ri, err := memoryKB(p.pid())
		if err != nil {
			b.Fatal(err)
		}
		inproc += ri
		p.close()
	}
	b.StopTimer()
	n := float64(b.N) * 1024
	b.ReportMetric(float64(server)/n, "server_rss_MB")
	b.ReportMetric(float64(client)/n, "client_rss_MB")
	b.ReportMetric(float64(inproc)/n, "in_process_rss_MB")
}
