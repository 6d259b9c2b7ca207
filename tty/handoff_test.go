package tty

// Where the terminal is read by a blocking reader (every system but Linux, and any
// input that is not a terminal), the read loop must not read again, and so block while
// holding its scheduler slot, before the decoder has decoded the last read and passed
// its events on. With one scheduler slot (GOMAXPROCS 1) the order is exact: a reader
// that reads again at once finds nothing passed on yet.

import (
	"context"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stepReader returns "a" on its first read (once start is closed), then reports on seen
// how many batches were waiting for the ui when its second read began, and blocks until
// done is closed.
type stepReader struct {
	start, done chan struct{}
	seen        chan int
	ir          **Input
	reads       int
}

func (r *stepReader) Read(b []byte) (int, error) {
	r.reads++
	switch r.reads {
	case 1:
		<-r.start
		return copy(b, "a"), nil
	case 2:
		r.seen <- len((*r.ir).events)
	}
	<-r.done
	return 0, io.EOF
}

func TestBlockingReaderLetsTheDecoderGoFirst(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var ir *Input
	r := &stepReader{start: make(chan struct{}), done: make(chan struct{}), seen: make(chan int, 1), ir: &ir}
	ir, err := startInputWait(context.Background(), r, time.Hour)
	require.NoError(t, err)
	defer ir.Close()
	defer close(r.done) // the reader cannot be cancelled mid-read: end it before Close
	close(r.start)
	select {
	case n := <-r.seen:
		assert.Equal(t, 1, n, "the first read's batch was not passed on before the reader read again")
	case <-time.After(5 * time.Second):
		t.Fatal("the reader never read again")
	}
}
