package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/peer"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// sessionSocket is a running session's socket side: its name and socket, claimed
// before the panes start (their environment names it), then served by a hub once the
// session core exists.
type sessionSocket struct {
	Name, Socket string
	l            net.Listener                // the claimed socket, taking this user's and root's clients only
	log          atomic.Pointer[slog.Logger] // where refused clients are told, once served
	store        *store.Store
	hub          *hub.Hub
	// Retention is how long the store keeps messages (0: store.DefaultRetention); set
	// before Serve.
	Retention time.Duration
	closed    sync.Once
	closeErr  error
	// Web starts the session's web view for X_WEB (agentmux web); set before Serve.
	Web func(proto.Web) (proto.WebView, error)
}

// claimSession claims the session name (--session, else the base name of the working
// directory; -2, -3… while live sessions hold it) and its socket, and opens the store.
// Clients that connect before Serve wait in the socket's backlog.
func claimSession(name string) (*sessionSocket, error) {
	dir, err := dirs.RuntimeDir()
	if err != nil {
		return nil, err
	}
	var got string
	var l *net.UnixListener
	if name != "" {
		// An explicit name is taken as given, or refused: never NAME-2.
		got = name
		if l, err = dirs.ClaimExact(dir, name); err != nil {
			return nil, err
		}
	} else {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("session name: %w", err)
		}
		if got, l, err = dirs.Claim(dir, filepath.Base(wd)); err != nil {
			return nil, err
		}
	}
	path, err := statePath("agentmux.db")
	if err == nil {
		var st *store.Store
		if st, err = store.Open(path); err == nil {
			s := &sessionSocket{Name: got, Socket: dirs.SocketPath(dir, got), store: st}
			s.l = peer.OwnUser(l, s.refused)
			return s, nil
		}
	}
	l.Close()
	return nil, err
}

// Env is what every pane's program gets so that `agentmux send` from inside it reaches
// this session (AGENTMUX_PANE and AGENTMUX_NAME are the pane's own).
func (s *sessionSocket) Env() []string {
	return []string{"AGENTMUX_SESSION=" + s.Name, "AGENTMUX_SOCKET=" + s.Socket}
}

// ServeOn starts the hub on l, which hands it the claimed socket's connections (a
// session server's, sorting out the attach stream's).
func (s *sessionSocket) ServeOn(l net.Listener, core hub.Core, logger *slog.Logger) error {
	if s.hub != nil {
		return errors.New("session socket served twice")
	}
	h, err := hub.Start(hub.Config{Session: s.Name, Store: s.store, Core: core, Logger: logger, Retention: s.Retention, Web: s.Web}, l)
	if err != nil {
		return err
	}
	s.hub = h
	if logger != nil {
		s.log.Store(logger)
		logger.Info("session socket", "session", s.Name, "socket", s.Socket)
	}
	return nil
}

// refused logs a client the socket refused: another user's, as the kernel says.
func (s *sessionSocket) refused(err error) {
	if logger := s.log.Load(); logger != nil {
		logger.Warn("session socket", "err", err)
	}
}

// Close stops the hub (BYE to every client), removes the socket and closes the store.
// It is safe to call more than once.
func (s *sessionSocket) Close() error {
	s.closed.Do(func() {
		if s.hub != nil {
			s.hub.Close()
		}
		s.l.Close()
		s.closeErr = s.store.Close()
	})
	return s.closeErr
}
