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
)

// DefaultMaxFrameBytes is the largest frame accepted unless configured otherwise (1 MiB).
const DefaultMaxFrameBytes = 1 << 20

// ErrFrameTooLarge is returned by ReadFrame when the announced length is over the limit;
// the frame's bytes are not read.
var ErrFrameTooLarge = errors.New("frame over max_frame_bytes")

// ErrEmptyFrame is returned by ReadFrame for a frame of length 0 (not a JSON object).
var ErrEmptyFrame = errors.New("empty frame")

// ReadFrame reads one frame from r into buf (grown as needed, reused when large enough)
// and returns its body. The length is checked against max before anything is allocated,
// so memory per connection stays bounded by max. A stream that ends between frames gives
// io.EOF; one that ends inside a frame gives io.ErrUnexpectedEOF.
func ReadFrame(r io.Reader, max int, buf []byte) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if uint64(n) > uint64(max) {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, max)
	}
	if n == 0 {
		return nil, ErrEmptyFrame
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
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
