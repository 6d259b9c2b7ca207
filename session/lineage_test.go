package session

import (
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A process started by a pane's program is found in that pane; this test's own
// process, outside every pane, is not.
func TestOriginFindsDescendants(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("processes are followed through /proc on Linux only")
	}
	assert.True(t, slices.Contains(lineage(os.Getpid()), os.Getppid()), "lineage of this test lacks its parent")
	s, err := Start(Options{Panes: []PaneSpec{
		{Name: "alice", Argv: []string{"sh", "-c", "sleep 30 & echo CHILD=$!; wait"}, Cols: 40, Rows: 5},
		{Name: "bob", Argv: []string{"sh", "-c", "exec sleep 30"}, Cols: 40, Rows: 5},
	}})
	require.NoError(t, err)
	defer s.Stop()
	child := regexp.MustCompile(`CHILD=(\d+)`)
	var pid int
	require.Eventually(t, func() bool {
		text, _ := s.Capture(1, 0, false)
		if m := child.FindStringSubmatch(text); m != nil {
			pid, _ = strconv.Atoi(m[1])
		}
		return pid > 0
	}, 10*time.Second, 10*time.Millisecond, "alice never printed its child")
	assert.Equal(t, "alice", s.Origin(pid).Pane)
	assert.False(t, s.Origin(pid).Person)
	assert.Equal(t, proto.Origin{Person: true}, s.Origin(os.Getpid()), "the test's own process is the person")
	assert.Empty(t, s.Origin(1).Pane, "init is in no pane")
}

// BenchmarkLineage is the /proc walk the hub pays once per connection.
func BenchmarkLineage(b *testing.B) {
	pid := os.Getpid()
	for b.Loop() {
		lineage(pid)
	}
}

// A process that left its pane's process tree and terminal session (setsid, its parent
// gone) is still that pane's where panes have user namespaces of their own; with
// NoPaneNamespaces only its parents tell, and it passes (the best effort that the
// server's subreaper narrows). The person's own process is the person either way.
func TestOriginFollowsEscapesThroughTheNamespace(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("user namespaces are Linux's")
	}
	for _, shared := range []bool{false, true} {
		s, err := Start(Options{NoPaneNamespaces: shared, Panes: []PaneSpec{
			{Name: "alice", Argv: []string{"sh", "-c", `setsid -f sh -c 'echo ESC=$$; exec sleep 30'; exec sleep 30`}, Cols: 40, Rows: 5},
		}})
		require.NoError(t, err)
		esc := regexp.MustCompile(`ESC=(\d+)`)
		var pid int
		require.Eventually(t, func() bool {
			text, _ := s.Capture(1, 0, false)
			if m := esc.FindStringSubmatch(text); m != nil {
				pid, _ = strconv.Atoi(m[1])
			}
			return pid > 0
		}, 10*time.Second, 10*time.Millisecond, "alice's escapee never printed")
		switch {
		case shared:
			assert.Equal(t, proto.IsolationLineage, s.Isolation())
			// Once setsid's forking parent has exited the escapee is an orphan, and its
			// parents no longer name the pane (it printed before that exit, maybe).
			assert.Eventually(t, func() bool { return s.Origin(pid).Person }, 10*time.Second, 10*time.Millisecond,
				"without namespaces an escapee passes: best effort")
		case s.Isolation() == proto.IsolationUserNS:
			assert.Equal(t, proto.Origin{Pane: "alice"}, s.Origin(pid))
		default:
			t.Log("this machine refuses user namespaces")
		}
		assert.True(t, s.Origin(os.Getpid()).Person)
		_ = syscall.Kill(pid, syscall.SIGKILL)
		require.NoError(t, s.Stop())
	}
}

// BenchmarkUserNSChain is the namespace walk the hub pays once per connection.
func BenchmarkUserNSChain(b *testing.B) {
	pid := os.Getpid()
	for b.Loop() {
		_, _ = userNSChain(pid)
	}
}
