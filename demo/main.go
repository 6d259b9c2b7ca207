package demo

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// Main runs one simulated agent in the current terminal and returns its exit status.
//
// args are the agent's flags (see -h). When stdin is a terminal, Main puts it in raw mode
// (but for the line style, which reads it cooked, a line at a time) and restores it before
// returning, follows the terminal's size (SIGWINCH) and ends cleanly on SIGTERM, SIGHUP or
// SIGINT. Otherwise it reads stdin as a plain stream in which a line feed submits, and
// draws for an 80×24 screen, so it can run under tests with pipes.
//
// Exit status: 0 after Ctrl+C twice, Ctrl+D on an empty draft or the end of stdin; the
// -exit-code value after -exit-after answers; 2 for bad flags; 1 when the terminal cannot
// be set up or written; 128+N after signal N.
func Main(args []string, stdin io.Reader, stdout io.Writer) int {
	cfg, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if cfg.pidfile != "" {
		if err := os.WriteFile(cfg.pidfile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
			fmt.Fprintf(stdout, "agent: write pid file: %v\r\n", err)
			return 1
		}
	}
	if cfg.conversations != "" {
		how := "new"
		if cfg.resumed {
			how = "resumed"
		}
		if err := appendLine(cfg.conversations, cfg.conversation+" "+how); err != nil {
			fmt.Fprintf(stdout, "agent: conversations file: %v\r\n", err)
			return 1
		}
	}
	var transcript *os.File
	if cfg.transcript != "" {
		transcript, err = os.OpenFile(cfg.transcript, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(stdout, "agent: open transcript: %v\r\n", err)
			return 1
		}
		defer transcript.Close()
	}
	t, err := openTerminal(stdin, stdout, !cfg.Style.cooked())
	if err != nil {
		fmt.Fprintf(stdout, "agent: %v\r\n", err)
		return 1
	}
	defer t.restore()
	a := newAgent(cfg, t.cols, t.rows, time.Now)
	a.dec.lfSubmits = !t.raw // cooked, or not a terminal: lines end in "\n"
	if transcript != nil {
		a.log.w = transcript
	}
	return run(a, stdin, stdout, t)
}

// ready is a closed channel: a select case on it is always ready.
var ready = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// run drives the agent until it is done: one select over input, the answer's next step, the
// spinner ticker (only while busy), resizes, signals and, while flooding, the next chunk of
// filler output. Each step's output is written to w in one write.
func run(a *agent, stdin io.Reader, w io.Writer, t *terminal) int {
	done := make(chan struct{})
	defer close(done)
	in := readInput(stdin, done)

	var writeErr error
	flush := func() {
		if a.out.Len() > 0 && writeErr == nil {
			_, writeErr = w.Write(a.out.Bytes())
		}
		a.out.Reset()
	}

	var (
		timers turnTimers
		due    <-chan time.Time
		tick   <-chan time.Time
	)
	defer timers.stop()

	a.start()
	flush()
	for !a.done && writeErr == nil {
		due, tick = timers.sync(a)
		var flood chan struct{}
		if a.floodLeft > 0 {
			flood = ready
		}
		select {
		case p, ok := <-in:
			if !ok {
				in = nil
				a.closeInput()
				break
			}
			a.input(p)
		case <-due:
			a.step()
		case <-tick:
			a.tick()
		case <-t.winch:
			if cols, rows, ok := t.size(); ok {
				a.resize(cols, rows)
			}
		case sig := <-t.stop:
			a.quit(128 + signalNumber(sig))
		case <-flood:
			a.floodStep()
		}
		flush()
		a.runHooks()
	}
	a.finish()
	flush()
	if !a.done {
		return 1 // the terminal went away
	}
	return a.code
}

// turnTimers holds the timer of the answer's next step and the spinner ticker. Both exist
// only while the agent is busy: an idle agent has no timer at all.
type turnTimers struct {
	turn   int    // the turn the ticker belongs to; 0 when none
	step   [2]int // the turn and step the timer waits for
	timer  *time.Timer
	ticker *time.Ticker
}

// sync starts or stops the timers to match the agent's state and returns their channels
// (nil when stopped).
func (tt *turnTimers) sync(a *agent) (<-chan time.Time, <-chan time.Time) {
	want := 0
	if a.busy {
		want = a.turn
	}
	if want != tt.turn {
		tt.stopTicker()
		tt.turn = want
		if p := a.draw.tickEvery(); want != 0 && p > 0 {
			tt.ticker = time.NewTicker(p)
		}
	}
	d, ok := a.nextStep()
	if step := [2]int{a.turn, a.stepped}; !ok || tt.timer == nil || step != tt.step {
		tt.stopTimer()
		if ok {
			tt.timer, tt.step = time.NewTimer(d), step
		}
	}
	var due, tick <-chan time.Time
	if tt.timer != nil {
		due = tt.timer.C
	}
	if tt.ticker != nil {
		tick = tt.ticker.C
	}
	return due, tick
}

func (tt *turnTimers) stopTimer() {
	if tt.timer != nil {
		tt.timer.Stop()
		tt.timer = nil
	}
}

func (tt *turnTimers) stopTicker() {
	if tt.ticker != nil {
		tt.ticker.Stop()
		tt.ticker = nil
	}
}

func (tt *turnTimers) stop() {
	tt.stopTimer()
	tt.stopTicker()
	*tt = turnTimers{}
}

// readInput reads r on its own goroutine and hands each chunk over the returned channel,
// which is closed when r ends or fails. The goroutine stops sending once done is closed.
func readInput(r io.Reader, done <-chan struct{}) <-chan []byte {
	ch := make(chan []byte)
	go func() {
		defer close(ch)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				select {
				case ch <- bytes.Clone(buf[:n]):
				case <-done:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// appendLine appends line and a newline to the file at path, made when missing.
func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
