package hooks

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Where runs keep their hook folders, and how a later run finishes a killed one's.
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

// PrivateDir makes dir (and its parents) and checks that dir is a folder of this
// user's, not a link; an own folder open to others is closed to 0700 (other users
// could not have planted anything in it that is this user's), with its old mode
// returned as closed (0 when it was private already).
func PrivateDir(dir string) (closed fs.FileMode, err error) {
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

// hookRoot readies dir, where runs keep their hook folders (cmd passes hooks in
// agentmux's state folder, $XDG_STATE_HOME/agentmux/hooks): it and its parent are made
// 0700 and checked to be this user's; a folder of the two found open to others is
// closed, and said in the log. Never the shared temporary folder: what another user
// plants there must never be read back.
func hookRoot(dir string, log *slog.Logger) (string, error) {
	for _, d := range []string{filepath.Dir(dir), dir} {
		was, err := PrivateDir(d)
		if err != nil {
			return "", fmt.Errorf("hook folder: %w", err)
		}
		if was != 0 {
			log.Warn("hooks: a folder of agentmux's was open to other users: closed", "dir", d, "mode", fmt.Sprintf("%#o", was))
		}
	}
	return dir, nil
}

// A run's hook folder is hookRoot()/run-*, holding the pid of the agentmux that owns
// it.
const (
	hookDirPattern = "run-*"
	hookOwnerFile  = "owner"
)

// recoverHookDirs finishes the hook folders in root whose agentmux ended without
// closing them (killed): their Gemini homes give back what Gemini wrote there
// (geminiHome.Close), then they are removed. A folder whose owner runs, or that has no
// owner yet (being made), is left alone; so is anything that is not provably this
// user's own (a link, another owner, open to others): it is reported, never read.
// Where the files go is this run's person's Gemini home, never a path read from the
// folder; a home made for another one is not given back.
func recoverHookDirs(root string, log *slog.Logger) {
	if err := ownPrivateDir(root); err != nil {
		log.Warn("hooks: earlier runs' folders not looked at", "err", err)
		return
	}
	person, err := personGeminiHome(nil)
	if err != nil {
		log.Warn("hooks: earlier runs' folders not looked at", "err", err)
		return
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if ok, _ := filepath.Match(hookDirPattern, e.Name()); !ok {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if err := ownPrivateDir(dir); err != nil {
			log.Warn("hooks: an earlier run's folder left alone", "dir", dir, "err", err)
			continue
		}
		b, err := readOwnFile(filepath.Join(dir, hookOwnerFile), 64)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		homes, _ := os.ReadDir(dir)
		var errs []error
		n, keep := 0, false
		for _, h := range homes {
			if ok, _ := filepath.Match("*-gemini-*", h.Name()); !ok {
				continue
			}
			n++
			g, err := loadGeminiHome(filepath.Join(dir, h.Name()), person)
			if err == nil {
				err = g.Close()
			}
			keep = keep || errors.Is(err, errOtherPerson) // kept for a run of that home
			errs = append(errs, err)
		}
		if !keep {
			errs = append(errs, os.RemoveAll(dir))
		}
		if err := errors.Join(errs...); err != nil {
			log.Warn("hooks: an earlier run's folder", "dir", dir, "err", err)
		} else {
			log.Info("hooks: finished an earlier run's folder", "dir", dir, "gemini_homes", n)
		}
	}
}

// processAlive reports whether process pid exists (signal 0 reaches it, or it is
// someone else's).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
