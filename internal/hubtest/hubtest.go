// Package hubtest starts a session socket for tests: a hub, listening where a session
// would, with a store. The tests of hub, session, mesh and cmd/agentmux share it rather
// than each opening a store, claiming a socket and starting a hub by hand. It imports
// hub, store and dirs, and only tests import it.
package hubtest

import (
	"path/filepath"
	"testing"

	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/store"
)

// Server is a hub Start started: its session's name, socket, store and the hub.
type Server struct {
	Name  string
	Path  string
	Store *store.Store
	Hub   *hub.Hub
}

// Start serves cfg on the socket of session cfg.Session ("test" when empty) in dir,
// claimed as a session claims its name (dirs.Claim: name-2 while a live session holds
// the name); dir "" is a folder of the test's own. A nil cfg.Store is a new store in a
// folder of the test's own. The hub, and the store when Start opened it, close when the
// test ends (Hub.Close may come earlier too). Any failure fails the test.
func Start(t testing.TB, dir string, cfg hub.Config) *Server {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	if cfg.Session == "" {
		cfg.Session = "test"
	}
	name, l, err := dirs.Claim(dir, cfg.Session)
	if err != nil {
		t.Fatalf("claim session %s in %s: %v", cfg.Session, dir, err)
	}
	cfg.Session = name
	if cfg.Store == nil {
		st, err := store.Open(filepath.Join(t.TempDir(), "agentmux.db"))
		if err != nil {
			l.Close()
			t.Fatalf("open store: %v", err)
		}
		t.Cleanup(func() { st.Close() })
		cfg.Store = st
	}
	h, err := hub.Start(cfg, l)
	if err != nil {
		l.Close()
		t.Fatalf("start hub: %v", err)
	}
	t.Cleanup(func() { h.Close() })
	return &Server{Name: name, Path: dirs.SocketPath(dir, name), Store: cfg.Store, Hub: h}
}
