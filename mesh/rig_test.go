package mesh_test

// The mesh's tests run real NATS servers in the test process: a hub (Serve) and
// "machines", each a real session core over fake panes, its own store and state
// folder, its own session socket (hub.Hub) and its own mesh node. Every wait is on a
// condition with a deadline; goleak checks that every server and goroutine ended.

import (
	"cmp"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/internal/hubtest"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
)

func testLogger() *slog.Logger {
	if os.Getenv("MESH_DEBUG") == "" {
		return nil
	}
	level := slog.LevelDebug
	if os.Getenv("MESH_DEBUG") == "info" {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

func TestMain(m *testing.M) {
	if dir := os.Getenv(hubEnv); dir != "" { // a hub of BenchmarkIdleCPU's
		os.Exit(serveHub(dir))
	}
	goleak.VerifyTestMain(m)
}

// testHub is a hub whose state folder outlives a restart.
type testHub struct {
	t     *testing.T
	dir   string
	h     *mesh.Hub
	url   string
	inbox int64 // each inbox's bound (0: the hub's default)
}

func startHub(t *testing.T) *testHub {
	t.Helper()
	th := &testHub{t: t, dir: filepath.Join(t.TempDir(), "mesh")}
	th.start("127.0.0.1:0")
	t.Cleanup(th.stop)
	return th
}

func (th *testHub) start(listen string) {
	th.t.Helper()
	h, err := mesh.Serve(mesh.HubConfig{Dir: th.dir, Listen: listen, InboxBytes: th.inbox})
	require.NoError(th.t, err)
	th.h, th.url = h, h.URL()
}

func (th *testHub) stop() {
	if th.h != nil {
		th.h.Close()
		th.h = nil
	}
}

// restart stops the hub and starts it again on the same port and state.
func (th *testHub) restart() {
	th.stop()
	u := strings.TrimPrefix(th.url, "nats://")
	_, port, err := net.SplitHostPort(u)
	require.NoError(th.t, err)
	th.start("127.0.0.1:" + port)
}

func (th *testHub) creds(session string) string {
	th.t.Helper()
	p, err := mesh.WriteCreds(th.dir, session)
	require.NoError(th.t, err)
	return p
}

// machine is one session on its own "computer": state folder, store, socket, panes.
type machine struct {
	t     *testing.T
	name  string
	dir   string
	url   string
	creds string
	panes []string

	mu    sync.Mutex
	procs map[string]*fakeproc.Proc
	s     *session.Session
	st    *store.Store
	h     *hub.Hub
	node  *mesh.Node
	sock  string
	up    bool

	// log, when set, receives the node's diagnostics; knownKeys is its known-keys
	// file ("": in memory). Set before start.
	log       *slog.Logger
	knownKeys string
	// turns is the session's --turns (0: 1000); linkTTL how long a link request
	// waits for an answer (0: the default).
	turns   int
	linkTTL time.Duration
	// answerFrom are the sessions whose person this session's is (Options.AnswerFrom).
	answerFrom []string
}

func newMachine(t *testing.T, th *testHub, name string, panes ...string) *machine {
	t.Helper()
	return newMachineIn(t, t.TempDir(), th, name, panes...)
}

// newMachineIn is a session whose state folder is dir: two of them in one dir are two
// sessions of one user on one computer (one store).
func newMachineIn(t *testing.T, dir string, th *testHub, name string, panes ...string) *machine {
	t.Helper()
	return newMachineWith(t, &machine{t: t, name: name, dir: dir, url: th.url, creds: th.creds(name), panes: panes})
}

// newMachineWith starts m, whose fields are set.
func newMachineWith(t *testing.T, m *machine) *machine {
	t.Helper()
	m.start()
	t.Cleanup(m.stop)
	return m
}

// start starts the session, its socket and its node (again after stop: same store).
func (m *machine) start() {
	t := m.t
	t.Helper()
	m.procs = map[string]*fakeproc.Proc{}
	o := session.Options{Idle: 20 * time.Millisecond, Address: true, Turns: cmp.Or(m.turns, 1000)}
	o.Start = func(spec ptyhost.Spec, out io.Writer) (session.Process, error) {
		f := fakeproc.New(spec, out)
		m.mu.Lock()
		m.procs[spec.Name] = f
		m.mu.Unlock()
		return f, nil
	}
	for _, p := range m.panes {
		o.Panes = append(o.Panes, session.PaneSpec{Name: p, Argv: []string{p}, Cols: 80, Rows: 20})
	}
	s, err := session.Start(o)
	require.NoError(t, err)
	m.s = s
	for _, p := range m.panes {
		m.proc(p).SetEcho(true)
		m.proc(p).Print(p + "> ")
	}
	m.st, err = store.Open(filepath.Join(m.dir, "agentmux.db"))
	require.NoError(t, err)
	node, err := m.join()
	require.NoError(t, err)
	m.node = node
	srv := hubtest.Start(t, m.dir, hub.Config{Session: m.name, Store: m.st, Core: node.Wrap(s)})
	m.sock, m.h = srv.Path, srv.Hub
	m.up = true
}

func (m *machine) join() (*mesh.Node, error) {
	return mesh.Join(mesh.Options{
		URL: m.url, Session: m.name, CredsFile: m.creds, Store: m.st, Core: m.s, KnownKeys: m.knownKeys,
		ReconnectWait: 20 * time.Millisecond, Timeout: 5 * time.Second, Logger: cmp.Or(m.log, testLogger()), LinkRequestTTL: m.linkTTL,
		AnswerFrom: m.answerFrom,
	})
}

// stop ends the machine's session: node, socket, store, panes.
func (m *machine) stop() {
	if !m.up {
		return
	}
	m.up = false
	m.h.Close()
	m.node.Close()
	require.NoError(m.t, m.st.Close())
	require.NoError(m.t, m.s.Stop())
}

func (m *machine) proc(name string) *fakeproc.Proc {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.procs[name]
}

// control is a control connection to the machine's socket, subscribed to its events.
func (m *machine) control() *client.Conn {
	m.t.Helper()
	c, err := client.DialControl(m.sock)
	require.NoError(m.t, err)
	m.t.Cleanup(func() { c.Close() })
	require.NoError(m.t, c.SetDeadline(time.Now().Add(30*time.Second)))
	_, err = c.Request(proto.TypeEvents, struct{}{})
	require.NoError(m.t, err)
	return c
}

// waitTyped waits until pane has been sent every one of words, in that order.
func (m *machine) waitTyped(pane string, words ...string) string {
	m.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		sent := m.proc(pane).Peek()
		if inOrder(sent, words) {
			return sent
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("pane %s of %s never got %q; it got:\n%s", pane, m.name, words, sent)
		}
		m.s.Sync()
		waitOutput(m.s, 50*time.Millisecond)
	}
}

// waitOutput returns at the session's next event or after d.
func waitOutput(s *session.Session, d time.Duration) {
	sub := s.Subscribe(0)
	defer sub.Close()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-sub.Ready():
	case <-t.C:
	}
}

func inOrder(s string, words []string) bool {
	for _, w := range words {
		i := strings.Index(s, w)
		if i < 0 {
			return false
		}
		s = s[i+len(w):]
	}
	return true
}

// awaitEvent reads c until an event satisfies ok.
func awaitEvent(t *testing.T, c *client.Conn, ok func(proto.Event) bool) proto.Event {
	t.Helper()
	for {
		e, err := c.Read()
		require.NoError(t, err)
		if e.Type != proto.TypeEvent {
			continue
		}
		ev, err := proto.DecodePayload[proto.Event](e)
		require.NoError(t, err)
		if ok(ev) {
			return ev
		}
	}
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return st
}

func writePrivate(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "creds")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
	return p
}

func openStoreB(b *testing.B) *store.Store {
	st, err := store.Open(filepath.Join(b.TempDir(), "db"))
	require.NoError(b, err)
	b.Cleanup(func() { st.Close() })
	return st
}

// waitIdle waits until the pane named is idle (its prompt seen, quiet for --idle).
func (m *machine) waitIdle(pane string) {
	m.t.Helper()
	sub := m.s.Subscribe(0)
	defer sub.Close()
	deadline := time.After(20 * time.Second)
	for {
		for _, mb := range m.s.Members() {
			if mb.Name == pane && mb.State == session.Idle {
				return
			}
		}
		select {
		case <-sub.Ready():
			sub.Next()
		case <-deadline:
			m.t.Fatalf("pane %s of %s never idle", pane, m.name)
		}
	}
}
