package session

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
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

// The session hopes for user namespaces: where the system refuses them, the first
// pane's start says so, and the session tells its panes by their parents, asks once
// for their orphans (Subreap) and starts every pane, the first again, without one.
// Where the system makes them nothing is asked; NoPaneNamespaces asks for the orphans
// before anything starts.
func TestARefusedUserNamespaceTurnsTheSessionToLineage(t *testing.T) {
	if _, self := isolation(Options{}); self == (nsID{}) {
		t.Skip("this process's user namespace cannot be read here")
	}
	for _, tc := range []struct {
		name         string
		shared       bool // NoPaneNamespaces
		refused      bool // the system refuses user namespaces
		isolation    string
		starts       []bool // each start's Spec.UserNS, the added pane's last
		subreaps     int
		subreaperSet bool
	}{
		{"made", false, false, proto.IsolationUserNS, []bool{true, true, true}, 0, false},
		{"refused", false, true, proto.IsolationLineage, []bool{true, false, false, false}, 1, true},
		{"not asked for", true, false, proto.IsolationLineage, []bool{false, false, false}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var starts []bool
			subreaps := 0
			o := Options{Clock: newFakeClock(), NoPaneNamespaces: tc.shared,
				Subreap: func() error { subreaps++; return nil },
				Start: func(spec ptyhost.Spec, out io.Writer) (Process, error) {
					mu.Lock()
					starts = append(starts, spec.UserNS)
					mu.Unlock()
					if tc.refused && spec.UserNS {
						return nil, fmt.Errorf("start %q: %w: %w", spec.Argv[0], ptyhost.ErrNoUserNS, syscall.EPERM)
					}
					return fakeproc.New(spec, out), nil
				}}
			o.Panes = []PaneSpec{{Name: "a", Argv: []string{"a"}, Cols: 40, Rows: 10}, {Name: "b", Argv: []string{"b"}, Cols: 40, Rows: 10}}
			s, err := Start(o)
			require.NoError(t, err)
			t.Cleanup(func() { require.NoError(t, s.Stop()) })
			_, err = s.Add(PaneSpec{Argv: []string{"c"}, Cols: 40, Rows: 10})
			require.NoError(t, err)
			assert.Equal(t, tc.isolation, s.Isolation())
			mu.Lock()
			assert.Equal(t, tc.starts, starts)
			mu.Unlock()
			assert.Equal(t, tc.subreaps, subreaps)
			assert.Equal(t, tc.subreaperSet, s.opts.Subreaper, "Origin knows the orphans stay under this process")
			assert.Len(t, s.Members(), 3)
		})
	}
}

// A first pane whose program fails for its own sake fails the start as before: no
// second try, no turn to lineage.
func TestAFailedFirstProgramIsNotAFailedNamespace(t *testing.T) {
	starts := 0
	o := Options{Clock: newFakeClock(), Subreap: func() error { t.Error("Subreap called"); return nil },
		Start: func(spec ptyhost.Spec, out io.Writer) (Process, error) {
			starts++
			return nil, fmt.Errorf("start %q: %w", spec.Argv[0], syscall.ENOEXEC)
		}}
	o.Panes = []PaneSpec{{Name: "a", Argv: []string{"a"}, Cols: 40, Rows: 10}}
	_, err := Start(o)
	require.ErrorIs(t, err, syscall.ENOEXEC)
	assert.Equal(t, 1, starts)
}

// A program the server process starts itself, outside every pane (the git it runs for
// a pane's worktree, a notification command), and whatever that starts, is not the
// person: a program an agent named in a repository's config would otherwise act at the
// socket as the person.
func TestAProgramTheServerStartsIsNotThePerson(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("processes are followed through /proc on Linux only")
	}
	for _, shared := range []bool{false, true} {
		s, err := Start(Options{NoPaneNamespaces: shared, Subreap: func() error { return nil }, Panes: []PaneSpec{
			{Name: "alice", Argv: []string{"sh", "-c", "exec sleep 30"}, Cols: 40, Rows: 5},
		}})
		require.NoError(t, err)
		helper := exec.Command("sh", "-c", "sleep 30 & echo $!; wait")
		out, err := helper.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, helper.Start())
		var grandchild int
		_, err = fmt.Fscan(out, &grandchild)
		require.NoError(t, err)
		for _, pid := range []int{helper.Process.Pid, grandchild} {
			o := s.Origin(pid)
			assert.False(t, o.Person, "shared=%v: pid %d", shared, pid)
			assert.Empty(t, o.Pane)
			assert.Contains(t, o.Why, "started inside this session")
		}
		assert.True(t, s.Origin(os.Getpid()).Person, "the server itself is the person's")
		_ = syscall.Kill(grandchild, syscall.SIGKILL)
		_ = helper.Wait()
		require.NoError(t, s.Stop())
	}
}

// A pane's program runs in a Place the server's does not admit for a restore of its
// session: the kernel's facts Place.Admits stands on, read in a real pane's user
// namespace (its own namespace, a uid map that is not the server's).
func TestAPaneIsNotWhereThePersonRuns(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("user namespaces are Linux's")
	}
	s, err := Start(Options{Panes: []PaneSpec{{Name: "alice", Argv: []string{"sh", "-c",
		`printf 'PLACE %s %s [%s]\n' "$(stat -L -c %d:%i /proc/self/ns/user)" "$(cat /proc/sys/kernel/random/boot_id)" "$(cat /proc/self/uid_map)"; exec sleep 30`},
		Cols: 120, Rows: 5}}})
	require.NoError(t, err)
	defer s.Stop()
	person := Here()
	require.NotEmpty(t, person.Boot)
	require.NoError(t, person.Admits(Here()), "the person restores their own")
	if s.Isolation() != proto.IsolationUserNS {
		t.Skip("this machine refuses user namespaces")
	}
	re := regexp.MustCompile(`PLACE (\d+):(\d+) (\S+) \[([^\]]*)\]`)
	var m []string
	require.Eventually(t, func() bool {
		text, _ := s.Capture(1, 0, false)
		m = re.FindStringSubmatch(text)
		return m != nil
	}, 10*time.Second, 10*time.Millisecond, "the pane never printed its place")
	dev, _ := strconv.ParseUint(m[1], 10, 64)
	ino, _ := strconv.ParseUint(m[2], 10, 64)
	pane := Place{Boot: m[3], Dev: dev, Ino: ino, UIDMap: strings.Join(strings.Fields(m[4]), " ")}
	t.Logf("person %+v, pane %+v", person, pane)
	assert.Equal(t, person.Boot, pane.Boot)
	assert.NotEqual(t, person.Ino, pane.Ino, "the pane has a namespace of its own")
	assert.NotEqual(t, person.UIDMap, pane.UIDMap, "and a uid map of its own, which tells it after a reboot too")
	assert.ErrorIs(t, (&person).Admits(pane), ErrNotThePersonsPlace)
	rebooted := pane
	rebooted.Boot = "another boot"
	assert.ErrorIs(t, (&person).Admits(rebooted), ErrNotThePersonsPlace)
}
