package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
)

// statePath returns name in agentmux's state folder: $XDG_STATE_HOME/agentmux, or
// XDG's default ~/.local/state/agentmux when the variable is unset. The log and the
// message store live there.
func statePath(name string) (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("state directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "agentmux", name), nil
}

// logPath returns where the log goes: agentmux.log in the state folder.
func logPath() (string, error) { return statePath("agentmux.log") }

// openLog returns a logger writing to the log file at level, and the file to close. The
// log never goes to the terminal: when the file cannot be opened, logging is off.
func openLog(level slog.Level) (*slog.Logger, io.Closer) {
	path, err := logPath()
	if err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), f
}
