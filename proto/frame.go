// Package proto owns the wire of the session socket: frames (a 4-byte big-endian
// length, then that many bytes of UTF-8 JSON, always an object), the v1 envelope of the
// relay protocol, its message types and payloads, and the agentmux extension types.
// It is pure encoding and validation: no I/O beyond the reader and writer it is given,
// no clock, no state. It must not import anything of the project, nor bubbletea or
// lipgloss.
package proto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
)

// DefaultMaxFrameBytes is the largest frame accepted unless configured otherwise (1 MiB).
const DefaultMaxFrameBytes = 1 << 20

// ErrFrameTooLarge is returned by ReadFrame when the announced length is over the limit;
// the frame's bytes are not read.
var ErrFrameTooLarge = errors.New("frame over max_frame_bytes")

// ErrEmptyFrame is returned by ReadFrame for a frame of length 0 (not a JSON object).
var ErrEmptyFrame = errors.New("empty frame")

// frameChunk is how much of a frame ReadFrame allocates ahead of the bytes arriving.
const frameChunk = 64 << 10

// readHeader reads a frame's length and checks it: not above limit, not zero. A stream
// that ends before it gives io.EOF.
func readHeader(r io.Reader, limit int) (int, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if uint64(n) > uint64(limit) {
		return 0, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, limit)
	}
	if n == 0 {
		return 0, ErrEmptyFrame
	}
	return int(n), nil
}

// ReadFrame reads one frame from r into buf (reused when large enough) and returns its
// body. The length is checked against limit before anything is allocated, and a frame
// larger than buf is grown as its bytes arrive (at most frameChunk, or what was already
// read, ahead of them), so a peer announcing a large frame and sending little of it holds
// little memory. A stream that ends between frames gives io.EOF; one that ends inside a
// frame gives io.ErrUnexpectedEOF.
func ReadFrame(r io.Reader, limit int, buf []byte) ([]byte, error) {
	size, err := readHeader(r, limit)
	if err != nil {
		return nil, err
	}
	if cap(buf) >= size {
		buf = buf[:size]
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, unexpected(err)
		}
		return buf, nil
	}
	buf = buf[:0]
	for len(buf) < size {
		have := len(buf)
		want := min(size-have, max(frameChunk, have))
		buf = slices.Grow(buf, want)[:have+want]
		if _, err := io.ReadFull(r, buf[have:]); err != nil {
			return nil, unexpected(err)
		}
	}
	return buf, nil
}

// unexpected turns io.EOF inside a frame into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// AppendFrame appends the frame for body (header and body) to dst.
func AppendFrame(dst, body []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(body)))
	return append(dst, body...)
}

// WriteFrame writes body as one frame with a single Write.
func WriteFrame(w io.Writer, body []byte) error {
	_, err := w.Write(AppendFrame(make([]byte, 0, 4+len(body)), body))
	return err
}
