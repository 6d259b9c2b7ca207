package tty

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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/vterm"
)

// pipeInput starts an input reader over an os.Pipe and returns its write end.
func pipeInput(t *testing.T, escWait time.Duration) (*Input, *os.File) {
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
		ir.Close()
		_ = w.Close()
		_ = r.Close()
	})
	return ir, w
}

// next returns the next message or fails after a deadline.
func next(t *testing.T, ir *Input) Batch {
	t.Helper()
	select {
	case m := <-ir.events:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("no input message")
		return Batch{}
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
}

func TestProbeKeepsKeysTypedMeanwhile(t *testing.T) {
	ir, w := pipeInput(t, time.Hour)
	_, _ = w.WriteString("x\x1b[?1u\x1b]11;rgb:ffff/ffff/ffff\x1b\\y\x1b[?62;22cz")
	p, other, err := ir.Probe(5 * time.Second)
	require.NoError(t, err)
	assert.Equal(t, Probed{Colors: vterm.Colors{BG: vterm.RGBColor{R: 255, G: 255, B: 255}}, Kitty: true, Answers: 3}, p)
	var typed string
	for _, ev := range other {
		if k, ok := ev.(keys.Key); ok {
			typed += string(k.Rune)
		}
	}
	assert.Equal(t, "xyz", typed, "keys typed during the probe")
}

func TestProbedApply(t *testing.T) {
	rgb := func(r, g, b uint8) vterm.RGBColor { return vterm.RGBColor{R: r, G: g, B: b} }
	cases := []struct {
		raw      string
		want     Probed
		sentinel bool
	}{
		{"\x1b]10;rgb:ffff/8080/0000\x1b\\", Probed{Colors: vterm.Colors{FG: rgb(255, 128, 0)}}, false},
		{"\x1b]11;rgb:1e/20/30\a", Probed{Colors: vterm.Colors{BG: rgb(0x1e, 0x20, 0x30)}}, false},
		{"\x1b]11;rgb:f/0/8\x1b\\", Probed{Colors: vterm.Colors{BG: rgb(255, 0, 136)}}, false},
		{"\x1b]11;rgba:ffff/ffff/ffff/ffff\x1b\\", Probed{Colors: vterm.Colors{BG: rgb(255, 255, 255)}}, false},
		{"\x1b]11;nonsense\x1b\\", Probed{}, false},
		{"\x1b]12;rgb:ffff/ffff/ffff\x1b\\", Probed{}, false},
		{"\x1b[?31u", Probed{Kitty: true}, false},
		{"\x1b[?62;22c", Probed{}, true},
		{"\x1b[12;4R", Probed{}, false},
	}
	for _, c := range cases {
		var p Probed
		sentinel := p.Apply(keys.Reply{Raw: []byte(c.raw)})
		c.want.Answers = 1
		assert.Equal(t, c.want, p, "%q", c.raw)
		assert.Equal(t, c.sentinel, sentinel, "%q", c.raw)
	}
}

// Chunks (an attached terminal's input frames) decode as reads do: one batch a chunk,
// an escape sequence split across chunks waits for its rest, and the channel's close
// is the end of input.
func TestChunksDecodeInOrderAndEndOnClose(t *testing.T) {
	chunks := make(chan []byte)
	ir := StartChunks(context.Background(), chunks)
	t.Cleanup(ir.Close)
	chunks <- []byte("ab\x1b[")
	m := next(t, ir)
	require.Len(t, m.Events, 2, "a and b; the split sequence waits")
	chunks <- []byte("A")
	m = next(t, ir)
	require.Len(t, m.Events, 1)
	assert.Equal(t, keys.KeyUp, m.Events[0].(keys.Key).Code)
	close(chunks)
	m = next(t, ir)
	assert.True(t, errors.Is(m.Err, io.EOF), "the end of input, got %v", m.Err)
}
