package fakeproc

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/ptyhost"
)

// The fake's contract as the session sees it: writes are kept in order (and echoed when
// asked), printing signals Updates once per burst, Exit ends it with its code, and the
// size is the start size until a resize.
func TestProcContract(t *testing.T) {
	var screen bytes.Buffer
	f := New(ptyhost.Spec{Cols: 80, Rows: 24}, &screen)
	assert.Equal(t, [2]int{80, 24}, f.LastSize())
	f.Write([]byte("ab"))
	f.Write([]byte("c"))
	assert.Equal(t, "abc", f.Peek())
	assert.Equal(t, 3, f.Size())
	assert.Equal(t, "abc", f.Sent())
	assert.Empty(t, f.Peek())

	f.SetEcho(true)
	f.Write([]byte("hi\r"))
	assert.Equal(t, "hi\r\n", screen.String())
	f.Print("more")
	assert.Len(t, f.Updates(), 1, "printing twice before the reader woke signals once")

	wrote := 0
	f.SetOnWrite(func() { wrote++ })
	f.Write([]byte("x"))
	assert.Equal(t, 1, wrote)

	assert.NoError(t, f.Resize(100, 30))
	assert.Equal(t, [2]int{100, 30}, f.LastSize())

	assert.False(t, f.IsClosed())
	f.Exit(3)
	<-f.Done()
	assert.True(t, f.IsClosed())
	assert.Equal(t, 3, f.ExitCode())
	assert.NoError(t, f.Close(), "a second close is harmless")
}
