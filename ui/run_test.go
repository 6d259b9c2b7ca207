package ui

// Run is tested end to end over a real PTY pair (the test holds the terminal side a user
// would see): the start-up probe is answered, the first frame must arrive, then the run
// ends by quitting, by cancellation (a signal) and by a panic, and each time the
// terminal must get every mode back (kitty flags popped, mouse, paste and focus off,
// cursor shown, alternate screen left, termios as before) and every pane closed.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"
)

// ptyScreen collects what the program wrote to the terminal.
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
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for !strings.Contains(s.String(), want) {
		select {
		case <-s.changed:
		case <-deadline.C:
			t.Fatalf("no %q in the output:\n%q", want, s.String())
		}
	}
}

// panicky makes Update panic on the key '!'.
type panicky struct{ tea.Model }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if im, ok := msg.(inputMsg); ok {
		for _, ev := range im.Events {
			if k, ok := ev.(keys.Key); ok && k.Rune == '!' {
				panic("boom")
			}
		}
	}
	m, c := p.Model.Update(msg)
	return panicky{m}, c
}

func TestRunRestoresTheTerminal(t *testing.T) {
	cases := []struct {
		name  string
		kitty bool
		end   func(ptm *os.File, cancel context.CancelFunc)
		check func(t *testing.T, err error)
	}{
		{"quit", true, func(ptm *os.File, _ context.CancelFunc) {
			_, _ = ptm.WriteString("\x01qy") // prefix, q, then y to the question
		},
			func(t *testing.T, err error) {
				if err != nil {
					t.Errorf("quit returned %v", err)
				}
			}},
		{"signal", false, func(_ *os.File, cancel context.CancelFunc) { cancel() },
			func(t *testing.T, err error) {
				if err != nil {
					t.Errorf("cancelled run returned %v", err)
				}
			}},
		{"panic", true, func(ptm *os.File, _ context.CancelFunc) { _, _ = ptm.WriteString("!") },
			func(t *testing.T, err error) {
				var pe *PanicError
				if !errors.As(err, &pe) || pe.Value != "boom" || !bytes.Contains(pe.Stack, []byte("panicky")) {
					t.Errorf("panic returned %v", err)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			leaks := goleak.IgnoreCurrent() // every goroutine the run starts must end
			ptm, pts, err := pty.Open()
			if err != nil {
				t.Skipf("no pty: %v", err)
			}
			defer ptm.Close()
			defer pts.Close()
			if err := pty.Setsize(pts, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
				t.Fatal(err)
			}
			before, err := term.GetState(pts.Fd())
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

			var mu sync.Mutex
			var procs []*fakeProc
			start := func(spec ptyhost.Spec, out io.Writer) (session.Process, error) {
				f := fakeproc.New(spec, out)
				mu.Lock()
				procs = append(procs, f)
				mu.Unlock()
				return f, nil
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := Config{Prefix: testPrefix, PrefixSpec: "ctrl+a", Panes: []PaneSpec{{Name: "a", Argv: []string{"a"}}, {Name: "b", Argv: []string{"b"}}}}
			errc := make(chan error, 1)
			go func() {
				errc <- run(ctx, cfg, pts, pts, runOptions{start: start, wrap: func(m tea.Model) tea.Model { return panicky{m} }})
			}()
			scr.waitFor(t, "1 a")
			c.end(ptm, cancel)
			select {
			case err := <-errc:
				c.check(t, err)
			case <-time.After(10 * time.Second):
				t.Fatalf("run did not end; output:\n%q", scr.String())
			}
			{
				want := tty.RestoreSeq
				if c.kitty {
					want = tty.KittyPop + tty.RestoreSeq
				}
				scr.waitFor(t, want)
				if c.kitty && !strings.Contains(scr.String(), tty.KittyPush) {
					t.Error("kitty flags were not pushed although the terminal answered CSI ? u")
				}
				if !c.kitty && strings.Contains(scr.String(), tty.KittyPush) {
					t.Error("kitty flags pushed to a terminal that did not answer CSI ? u")
				}
				// Nothing is drawn after the restore.
				out := scr.String()
				if tail := out[strings.LastIndex(out, tty.RestoreSeq)+len(tty.RestoreSeq):]; tail != "" {
					t.Errorf("output after the restore: %q", tail)
				}
			}
			{
				after, err := term.GetState(pts.Fd())
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(before, after) {
					t.Error("termios not restored")
				}
			}
			mu.Lock()
			for _, f := range procs {
				if !f.IsClosed() {
					t.Errorf("pane %d not closed", f.Spec.Pane)
				}
			}
			mu.Unlock()
			goleak.VerifyNone(t, leaks,
				goleak.IgnoreAnyFunction("github.com/agentmux/agentmux/ui.(*ptyScreen).read"),
				goleak.IgnoreAnyFunction("os/signal.signal_recv"))
		})
	}
}
