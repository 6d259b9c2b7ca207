package ptyhost

// Shared helpers for the ptyhost tests. The tests run real programs (/bin/sh, cat, stty,
// sleep) in real PTYs. They wait on the Proc's own channels (Updates, Done) with a
// deadline instead of sleeping; the few checks on operating-system state that has no
// event to wait on (a signalled process disappearing, goroutines finishing their last
// instruction) poll with a short interval under a hard deadline.

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/oswait"
)

// testTimeout bounds every wait in these tests.
const testTimeout = 20 * time.Second

// syncBuf is an io.Writer safe for the reader goroutine and the test to share.
type syncBuf struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start starts argv at 80x24 with short graces and closes it when the test ends.
func start(t *testing.T, s Spec) (*Proc, *syncBuf) {
	t.Helper()
	if s.Cols == 0 {
		s.Cols, s.Rows = 80, 24
	}
	if s.KillGrace == 0 {
		s.KillGrace = 300 * time.Millisecond
	}
	out := &syncBuf{}
	p, err := Start(s, out)
	if err != nil {
		t.Fatalf("Start(%q): %v", s.Argv, err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p, out
}

// waitOutput waits, on Updates and Done, until ok(output) holds; it fails the test with
// the output seen so far when the deadline passes.
func waitOutput(t *testing.T, p *Proc, out *syncBuf, what string, ok func(string) bool) string {
	t.Helper()
	deadline := time.NewTimer(testTimeout)
	defer deadline.Stop()
	done := p.Done()
	for {
		if s := out.String(); ok(s) {
			return s
		}
		select {
		case <-p.Updates():
		case <-done:
			done = nil // check once more after the final drain, then keep waiting on Updates
			if s := out.String(); ok(s) {
				return s
			}
			t.Fatalf("child exited before %s; output %q", what, out.String())
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s; output %q", what, out.String())
		}
	}
}

func waitContains(t *testing.T, p *Proc, out *syncBuf, sub string) string {
	t.Helper()
	return waitOutput(t, p, out, strconv.Quote(sub), func(s string) bool { return strings.Contains(s, sub) })
}

// waitDone waits for Done with the test deadline.
func waitDone(t *testing.T, p *Proc) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(testTimeout):
		t.Fatalf("Done not closed within %v", testTimeout)
	}
}

// alive reports whether pid is a live process (not gone, not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	st, ok := statState(string(b))
	return ok && st != "Z" && st != "X"
}

// statState returns the state field of a /proc/PID/stat line.
func statState(stat string) (string, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 1 {
		return "", false
	}
	return f[0], true
}

// groupMembers lists the live processes whose process group is pgid.
func groupMembers(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid pgrp ...
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" || f[2] != strconv.Itoa(pgid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// groupGone waits until no process is left in process group pgid, each member's end
// seen through its pidfd.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for {
		left := groupMembers(pgid)
		if len(left) == 0 {
			return
		}
		for _, pid := range left {
			if !oswait.Exited(pid, time.Until(deadline)) {
				t.Fatalf("process %d of group %d still runs", pid, pgid)
			}
		}
	}
}

// eventually polls cond every 10ms until it holds or the deadline passes. Only for
// operating-system state with no event to wait on (a process leaving its group).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// field returns the integer after "key " in s (e.g. "child 1234" → 1234).
func field(t *testing.T, s, key string) int {
	t.Helper()
	i := strings.Index(s, key+" ")
	if i < 0 {
		t.Fatalf("no %q in %q", key, s)
	}
	rest := s[i+len(key)+1:]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		t.Fatalf("bad %q in %q: %v", key, s, err)
	}
	return n
}
