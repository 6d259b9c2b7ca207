// Package attach owns the attach stream of the session socket, the wire by which a
// terminal attaches to a session server (its handshake and frames), and the thin client
// that runs on the person's terminal: a raw-mode pipe that sends the terminal's bytes and
// size to the server and writes what the server draws.
//
// attach imports proto (frames, envelopes) and tty (the terminal's restore sequence)
// only; it must not import ui, session or hub.
package attach

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/tty"
)

// The handshake: the first frame of a connection is an envelope of one of these types
// (instead of HELLO); the server answers ATTACHED (or ERROR) and, for ATTACH, the
// connection then carries stream frames.
const (
	// TypeAttach asks to attach a terminal (payload Request).
	TypeAttach = "ATTACH"
	// TypeAttached accepts it (payload Accepted).
	TypeAttached = "ATTACHED"
	// TypeKill asks the session to end (payload Kill); the server answers ATTACHED with
	// no stream and ends.
	TypeKill = "KILL_SESSION"
	// TypeClients asks for the attached clients (payload {}); the answer is CLIENTS
	// (payload ClientList) and the connection closes.
	TypeClients = "CLIENTS"
)

// Version is the attach stream's version, in Request and Accepted.
const Version = 1

// MaxFrame is the largest stream frame either side sends or accepts.
const MaxFrame = 64 << 10

// Request is ATTACH's payload: the stream version the client speaks, its terminal's size,
// and how it attaches.
type Request struct {
	Version      int  `json:"version"`
	Cols         int  `json:"cols"`
	Rows         int  `json:"rows"`
	ReadOnly     bool `json:"read_only,omitempty"`
	DetachOthers bool `json:"detach_others,omitempty"`
	// Acks says the client acknowledges the output it has written to its terminal (ack
	// frames), so the server may pace its output to the terminal's speed.
	Acks bool `json:"acks,omitempty"`
	// Terminal is what the terminal answered when the client probed it just before
	// (ui.TerminalInfo in its one-word form): the server then sets the terminal up
	// without asking it again, a round trip through the client saved at every start.
	// Empty: the server probes the terminal through the stream.
	Terminal string `json:"terminal,omitempty"`
}

// Validate checks the version and the size.
func (r *Request) Validate() error {
	if r.Version != Version {
		return fmt.Errorf("attach version %d, this server speaks %d", r.Version, Version)
	}
	if r.Cols < 1 || r.Rows < 1 || r.Cols > 10000 || r.Rows > 10000 {
		return fmt.Errorf("terminal size %dx%d out of range", r.Cols, r.Rows)
	}
	r.Cols, r.Rows = min(r.Cols, MaxCols), min(r.Rows, MaxRows)
	return nil
}

// MaxCols and MaxRows bound the terminal size a session draws for: tty's.
const MaxCols, MaxRows = tty.MaxCols, tty.MaxRows

// Accepted is ATTACHED's payload: the stream version and the session's name.
type Accepted struct {
	Version int    `json:"version"`
	Session string `json:"session"`
	// Acks says the server paces its output to the client's ack frames: the client sends
	// them only then (a server that predates them would refuse the frame).
	Acks bool `json:"acks,omitempty"`
}

// Client is one attached terminal in CLIENTS' answer.
type Client struct {
	ID       int    `json:"id"`
	Cols     int    `json:"cols"`
	Rows     int    `json:"rows"`
	ReadOnly bool   `json:"read_only,omitempty"`
	Control  bool   `json:"control,omitempty"`
	Since    string `json:"since"` // RFC 3339
}

// ClientList is CLIENTS' payload: the attached clients and the server's process id.
type ClientList struct {
	Clients []Client `json:"clients"`
	Pid     int      `json:"pid"`
	// Isolation says how the session tells its panes' processes from the person's
	// (proto.IsolationUserNS, or proto.IsolationLineage: best effort).
	Isolation string `json:"isolation,omitempty"`
}

// Stream frames: the first byte of the frame's body says what it is.
const (
	// Client to server.
	KindInput  = 'i' // the terminal's bytes: keys, pastes, mouse, answers to queries
	KindResize = 'r' // the terminal's new size: two big-endian uint16, columns then rows
	KindDetach = 'd' // detach me
	KindAck    = 'a' // output written to the terminal: its byte count, a big-endian uint32
	// Server to client.
	KindOutput = 'o' // bytes for the terminal
	KindEnd    = 'e' // the stream ends: a Reason word, a space, then a message
)

// Reason says why a stream ended (in KindEnd).
type Reason string

// The reasons a stream ends.
const (
	ReasonDetached Reason = "detached" // the person detached (or the terminal went away)
	ReasonReplaced Reason = "replaced" // another client attached with -d
	ReasonEnded    Reason = "ended"    // the session ended: the message's first line says why, each other a worktree kept
	ReasonError    Reason = "error"    // the server refused the stream (a bad frame)
)

// ErrBadFrame is returned for a stream frame that is empty, of an unknown kind or of
// the wrong length.
var ErrBadFrame = errors.New("bad attach frame")

// Frame is one decoded stream frame.
type Frame struct {
	Kind       byte
	Data       []byte // input or output bytes; the end's message
	Cols, Rows int    // resize
	Acked      int    // ack: output bytes written to the terminal
	Reason     Reason // end
}

// Decode decodes one stream frame's body (Data aliases body).
func Decode(body []byte) (Frame, error) {
	if len(body) == 0 {
		return Frame{}, fmt.Errorf("%w: empty", ErrBadFrame)
	}
	f := Frame{Kind: body[0]}
	rest := body[1:]
	switch f.Kind {
	case KindInput, KindOutput:
		f.Data = rest
	case KindResize:
		if len(rest) != 4 {
			return Frame{}, fmt.Errorf("%w: resize of %d bytes", ErrBadFrame, len(rest))
		}
		f.Cols, f.Rows = int(binary.BigEndian.Uint16(rest)), int(binary.BigEndian.Uint16(rest[2:]))
		if f.Cols < 1 || f.Rows < 1 {
			return Frame{}, fmt.Errorf("%w: size %dx%d", ErrBadFrame, f.Cols, f.Rows)
		}
		f.Cols, f.Rows = min(f.Cols, MaxCols), min(f.Rows, MaxRows)
	case KindAck:
		if len(rest) != 4 {
			return Frame{}, fmt.Errorf("%w: ack of %d bytes", ErrBadFrame, len(rest))
		}
		f.Acked = int(binary.BigEndian.Uint32(rest))
		if f.Acked < 1 || f.Acked > MaxFrame {
			return Frame{}, fmt.Errorf("%w: ack of %d output bytes", ErrBadFrame, f.Acked)
		}
	case KindDetach:
		if len(rest) != 0 {
			return Frame{}, fmt.Errorf("%w: detach with %d bytes", ErrBadFrame, len(rest))
		}
	case KindEnd:
		reason, msg, _ := strings.Cut(string(rest), " ")
		f.Reason, f.Data = Reason(reason), []byte(msg)
	default:
		return Frame{}, fmt.Errorf("%w: kind %q", ErrBadFrame, f.Kind)
	}
	return f, nil
}

// Input is the body of an input frame.
func Input(b []byte) []byte { return append([]byte{KindInput}, b...) }

// AppendOutput appends b to dst as whole output frames (header and body), each carrying
// at most MaxFrame-1 bytes of b: a terminal's write goes out as one write of the
// connection, with no body built on its own.
func AppendOutput(dst, b []byte) []byte {
	for len(b) > 0 {
		k := min(len(b), MaxFrame-1)
		dst = binary.BigEndian.AppendUint32(dst, uint32(1+k))
		dst = append(dst, KindOutput)
		dst = append(dst, b[:k]...)
		b = b[k:]
	}
	return dst
}

// AppendAcks appends to dst the ack frames (header and body) for n output bytes written
// to the terminal: one frame per MaxFrame bytes, as an ack frame counts at most that.
func AppendAcks(dst []byte, n int) []byte {
	for n > 0 {
		k := min(n, MaxFrame)
		dst = binary.BigEndian.AppendUint32(dst, 5)
		dst = append(dst, KindAck)
		dst = binary.BigEndian.AppendUint32(dst, uint32(k))
		n -= k
	}
	return dst
}

// Resize is the body of a resize frame (sizes above 65535 are cut to it).
func Resize(cols, rows int) []byte {
	b := []byte{KindResize}
	b = binary.BigEndian.AppendUint16(b, uint16(min(max(cols, 1), 65535)))
	return binary.BigEndian.AppendUint16(b, uint16(min(max(rows, 1), 65535)))
}

// Ack is the body of an ack frame for n output bytes written to the terminal (one output
// frame's data: 1..MaxFrame).
func Ack(n int) []byte {
	return binary.BigEndian.AppendUint32([]byte{KindAck}, uint32(min(max(n, 1), MaxFrame)))
}

// Detach is the body of a detach frame.
func Detach() []byte { return []byte{KindDetach} }

// End is the body of an end frame.
func End(r Reason, msg string) []byte { return []byte(string(KindEnd) + string(r) + " " + msg) }

// envelope builds a handshake envelope's frame body.
func envelope(typ string, payload any) ([]byte, error) {
	e, err := proto.New(typ, "attach-1", time.Now().UnixMilli(), payload)
	if err != nil {
		return nil, err
	}
	return proto.Encode(e)
}

// Handshake returns the body of a first frame of type typ with payload.
func Handshake(typ string, payload any) ([]byte, error) { return envelope(typ, payload) }

// Kill is KILL_SESSION's payload: Keep asks that agentmux restore still offer the
// session (it is not offered after the person ended it otherwise).
type Kill struct {
	Keep bool `json:"keep,omitempty"`
}
