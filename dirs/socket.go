package dirs

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// ErrInUse means a live session answers on the socket.
var ErrInUse = errors.New("a live session holds the socket")

// RuntimeDir is the folder of session sockets, created 0700: $XDG_RUNTIME_DIR/agentmux
// (on macOS, without it, agentmux-UID in the user's own $TMPDIR: rundir.go), or run in
// agentmux's state folder (StatePath; never the shared temp folder, where another
// user could plant the name first) when there is none. The folder must be a real folder
// (a symlink is never followed), of this user, and is made 0700 when it is not; anything
// else is refused.
func RuntimeDir() (string, error) {
	dir := socketBaseOf()
	if dir != "" {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return "", fmt.Errorf("socket folder: %w", err)
		}
	} else {
		var err error
		if dir, err = StatePath("run"); err != nil {
			return "", fmt.Errorf("socket folder: %w", err)
		}
		if _, err := SecureDir(filepath.Dir(dir)); err != nil {
			return "", fmt.Errorf("socket folder: %w", err)
		}
	}
	// Mkdir, not MkdirAll: it neither follows nor accepts what is already there; the
	// Lstat below judges that.
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("socket folder: %w", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("socket folder: %w", err)
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return "", fmt.Errorf("socket folder %s is a symlink (planted by another user?): refused", dir)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("socket folder %s is not a folder: refused", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return "", fmt.Errorf("socket folder %s belongs to user %d, not to you: refused", dir, sys.Uid)
	}
	if st.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", fmt.Errorf("socket folder: %w", err)
		}
	}
	return dir, nil
}

// SocketPath is the socket of session name in dir.
func SocketPath(dir, name string) string { return filepath.Join(dir, name+".sock") }

// SessionName turns s (the base name of a folder) into a session name ValidSessionName
// takes, with room for Claim's suffix (-100): letters, digits, '.', '_' and '-', any
// other character replaced by one '-'; no '.' or '-' first (a name read as a flag by
// attach NAME, or hidden); at most maxDerived bytes; "agentmux" when nothing is left.
func SessionName(s string) string {
	name := strings.Map(func(r rune) rune {
		if r < 0x80 && nameByte(byte(r)) {
			return r
		}
		return '-'
	}, s)
	name = strings.TrimLeft(name, ".-")
	if len(name) > maxDerived {
		name = name[:maxDerived]
	}
	if name == "" {
		return "agentmux"
	}
	return name
}

// maxDerived bounds a session name SessionName derives: 64, less Claim's "-100".
const maxDerived = 60

// nameByte reports whether c may be in a session name.
func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// ValidSessionName says why s cannot be a session's name as given (nil when it can):
// letters, digits, '.', '_' and '-' only, not starting with '.' or '-', at most 64
// bytes. An explicit --session is never changed to fit, so a script's later
// `agentmux send --session NAME` reaches this session and no other.
func ValidSessionName(s string) error {
	switch {
	case s == "":
		return errors.New("a session name cannot be empty")
	case len(s) > 64:
		return errors.New("a session name has at most 64 characters")
	case s[0] == '.' || s[0] == '-':
		return fmt.Errorf("%q: a session name cannot start with %q", s, s[0])
	}
	for _, c := range []byte(s) {
		if !nameByte(c) {
			return fmt.Errorf("%q: a session name may hold only ASCII letters, digits, '.', '_' and '-'", s)
		}
	}
	return nil
}

// CaseClashError refuses a session name that differs only in case from a live
// session's: attach finds names in any case, and on a case-insensitive file system
// (macOS's) the two sockets are one file. It wraps ErrInUse.
type CaseClashError struct {
	Name, Live string
}

func (e *CaseClashError) Error() string {
	return fmt.Sprintf("session %s: session %s is running, and names that differ only in case cannot run side by side", e.Name, e.Live)
}

// Unwrap makes errors.Is(err, ErrInUse) hold.
func (e *CaseClashError) Unwrap() error { return ErrInUse }

// ClaimExact listens on the socket of the session named name, exactly as given: while
// a live session holds it, or a name that differs from it only in case, the error
// wraps ErrInUse (a *CaseClashError for the second).
func ClaimExact(dir, name string) (*net.UnixListener, error) {
	if err := ValidSessionName(name); err != nil {
		return nil, err
	}
	if live, ok := caseTwin(dir, name); ok {
		return nil, &CaseClashError{Name: name, Live: live}
	}
	l, err := Listen(SocketPath(dir, name))
	if errors.Is(err, ErrInUse) {
		if live, ok := caseTwin(dir, name); ok { // a case-insensitive file system
			return nil, &CaseClashError{Name: name, Live: live}
		}
		return nil, fmt.Errorf("session %s: %w", name, err)
	}
	if err != nil {
		return nil, err
	}
	return checkTwin(dir, name, l)
}

// checkTwin closes l and refuses name when a session whose name differs from it only
// in case went live while l was being claimed: of two such starts racing, neither can
// miss the other (each listens before it looks), so they never run side by side.
func checkTwin(dir, name string, l *net.UnixListener) (*net.UnixListener, error) {
	if live, ok := caseTwin(dir, name); ok {
		l.Close()
		return nil, &CaseClashError{Name: name, Live: live}
	}
	return l, nil
}

// caseTwin finds a live session in dir whose name differs from name only in case.
func caseTwin(dir, name string) (string, bool) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.sock"))
	if err != nil {
		return "", false
	}
	for _, p := range paths {
		other := strings.TrimSuffix(filepath.Base(p), ".sock")
		if other != name && strings.EqualFold(other, name) && alive(p) {
			return other, true
		}
	}
	return "", false
}

// alive reports whether something accepts connections on the socket at path.
func alive(path string) bool {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Listen listens on the socket at path, mode 0600. A stale socket (a file nobody
// answers on) is replaced; a live one gives ErrInUse.
func Listen(path string) (*net.UnixListener, error) {
	if err := checkSocketPath(path); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
		if err == nil {
			l.SetUnlinkOnClose(true)
			if err := os.Chmod(path, 0o600); err != nil {
				l.Close()
				return nil, fmt.Errorf("listen %s: %w", path, err)
			}
			return l, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) || attempt > 0 {
			return nil, fmt.Errorf("listen %s: %w", path, err)
		}
		if alive(path) {
			return nil, fmt.Errorf("listen %s: %w", path, ErrInUse)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("replace stale socket %s: %w", path, err)
		}
	}
}

// Claim listens for session name in dir, or for name-2, name-3… while live sessions
// hold the earlier ones (or names that differ from them only in case). It returns the name it got and its listener.
func Claim(dir, name string) (string, *net.UnixListener, error) {
	name = SessionName(name)
	for i := 1; i <= 100; i++ {
		n := name
		if i > 1 {
			n = fmt.Sprintf("%s-%d", name, i)
		}
		if _, ok := caseTwin(dir, n); ok {
			continue
		}
		l, err := Listen(SocketPath(dir, n))
		if errors.Is(err, ErrInUse) {
			continue
		}
		if err != nil {
			return n, l, err
		}
		if l, err = checkTwin(dir, n, l); err != nil {
			continue
		}
		return n, l, nil
	}
	return "", nil, fmt.Errorf("session %s: a hundred live sessions hold its names", name)
}

// Session is a running session's name and socket.
type Session struct {
	Name   string `json:"name"`
	Socket string `json:"socket"`
}

// Sessions lists the live sessions in dir (their sockets answer), by name. Only what
// another user cannot have planted counts: dir must be a real folder (not a link) of this
// user's, mode 0700, or it is refused; and of its entries only sockets of this user's
// are looked at (a link, even to a live socket, is never followed), before any is dialed.
func Sessions(dir string) ([]Session, error) {
	if err := ownPrivateDir(dir); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("socket folder: %w", err)
	}
	var out []Session
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".sock")
		if !ok || e.Type() != os.ModeSocket {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if st, err := os.Lstat(p); err != nil || st.Mode().Type() != os.ModeSocket || !ownedByUs(st) {
			continue
		}
		if alive(p) {
			out = append(out, Session{Name: name, Socket: p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// ownPrivateDir says why dir is not a folder only this user can reach (nil when it is):
// a real folder, not a link, of this user's, mode 0700.
func ownPrivateDir(dir string) error {
	st, err := os.Lstat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("socket folder: %w", err)
	case st.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("socket folder %s is a symlink (planted by another user?): refused", dir)
	case !st.IsDir():
		return fmt.Errorf("socket folder %s is not a folder: refused", dir)
	case !ownedByUs(st):
		return fmt.Errorf("socket folder %s belongs to another user, not to you: refused", dir)
	case st.Mode().Perm() != 0o700:
		return fmt.Errorf("socket folder %s has mode %04o, not 0700 (other users could plant sockets in it): refused", dir, st.Mode().Perm())
	}
	return nil
}

// ownedByUs reports whether st's file belongs to this process's user.
func ownedByUs(st os.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Getuid()
}
