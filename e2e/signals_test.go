package e2e

// The signals a pane's program starts with: every one at its default action, as in a
// terminal's shell, however agentmux itself was started. A start from a script's
// background job, or from nohup, comes with SIGINT, SIGHUP or the job-control signals
// ignored, and an ignored signal stays ignored across exec; agentmux's own server
// ignored SIGHUP and SIGPIPE, so `yes | head -1` in a pane printed "Broken pipe" and a
// pane's program outlived a killed server.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/internal/oswait"
)

func TestPanesStartWithDefaultSignals(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	t.Parallel()
	env := newSockEnv(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "sigign")
	t.Cleanup(func() { _ = env.command(context.Background(), "kill-session", "sig").Run() })
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	// agentmux started with the signals a shell may leave ignored, ignored.
	cmd := exec.CommandContext(ctx, "sh", "-c", `trap "" HUP INT QUIT PIPE TSTP TTIN TTOU; exec "$0" "$@"`,
		agentmuxBin, "-d", "--session", "sig", "p=sh -c 'grep SigIgn /proc/self/status >"+out+".tmp; mv "+out+".tmp "+out+"; exec cat'")
	cmd.Env = env.environ()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("agentmux -d: %v\n%s", err, b)
	}
	read := func() string { b, _ := os.ReadFile(out); return string(b) }
	if err := oswait.Until(waitLong, func() bool { return read() != "" }, dir); err != nil {
		t.Fatalf("the pane did not say its signals within %v: %v", waitLong, err)
	}
	// The standard signals (1-31: bits 0-30); the real-time ones above are the C
	// library's to keep (the race detector's runtime, which this binary is built with,
	// ignores signal 32 for its threads).
	hex, ok := strings.CutPrefix(strings.TrimSpace(read()), "SigIgn:")
	mask, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
	if !ok || err != nil {
		t.Fatalf("the pane wrote %q, not its SigIgn", read())
	}
	if std := mask & (1<<31 - 1); std != 0 {
		t.Errorf("the pane's program starts with signals ignored: %#x, want none of 1-31", std)
	}
}
