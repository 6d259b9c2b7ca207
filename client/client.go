// Package client is a synchronous client of the session socket for the agentmux
// commands and for tests: one goroutine dials, says HELLO, writes requests and reads
// until their answer, answering PINGs on the way. Frames that arrive meanwhile and
// answer nothing (DELIVER, X_EVENT) are kept for Read. It imports proto and hub (for
// the socket folder); it must not import ui, bubbletea or lipgloss.
package client

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/proto"
)

// Error is an ERROR, NACK or BUSY answer from the server.
type Error struct {
	Type    string // ERROR, NACK or BUSY
	Code    string
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s %s", e.Type, e.Code)
	}
	return e.Message
}

// Conn is one connection. It is not safe for concurrent use.
type Conn struct {
	nc      net.Conn
	r       *bufio.Reader
	buf     []byte
	next    int
	kept    []*proto.Envelope
	Welcome proto.Welcome
	// NoPong leaves PINGs to the caller (tests of the heartbeat).
	NoPong bool
}

// handshakeTimeout bounds HELLO and its answer: a socket that accepts and says nothing
// (not an agentmux session, or a hung one) is an error, not a hang.
var handshakeTimeout = 5 * time.Second

// ownUID is the user whose sockets the client trusts (a variable for tests).
var ownUID = os.Getuid()

// checkSocket refuses a socket another user could have made or replaced: path must be a
// socket (not a symlink to one) of this user, in a folder of this user that nobody else
// can write to (or a sticky one, where nobody else can remove it). A session's messages
// and the person's words go to whoever listens there.
func checkSocket(path string) error {
	st, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("connect %s: %w", path, err)
	}
	if st.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("connect %s: not a socket (%s): refused", path, st.Mode().Type())
	}
	if owner, ok := ownerOf(st); ok && owner != ownUID {
		return fmt.Errorf("connect %s: the socket belongs to user %d, not to you: refused", path, owner)
	}
	dir := filepath.Dir(path)
	dst, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("connect %s: %w", path, err)
	}
	sticky := dst.Mode()&os.ModeSticky != 0
	if owner, ok := ownerOf(dst); ok && owner != ownUID && owner != 0 && !sticky {
		return fmt.Errorf("connect %s: its folder belongs to user %d, not to you: refused", path, owner)
	}
	if dst.Mode().Perm()&0o022 != 0 && !sticky {
		return fmt.Errorf("connect %s: its folder %s can be written by other users (mode %04o): refused", path, dir, dst.Mode().Perm())
	}
	return nil
}

// ownerOf is the user owning the file st describes.
func ownerOf(st os.FileInfo) (int, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(sys.Uid), true
}

// DialRaw connects without a handshake, to a socket checked to be this user's.
func DialRaw(path string) (*Conn, error) {
	if err := checkSocket(path); err != nil {
		return nil, err
	}
	nc, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", path, err)
	}
	return &Conn{nc: nc, r: bufio.NewReaderSize(nc, 64<<10)}, nil
}

// Dial connects and says HELLO; it returns once WELCOME came (or the ERROR instead),
// or an error after 5 s without an answer.
func Dial(path string, hello proto.Hello) (*Conn, error) {
	return DialTimeout(path, hello, handshakeTimeout)
}

// DialTimeout is Dial with the handshake bounded by d instead.
func DialTimeout(path string, hello proto.Hello, d time.Duration) (*Conn, error) {
	c, err := DialRaw(path)
	if err != nil {
		return nil, err
	}
	c.nc.SetDeadline(time.Now().Add(d))
	if _, err := c.Write(proto.TypeHello, "", "", hello); err != nil {
		c.nc.Close()
		return nil, handshakeErr(path, d, err)
	}
	e, err := c.Read()
	if err != nil {
		err = handshakeErr(path, d, err)
	}
	if err == nil && e.Type != proto.TypeWelcome {
		err = answerErr(e)
		if err == nil {
			err = fmt.Errorf("expected WELCOME, got %s", e.Type)
		}
	}
	if err == nil {
		c.Welcome, err = proto.DecodePayload[proto.Welcome](e)
	}
	if err != nil {
		c.nc.Close()
		return nil, err
	}
	c.nc.SetDeadline(time.Time{})
	return c, nil
}

// handshakeErr says what a failed handshake means.
func handshakeErr(path string, d time.Duration, err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("connect %s: no answer to HELLO within %v: no agentmux session is serving this socket", path, d)
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("connect %s: the socket closed before the session answered HELLO", path)
	}
	return fmt.Errorf("connect %s: %w", path, err)
}

// DialControl dials as a control client (the agentmux commands) that speaks for no
// pane: the person.
func DialControl(path string) (*Conn, error) {
	return Dial(path, proto.Hello{Agent: "agentmux", Role: proto.RoleControl})
}

// DialPane dials as a control client that speaks for the pane whose proof (its
// $AGENTMUX_PROOF) is proof; "" is DialControl. A proof no live pane has is refused.
func DialPane(path, proof string) (*Conn, error) {
	return Dial(path, proto.Hello{Agent: "agentmux", Role: proto.RoleControl, Proof: proof})
}

// DialHere dials path as the pane this process runs in when path is the socket of
// its own session ($AGENTMUX_SOCKET) and it has the pane's proof ($AGENTMUX_PROOF);
// otherwise as DialControl. The proof is never sent to another session's socket.
func DialHere(path string) (*Conn, error) {
	return DialPane(path, HereProof(path))
}

// HereProof is the proof of the pane this process runs in, for path when path is its
// own session's socket ($AGENTMUX_SOCKET); "" otherwise, so the proof never reaches
// another session.
func HereProof(path string) string {
	if own := os.Getenv("AGENTMUX_SOCKET"); own == "" || own != path {
		return ""
	}
	return os.Getenv(ProofEnv)
}

// ProofEnv names the variable that holds a pane's proof in its processes.
const ProofEnv = "AGENTMUX_PROOF"

// Close says BYE and closes.
func (c *Conn) Close() error {
	c.Write(proto.TypeBye, "", "", proto.Bye{})
	return c.nc.Close()
}

// SetDeadline bounds every following read and write.
func (c *Conn) SetDeadline(t time.Time) error { return c.nc.SetDeadline(t) }

// Raw is the underlying connection (tests write bad bytes through it).
func (c *Conn) Raw() net.Conn { return c.nc }

// ErrTooLarge refuses a frame longer than the session takes, before it is written (the
// session would close the connection on it).
var ErrTooLarge = errors.New("too large for the session")

// WriteEnvelope writes e as one frame; one longer than the session's max_frame_bytes
// (WELCOME's; 1 MiB before it) is refused with ErrTooLarge and not written.
func (c *Conn) WriteEnvelope(e *proto.Envelope) error {
	body, err := proto.Encode(e)
	if err != nil {
		return err
	}
	limit := c.Welcome.Server.MaxFrameBytes
	if limit <= 0 {
		limit = proto.DefaultMaxFrameBytes
	}
	if len(body) > limit {
		return fmt.Errorf("%s of %d bytes as encoded: %w, which takes frames of up to %d bytes", e.Type, len(body), ErrTooLarge, limit)
	}
	return proto.WriteFrame(c.nc, body)
}

// Write writes a new envelope of type typ to to/topic with payload p, and returns its id.
func (c *Conn) Write(typ, to, topic string, p any) (string, error) {
	c.next++
	id := "c-" + strconv.Itoa(c.next)
	e, err := proto.New(typ, id, time.Now().UnixMilli(), p)
	if err != nil {
		return "", err
	}
	e.To, e.Topic = to, topic
	return id, c.WriteEnvelope(e)
}

// readFrame reads the next frame from the socket, answering PING unless NoPong.
func (c *Conn) readFrame() (*proto.Envelope, error) {
	for {
		body, err := proto.ReadFrame(c.r, proto.DefaultMaxFrameBytes, c.buf)
		if err != nil {
			return nil, err
		}
		c.buf = body
		e, err := proto.Decode(body)
		if err != nil {
			return nil, err
		}
		if e.Type == proto.TypePing && !c.NoPong {
			p, _ := proto.DecodePayload[proto.Ping](e)
			if _, err := c.Write(proto.TypePong, "", "", p); err != nil {
				return nil, err
			}
			continue
		}
		return e, nil
	}
}

// Read returns the next frame: first those kept while waiting for answers.
func (c *Conn) Read() (*proto.Envelope, error) {
	if len(c.kept) > 0 {
		e := c.kept[0]
		c.kept = c.kept[1:]
		return e, nil
	}
	return c.readFrame()
}

// answerRef is where an answer names its request.
type answerRef struct {
	AckID string `json:"ack_id"`
	Re    string `json:"re"`
	Fatal bool   `json:"fatal"`
}

// answers reports whether e answers the request id: ACK, NACK and BUSY name it in
// ack_id, X_RESULT and ERROR in re (a fatal ERROR answers whatever was asked), and SYNC
// answers RESUME.
func answers(e *proto.Envelope, id string) bool {
	switch e.Type {
	case proto.TypeAck, proto.TypeNack, proto.TypeBusy, proto.TypeResult, proto.TypeError:
		p, _ := proto.DecodePayload[answerRef](e)
		return p.AckID == id || p.Re == id || e.Type == proto.TypeError && p.Fatal
	case proto.TypeSync:
		return true
	}
	return false
}

// answerErr turns an ERROR, NACK or BUSY into an *Error (nil for other types).
func answerErr(e *proto.Envelope) error {
	switch e.Type {
	case proto.TypeError:
		p, _ := proto.DecodePayload[proto.Error](e)
		return &Error{Type: e.Type, Code: p.Code, Message: p.Message}
	case proto.TypeNack:
		p, _ := proto.DecodePayload[proto.Nack](e)
		return &Error{Type: e.Type, Code: p.Code, Message: p.Message}
	case proto.TypeBusy:
		p, _ := proto.DecodePayload[proto.Busy](e)
		return &Error{Type: e.Type, Code: "BUSY", Message: fmt.Sprintf("busy: %d messages waiting; retry after %d ms", p.QueueDepth, p.RetryAfterMs)}
	}
	return nil
}

// Call writes a request and reads until its answer, keeping other frames for Read. An
// ERROR, NACK or BUSY answer is returned as *Error with the envelope.
func (c *Conn) Call(typ, to, topic string, p any) (*proto.Envelope, error) {
	id, err := c.Write(typ, to, topic, p)
	if err != nil {
		return nil, err
	}
	for {
		e, err := c.readFrame()
		if err != nil {
			return nil, err
		}
		if !answers(e, id) {
			c.kept = append(c.kept, e)
			continue
		}
		return e, answerErr(e)
	}
}

// Send sends body to to (a name, a pane number or "*"); from names the sender on a
// control connection. It returns the stored message's id once the server queued it.
func (c *Conn) Send(from, to string, body string) (string, error) {
	return c.SendMeta(from, to, body, nil)
}

// SendMeta is Send with a payload_meta (a mode, a ttl, notices, a reminder's delay).
func (c *Conn) SendMeta(from, to string, body string, meta *proto.SendMeta) (string, error) {
	a, err := c.SendAck(from, to, body, meta)
	return a.MessageID, err
}

// SendAck is SendMeta returning the session's whole ACK: the message's id, and a note
// when there is something the sender should know of how it goes.
func (c *Conn) SendAck(from, to string, body string, meta *proto.SendMeta) (proto.Ack, error) {
	c.next++
	id := "c-" + strconv.Itoa(c.next)
	e, err := proto.New(proto.TypeSend, id, time.Now().UnixMilli(), proto.Send{Kind: proto.KindMessage, Body: body})
	if err != nil {
		return proto.Ack{}, err
	}
	e.From, e.To, e.PayloadMeta = from, to, meta
	if err := c.WriteEnvelope(e); err != nil {
		return proto.Ack{}, err
	}
	for {
		a, err := c.readFrame()
		if err != nil {
			return proto.Ack{}, err
		}
		if !answers(a, id) {
			c.kept = append(c.kept, a)
			continue
		}
		if err := answerErr(a); err != nil {
			return proto.Ack{}, err
		}
		return proto.DecodePayload[proto.Ack](a)
	}
}

// Request sends an extension request and returns its result.
func (c *Conn) Request(typ string, p any) (*proto.Result, error) {
	e, err := c.Call(typ, "", "", p)
	if err != nil {
		return nil, err
	}
	r, err := proto.DecodePayload[proto.Result](e)
	return &r, err
}

// Ack acknowledges a DELIVER.
func (c *Conn) Ack(d *proto.Envelope) error {
	var seq int64
	if d.Delivery != nil {
		seq = d.Delivery.Seq
	}
	_, err := c.Write(proto.TypeAck, "", "", proto.Ack{AckID: d.ID, Seq: seq})
	return err
}

// ErrNoSession means no session could be found to talk to.
var ErrNoSession = errors.New("no running agentmux session")

// Socket finds the socket to use: $AGENTMUX_SOCKET when session is "" and it is set;
// else session's socket (session "" means $AGENTMUX_SESSION, else the only running
// session). A session name is read in any case, as attach reads it: names that differ
// only in case cannot run side by side.
func Socket(session string) (string, error) {
	if session == "" {
		if s := os.Getenv("AGENTMUX_SOCKET"); s != "" {
			return s, nil
		}
		session = os.Getenv("AGENTMUX_SESSION")
	}
	dir, err := dirs.RuntimeDir()
	if err != nil {
		return "", err
	}
	if session != "" {
		p := dirs.SocketPath(dir, session)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		if ss, err := dirs.Sessions(dir); err == nil {
			for _, s := range ss {
				if strings.EqualFold(s.Name, session) {
					return s.Socket, nil
				}
			}
		}
		return "", fmt.Errorf("no session %q is running (agentmux sessions lists them; its socket would be %s)", session, p)
	}
	ss, err := dirs.Sessions(dir)
	if err != nil {
		return "", err
	}
	switch len(ss) {
	case 0:
		return "", ErrNoSession
	case 1:
		return ss[0].Socket, nil
	}
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Name
	}
	return "", fmt.Errorf("%d sessions are running (%s); name one with --session", len(ss), strings.Join(names, " "))
}
