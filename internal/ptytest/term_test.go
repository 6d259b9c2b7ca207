package ptytest

// Strategy: run /bin/sh in a PTY and check the harness end to end: the screen is waited
// for, typed input reaches the program through the writer, the emulator's answer to a
// cursor-position query is written back to the PTY (the shell reads it as input), a
// resize reaches the program's window, and Stop ends a program that ignores nothing.

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/vterm"
)

func startSh(t *testing.T, script string) *Term {
	t.Helper()
	term, err := Start([]string{"/bin/sh", "-c", script}, Options{Cols: 40, Rows: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		term.Stop(syscall.SIGKILL, 5*time.Second)
		term.Close()
	})
	return term
}

func onScreen(term *Term, text string) func(*vterm.Snapshot) bool {
	return func(*vterm.Snapshot) bool {
		return strings.Contains(strings.Join(term.VT().ScreenText(), "\n"), text)
	}
}

func TestInputRepliesAndResize(t *testing.T) {
	// The shell asks for the cursor position with echo off; the emulator's answer
	// (ESC [ 1 ; 6 R after "READY ") arrives as input, which the shell shows as text.
	term := startSh(t, `stty raw -echo; printf 'READY '; printf '\033[6n'; `+
		`r=$(dd bs=1 count=6 2>/dev/null | tr -d '\033'); printf 'reply=%s ' "$r"; `+
		`dd bs=1 count=3 2>/dev/null | sed 's/^/typed=/'; printf ' size=%s' "$(stty size)"; `+
		`dd bs=1 count=1 2>/dev/null >/dev/null; printf ' size=%s' "$(stty size)"`)
	term.Wait(t, 10*time.Second, "the query's answer", onScreen(term, "reply=[1;7R"))
	if err := term.Send([]byte("abc")); err != nil {
		t.Fatal(err)
	}
	term.Wait(t, 10*time.Second, "the typed input", onScreen(term, "typed=abc size=10 40"))
	if err := term.Resize(50, 12); err != nil {
		t.Fatal(err)
	}
	if err := term.Send([]byte("x")); err != nil {
		t.Fatal(err)
	}
	term.Wait(t, 10*time.Second, "the new size", onScreen(term, "size=12 50"))
	if got := term.VT().Snapshot(); got.Cols != 50 || got.Rows != 12 {
		t.Errorf("emulator is %d×%d after Resize(50, 12)", got.Cols, got.Rows)
	}
	if term.Dropped() != 0 {
		t.Errorf("%d answers dropped", term.Dropped())
	}
}

func TestAwaitEndsWithTheOutputAndStop(t *testing.T) {
	term := startSh(t, `printf 'bye'; exit 3`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := term.Await(ctx, onScreen(term, "never shown")); !errors.Is(err, ErrEnded) {
		t.Fatalf("Await after the program ended: %v, want ErrEnded", err)
	}
	if !strings.Contains(term.VT().ScreenText()[0], "bye") {
		t.Errorf("last output missing: %q", term.VT().ScreenText())
	}
	if term.Stop(syscall.SIGTERM, 5*time.Second) {
		t.Error("Stop killed a program that had exited")
	}
	if code := term.ExitCode(); code != 3 {
		t.Errorf("exit code %d, want 3", code)
	}

	sleeper := startSh(t, `trap '' TERM; printf 'up'; while :; do sleep 1; done`)
	sleeper.Wait(t, 10*time.Second, "the sleeper", onScreen(sleeper, "up"))
	if !sleeper.Stop(syscall.SIGTERM, 200*time.Millisecond) {
		t.Error("Stop did not need SIGKILL for a program that ignores SIGTERM")
	}
	if err := sleeper.Close(); err != nil {
		t.Fatal(err)
	}
	if !sleeper.Drain(5 * time.Second) {
		t.Error("the reader still ran after Close")
	}
}
