package server

// Strategy: the terminal a session runs in (agentmux demo, --in-process) is attached over
// Server.Local by the real thin client (attach.Run) on a real PTY pair, the test holding
// the side a person would see and answering the start-up probe as a terminal does. The
// first frame must arrive; then the run ends by quitting (prefix q, y) and by the server
// ending and closing (as on a signal), and each time the terminal must get every mode back (kitty flags
// popped, mouse, paste and focus off, cursor shown, alternate screen left, termios as
// before) and every pane must close with the session. Such a terminal cannot detach:
// prefix d says so, another terminal's attach -d leaves it attached, and its client's
// detach (its terminal went away) ends the session.

import (
	"bytes"
	"context"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	xterm "github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/tty"
)

// ptyScreen collects what the client wrote to the terminal, answering the probe.
type ptyScreen struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func (s *ptyScreen) read(r io.Reader, answer func(string) string, w io.Writer) {
	b := make([]byte, 4096)
	answered := map[string]bool{}
	for {
		n, err := r.Read(b)
		if n > 0 {
			s.mu.Lock()
			s.buf.Write(b[:n])
			all := s.buf.String()
			s.mu.Unlock()
			for _, q := range []string{"\x1b[?u", "\x1b[c"} {
				if !answered[q] && strings.Contains(all, q) {
					answered[q] = true
					if a := answer(q); a != "" {
						_, _ = io.WriteString(w, a)
					}
				}
			}
			select {
			case s.changed <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

func (s *ptyScreen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the output contains want.
func (s *ptyScreen) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for !strings.Contains(s.String(), want) {
		select {
		case <-s.changed:
		case <-deadline.C:
			t.Fatalf("no %q in the output:\n%q", want, s.String())
		}
	}
}

func TestLocalTerminalRestoredAsTheSessionEnds(t *testing.T) {
	cases := []struct {
		name  string
		kitty bool
		end   func(f *fixture, ptm *os.File)
	}{
		{"quit", true, func(_ *fixture, ptm *os.File) { _, _ = ptm.WriteString("\x01qy") }},
		{"signal", false, func(f *fixture, _ *os.File) { f.srv.End("signal terminated"); go f.srv.Close() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			leaks := goleak.IgnoreCurrent() // every goroutine the run starts must end
			f := newFixture(t, "a", "b")
			ptm, pts, err := pty.Open()
			if err != nil {
				t.Skipf("no pty: %v", err)
			}
			defer ptm.Close()
			defer pts.Close()
			if err := pty.Setsize(pts, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
				t.Fatal(err)
			}
			before, err := xterm.GetState(pts.Fd())
			if err != nil {
				t.Fatal(err)
			}
			scr := &ptyScreen{changed: make(chan struct{}, 1)}
			go scr.read(ptm, func(q string) string {
				switch {
				case q == "\x1b[?u" && c.kitty:
					return "\x1b[?0u"
				case q == "\x1b[c":
					return "\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[?62;22c"
				}
				return ""
			}, ptm)

			nc, err := f.srv.Local()
			if err != nil {
				t.Fatal(err)
			}
			type result struct {
				res attach.Result
				err error
			}
			done := make(chan result, 1)
			go func() {
				res, err := attach.Run(context.Background(), nc, pts, pts, attach.Options{})
				done <- result{res, err}
			}()
			scr.waitFor(t, "1 a")
			c.end(f, ptm)
			select {
			case r := <-done:
				if r.err != nil || r.res.Reason != attach.ReasonEnded {
					t.Errorf("the attach ended with %+v, %v; want the session ended", r.res, r.err)
				}
			case <-time.After(wait):
				t.Fatalf("the attach did not end; output:\n%q", scr.String())
			}
			want := tty.RestoreSeq
			if c.kitty {
				want = tty.KittyPop + tty.RestoreSeq
			}
			scr.waitFor(t, want)
			if c.kitty != strings.Contains(scr.String(), tty.KittyPush) {
				t.Errorf("kitty flags pushed %v, want pushed only when the terminal answered CSI ? u (%v)", !c.kitty, c.kitty)
			}
			out := scr.String()
			if tail := out[strings.LastIndex(out, tty.RestoreSeq)+len(tty.RestoreSeq):]; tail != "" {
				t.Errorf("output after the restore: %q", tail)
			}
			after, err := xterm.GetState(pts.Fd())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(before, after) {
				t.Error("termios not restored")
			}
			select {
			case <-f.srv.Done():
			default:
				t.Error("the session goes on after its terminal quit")
			}
			f.close()
			for n := 1; n <= 2; n++ {
				if !f.proc(n).IsClosed() {
					t.Errorf("pane %d not closed", n)
				}
			}
			goleak.VerifyNone(t, leaks,
				goleak.IgnoreAnyFunction("github.com/agentmux/agentmux/server.(*ptyScreen).read"),
				goleak.IgnoreAnyFunction("os/signal.signal_recv"))
		})
	}
}

func TestLocalTerminalCannotBeDetached(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	f := newFixture(t, "a")
	nc, err := f.srv.Local()
	if err != nil {
		t.Fatal(err)
	}
	// The local connection is a test terminal here, drawn into an emulator.
	tm := f.attachOn(nc, attach.Request{Version: attach.Version, Cols: 100, Rows: 24})
	tm.waitText("1 a")
	_ = tm.send(attach.Input([]byte("\x01d")))
	tm.waitText("cannot detach")
	other := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24, DetachOthers: true})
	other.waitText("1 a")
	_ = tm.send(attach.Input([]byte("still here")))
	f.waitSent(1, "still here")
	select {
	case fr := <-tm.ended:
		t.Fatalf("the local terminal was detached: %+v", fr)
	default:
	}
	// Its client's detach (its terminal closed) ends the session, for every terminal.
	_ = tm.send(attach.Detach())
	if r := tm.waitEnd(); r != attach.ReasonEnded {
		t.Errorf("the local terminal's detach ended its stream with %q, want the session ended", r)
	}
	select {
	case <-f.srv.Done():
	case <-time.After(wait):
		t.Fatal("the session goes on after its terminal went away")
	}
	f.close() // what the process serving it does once it is done
	if r := other.waitEnd(); r != attach.ReasonEnded {
		t.Errorf("the other terminal's stream ended with %q, want the session ended", r)
	}
	goleak.VerifyNone(t, leaks)
}
