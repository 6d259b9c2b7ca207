package e2e

// Pane delivery across SIGKILLs, through the binary: `agentmux send` floods a pane whose
// program logs every line it reads, agentmux is SIGKILLed at a random point of the
// flood, started again with the same --session and pane name, and every acknowledged
// send (its `agentmux send` printed "ID queued") is counted in what the program read.
//
// Delivery to panes is at least once, with repeats recognisable: a message the program
// may have read before the kill (the store recorded that its carriage return was about
// to be sent, or was sent, and not that the program reacted) is typed again starting
// with hub.RepeatNote ("[agentmux: possible repeat of ID, typed before a restart] ");
// one only typed is typed again as it was (its text died with the program's terminal,
// unread). So, per acknowledged send:
//   - lost: the program never read it;
//   - recognised repeat: it read it again, and that reading carries the note;
//   - unrecognisable duplicate: it read it again without the note (every reading but
//     the first must carry it);
//   - noted but read once: the note came, but the program had not read it before (the
//     kill fell between the record and the carriage return, or before the program read
//     the line): harmless, counted to show how often the note cries wolf.
// The goal is 0 lost and 0 unrecognisable duplicates. AGENTMUX_FLOOD_TRIALS sets the
// number of trials (3 by default; each kills killsPerTrial times, in a few seconds).

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// lineLogger reads lines and appends each to the file $1, answering "got" and a prompt.
// It outlives its terminal's hangup (agentmux killed), so what it read is in the file.
const lineLogger = `log=$1
trap '' HUP
printf 'ready\n> '
while IFS= read -r line; do
	printf '%s\n' "$line" >> "$log"
	printf 'got\n> '
done
`

// floodCount is what a trial counted.
type floodCount struct {
	acked, lost, repeats, unrecognised, notedOnce int
}

func (c *floodCount) add(o floodCount) {
	c.acked += o.acked
	c.lost += o.lost
	c.repeats += o.repeats
	c.unrecognised += o.unrecognised
	c.notedOnce += o.notedOnce
}

func TestPaneDeliverySurvivesSIGKILLFlood(t *testing.T) {
	t.Parallel()
	trials := 3
	if v := os.Getenv("AGENTMUX_FLOOD_TRIALS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("AGENTMUX_FLOOD_TRIALS=%q: want a positive number", v)
		}
		trials = n
	}
	var total floodCount
	for i := 1; i <= trials; i++ {
		c := floodTrial(t, i)
		t.Logf("trial %d: %d acknowledged, %d lost, %d recognised repeats, %d unrecognisable duplicates, %d noted but read once",
			i, c.acked, c.lost, c.repeats, c.unrecognised, c.notedOnce)
		total.add(c)
	}
	t.Logf("%d trials: %d acknowledged sends, %d lost, %d recognised repeats, %d unrecognisable duplicates, %d noted but read once",
		trials, total.acked, total.lost, total.repeats, total.unrecognised, total.notedOnce)
	if total.lost > 0 || total.unrecognised > 0 {
		t.Errorf("%d lost and %d unrecognisable duplicates; want 0 and 0", total.lost, total.unrecognised)
	}
}

// reading is one message token read by the program, and whether the repeat note led it.
var reading = regexp.MustCompile(`(\[agentmux: possible repeat of [^,\]\s]+, typed before a restart\] )?\b((?:m|end)\d+-\d+)\b`)

// killsPerTrial is how many times a trial kills agentmux in the middle of its flood.
const killsPerTrial = 3

// floodTrial floods rx and SIGKILLs agentmux killsPerTrial times, starting it again
// after each kill with the same --session and pane name; then it sends a last message,
// waits until rx read it and counts.
func floodTrial(t *testing.T, trial int) floodCount {
	env := newSockEnv(t)
	logPath := filepath.Join(t.TempDir(), "read")
	args := []string{"--session", "flood", "--idle", "100ms", "--turns", "1000000", script(t, "rx", lineLogger, logPath)}
	var acked []string
	next := 0
	for k := range killsPerTrial {
		// Every other kill waits, past its count, for a submit: the window where the
		// program may have read a message whose reaction is not recorded yet.
		acked = append(acked, flood(t, env, args, trial, &next, k%2 == 1)...)
	}

	// Started again: what was not submitted is typed again; a last message, queued
	// after all of them, is read last (one pane's deliveries go in order).
	last := startWith(t, env.opts(), args...)
	last.waitText(waitLong, "ready")
	end := fmt.Sprintf("end%d-0", trial)
	env.run("send", "--session", "flood", "rx", end)
	var read string
	last.diag = func() string { return "the program read:\n" + read }
	// The program logs a line before it answers "got": once the screen changes after
	// the last line, the file holds it.
	last.waitScreen(end+" read", func(*screen) bool {
		b, _ := os.ReadFile(logPath)
		read = string(b)
		return strings.Contains(read, end)
	}, waitLong)

	notes := map[string][]bool{} // token → for each reading, whether the note led it
	for _, m := range reading.FindAllStringSubmatch(read, -1) {
		notes[m[2]] = append(notes[m[2]], m[1] != "")
	}
	c := floodCount{acked: len(acked)}
	for _, tok := range acked {
		rs := notes[tok]
		switch {
		case len(rs) == 0:
			c.lost++
			t.Logf("trial %d: %s lost; the store has: %s", trial, tok, storedAs(env, tok))
		case len(rs) == 1 && rs[0]:
			c.notedOnce++
		}
		for i, noted := range rs[min(1, len(rs)):] {
			if noted {
				c.repeats++
			} else {
				c.unrecognised++
				t.Logf("trial %d: %s read again without the note (reading %d of %d)", trial, tok, i+2, len(rs))
			}
		}
	}
	return c
}

// storedAs is what the store holds of the message whose text is tok (its history
// line), for the log of a lost message.
func storedAs(env sockEnv, tok string) string {
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	out, err := env.command(ctx, "history", "--session", "flood", "--json").Output()
	if err != nil {
		return "(history: " + err.Error() + ")"
	}
	for line := range strings.Lines(string(out)) {
		if strings.Contains(line, `"`+tok+`"`) {
			return strings.TrimSpace(line)
		}
	}
	return "(nothing)"
}

// flood starts agentmux, floods rx with sends (numbered on from *next) by three
// senders until a random number of them were acknowledged, SIGKILLs agentmux there
// (anywhere in typing, submitting and recording; with onSubmit, at the first submit
// after that) and returns the acknowledged.
func flood(t *testing.T, env sockEnv, args []string, trial int, next *int, onSubmit bool) []string {
	s := startWith(t, env.opts(), args...)
	s.waitText(waitLong, "ready")
	server := serverPid(t, env.environ(), "flood") // the session is its server: it is what dies
	var submit <-chan struct{}
	var armed atomic.Bool
	if onSubmit {
		submit = submits(t, env, &armed)
	}
	stop := sendFlood(t, env, "flood", "rx", fmt.Sprintf("m%d-", trial), next, 10+rand.IntN(40))
	if submit != nil {
		armed.Store(true)
		select {
		case <-submit:
		case <-time.After(waitLong):
			t.Fatalf("trial %d: no submit within %v", trial, waitLong)
		}
	}
	if err := syscall.Kill(server, syscall.SIGKILL); err != nil {
		t.Fatalf("trial %d: kill the session server: %v", trial, err)
	}
	s.waitExit(waitLong) // the client says the session ended
	return stop()
}

// sendFlood sends to in session numbered tokens (prefix then *next, counted on), three
// senders at once, and returns once n were acknowledged (their `agentmux send` printed
// "ID queued"), the senders still sending: stop stops them and returns the acknowledged.
// It fails when waitLong passes without an acknowledgement: each send is a process
// start, seconds apart on a loaded machine, so the time n of them take measures the
// machine; a session that stops acknowledging is what it must catch.
func sendFlood(t *testing.T, env sockEnv, session, to, prefix string, next *int, n int) (stop func() []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
	)
	enough := make(chan struct{})
	progress := make(chan struct{}, 1) // an acknowledgement came
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				mu.Lock()
				*next++
				tok := fmt.Sprintf("%s%d", prefix, *next)
				mu.Unlock()
				cmd := env.command(ctx, "send", "--session", session, to, tok)
				// The race detector's binary waits a second at exit by default.
				cmd.Env = append(cmd.Env, "GORACE=atexit_sleep_ms=0")
				out, err := cmd.Output()
				if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), " queued") {
					continue // not acknowledged: agentmux is gone, or going
				}
				mu.Lock()
				acked = append(acked, tok)
				if len(acked) == n {
					close(enough)
				}
				mu.Unlock()
				select {
				case progress <- struct{}{}:
				default:
				}
			}
		}()
	}
	stall := time.NewTimer(waitLong)
	defer stall.Stop()
	for waiting := true; waiting; {
		select {
		case <-enough:
			waiting = false
		case <-progress:
			stall.Reset(waitLong)
		case <-stall.C:
			cancel()
			wg.Wait()
			t.Fatalf("%s…: no send acknowledged for %v (%d of %d so far)", prefix, waitLong, len(acked), n)
		}
	}
	return func() []string {
		cancel()
		wg.Wait()
		return acked
	}
}

// submits follows the session's events and closes the channel it returns at the first
// submit once armed.
func submits(t *testing.T, env sockEnv, armed *atomic.Bool) <-chan struct{} {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := env.command(ctx, "events", "--session", "flood")
	cmd.Env = append(cmd.Env, "GORACE=atexit_sleep_ms=0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	submit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		said := false
		for sc.Scan() { // until agentmux is gone: every line is read, none waits
			if !said && armed.Load() && strings.Contains(sc.Text(), `"phase":"submitted"`) {
				said = true
				close(submit)
			}
		}
	}()
	t.Cleanup(func() { cancel(); _ = cmd.Wait(); <-done })
	return submit
}
