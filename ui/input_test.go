package ui

// The input reader is tested through a pipe standing in for the terminal: bytes written
// in must come out as decoded events, one message per read, an incomplete escape
// sequence must wait for its rest (with a long escape timeout, so the test cannot race
// the timer) or be flushed by the timer (with a short one), and the end of input must
// arrive as an error. Waits are on channels with a deadline, never sleeps.

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/agentmux/agentmux/keys"
)

// pipeInput starts an input reader over an os.Pipe and returns its write end.
func pipeInput(t *testing.T, escWait time.Duration) (*inputReader, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ir, err := startInputWait(context.Background(), r, escWait)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ir.close()
		_ = w.Close()
		_ = r.Close()
	})
	return ir, w
}

// next returns the next message or fails after a deadline.
func next(t *testing.T, ir *inputReader) inputMsg {
	t.Helper()
	select {
	case m := <-ir.events:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("no input message")
		return inputMsg{}
	}
}

func TestInputDecodesOneBatchPerRead(t *testing.T) {
	ir, w := pipeInput(t, time.Hour)
	_, _ = w.WriteString("ab\x1b[A")
	m := next(t, ir)
	if len(m.Events) != 3 {
		t.Fatalf("events %v, want a, b, up in one batch", m.Events)
	}
	if k, ok := m.Events[2].(keys.Key); !ok || k.Code != keys.KeyUp {
		t.Errorf("third event %v, want up", m.Events[2])
	}
}

func TestInputSplitSequenceWaitsForItsRest(t *testing.T) {
	ir, w := pipeInput(t, time.Hour)
	_, _ = w.WriteString("\x1b[")
	_, _ = w.WriteString("1;2A")
	m := next(t, ir)
	k, ok := m.Events[0].(keys.Key)
	if len(m.Events) != 1 || !ok || k.Code != keys.KeyUp || k.Mod != keys.ModShift {
		t.Errorf("events %v, want one shift+up", m.Events)
	}
}

func TestInputLoneEscapeIsFlushedByTheTimer(t *testing.T) {
	ir, w := pipeInput(t, time.Millisecond)
	_, _ = w.WriteString("\x1b")
	m := next(t, ir)
	if k, ok := m.Events[0].(keys.Key); len(m.Events) != 1 || !ok || k.Code != keys.KeyEscape {
		t.Errorf("events %v, want escape", m.Events)
	}
}

func TestInputEndIsAnError(t *testing.T) {
	ir, w := pipeInput(t, time.Hour)
	_ = w.Close()
	if m := next(t, ir); !errors.Is(m.Err, io.EOF) {
		t.Errorf("end of input gave %v, want EOF", m.Err)
	}
	// The model quits on it.
	hs := newHarness(t, 80, 24, "a")
	hs.send(inputMsg{Err: io.EOF})
	if !hs.m.quitting {
		t.Error("the model did not quit when input ended")
	}
}

func TestProbeKeepsKeysTypedMeanwhile(t *testing.T) {
	ir, w := pipeInput(t, time.Hour)
	_, _ = w.WriteString("x\x1b[?1u\x1b]11;rgb:ffff/ffff/ffff\x1b\\y\x1b[?62;22cz")
	replies, other, err := ir.probe(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(replies) != 3 {
		t.Errorf("replies %v, want kitty, OSC 11 and DA1", replies)
	}
	var typed string
	for _, ev := range other {
		if k, ok := ev.(keys.Key); ok {
			typed += string(k.Rune)
		}
	}
	if typed != "xyz" {
		t.Errorf("keys typed during the probe: %q, want xyz", typed)
	}
}

func TestParseReply(t *testing.T) {
	cases := []struct {
		raw  string
		want reply
	}{
		{"\x1b]10;rgb:ffff/8080/0000\x1b\\", reply{replyFG, rgb(255, 128, 0)}},
		{"\x1b]11;rgb:1e/20/30\a", reply{replyBG, rgb(0x1e, 0x20, 0x30)}},
		{"\x1b]11;rgb:f/0/8\x1b\\", reply{replyBG, rgb(255, 0, 136)}},
		{"\x1b]11;#102030\x1b\\", reply{replyBG, rgb(0x10, 0x20, 0x30)}},
		{"\x1b]11;rgba:ffff/ffff/ffff/ffff\x1b\\", reply{replyBG, rgb(255, 255, 255)}},
		{"\x1b]11;nonsense\x1b\\", reply{}},
		{"\x1b]12;rgb:ffff/ffff/ffff\x1b\\", reply{}},
		{"\x1b[?31u", reply{kind: replyKitty}},
		{"\x1b[?62;22c", reply{kind: replyDA1}},
		{"\x1b[12;4R", reply{}},
	}
	for _, c := range cases {
		if got := parseReply([]byte(c.raw)); got != c.want {
			t.Errorf("parseReply(%q) = %+v, want %+v", c.raw, got, c.want)
		}
	}
}
