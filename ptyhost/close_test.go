package ptyhost

// Shutdown with real process trees: Close ends a child that ignores SIGHUP and its
// grandchildren (checked in /proc afterwards), returns promptly for a child that obeys
// SIGHUP, does not hang when a stray process in another session keeps the terminal
// open, is idempotent and safe concurrently, and leaves no goroutine behind.

import (
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/internal/oswait"
)

func TestCloseKillsGroupIgnoringHUP(t *testing.T) {
	p, out := start(t, Spec{
		Argv:      []string{"sh", "-c", `trap "" HUP; sleep 1000 & echo "grandchild $!"; sleep 1000; wait`},
		KillGrace: 200 * time.Millisecond,
	})
	s := waitContains(t, p, out, "grandchild ")
	gc := field(t, s, "grandchild")
	t.Cleanup(func() {
		if t.Failed() { // it may have survived; once dead its pid must not be touched
			_ = syscall.Kill(gc, syscall.SIGKILL)
		}
	})
	if !alive(gc) || !alive(p.Pid()) {
		t.Fatalf("child %d or grandchild %d not running before Close", p.Pid(), gc)
	}
	began := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took < 200*time.Millisecond {
		t.Fatalf("Close took %v: the children should have survived SIGHUP for the grace", took)
	}
	select {
	case <-p.Done():
	default:
		t.Fatal("Done not closed after Close returned")
	}
	if ws, _ := p.ExitState().Sys().(syscall.WaitStatus); ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v, want SIGKILL", p.ExitState())
	}
	groupGone(t, p.Pid())
	if alive(gc) {
		t.Fatalf("grandchild %d still alive", gc)
	}
}

func TestCloseObeyedHUPIsQuick(t *testing.T) {
	p, out := start(t, Spec{Argv: []string{"sh", "-c", "echo ready; sleep 1000"}, KillGrace: time.Minute})
	waitContains(t, p, out, "ready")
	began := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took > 30*time.Second {
		t.Fatalf("Close took %v although the child obeys SIGHUP", took)
	}
	if ws, _ := p.ExitState().Sys().(syscall.WaitStatus); ws.Signal() != syscall.SIGHUP {
		t.Fatalf("child ended with %v, want SIGHUP", p.ExitState())
	}
	groupGone(t, p.Pid())
}

func TestStrayHolderDoesNotHang(t *testing.T) {
	// setsid moves the sleeper into a session of its own: Close's signals miss it and it
	// keeps the terminal's slave side open, so the PTY never reports end of output.
	p, out := start(t, Spec{
		Argv:       []string{"sh", "-c", `setsid sleep 1000 & echo "stray $!"; read x`},
		DrainGrace: 100 * time.Millisecond,
	})
	stray := field(t, waitContains(t, p, out, "stray "), "stray")
	defer func() { _ = syscall.Kill(stray, syscall.SIGKILL) }()
	eventually(t, "the stray to leave the group", func() bool {
		pg, err := syscall.Getpgid(stray)
		return err == nil && pg == stray
	})
	p.Write([]byte("\r"))
	waitDone(t, p) // the child exited; DrainGrace ends the wait for an EOF that never comes
	closed := make(chan error, 1)
	go func() { closed <- p.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testTimeout):
		t.Fatal("Close hung while a stray process holds the terminal")
	}
}

func TestCloseIdempotentAndConcurrent(t *testing.T) {
	p, _ := start(t, Spec{Argv: []string{"sleep", "1000"}})
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Write([]byte("x"))
			errs[i] = p.Close()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Close #%d: %v", i, err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close again: %v", err)
	}
}

func TestNoGoroutineLeak(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	for range 5 {
		out := &syncBuf{}
		p, err := Start(Spec{Argv: []string{"sh", "-c", "echo hi; cat"}, KillGrace: 100 * time.Millisecond}, out)
		if err != nil {
			t.Fatal(err)
		}
		p.Write([]byte("some input\r"))
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Close waited for its goroutines; goleak allows them to finish returning.
}

func TestCloseKillsForegroundJob(t *testing.T) {
	// With job control (set -m) the shell runs its foreground job in a process group of
	// its own; the job ignores SIGHUP, so only SIGKILL to that group ends it.
	p, out := start(t, Spec{
		Argv:      []string{"sh", "-c", `set -m; trap "" HUP; echo "shell $$"; sh -c 'echo "job $$ $(ps -o pgid= -p $$)"; exec sleep 1000'`},
		KillGrace: 200 * time.Millisecond,
	})
	s := waitContains(t, p, out, "job ")
	job := field(t, s, "job")
	t.Cleanup(func() {
		if t.Failed() { // it may have survived; once dead its pid must not be touched
			_ = syscall.Kill(job, syscall.SIGKILL)
		}
	})
	pg, err := syscall.Getpgid(job)
	if err != nil || pg == p.Pid() {
		t.Skipf("this sh gave the job no process group of its own (pgid %d, %v)", pg, err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !oswait.Exited(job, testTimeout) {
		t.Fatalf("the foreground job %d still runs", job)
	}
	groupGone(t, pg)
}
