package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
)

// logPath returns where the log goes: $XDG_STATE_HOME/agentmux/agentmux.log, or
// ~/.local/state/agentmux/agentmux.log.
func logPath() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("state directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "agentmux", "agentmux.log"), nil
}

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
