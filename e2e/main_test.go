package e2e

// TestMain builds the binaries under test once into a temporary folder: agentmux with the
// race detector (a race report fails the test that caused it, see session.close) and the
// fake agent. A build failure fails the whole run: nothing is skipped.

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
	return m.Run()
}
