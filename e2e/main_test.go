package e2e

// TestMain builds the binaries under test once into a temporary folder: agentmux with the
// race detector (a race report fails the test that caused it, see session.close) and the
// fake agent. A build failure fails the whole run: nothing is skipped. The fake agent is
// also linked as claude and codex (claudeBin, codexBin), because agentmux
// chooses a pane's relay profile by its program's name: the relay tests run the inline
// style as "claude" and the alternate-screen style as "codex", the programs they imitate.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var (
	// agentmuxBin and fakeAgentBin are the built binaries.
	agentmuxBin, fakeAgentBin string
	// binDir holds them.
	binDir string
	// claudeBin and codexBin are the fake agent under the names claude and codex.
	claudeBin, codexBin string
)

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "agentmux-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	agentmuxBin = filepath.Join(dir, "agentmux")
	fakeAgentBin = filepath.Join(dir, "fakeagent")
	builds := [][]string{
		{"build", "-race", "-o", agentmuxBin, "./cmd/agentmux"},
		{"build", "-o", fakeAgentBin, "./testdata/fakeagent"},
	}
	for _, args := range builds {
		cmd := exec.Command("go", args...)
		cmd.Dir = ".." // the module root
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: go %v: %v\n%s", args, err, out)
			return 1
		}
	}
	agents := filepath.Join(dir, "agents")
	claudeBin, codexBin = filepath.Join(agents, "claude"), filepath.Join(agents, "codex")
	if err := os.Mkdir(agents, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	for _, link := range []string{claudeBin, codexBin} {
		if err := os.Symlink(fakeAgentBin, link); err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			return 1
		}
	}
	return m.Run()
}
