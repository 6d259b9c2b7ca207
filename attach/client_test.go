package attach

// Strategy: the client's output loop (drawOutput) over a net.Pipe, the test playing the
// server: output frames sent together in one write reach the terminal (an os.Pipe) in
// order and are acknowledged together, in one write of ack frames whose counts add up to
// exactly the bytes drawn, none over MaxFrame; the end frame ends the loop with its
// reason. Run over a PTY sends what was typed during the client's probe as the stream's
// first input. Then the frame encoders on their own: AppendOutput cuts a write into
// frames that decode back to it, AppendAcks into acks that add up to n.

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/proto"
)

func TestOutputSentTogetherIsAckedTogether(t *testing.T) {
	srv, cli := net.Pipe()
	defer srv.Close()
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	drawn := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(rd); drawn <- b }()
	c := &pipe{nc: cli, acks: true}
	type ended struct {
		r   Reason
		msg string
	}
	end := make(chan ended, 1)
	go func() {
		r, msg := c.drawOutput(wr)
		wr.Close()
		end <- ended{r, msg}
	}()

	parts := [][]byte{[]byte("one "), []byte("two "), bytes.Repeat([]byte("x"), 1000)}
	var frames, want []byte
	for _, p := range parts {
		frames = AppendOutput(frames, p)
		want = append(want, p...)
	}
	type acks struct{ bytes, frames int }
	got := make(chan acks, 1)
	go func() { // the acks, until they cover everything sent
		var a acks
		for a.bytes < len(want) {
			body, err := proto.ReadFrame(srv, MaxFrame, nil)
			if err != nil {
				break
			}
			if f, err := Decode(body); err == nil && f.Kind == KindAck {
				a.bytes += f.Acked
				a.frames++
			}
		}
		got <- a
	}()
	if _, err := srv.Write(frames); err != nil { // the client reads it whole
		t.Fatal(err)
	}
	a := <-got
	if a.bytes != len(want) {
		t.Errorf("acked %d bytes, drew %d", a.bytes, len(want))
	}
	if a.frames != 1 {
		t.Errorf("%d ack frames for three output frames read together, want 1", a.frames)
	}
	if err := proto.WriteFrame(srv, End(ReasonDetached, "bye")); err != nil {
		t.Fatal(err)
	}
	e := <-end
	if e.r != ReasonDetached || e.msg != "bye" {
		t.Errorf("ended with %q %q, want detached bye", e.r, e.msg)
	}
	if got := <-drawn; !bytes.Equal(got, want) {
		t.Errorf("the terminal got %d bytes, want the %d sent, in order", len(got), len(want))
	}
}

func TestAppendOutputAndAcks(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), MaxFrame/5) // two frames' worth
	b := AppendOutput(nil, data)
	var got []byte
	for len(b) > 0 {
		body, err := proto.ReadFrame(bytes.NewReader(b), MaxFrame, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Decode(body)
		if err != nil || f.Kind != KindOutput || len(f.Data) > MaxFrame-1 {
			t.Fatalf("output frame of %d bytes: %v", len(f.Data), err)
		}
		got = append(got, f.Data...)
		b = b[4+len(body):]
	}
	if !bytes.Equal(got, data) {
		t.Errorf("frames carry %d bytes, want %d", len(got), len(data))
	}
	if len(AppendOutput(nil, nil)) != 0 {
		t.Error("no output makes a frame")
	}
	for _, n := range []int{1, MaxFrame, MaxFrame + 1, 3*MaxFrame + 7} {
		b, sum := AppendAcks(nil, n), 0
		for len(b) > 0 {
			body, err := proto.ReadFrame(bytes.NewReader(b), MaxFrame, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Decode(body)
			if err != nil || f.Kind != KindAck {
				t.Fatalf("ack frame %q: %v", body, err)
			}
			sum += f.Acked
			b = b[4+len(body):]
		}
		if sum != n {
			t.Errorf("acks for %d bytes add up to %d", n, sum)
		}
	}
}

// What the person typed while the client probed its terminal (Options.Typed) is the
// stream's first input, before anything read from the terminal since.
func TestTypedDuringTheProbeIsTheFirstInput(t *testing.T) {
	srv, cli := net.Pipe()
	defer srv.Close()
	ptmx, pts, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer pts.Close()
	ran := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), cli, pts, pts, Options{Typed: []byte("hi\x1b[A")})
		ran <- err
	}()
	if _, err := proto.ReadFrame(srv, proto.DefaultMaxFrameBytes, nil); err != nil { // ATTACH
		t.Fatal(err)
	}
	ok, _ := Handshake(TypeAttached, Accepted{Version: Version, Session: "s"})
	if err := proto.WriteFrame(srv, ok); err != nil {
		t.Fatal(err)
	}
	_ = srv.SetReadDeadline(time.Now().Add(10 * time.Second)) // nothing else is sent
	body, err := proto.ReadFrame(srv, MaxFrame, nil)
	if err != nil {
		t.Fatalf("no input after ATTACHED: %v", err)
	}
	_ = srv.SetReadDeadline(time.Time{})
	if f, err := Decode(body); err != nil || f.Kind != KindInput || string(f.Data) != "hi\x1b[A" {
		t.Errorf("the first frame after ATTACHED is %q (%v), want the typed input", body, err)
	}
	if err := proto.WriteFrame(srv, End(ReasonDetached, "")); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, srv) }() // whatever the client still sends
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
}

// Attached, the client ignores SIGTSTP (kill -TSTP from the shell it was started
// from): stopped, it would leave the terminal raw, on the alternate screen, its mouse
// reporting on. (Ignored for the rest of the process: the other tests here may have.)
func TestClientIgnoresStopWhileAttached(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	c := &pipe{nc: a}
	stop := c.followSignals(context.Background(), os.Stdout, true)
	defer stop()
	assert.True(t, signal.Ignored(syscall.SIGTSTP), "attached")
}

// A terminal that reports its size as 0x0 (a PTY nobody sized: ssh -tt from a script,
// docker exec -t before its first resize) still attaches: the request carries 80x24,
// which the server accepts, where a 0x0 one is refused after the session has started.
func TestUnsizedTerminalAttachesAtTheDefaultSize(t *testing.T) {
	srv, cli := net.Pipe()
	defer srv.Close()
	ptmx, pts, err := pty.Open() // a new PTY's size is 0x0
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer pts.Close()
	ran := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), cli, pts, pts, Options{})
		ran <- err
	}()
	body, err := proto.ReadFrame(srv, proto.DefaultMaxFrameBytes, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := proto.Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := proto.DecodePayload[Request](e)
	if err != nil {
		t.Fatal(err)
	}
	assert.NoError(t, req.Validate(), "the server's check of the request")
	assert.Equal(t, [2]int{UnknownCols, UnknownRows}, [2]int{req.Cols, req.Rows})
	ok, _ := Handshake(TypeAttached, Accepted{Version: Version, Session: "s"})
	if err := proto.WriteFrame(srv, ok); err != nil {
		t.Fatal(err)
	}
	if err := proto.WriteFrame(srv, End(ReasonDetached, "")); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, srv) }() // whatever the client still sends
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
}
