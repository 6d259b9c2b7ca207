package ptytest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/vterm"
)

// Await waits until cond holds for the screen, testing it at once and after every chunk
// of output, and returns the snapshot it held for. It returns ctx's error (or cause) if
// ctx ends first, and ErrEnded if the program ended first and cond does not hold for the
// final screen.
func (t *Term) Await(ctx context.Context, cond func(*vterm.Snapshot) bool) (*vterm.Snapshot, error) {
	for {
		if snap := t.vt.Snapshot(); cond(snap) {
			return snap, nil
		}
		select {
		case <-t.updates:
		case <-t.ended:
			if snap := t.vt.Snapshot(); cond(snap) {
				return snap, nil
			}
			return nil, ErrEnded
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// Wait is Await with a timeout that fails tb, naming what it waited for (desc) and
// printing the last screen (Options.Describe), when the timeout passes or the program
// ends first.
func (t *Term) Wait(tb testing.TB, timeout time.Duration, desc string, cond func(*vterm.Snapshot) bool) *vterm.Snapshot {
	tb.Helper()
	ctx, cancel := context.WithTimeoutCause(context.Background(), timeout, fmt.Errorf("timed out after %v", timeout))
	defer cancel()
	snap, err := t.Await(ctx, cond)
	if err != nil {
		tb.Fatalf("%s: %v while waiting for %s; last screen:\n%s", t.name, err, desc, t.Describe())
	}
	return snap
}

// Describe is the last screen for a failure message: Options.Describe's, or the screen's
// rows numbered from 01.
func (t *Term) Describe() string {
	if t.describe != nil {
		return t.describe()
	}
	return Numbered(t.vt.ScreenText())
}

// Numbered returns rows one per line, each prefixed with its number from 01 and "|".
func Numbered(rows []string) string {
	var b strings.Builder
	for i, r := range rows {
		fmt.Fprintf(&b, "%02d|%s\n", i+1, r)
	}
	return b.String()
}
