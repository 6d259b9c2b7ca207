package main

import (
	"fmt"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hooks"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
)

// statePath returns name in agentmux's state folder (dirs.StatePath).
func statePath(name string) (string, error) { return dirs.StatePath(name) }

// logPath returns where the log goes: agentmux.log in the state folder.
func logPath() (string, error) { return statePath("agentmux.log") }

// openLog returns a logger writing to the log file at level, and the file to close. The
// log never goes to the terminal: when the file cannot be opened, logging is off.
func openLog(level slog.Level) (*slog.Logger, io.Closer) {
	path, err := logPath()
	if err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	// The log holds what agents said: the folder is made private first, and a log file
	// an older agentmux left readable is closed up, both said in the log.
	was, err := dirs.SecureDir(filepath.Dir(path))
	if err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	var fileWas os.FileMode
	if st, err := f.Stat(); err == nil && st.Mode().Perm() != 0o600 {
		fileWas = st.Mode().Perm()
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return slog.New(slog.DiscardHandler), io.NopCloser(nil)
		}
	}
	logger := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level}))
	if was != 0 {
		logger.Warn("state folder was open to other users: made private", "folder", filepath.Dir(path), "was", fmt.Sprintf("%04o", was), "now", "0700")
	}
	if fileWas != 0 {
		logger.Warn("log file was open to other users: made private", "file", path, "was", fmt.Sprintf("%04o", fileWas), "now", "0600")
	}
	return logger, f
}

// newHooks sets up the run's agent hooks and MCP server (package hooks) in agentmux's
// state folder, never the shared temporary folder.
func newHooks(log *slog.Logger, o hooks.Options) (*hooks.Setup, error) {
	root, err := statePath("hooks")
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	return hooks.NewWith(root, log, o)
}
