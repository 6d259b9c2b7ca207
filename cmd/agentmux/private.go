package main

import (
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
)

// Another local user is an attacker: a folder agentmux keeps its own files in, and
// any file it reads back from there, must be this user's own and no one else's to
// write. These helpers check that without following links.

// ownPrivate reports why info (from Lstat) is not a folder or file only this user can
// write: a link, another owner, or group or others having any access. nil when it is.
func ownPrivate(path string, info fs.FileInfo) error {
	if info.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a link", path)
	}
	if !info.IsDir() && !info.Mode().IsRegular() {
		return fmt.Errorf("%s is no file or folder", path)
	}
	sys, ok := info.Sys().(*syscall.Stat_t)
	if !ok || int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user", path)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s is open to other users (mode %#o)", path, info.Mode().Perm())
	}
	return nil
}

// privateDir makes dir (and its parents) and checks that dir is a folder of this
// user's, not a link; an own folder open to others is closed to 0700 (other users
// could not have planted anything in it that is this user's), with its old mode
// returned as closed (0 when it was private already).
func privateDir(dir string) (closed fs.FileMode, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return 0, err
	}
	if !info.IsDir() {
		return 0, fmt.Errorf("%s is no folder (a link?)", dir)
	}
	if err := ownPrivate(dir, info); err != nil {
		if sys, ok := info.Sys().(*syscall.Stat_t); !ok || int(sys.Uid) != os.Getuid() {
			return 0, err
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return 0, err
		}
		return info.Mode().Perm(), nil
	}
	return 0, nil
}

// readOwnFile reads a regular file of this user's that only this user can write,
// never following a link, at most limit bytes.
func readOwnFile(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := ownPrivate(path, info); err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is no file", path)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// ownPrivateDir checks that path is, without following links, a folder of this user's
// closed to others.
func ownPrivateDir(path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if err := ownPrivate(path, info); err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is no folder", path)
	}
	return nil
}

// hookRoot is where runs keep their hook folders: hooks in agentmux's state folder
// ($XDG_STATE_HOME/agentmux/hooks), made 0700 and checked to be this user's; a folder
// of the two found open to others is closed, and said in the log. Not the shared
// temporary folder: what another user plants there must never be read back.
func hookRoot(log *slog.Logger) (string, error) {
	dir, err := statePath("hooks")
	if err != nil {
		return "", err
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		was, err := privateDir(d)
		if err != nil {
			return "", fmt.Errorf("hook folder: %w", err)
		}
		if was != 0 {
			log.Warn("hooks: a folder of agentmux's was open to other users: closed", "dir", d, "mode", fmt.Sprintf("%#o", was))
		}
	}
	return dir, nil
}
