package server

// Strategy: the output window on its own, over a socket pair whose other end the test
// reads: writes that fit go at once, a write past the window waits for an ack (and fails
// when none comes within the client's patience, or the connection ends), acks free room,
// and acks that do not match what was sent are refused; a draw goes in one write of the
// connection, however many frames it takes. Then through a real server: a
// client that acks is told so in ATTACHED and is drawn as before; a bad ack ends its
// stream alone.

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ui"
)

// drain reads frames from nc until it closes, sending each output frame's data length.
func drain(t *testing.T, nc net.Conn) <-chan int {
	t.Helper()
	got := make(chan int, 64)
	go func() {
		defer close(got)
		for {
			body, err := proto.ReadFrame(nc, attach.MaxFrame, nil)
			if err != nil {
				return
			}
			if f, err := attach.Decode(body); err == nil && f.Kind == attach.KindOutput {
				got <- len(f.Data)
			}
		}
	}()
	return got
}

func TestOutputWaitsForAcksPastTheWindow(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	a, b := net.Pipe()
	got := drain(t, b)
	failed := make(chan struct{}, 4)
	o := newOut(a, 100, func() { failed <- struct{}{} })
	o.patient = 50 * time.Millisecond

	write := func(n int) error {
		_, err := o.Write(make([]byte, n))
		return err
	}
	if err := write(60); err != nil {
		t.Fatalf("a write within the window: %v", err)
	}
	if n := <-got; n != 60 {
		t.Fatalf("sent %d bytes, want 60", n)
	}
	if err := write(40); err != nil {
		t.Fatalf("a write that fills the window: %v", err)
	}
	<-got

	// An ack frees its bytes: a write waiting for it goes once it comes.
	done := make(chan error, 1)
	go func() { done <- write(50) }()
	if err := o.ack(60); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the write after the ack: %v", err)
	}
	if n := <-got; n != 50 {
		t.Fatalf("sent %d bytes, want 50", n)
	}

	// A write larger than the window goes alone, once everything is acknowledged.
	if err := o.ack(90); err != nil {
		t.Fatal(err)
	}
	if err := write(250); err != nil {
		t.Fatalf("a whole screen with nothing unacknowledged: %v", err)
	}
	if n := <-got; n != 250 {
		t.Fatalf("sent %d bytes, want 250", n)
	}

	if err := o.ack(251); !errors.Is(err, errExtraAck) {
		t.Errorf("an ack for more than was sent: %v, want errExtraAck", err)
	}
	if err := write(1); !errors.Is(err, errNoAcks) {
		t.Fatalf("a write past the window with no ack coming: %v, want errNoAcks", err)
	}
	<-failed // the client is ended as one that stopped reading
	o.patient = time.Hour
	if err := write(1); !errors.Is(err, errNoAcks) {
		t.Fatalf("a write after the failure: %v, want errNoAcks at once, not another wait", err)
	}
	o = newOut(a, 100, func() {})
	o.unacked = 100 // its window full
	if err := newOut(a, 0, func() {}).ack(1); !errors.Is(err, errNoWindow) {
		t.Errorf("an ack from a client that sends none: %v, want errNoWindow", err)
	}

	// The connection's end wakes a write that waits.
	go func() { done <- write(1) }()
	close(o.gone)
	if err := <-done; !errors.Is(err, errClientGone) {
		t.Errorf("a waiting write when the connection ends: %v, want errClientGone", err)
	}
	a.Close()
	for range got {
	}
	goleak.VerifyNone(t, leaks)
}

func TestAckingClientIsDrawnAndBadAcksEndItsStream(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	f := newFixture(t, "a")
	f.proc(1).Print("before the attach\r\n")
	tm := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24, Acks: true})
	if !tm.accepted.Acks {
		t.Fatal("ATTACHED does not say the server paces output to acks")
	}
	tm.waitText("before the attach", "1 a")
	// Screens of output while the client acks each frame: the last one is drawn.
	for i := range 200 {
		f.proc(1).Print("flood line " + string(rune('a'+i%26)) + "\r\n")
	}
	f.proc(1).Print("the last line\r\n")
	tm.waitText("the last line")

	// An ack for output never sent ends this stream alone.
	_ = tm.send(attach.Ack(attach.MaxFrame))
	if r := tm.waitEnd(); r != attach.ReasonError {
		t.Errorf("an ack for output never sent ended the stream with %q, want error", r)
	}
	// A client that did not ask to ack may not.
	plain := f.attach(attach.Request{Version: attach.Version, Cols: 80, Rows: 24})
	if plain.accepted.Acks {
		t.Error("a client that sends no acks is told the server paces to them")
	}
	plain.waitText("the last line")
	_ = plain.send(attach.Ack(1))
	if r := plain.waitEnd(); r != attach.ReasonError {
		t.Errorf("an ack from a client that sends none ended the stream with %q, want error", r)
	}
	f.close()
	goleak.VerifyNone(t, leaks)
}

// The reader hands sizes to a slot, so it never waits for the ui: sizes reported while
// the ui is busy coalesce to the latest.
func TestLatestSizeWins(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{}
	resized := make(chan struct{}, 1)
	sizes := make(chan ui.Size)
	done := make(chan struct{})
	go func() { forwardSizes(ctx, c, resized, sizes); close(done) }()
	for i := range 5 {
		c.sizeMu.Lock()
		c.sz = ui.Size{Cols: 80 + i, Rows: 24}
		c.sizeMu.Unlock()
		signal(resized)
	}
	// Whatever was forwarded before, the last size is the one the ui ends with.
	var last ui.Size
	for last.Cols != 84 {
		last = <-sizes
	}
	// The ui is gone once it has its size: a resize still queued must not keep
	// forwardSizes waiting on a send nobody reads, so the ui's end (cancel) comes
	// before waiting for it.
	close(resized)
	cancel()
	<-done
	goleak.VerifyNone(t, leaks)
}

// countingConn counts the writes made to a connection.
type countingConn struct {
	net.Conn
	writes int
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes++
	return c.Conn.Write(p)
}

// A frame drawn goes to the client in one write of the connection, however many output
// frames it takes, and arrives whole and in order.
func TestOutputIsOneWritePerDraw(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	got := make(chan []byte, 1)
	go func() {
		var data []byte
		for len(data) < 3*attach.MaxFrame {
			body, err := proto.ReadFrame(b, attach.MaxFrame, nil)
			if err != nil {
				break
			}
			if f, err := attach.Decode(body); err == nil && f.Kind == attach.KindOutput {
				data = append(data, f.Data...)
			}
		}
		got <- data
	}()
	cc := &countingConn{Conn: a}
	o := newOut(cc, 0, func() {})
	want := make([]byte, 3*attach.MaxFrame)
	for i := range want {
		want[i] = byte(i)
	}
	if n, err := o.Write(want); err != nil || n != len(want) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if cc.writes != 1 {
		t.Errorf("%d writes of the connection for one draw, want 1", cc.writes)
	}
	if data := <-got; string(data) != string(want) {
		t.Errorf("the client got %d bytes, want the %d drawn, in order", len(data), len(want))
	}
}
