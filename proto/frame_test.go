package proto

import (
	"bytes"
	"encoding/binary"
	"io"
	"runtime"
	"testing"
)

// halfFrame is a frame announcing n bytes that ends after sent of them.
func halfFrame(n, sent int) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(n))
	return append(b, bytes.Repeat([]byte{'x'}, sent)...)
}

// A peer that announces a 1 MiB frame and sends 100 bytes of it costs a small buffer,
// not the announced length: a thousand of them must not hold a gigabyte.
func TestReadFrameGrowsAsBytesArrive(t *testing.T) {
	const frames = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range frames {
		_, err := ReadFrame(bytes.NewReader(halfFrame(DefaultMaxFrameBytes, 100)), DefaultMaxFrameBytes, nil)
		if err != io.ErrUnexpectedEOF {
			t.Fatalf("half a frame: %v, want io.ErrUnexpectedEOF", err)
		}
	}
	runtime.ReadMemStats(&after)
	perFrame := (after.TotalAlloc - before.TotalAlloc) / frames
	if perFrame > 256<<10 {
		t.Errorf("a half-sent 1 MiB frame allocated %d bytes, want at most 256 KiB", perFrame)
	}
}

// A whole frame larger than the chunk arrives intact, in a buffer not much larger.
func TestReadFrameLargeWhole(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789"), 100_000) // 1 000 000 bytes
	frame := AppendFrame(nil, body)
	got, err := ReadFrame(trickleReader(frame), DefaultMaxFrameBytes, nil)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("large frame: %d bytes, %v", len(got), err)
	}
	if cap(got) > 2*len(body) {
		t.Errorf("buffer of %d bytes for a %d-byte frame", cap(got), len(body))
	}
	// A buffer large enough is reused.
	again, err := ReadFrame(bytes.NewReader(frame), DefaultMaxFrameBytes, got)
	if err != nil || &again[0] != &got[0] {
		t.Errorf("buffer not reused: %v", err)
	}
}

// trickleReader hands out at most 7 bytes per Read, as a slow
// socket would.
func trickleReader(b []byte) io.Reader { return &trickle{b: b} }

type trickle struct{ b []byte }

func (r *trickle) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 7)], r.b)
	r.b = r.b[n:]
	return n, nil
}

// BenchmarkReadFrameHalfSent reports the bytes one half-sent 1 MiB frame allocates.
func BenchmarkReadFrameHalfSent(b *testing.B) {
	frame := halfFrame(DefaultMaxFrameBytes, 100)
	b.ReportAllocs()
	for b.Loop() {
		ReadFrame(bytes.NewReader(frame), DefaultMaxFrameBytes, nil)
	}
}
