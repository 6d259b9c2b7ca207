package ui

// The test harness drives the model headlessly over a real session: panes run fake
// processes (fakeProc) whose output the test writes straight into the pane's real vterm
// emulator, Update is called with the messages bubbletea would deliver (the session's
// events included, taken from the model's subscription after session.Sync), the clock is
// a fake shared by the model and the session, and View() is compared with golden files
// at a fixed size with lipgloss pinned to a true-colour profile. Cmds are never run
// (most wait on channels); tests look at state instead.

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/agentmux/agentmux/internal/fakeclock"
	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/session"
)

// fakeProc is a session.Process with no process behind it.
type fakeProc = fakeproc.Proc

// fakeClock is the session's and the model's clock: its timers fire when the test
// moves it (Set, Advance).
type fakeClock = fakeclock.Clock

// harness is a model over a real session of fake panes.
type harness struct {
	t     testing.TB
	m     *model
	s     *session.Session
	procs map[int]*fakeProc
	clock *fakeClock
}

// testPrefix is ctrl+a, as keys.ParseKey("ctrl+a") returns it.
var testPrefix = keys.Key{Code: keys.KeyRune, Rune: 'a', Mod: keys.ModCtrl}

// newHarness starts one fake pane per name on a w×h screen.
func newHarness(t testing.TB, w, h int, names ...string) *harness {
	t.Helper()
	return newHarnessCfg(t, w, h, Config{}, names...)
}

// newHarnessCfg is newHarness with cfg's ui settings.
func newHarnessCfg(t testing.TB, w, h int, cfg Config, names ...string) *harness {
	t.Helper()
	return newHarnessWith(t, w, h, cfg, session.Options{}, names...)
}

// newHarnessWith is newHarnessCfg over a session of o's relay settings (Link, Turns,
// Idle, Address); its panes are the names'.
func newHarnessWith(t testing.TB, w, h int, cfg Config, o session.Options, names ...string) *harness {
	t.Helper()
	hs := &harness{t: t, procs: map[int]*fakeProc{}, clock: fakeclock.New(time.Unix(1_700_000_000, 0))}
	var mu sync.Mutex
	start := func(spec ptyhost.Spec, out io.Writer) (session.Process, error) {
		f := fakeproc.New(spec, out)
		mu.Lock()
		hs.procs[spec.Pane] = f
		mu.Unlock()
		return f, nil
	}
	cfg.Prefix, cfg.PrefixSpec, o.Version = testPrefix, "ctrl+a", "test"
	for _, n := range names {
		o.Panes = append(o.Panes, PaneSpec{Name: n, Argv: []string{n}})
	}
	Fit(&o, cfg.Layout, Size{Cols: w, Rows: h}, TerminalInfo{})
	o.Start = start
	o.Clock = hs.clock
	o.OutputInterval = -1 // every output reaches the model, which paces frames (session tests pace output)
	s, err := session.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	hs.s = s
	t.Cleanup(func() { _ = s.Stop() })
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	hs.m = newModel(cfg, s, modelOptions{width: w, height: h, renderer: r, now: hs.clock.Now})
	t.Cleanup(hs.m.sub.Close)
	return hs
}

// send delivers msg to Update, then lets the session finish what it caused and
// delivers its events; it returns the Cmd.
func (hs *harness) send(msg any) any {
	_, cmd := hs.m.Update(msg)
	hs.settle()
	return cmd
}

// settle waits until the session has run every command sent so far and hands the
// model the events that came of them.
func (hs *harness) settle() {
	hs.s.Sync()
	for {
		select {
		case <-hs.m.sub.Ready():
			if evs := hs.m.sub.Next(); len(evs) > 0 {
				hs.m.Update(sessionMsg{Events: evs})
				hs.s.Sync()
			}
		default:
			return
		}
	}
}

// await hands the model the session's events until one satisfies ok.
func (hs *harness) await(ok func(session.Event) bool) {
	hs.t.Helper()
	for {
		select {
		case <-hs.m.sub.Ready():
		case <-time.After(10 * time.Second):
			hs.t.Fatal("no session event in 10 s")
		}
		evs := hs.m.sub.Next()
		if len(evs) == 0 {
			continue
		}
		hs.m.Update(sessionMsg{Events: evs})
		for _, ev := range evs {
			if ok(ev) {
				hs.settle()
				return
			}
		}
	}
}

// output writes s into pane id's emulator as its program would, a frame interval
// after the last output, and waits until the model has the session's Output event, so
// the frame is drawn at once.
func (hs *harness) output(id int, s string) {
	hs.t.Helper()
	f := hs.procs[id]
	if f == nil {
		hs.t.Fatalf("no pane %d", id)
	}
	hs.clock.Set(hs.clock.Now().Add(frameInterval))
	hs.s.Sync()
	f.Print(s)
	hs.await(func(ev session.Event) bool { o, ok := ev.(session.Output); return ok && o.Pane == id })
}

// advance moves the clock by d, firing every timer due on the way in order (the
// session's, and the model's frame tick as bubbletea would deliver it) and handing the
// model what came of them.
func (hs *harness) advance(d time.Duration) {
	end := hs.clock.Now().Add(d)
	for {
		at, ok := hs.clock.Next()
		if hs.m.pace.armed && (!ok || hs.m.pace.at.Before(at)) {
			at, ok = hs.m.pace.at, true
		}
		if !ok || at.After(end) {
			break
		}
		hs.clock.Set(at)
		hs.settle()
		hs.frameTick()
	}
	hs.clock.Set(end)
	hs.settle()
	hs.frameTick()
}

// frameTick delivers the model's frame tick if it is due by the clock.
func (hs *harness) frameTick() {
	if p := &hs.m.pace; p.armed && !p.at.After(hs.clock.Now()) {
		hs.send(frameMsg{})
	}
}

// press delivers keys as one input batch.
func (hs *harness) press(ks ...keys.Key) {
	evs := make([]keys.Event, len(ks))
	for i, k := range ks {
		evs[i] = k
	}
	hs.send(inputMsg{Events: evs})
}

// input delivers arbitrary events as one batch.
func (hs *harness) input(evs ...keys.Event) { hs.send(inputMsg{Events: evs}) }

// exit ends pane id's program with code and waits until the model heard of it.
func (hs *harness) exit(id, code int) {
	hs.clock.Set(hs.clock.Now().Add(frameInterval))
	hs.s.Sync()
	hs.procs[id].Exit(code)
	hs.await(func(ev session.Event) bool { e, ok := ev.(session.Exit); return ok && e.Pane == id })
}

// view returns the frame, checking its geometry: height lines of width columns.
func (hs *harness) view() string {
	hs.t.Helper()
	v := hs.m.View()
	lines := strings.Split(v, "\n")
	if len(lines) != hs.m.height {
		hs.t.Fatalf("view has %d lines, want %d", len(lines), hs.m.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != hs.m.width {
			hs.t.Fatalf("view line %d is %d columns, want %d: %q", i, w, hs.m.width, ansi.Strip(l))
		}
	}
	return v
}

// text is the view without escape sequences.
func (hs *harness) text() string { return ansi.Strip(hs.view()) }

// golden compares the view with the test's golden files (golden.RequireEqual, whose
// -update flag rewrites them): testdata/<test>/text.golden holds it without escapes, for
// reading diffs, and testdata/<test>/ansi.golden the exact bytes, escapes quoted.
func (hs *harness) golden() {
	hs.t.Helper()
	raw := hs.view()
	t, ok := hs.t.(*testing.T)
	if !ok {
		hs.t.Fatal("golden needs a *testing.T")
	}
	t.Run("text", func(t *testing.T) { golden.RequireEqual(t, []byte(ansi.Strip(raw))) })
	t.Run("ansi", func(t *testing.T) { golden.RequireEqualEscape(t, []byte(raw), true) })
}

// key helpers
func runeKey(r rune) keys.Key      { return keys.Key{Code: keys.KeyRune, Rune: r} }
func codeKey(c keys.Code) keys.Key { return keys.Key{Code: c} }
func textKeys(s string) (ks []keys.Key) {
	for _, r := range s {
		ks = append(ks, runeKey(r))
	}
	return ks
}
