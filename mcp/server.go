package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
)

// MaxWait is the longest a wait call blocks: MCP clients give up on a call after
// about a minute, so a wait that has nothing yet answers pending (with a token to
// call it again) well before that.
const MaxWait = 45 * time.Second

// Options configure a Server.
type Options struct {
	// Socket is the session socket's path.
	Socket string
	// Version is agentmux's version, told to the client at initialize.
	Version string
}

// Server is one MCP server on one session socket. Its tool calls may run at once:
// each has a socket connection of its own, and the event log is the one shared state.
type Server struct {
	socket string
	// proof is the pane's proof when the server runs in a pane of this very session
	// (client.HereProof); "" speaks as the person.
	proof string
	// caller says who the calls speak for, as members reports it.
	caller string
	// session is the session's name, from the events connection's WELCOME.
	session string
	// maxFrame is the socket's frame limit (WELCOME's max_frame_bytes).
	maxFrame int
	events   *client.Conn
	log      *eventLog
	done     chan struct{} // closed when follow returned
	// instance tells this process's wait tokens from another's.
	instance string
	sdk      *sdk.Server
	// gone is closed when the client's side of the transport closed: calls still
	// waiting give up.
	gone chan struct{}
	once sync.Once
}

// New connects to the session socket, subscribes to its events and declares the
// tools. Close ends it.
func New(opts Options) (*Server, error) {
	s := &Server{socket: opts.Socket, proof: client.HereProof(opts.Socket), log: newEventLog(), done: make(chan struct{}), gone: make(chan struct{})}
	ev, err := client.DialPane(s.socket, s.proof)
	if err != nil {
		return nil, err
	}
	if _, err := ev.Request(proto.TypeEvents, struct{}{}); err != nil {
		ev.Close()
		return nil, fmt.Errorf("follow the session's events: %w", err)
	}
	s.events = ev
	s.session = ev.Welcome.Session
	s.maxFrame = ev.Welcome.Server.MaxFrameBytes
	if s.maxFrame <= 0 {
		s.maxFrame = proto.DefaultMaxFrameBytes
	}
	s.caller = "the person (you)"
	if s.proof != "" {
		s.caller = "pane " + os.Getenv("AGENTMUX_NAME")
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	s.instance = hex.EncodeToString(b[:])
	go func() {
		defer close(s.done)
		follow(ev, s.log)
	}()
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "agentmux", Title: "agentmux session " + s.session, Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions})
	s.addTools()
	return s, nil
}

// instructions is what the server tells the client about itself at initialize.
const instructions = `agentmux runs several coding agents side by side, each in its own pane of one session. ` +
	`These tools reach the other agents of the session (and of its mesh): members lists them; send types a message ` +
	`into one (attributed to you); wait follows the message until it was confirmed, or until its recipient answered; ` +
	`read and history show what was said; capture shows a pane's screen.`

// Run serves the MCP client on t until it disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	err := s.sdk.Run(ctx, watchedTransport{Transport: t, gone: s.gone, once: &s.once})
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// Close ends the events connection and waits for its reader.
func (s *Server) Close() error {
	s.events.Raw().Close()
	<-s.done
	return nil
}

// dial opens a connection for one call, speaking for the same pane (or person) as
// the server, bounded by ctx's deadline.
func (s *Server) dial(ctx context.Context) (*client.Conn, error) {
	c, err := client.DialPane(s.socket, s.proof)
	if err != nil {
		if s.ended() {
			return nil, errEnded
		}
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	} else {
		c.SetDeadline(time.Now().Add(callTimeout))
	}
	return c, nil
}

// callTimeout bounds one request on the socket.
const callTimeout = 15 * time.Second

// ClientGone says the client closed its side (its input ended): calls still waiting
// give up now, and are answered with what they have.
func (s *Server) ClientGone() { s.once.Do(func() { close(s.gone) }) }

// errEnded answers a call once the session is gone.
var errEnded = errors.New("the session has ended")

// ended reports whether the session's events connection closed.
func (s *Server) ended() bool {
	_, _, _, ended := s.log.since(s.log.cursor())
	return ended
}

// schemaFor is the input schema of T, with enum lists for the named properties.
func schemaFor[T any](enums map[string][]any) *jsonschema.Schema {
	sc, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err))
	}
	for prop, vals := range enums {
		p := sc.Properties[prop]
		if p == nil {
			panic(fmt.Sprintf("schema of %T: no property %q", *new(T), prop))
		}
		p.Enum = vals
	}
	return sc
}
