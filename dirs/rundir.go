package dirs

import (
	"fmt"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// Where a system keeps a user's session sockets. The folder must be of this user and
// 0700 (RuntimeDir checks it); what differs is where it goes (socketBase, one small file
// per system):
//
//	Linux, the BSDs  $XDG_RUNTIME_DIR/agentmux (systemd's per-user /run/user/UID)
//	macOS            $XDG_RUNTIME_DIR/agentmux when set, else $TMPDIR/agentmux-UID
//	                 (launchd gives each user a private TMPDIR; tmux's is tmux-UID)
//	any, else        run in agentmux's state folder (~/.local/state/agentmux/run)

// socketBaseOf is the system's socketBase; tests replace it to run another system's
// rule here.
var socketBaseOf = socketBase

// xdgSocketDir is the sockets' folder under $XDG_RUNTIME_DIR ("" when it is unset).
func xdgSocketDir(getenv func(string) string) string {
	if base := getenv("XDG_RUNTIME_DIR"); base != "" {
		return filepath.Join(base, "agentmux")
	}
	return ""
}

// macSocketDir is the sockets' folder on macOS, which has no $XDG_RUNTIME_DIR of its
// own: under the variable when set, else agentmux-UID (named for uid as tmux names its
// own) under $TMPDIR; "" when neither is set.
func macSocketDir(getenv func(string) string, uid int) string {
	if dir := xdgSocketDir(getenv); dir != "" {
		return dir
	}
	if base := getenv("TMPDIR"); base != "" {
		return filepath.Join(base, "agentmux-"+strconv.Itoa(uid))
	}
	return ""
}

// maxSocketPath is the longest socket path this system takes: sun_path less its
// terminating zero (107 bytes on Linux, 103 on macOS and the BSDs).
const maxSocketPath = len(unix.RawSockaddrUnix{}.Path) - 1

// checkSocketPath says why path is too long to be a socket here (nil when it is not):
// the kernel would refuse it with a bare "invalid argument".
func checkSocketPath(path string) error {
	if len(path) > maxSocketPath {
		return fmt.Errorf("socket path %s is %d bytes, longer than this system's %d: use a shorter --session name, or set $XDG_RUNTIME_DIR to a shorter folder", path, len(path), maxSocketPath)
	}
	return nil
}
