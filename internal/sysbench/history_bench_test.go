package sysbench

// BenchmarkHistoryMemory: the target "4 panes × 10 000 lines of history in one session
// use no more memory than a tmux server holding the same, measured side by side". Each op
// starts agentmux in a 200×50 PTY with four panes (tiled) that each cat histLines
// coloured lines of 60 to 80 columns (more than the 10,000 lines of history a pane keeps,
// so every pane's history is full) and then print a marker; once the four markers are on
// agentmux's screen it reads the VmRSS of the agentmux processes (the terminal's and the
// session server's, which holds the panes). Then a private tmux server with
// history-limit 10000 gets four tiled panes of a 200×50 session that cat the same file
// and signal a wait-for channel; once all four have, it reads the server's VmRSS.
// Metrics (means over the ops): agentmux_MB (both processes), server_MB (the session
// server alone), tmux_MB, ratio (agentmux / tmux) and ratio_server (server / tmux).

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// histLines is the number of lines each pane prints: its history fills.
const histLines = 12000

func BenchmarkHistoryMemory(b *testing.B) {
	bin := agentmux(b)
	log := input(b, kindHistory, histLines)
	tmux := tmuxPath(b)
	var am, srv, tm int64
	b.ResetTimer()
	for range b.N {
		argv := []string{bin}
		var marks []string
		for i := 1; i <= 4; i++ {
			argv = append(argv, fmt.Sprintf(`p%d=sh -c "cat %s; printf 'P%%s-DONE' %d; exec cat"`, i, log, i))
			marks = append(marks, fmt.Sprintf("P%d-DONE", i))
		}
		s := startSession(b, argv...)
		s.waitText(2*time.Minute, marks...)
		for i, pid := range s.pids() { // the terminal's process, then the session server
			_, rss, err := memoryKB(pid)
			if err != nil {
				b.Fatal(err)
			}
			am += rss
			if i > 0 {
				srv += rss
			}
		}
		s.close()
		if tmux != "" {
			tm += tmuxHistoryRSS(b, tmux, log)
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(am)/1024/n, "agentmux_MB")
	b.ReportMetric(float64(srv)/1024/n, "server_MB")
	if tmux != "" {
		b.ReportMetric(float64(tm)/1024/n, "tmux_MB")
		b.ReportMetric(float64(am)/float64(tm), "ratio")
		b.ReportMetric(float64(srv)/float64(tm), "ratio_server")
	}
}

// tmuxHistoryRSS runs four tiled panes that cat log in a tmux server keeping 10,000
// lines of history, and returns the server's VmRSS in kB once they have all finished.
func tmuxHistoryRSS(b *testing.B, path, log string) int64 {
	b.Helper()
	srv := newTmux(b, path)
	defer srv.kill()
	conf := filepath.Join(b.TempDir(), "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g history-limit 10000\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	srv.conf = conf
	start := fmt.Sprintf("start-%d", tmuxSeq.Add(1))
	// each pane waits for its own start signal (a signal wakes one waiting client, or is
	// kept for the next), so that all four cat into the final layout
	pane := func(i int) string {
		return fmt.Sprintf("sh -c 'tmux wait-for %s-go-%d; cat %s; tmux wait-for -S %s-%d; exec cat'", start, i, log, start, i)
	}
	srv.run("new-session", "-d", "-x", fmt.Sprint(outerCols), "-y", fmt.Sprint(outerRows), pane(1))
	for i := 2; i <= 4; i++ {
		srv.run("split-window", pane(i))
		srv.run("select-layout", "tiled")
	}
	for i := 1; i <= 4; i++ {
		srv.run("wait-for", "-S", fmt.Sprintf("%s-go-%d", start, i))
	}
	for i := 1; i <= 4; i++ {
		srv.run("wait-for", fmt.Sprintf("%s-%d", start, i))
	}
	pid, err := strconv.Atoi(srv.run("display-message", "-p", "#{pid}"))
	if err != nil {
		b.Fatalf("tmux server pid: %v", err)
	}
	// tmux frees the oldest tenth of a full history at once: it holds 9,000 to 10,000
	if got, err := strconv.Atoi(srv.run("display-message", "-p", "#{history_size}")); err != nil || got < 9000 {
		b.Fatalf("tmux pane history holds %d lines (%v), want 9000 to 10000", got, err)
	}
	_, rss, err := memoryKB(pid)
	if err != nil {
		b.Fatal(err)
	}
	return rss
}
