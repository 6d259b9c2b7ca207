package ui

// ProbeTerminal on a real PTY: the test plays the terminal, reading the queries and
// answering them, with keys the person typed before the answers arrived. The answers say
// the colours; the keys come back as the terminal sent them, for the attach to pass on:
// nothing typed while agentmux starts is lost.

import (
	"bytes"
	"context"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProbeTerminalKeepsWhatWasTyped(t *testing.T) {
	ptmx, pts, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	defer pts.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		var seen []byte
		buf := make([]byte, 256)
		for !bytes.Contains(seen, []byte("\x1b[c")) { // DA1: the last query
			n, err := ptmx.Read(buf)
			if err != nil {
				return
			}
			seen = append(seen, buf[:n]...)
		}
		_, _ = ptmx.Write([]byte("hi\x1b[A\x1b]11;rgb:1010/2020/3030\x1b\\\x1b[?62;22c"))
	}()
	info, typed, err := ProbeTerminal(context.Background(), pts, pts)
	<-done
	require.NoError(t, err)
	assert.Equal(t, "hi\x1b[A", string(typed), "the keys, an arrow's sequence whole")
	assert.True(t, info.Known)
	assert.Equal(t, [3]uint8{0x10, 0x20, 0x30}, info.BG)
}
