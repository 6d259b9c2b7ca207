package ui

// The test harness drives the model headlessly: panes run fake processes (fakeProc) whose
// output the test writes straight into the pane's real vterm emulator, Update is called
// with the messages bubbletea would deliver, the clock is a variable, and View() is
// compared with golden files at a fixed size with lipgloss pinned to a true-colour
// profile. Cmds are never run (most wait on channels); tests look at state instead.

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/vterm"
)

// updating reports whether -update was given: rewrite the golden files under
// testdata/golden. The flag itself is defined by charmbracelet/x/exp/golden, which
// teatest links into this test binary (defining it twice would panic).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// fakeProc is a Process with no process behind it.
type fakeProc struct {
	mu      sync.Mutex
	spec    ptyhost.Spec
	out     io.Writer
	in      bytes.Buffer // everything the pane's program was sent
	sizes   [][2]int
	updates chan struct{}
	done    chan struct{}
	code    int
	closed  bool
	onWrite func() // called after each Write (benchmarks)
}

func (f *fakeProc) Write(b []byte) {
	f.mu.Lock()
	f.in.Write(b)
	cb := f.onWrite
	f.mu.Unlock()
	if cb != nil {
		cb()
	}
}

func (f *fakeProc) Resize(cols, rows int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sizes = append(f.sizes, [2]int{cols, rows})
	return nil
}

// Close ends the fake child as ptyhost does: Done is closed.
func (f *fakeProc) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		select {
		case <-f.done:
		default:
			close(f.done)
		}
	}
	return nil
}

func (f *fakeProc) Updates() <-chan struct{} { return f.updates }
func (f *fakeProc) Done() <-chan struct{}    { return f.done }
func (f *fakeProc) ExitCode() int            { return f.code }

// sent returns and clears what the program was sent.
func (f *fakeProc) sent() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.in.String()
	f.in.Reset()
	return s
}

// lastSize is the last size the pane was resized to (the start size if none).
func (f *fakeProc) lastSize() [2]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sizes) == 0 {
		return [2]int{f.spec.Cols, f.spec.Rows}
	}
	return f.sizes[len(f.sizes)-1]
}

// harness is a model over fake panes.
type harness struct {
	t     testing.TB
	m     *model
	host  *Host
	procs map[int]*fakeProc
	clock time.Time
}

// testPrefix is ctrl+a, as keys.ParseKey("ctrl+a") returns it.
var testPrefix = keys.Key{Code: keys.KeyRune, Rune: 'a', Mod: keys.ModCtrl}

// newHarness starts one fake pane per name on a w×h screen.
func newHarness(t testing.TB, w, h int, names ...string) *harness {
	t.Helper()
	hs := &harness{t: t, procs: map[int]*fakeProc{}, clock: time.Unix(1_700_000_000, 0)}
	hs.host = NewHost(HostOptions{Version: "test", Start: func(spec ptyhost.Spec, out io.Writer) (Process, error) {
		f := &fakeProc{spec: spec, out: out, updates: make(chan struct{}, 1), done: make(chan struct{})}
		hs.procs[spec.Pane] = f
		return f, nil
	}})
	cfg := Config{Prefix: testPrefix, PrefixSpec: "ctrl+a", Version: "test"}
	for _, n := range names {
		cfg.Panes = append(cfg.Panes, PaneSpec{Name: n, Argv: []string{n}})
	}
	if err := startPanes(hs.host, cfg, w, h); err != nil {
		t.Fatal(err)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	hs.m = newModel(cfg, hs.host, modelOptions{width: w, height: h, renderer: r, now: func() time.Time { return hs.clock }})
	hs.m.Init()
	return hs
}

// send delivers msg to Update and returns the Cmd.
func (hs *harness) send(msg any) any {
	_, cmd := hs.m.Update(msg)
	return cmd
}

// output writes s into pane id's emulator as its program would, then delivers the
// output message a frame interval later, so the frame is drawn at once.
func (hs *harness) output(id int, s string) {
	hs.t.Helper()
	p := hs.host.Pane(id)
	if p == nil {
		hs.t.Fatalf("no pane %d", id)
	}
	p.Term.Write([]byte(s))
	hs.clock = hs.clock.Add(frameInterval)
	hs.send(paneOutputMsg{ID: id})
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

// exit ends pane id's program with code.
func (hs *harness) exit(id, code int) {
	f := hs.procs[id]
	f.code = code
	close(f.done)
	hs.clock = hs.clock.Add(frameInterval)
	hs.send(paneExitedMsg{ID: id, Code: code})
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

// golden compares the view with testdata/golden/name.ansi (exact bytes) and name.txt
// (the same without escapes, for reading diffs); -update rewrites both.
func (hs *harness) golden(name string) {
	hs.t.Helper()
	raw := hs.view()
	txt := ansi.Strip(raw)
	base := filepath.Join("testdata", "golden", name)
	if updating() {
		if err := os.WriteFile(base+".ansi", []byte(raw), 0o644); err != nil {
			hs.t.Fatal(err)
		}
		if err := os.WriteFile(base+".txt", []byte(txt), 0o644); err != nil {
			hs.t.Fatal(err)
		}
		return
	}
	wantTxt, err := os.ReadFile(base + ".txt")
	if err != nil {
		hs.t.Fatalf("%v (run go test ./ui -update)", err)
	}
	if string(wantTxt) != txt {
		hs.t.Fatalf("view text differs from %s.txt:\n got:\n%s\nwant:\n%s", base, txt, wantTxt)
	}
	wantRaw, err := os.ReadFile(base + ".ansi")
	if err != nil {
		hs.t.Fatal(err)
	}
	if string(wantRaw) != raw {
		gl, wl := strings.Split(raw, "\n"), strings.Split(string(wantRaw), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				hs.t.Fatalf("view styles differ from %s.ansi at line %d:\n got %q\nwant %q", base, i, gl[i], wl[i])
			}
		}
		hs.t.Fatalf("view differs from %s.ansi", base)
	}
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

// rgb is a vterm.RGBColor.
func rgb(r, g, b uint8) vterm.RGBColor { return vterm.RGBColor{R: r, G: g, B: b} }
