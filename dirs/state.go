package dirs

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// StatePath returns name in agentmux's state folder: $XDG_STATE_HOME/agentmux, or XDG's
// default ~/.local/state/agentmux when the variable is unset. The store, the log, the
// hooks' runs, the mesh hub and, without $XDG_RUNTIME_DIR, the session sockets live there.
func StatePath(name string) (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("state folder: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "agentmux", name), nil
}

// SecureDir makes dir a private folder of this user: created 0700 when missing (its
// parents too), made 0700 when it exists with another mode. A symlink, something that is
// not a folder, or a folder of another user is refused. It returns the mode dir had
// when SecureDir changed it (0 when it did not), so the caller can say so.
func SecureDir(dir string) (os.FileMode, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, fmt.Errorf("state folder: %w", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return 0, fmt.Errorf("state folder: %w", err)
	}
	if !st.IsDir() {
		return 0, fmt.Errorf("state folder %s is not a folder (a symlink?)", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return 0, fmt.Errorf("state folder %s belongs to another user", dir)
	}
	if was := st.Mode().Perm(); was != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return 0, fmt.Errorf("state folder: %w", err)
		}
		return was, nil
	}
	return 0, nil
}
