package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/store"
)

// sessionSocket is a running session's socket side: its name, the hub serving it and
// the store under it.
type sessionSocket struct {
	Name, Socket string
	hub          *hub.Hub
	store        *store.Store
}

// serveSession claims the session name (--session, else the base name of the working
// directory; -2, -3… while live sessions hold it), opens the store and serves the
// socket with core (nil: protocol clients only). Call it before the panes start, so
// their environment can carry Env.
func serveSession(name string, core hub.Core, logger *slog.Logger) (*sessionSocket, error) {
	if name == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("session name: %w", err)
		}
		name = filepath.Base(wd)
	}
	dir, err := hub.RuntimeDir()
	if err != nil {
		return nil, err
	}
	got, l, err := hub.Claim(dir, name)
	if err != nil {
		return nil, err
	}
	path, err := store.DefaultPath()
	if err != nil {
		l.Close()
		return nil, err
	}
	st, err := store.Open(path)
	if err != nil {
		l.Close()
		return nil, err
	}
	h, err := hub.Start(hub.Config{Session: got, Store: st, Core: core, Logger: logger}, l)
	if err != nil {
		l.Close()
		st.Close()
		return nil, err
	}
	if logger != nil {
		logger.Info("session socket", "session", got, "socket", hub.SocketPath(dir, got), "store", path)
	}
	return &sessionSocket{Name: got, Socket: hub.SocketPath(dir, got), hub: h, store: st}, nil
}

// Env is what every pane's program gets so that `agentmux send` from inside it reaches
// this session (AGENTMUX_PANE and AGENTMUX_NAME are the pane's own).
func (s *sessionSocket) Env() []string {
	return []string{"AGENTMUX_SESSION=" + s.Name, "AGENTMUX_SOCKET=" + s.Socket}
}

// Close stops the hub (BYE to every client; the socket file goes) and closes the store.
func (s *sessionSocket) Close() error {
	s.hub.Close()
	return s.store.Close()
}
