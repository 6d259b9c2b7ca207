package server

// Strategy: a real server over a session of fake processes (internal/fakeproc) on a
// Unix socket, with a stand-in hub that echoes the first frame it reads; test clients
// speak the attach stream and keep a vterm of what the server draws, answering its
// queries as a terminal would. Waits are on conditions with deadlines (screen updates,
// writes to a fake process); goleak checks that every goroutine ends with the server.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/ui"
	"github.com/agentmux/agentmux/vterm"
	"sync/atomic"
)

const wait = 10 * time.Second

// fixture is a running server and its fake panes.
type fixture struct {
	t     *testing.T
	srv   *Server
	s     *session.Session
	path  string
	mu    sync.Mutex
	procs map[int]*fakeproc.Proc
	hubWG sync.WaitGroup
}

func newFixture(t *testing.T, names ...string) *fixture {
	t.Helper()
	return newFixtureWith(t, nil, names...)
}

// newFixtureWith is newFixture with the server's Config changed by with (when not nil)
// before it starts.
func newFixtureWith(t *testing.T, with func(*Config), names ...string) *fixture {
	t.Helper()
	dir, err := os.MkdirTemp("", "srv") // short: a socket path must fit in 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	f := &fixture{t: t, path: filepath.Join(dir, "s.sock"), procs: map[int]*fakeproc.Proc{}}
	start := func(spec ptyhost.Spec, out io.Writer) (session.Process, error) {
		p := fakeproc.New(spec, out)
		f.mu.Lock()
		f.procs[spec.Pane] = p
		f.mu.Unlock()
		return p, nil
	}
	prefix, _ := keys.ParseKey("ctrl+a")
	cfg := ui.Config{Prefix: prefix, PrefixSpec: "ctrl+a"}
	var panes []session.PaneSpec
	for _, n := range names {
		spec := session.PaneSpec{Name: n, Argv: []string{n}, Cols: 38, Rows: 20}
		panes = append(panes, spec)
	}
	s, err := session.Start(session.Options{Panes: panes, Start: start, OutputInterval: -1, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	f.s = s
	l, err := net.Listen("unix", f.path)
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Name: "proj", Session: s, UI: cfg, Listener: l, ServeHub: f.echoHub}
	if with != nil {
		with(&c)
	}
	f.srv, err = Start(c)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// echoHub stands in for the hub: each connection gets its first frame back.
func (f *fixture) echoHub(l net.Listener) error {
	f.hubWG.Go(func() {
		for {
			nc, err := l.Accept()
			if err != nil {
				return
			}
			body, err := proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil)
			if err == nil {
				_ = proto.WriteFrame(nc, body)
			}
			nc.Close()
		}
	})
	return nil
}

// close stops the server, the stand-in hub and the session.
func (f *fixture) close() {
	f.srv.Close()
	f.hubWG.Wait()
	_ = f.s.Stop()
}

func (f *fixture) proc(n int) *fakeproc.Proc {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.procs[n]
}

// term is a test terminal attached to the server.
type term struct {
	t       *testing.T
	nc      net.Conn
	vt      *vterm.Terminal
	wmu     sync.Mutex
	updates chan struct{}
	ended   chan attach.Frame // receives the end frame, closed when the stream ends
	replies [][]byte          // the emulator's answers, sent after each write
	asked   atomic.Int32      // how many of the server's queries the emulator answered
	// accepted is the server's ATTACHED; with its Acks set each output frame is
	// acknowledged once drawn, as agentmux's client does.
	accepted attach.Accepted
}

func (f *fixture) attach(req attach.Request) *term {
	f.t.Helper()
	nc, err := net.Dial("unix", f.path)
	if err != nil {
		f.t.Fatal(err)
	}
	return f.attachOn(nc, req)
}

// attachOn attaches a test terminal over nc.
func (f *fixture) attachOn(nc net.Conn, req attach.Request) *term {
	f.t.Helper()
	body, _ := attach.Handshake(attach.TypeAttach, req)
	if err := proto.WriteFrame(nc, body); err != nil {
		f.t.Fatal(err)
	}
	ans, err := proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	e, err := proto.Decode(ans)
	if err != nil || e.Type != attach.TypeAttached {
		f.t.Fatalf("attach answered %s (%v)", ans, err)
	}
	acc, err := proto.DecodePayload[attach.Accepted](e)
	if err != nil {
		f.t.Fatal(err)
	}
	tm := &term{t: f.t, nc: nc, updates: make(chan struct{}, 1), ended: make(chan attach.Frame, 1), accepted: acc}
	tm.vt = vterm.New(vterm.Options{Cols: req.Cols, Rows: req.Rows, Reply: func(b []byte) {
		tm.replies = append(tm.replies, bytes.Clone(b))
		tm.asked.Add(1)
	}})
	go tm.read()
	return tm
}

// read draws output frames into the emulator and answers its queries.
func (tm *term) read() {
	defer close(tm.ended)
	for {
		body, err := proto.ReadFrame(tm.nc, attach.MaxFrame, nil)
		if err != nil {
			return
		}
		fr, err := attach.Decode(body)
		if err != nil {
			return
		}
		switch fr.Kind {
		case attach.KindOutput:
			tm.vt.Write(fr.Data)
			if tm.accepted.Acks && len(fr.Data) > 0 {
				_ = tm.send(attach.Ack(len(fr.Data)))
			}
			for _, r := range tm.replies {
				_ = tm.send(attach.Input(r))
			}
			tm.replies = nil
			select {
			case tm.updates <- struct{}{}:
			default:
			}
		case attach.KindEnd:
			tm.ended <- fr
			return
		}
	}
}

func (tm *term) send(body []byte) error {
	tm.wmu.Lock()
	defer tm.wmu.Unlock()
	return proto.WriteFrame(tm.nc, body)
}

func (tm *term) text() string {
	var b strings.Builder
	for _, l := range tm.vt.Snapshot().Lines {
		for _, c := range l.Cells {
			b.WriteString(c.String())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// waitText waits until the terminal shows every one of xs.
func (tm *term) waitText(xs ...string) {
	tm.t.Helper()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		all := true
		for _, x := range xs {
			all = all && strings.Contains(tm.text(), x)
		}
		if all {
			return
		}
		select {
		case <-tm.updates:
		case <-timer.C:
			tm.t.Fatalf("the terminal never showed %q:\n%s", xs, tm.text())
		}
	}
}

// waitEnd waits for the end frame and returns its reason.
func (tm *term) waitEnd() attach.Reason {
	tm.t.Helper()
	return tm.waitEndFrame().Reason
}

// waitEndFrame waits for the end frame (its zero value when the stream ended without
// one) and closes the connection.
func (tm *term) waitEndFrame() attach.Frame {
	tm.t.Helper()
	select {
	case fr := <-tm.ended:
		tm.nc.Close()
		return fr
	case <-time.After(wait):
		tm.t.Fatal("no end frame")
		return attach.Frame{}
	}
}

// waitSent waits until pane n's program was sent want.
func (f *fixture) waitSent(n int, want string) {
	f.t.Helper()
	p := f.proc(n)
	got := make(chan struct{}, 1)
	p.SetOnWrite(func() {
		select {
		case got <- struct{}{}:
		default:
		}
	})
	defer p.SetOnWrite(nil)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for !strings.Contains(p.Peek(), want) {
		select {
		case <-got:
		case <-timer.C:
			f.t.Fatalf("pane %d was sent %q, want %q in it", n, p.Peek(), want)
		}
	}
}

func TestAttachDrawsStateAndDetaches(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	f := newFixture(t, "a", "b")
	f.proc(1).Print("\x1b[31mhello from a\x1b[m\r\n")
	f.proc(2).Print("\x1b[?1049hfull screen b") // the alternate screen, before anyone attached
	tm := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	tm.waitText("hello from a", "full screen b", "1 a", "2 b", "^A")
	if err := tm.send(attach.Detach()); err != nil {
		t.Fatal(err)
	}
	if r := tm.waitEnd(); r != attach.ReasonDetached {
		t.Errorf("end reason %q, want detached", r)
	}
	select {
	case <-f.srv.Done():
		t.Fatal("the session ended on a detach")
	default:
	}
	// A second attach draws the same state, not a replay.
	tm2 := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	tm2.waitText("hello from a", "full screen b")
	tm2.nc.Close()
	f.close()
	goleak.VerifyNone(t, leaks)
}

// A client that probed its terminal just before it attaches (agentmux starting a
// session) says what the terminal answered: the server sets the terminal up without
// asking it again (a round trip through the client saved) and gives the panes its
// colours.
func TestAttachWithTheTerminalsAnswersAsksItNothing(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	f := newFixture(t, "a")
	tm := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24, Terminal: "0:e5e5e5:102030"})
	tm.waitText("1 a", "^A")
	if n := tm.asked.Load(); n != 0 {
		t.Errorf("the server asked the terminal %d questions, want none", n)
	}
	f.proc(1).Print("\x1b]11;?\x1b\\")
	f.waitSent(1, "rgb:1010/2020/3030")
	tm.nc.Close()
	f.close()
	goleak.VerifyNone(t, leaks)
}

func TestBadAttachFrameIsIsolated(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	f := newFixture(t, "a")
	bad := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	good := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	bad.waitText("1 a")
	good.waitText("1 a")
	for _, body := range [][]byte{{'x'}, {attach.KindResize, 1}, {attach.KindOutput, 'h', 'i'}} {
		_ = bad.send(body)
		if r := bad.waitEnd(); r != attach.ReasonError {
			t.Errorf("a bad frame %q ended the stream with %q, want error", body, r)
		}
		bad = f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
		bad.waitText("1 a")
	}
	// An oversized frame: only its header is read.
	hdr := binary.BigEndian.AppendUint32(nil, attach.MaxFrame+1)
	bad.wmu.Lock()
	_, _ = bad.nc.Write(hdr)
	bad.wmu.Unlock()
	if r := bad.waitEnd(); r != attach.ReasonError {
		t.Errorf("an oversized frame ended the stream with %q, want error", r)
	}
	_ = good.send(attach.Input([]byte("still here")))
	f.waitSent(1, "still here")
	good.nc.Close()
	f.close()
	goleak.VerifyNone(t, leaks)
}

func TestTwoClientsResizeStormAndDetach(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	f := newFixture(t, "a", "b")
	one := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	two := f.attach(attach.Request{Version: attach.Version, Cols: 100, Rows: 30, Acks: true}) // paced to its acks
	one.waitText("1 a", "2 b")
	two.waitText("1 a", "2 b")
	var wg sync.WaitGroup
	for _, tm := range []*term{one, two} {
		wg.Go(func() {
			for i := range 40 {
				_ = tm.send(attach.Resize(60+i, 20+i%5))
				_ = tm.send(attach.Input([]byte{'a' + byte(i%26)}))
			}
		})
	}
	wg.Wait()
	_ = two.send(attach.Input([]byte("\x01d"))) // prefix d mid-storm
	if r := two.waitEnd(); r != attach.ReasonDetached {
		t.Errorf("prefix d ended the stream with %q", r)
	}
	// The first terminal, in control again, still draws whole and types.
	_ = one.send(attach.Resize(90, 26))
	_ = one.send(attach.Input([]byte("zz-end")))
	f.waitSent(1, "zz-end")
	f.proc(1).Print("\r\nafter the storm")
	one.waitText("after the storm", "2 b")
	if !f.srv.controls(1) {
		t.Error("the first terminal should have control after the second detached")
	}
	one.nc.Close()
	f.close()
	goleak.VerifyNone(t, leaks)
}

func TestHubGetsOtherConnectionsWhole(t *testing.T) {
	f := newFixture(t, "a")
	defer f.close()
	for _, body := range [][]byte{
		[]byte(`{"v":1,"type":"HELLO","id":"h","ts":1,"payload":{"agent":"x"}}`),
		[]byte("not json at all"),
	} {
		nc, err := net.Dial("unix", f.path)
		if err != nil {
			t.Fatal(err)
		}
		_ = proto.WriteFrame(nc, body)
		got, err := proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil)
		nc.Close()
		if err != nil || !bytes.Equal(got, body) {
			t.Errorf("the hub got %q (%v), want %q", got, err, body)
		}
	}
}

func TestSessionEndsByItselfOnceEveryPaneExitedAndNobodyWatches(t *testing.T) {
	f := newFixture(t, "a", "b")
	defer f.close()
	tm := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	tm.waitText("1 a")
	f.proc(1).Exit(0)
	f.proc(2).Exit(3)
	tm.waitText("exited (3)")
	select {
	case <-f.srv.Done():
		t.Fatal("the session ended while a terminal was attached")
	default:
	}
	_ = tm.send(attach.Detach())
	tm.waitEnd()
	select {
	case <-f.srv.Done():
	case <-time.After(wait):
		t.Fatal("the session did not end once nobody watched its exited panes")
	}
	if !strings.Contains(f.srv.Why(), "every pane exited") {
		t.Errorf("why: %q", f.srv.Why())
	}
}

func TestKillSessionEndsItAndTellsTheTerminals(t *testing.T) {
	f := newFixture(t, "a")
	defer f.close()
	tm := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	tm.waitText("1 a")
	nc, err := net.Dial("unix", f.path)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := attach.Handshake(attach.TypeKill, struct{}{})
	_ = proto.WriteFrame(nc, body)
	_, _ = proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil)
	nc.Close()
	<-f.srv.Done()
	f.srv.Close()
	if r := tm.waitEnd(); r != attach.ReasonEnded {
		t.Errorf("the attached terminal was told %q, want ended", r)
	}
}

// kill-session is answered at once but let go only once the whole session has ended
// (Finished): its panes stopped and their worktrees judged after the server closed, so
// that a script may start the same session right after the command returns.
func TestKillSessionIsLetGoOnceTheSessionFinished(t *testing.T) {
	f := newFixture(t, "a")
	nc, err := net.Dial("unix", f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	body, _ := attach.Handshake(attach.TypeKill, struct{}{})
	if err := proto.WriteFrame(nc, body); err != nil {
		t.Fatal(err)
	}
	if _, err := proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil); err != nil {
		t.Fatalf("no answer: %v", err)
	}
	<-f.srv.Done()
	f.close() // the server, the hub and the panes: what the session process ends before Finished
	_ = nc.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := nc.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the connection ended before Finished (%v): kill-session would return while the session still ends", err)
	}
	f.srv.Finished()
	_ = nc.SetReadDeadline(time.Now().Add(wait))
	if _, err := nc.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("after Finished: %v, want EOF", err)
	}
}

func TestAttachOfAnotherVersionIsRefused(t *testing.T) {
	f := newFixture(t, "a")
	defer f.close()
	nc, err := net.Dial("unix", f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	body, _ := attach.Handshake(attach.TypeAttach, attach.Request{Version: 2, Cols: 80, Rows: 24})
	_ = proto.WriteFrame(nc, body)
	ans, err := proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := proto.Decode(ans)
	if err != nil || e.Type != proto.TypeError || !strings.Contains(string(e.Payload), "attach version 2") {
		t.Errorf("answer %s (%v), want ERROR naming the version", ans, err)
	}
	if len(f.srv.list().Clients) != 0 {
		t.Error("a refused attach was registered")
	}
}

func TestAttachDetachOthersAndReadOnly(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	f := newFixture(t, "a")
	one := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	two := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	one.waitText("1 a")
	two.waitText("1 a")
	watcher := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24, ReadOnly: true})
	watcher.waitText("1 a")
	_ = watcher.send(attach.Input([]byte("typed-by-watcher")))
	only := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24, DetachOthers: true})
	for _, tm := range []*term{one, two, watcher} {
		if r := tm.waitEnd(); r != attach.ReasonReplaced {
			t.Errorf("a client was told %q, want replaced", r)
		}
	}
	only.waitText("1 a")
	_ = only.send(attach.Input([]byte("typed-by-only")))
	f.waitSent(1, "typed-by-only")
	if strings.Contains(f.proc(1).Peek(), "typed-by-watcher") {
		t.Error("a read-only client typed into the pane")
	}
	if cs := f.srv.list().Clients; len(cs) != 1 || !cs[0].Control {
		t.Errorf("clients %+v, want the one that detached the others, in control", cs)
	}
	only.nc.Close()
	f.close()
	goleak.VerifyNone(t, leaks)
}

// The ui that fails for one attached terminal (a panic it caught, a subscription it let
// fall behind) detaches that terminal, saying why: the agents go on, and the person
// attaches again. The session's own terminal (Local) failing ends the session, with the
// failure as the reason.
func TestAUIFailureDetachesThatTerminalOnly(t *testing.T) {
	var calls atomic.Int32
	f := newFixtureWith(t, func(c *Config) {
		c.runUI = func(ctx context.Context, s *session.Session, cfg ui.Config, r ui.Remote) (ui.Ending, error) {
			if calls.Add(1) != 2 {
				return ui.EndQuit, errors.New("ui: program experienced a panic")
			}
			return ui.Attach(ctx, s, cfg, r)
		}
	}, "a")
	defer f.close()

	tm := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	fr := tm.waitEndFrame()
	assert.Equal(t, attach.ReasonDetached, fr.Reason)
	assert.Equal(t, "agentmux's screen for this terminal failed, the session goes on: ui: program experienced a panic", string(fr.Data))
	select {
	case <-f.srv.Done():
		t.Fatalf("one terminal's ui failing ended the session: %s", f.srv.Why())
	default:
	}
	again := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	again.waitText("1 a")
	_ = again.send(attach.Detach())
	again.waitEnd()

	nc, err := f.srv.Local()
	require.NoError(t, err)
	local := f.attachOn(nc, attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	assert.Equal(t, attach.ReasonEnded, local.waitEnd())
	<-f.srv.Done()
	assert.Equal(t, "its terminal's program failed: ui: program experienced a panic", f.srv.Why())
}
