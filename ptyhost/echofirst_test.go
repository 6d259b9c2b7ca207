package ptyhost

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// While the echo of a key written to one program is awaited, the other programs
// sharing the EchoFirst are not read, nor what they had read parsed: their output waits
// (nothing lost) and is taken once the awaited program printed, after what it printed.
func TestEchoFirstHoldsOtherReadersUntilTheEcho(t *testing.T) {
	ef := NewEchoFirst(time.Hour) // only the echo ends the hold here
	waits := make(chan struct{}, 1)
	ef.onWait = func() {
		select {
		case waits <- struct{}{}:
		default:
		}
	}
	keyed, kout := start(t, Spec{Argv: []string{"sh", "-c", "stty -echo; printf R; read x; printf got-$x"}, EchoFirst: ef})
	other, oout := start(t, Spec{Argv: []string{"cat"}, EchoFirst: ef})
	waitContains(t, keyed, kout, "R")

	keyed.Expect()
	other.Write([]byte("flood\r"))
	select {
	case <-waits:
	case <-time.After(testTimeout):
		t.Fatal("the other program's reader never waited for the echo")
	}
	assert.NotContains(t, oout.String(), "flood", "read while the echo was awaited")

	keyed.Write([]byte("k\r"))
	waitContains(t, other, oout, "flood")
	assert.Contains(t, kout.String(), "got-k", "the awaited echo is taken first")
}

// A program that does not answer holds the others at most the wait.
func TestEchoFirstHoldEndsAfterTheWait(t *testing.T) {
	ef := NewEchoFirst(20 * time.Millisecond)
	keyed, kout := start(t, Spec{Argv: []string{"sh", "-c", "stty -echo; printf R; exec sleep 60"}, EchoFirst: ef})
	other, oout := start(t, Spec{Argv: []string{"cat"}, EchoFirst: ef})
	waitContains(t, keyed, kout, "R")
	keyed.Expect()
	other.Write([]byte("later\r"))
	waitContains(t, other, oout, "later")
	assert.True(t, strings.HasPrefix(kout.String(), "R"))
}

// The keyed program's own reader never waits for itself, and a new key moves the hold.
func TestEchoFirstKeyedReaderAndNewKeys(t *testing.T) {
	ef := NewEchoFirst(time.Hour)
	a, aout := start(t, Spec{Argv: []string{"cat"}, EchoFirst: ef})
	b, bout := start(t, Spec{Argv: []string{"cat"}, EchoFirst: ef})
	a.Expect()
	a.Write([]byte("one\r"))
	waitContains(t, a, aout, "one")
	b.Expect() // a's echo came: nothing holds b; now b's is awaited
	b.Write([]byte("two\r"))
	waitContains(t, b, bout, "two")
}
