package hub

import (
	"errors"
	"strconv"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// handler answers one frame of a connection's, on the loop.
type handler func(s *state, cs *connState, e *proto.Envelope)

// handlers is the socket's dispatch: one handler a frame type a client sends
// (proto.ClientTypes); frame answers any other type with UNKNOWN_TYPE. The requests
// of the agentmux extension (X_…) go through ask, which answers X_RESULT or ERROR.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		proto.TypeHello:       (*state).hello,
		proto.TypeResume:      (*state).resume,
		proto.TypeSend:        (*state).sendIn,
		proto.TypeAck:         (*state).ack,
		proto.TypeNack:        (*state).nack,
		proto.TypePing:        (*state).ping,
		proto.TypePong:        func(*state, *connState, *proto.Envelope) {}, // any frame proves the peer alive: the reader's deadline moved already
		proto.TypeBye:         (*state).bye,
		proto.TypeSubscribe:   (*state).subscribe,
		proto.TypeUnsubscribe: (*state).subscribe,
		proto.TypeEvents:      (*state).subscribeEvents,
		proto.TypeMesh:        (*state).listMesh,
		proto.TypeList:        ask((*state).xList),
		proto.TypeCapture:     ask((*state).xCapture),
		proto.TypeHistory:     ask((*state).xHistory),
		proto.TypeRead:        ask((*state).xRead),
		proto.TypeHook:        ask((*state).xHook),
		proto.TypeAnswer:      ask((*state).xAnswer),
		proto.TypeWeb:         ask((*state).xWeb),
		proto.TypeLink:        ask((*state).xRelay),
		proto.TypeUnlink:      ask((*state).xRelay),
		proto.TypeHold:        ask((*state).xRelay),
		proto.TypeRelease:     ask((*state).xRelay),
		proto.TypeNew:         ask(paneRequest(xNew)),
		proto.TypeRespawn:     ask(paneRequest(xRespawn)),
		proto.TypeRename:      ask(paneRequest(xRename)),
		proto.TypeType:        ask(paneRequest(xType)),
		proto.TypeResize:      ask(paneRequest(xResize)),
		proto.TypeDiff:        ask(paneRequest(xDiff)),
	}
}

// frame dispatches one frame of cs's: HELLO (or RESUME) first, then by its type.
func (s *state) frame(cs *connState, e *proto.Envelope) {
	if !cs.hello && e.Type != proto.TypeHello && e.Type != proto.TypeResume {
		s.fatal(cs, proto.CodeBadRequest, "the first frame must be HELLO (or RESUME), not "+e.Type, e.ID)
		return
	}
	h, ok := handlers[e.Type]
	if !ok {
		// Agent-relay clients send types this server does not implement (LOG,
		// SHADOW_BIND…): say so and carry on.
		s.fail(cs, proto.CodeUnknownType, "unknown message type "+strconv.Quote(e.Type), e.ID)
		return
	}
	h(s, cs, e)
}

// request answers an extension request: it fills res, or returns why it cannot
// (errAnswered: it has answered already).
type request func(s *state, cs *connState, e *proto.Envelope, res *proto.Result) error

// errAnswered says a request's handler answered it itself (a payload that does not
// validate closes the connection).
var errAnswered = errors.New("answered")

// codedError is a request's error with the ERROR code it is answered with.
type codedError struct {
	code string
	err  error
}

func (c codedError) Error() string { return c.err.Error() }
func (c codedError) Unwrap() error { return c.err }

// ask makes the handler of request r: the store flushed first (the store answers with
// every phase recorded so far), then X_RESULT with what r put in it, or a non-fatal
// ERROR with r's error.
func ask(r request) handler {
	return func(s *state, cs *connState, e *proto.Envelope) {
		s.flush()
		res := proto.Result{Re: e.ID}
		err := r(s, cs, e, &res)
		if errors.Is(err, errAnswered) {
			return
		}
		if err != nil {
			s.fail(cs, errorCode(e.Type, err), err.Error(), e.ID)
			return
		}
		s.reply(cs, proto.TypeResult, res)
	}
}

// errorCode is the ERROR code of a request of type typ that failed with err: a
// codedError's own; NOT_FOUND for a message the store does not have; INTERNAL for
// X_HISTORY's other failures (the store's); BAD_REQUEST for the rest.
func errorCode(typ string, err error) string {
	var c codedError
	switch {
	case errors.As(err, &c):
		return c.code
	case errors.Is(err, store.ErrNotFound):
		return proto.CodeNotFound
	case errors.Is(err, errNoCore), errors.Is(err, errNoWeb), typ != proto.TypeHistory:
		return proto.CodeBadRequest
	}
	return proto.CodeInternal
}

// payload decodes e's payload as a T; one that does not validate closes cs
// (errAnswered).
func payload[T any](s *state, cs *connState, e *proto.Envelope) (T, error) {
	p, err := proto.DecodePayload[T](e)
	if err != nil {
		s.badPayload(cs, e, err)
		return p, errAnswered
	}
	return p, nil
}

// ping answers PING with PONG, carrying its payload back.
func (s *state) ping(cs *connState, e *proto.Envelope) {
	p, _ := proto.DecodePayload[proto.Ping](e)
	s.reply(cs, proto.TypePong, p)
}

// bye answers BYE with BYE and lets cs go.
func (s *state) bye(cs *connState, _ *proto.Envelope) {
	s.reply(cs, proto.TypeBye, proto.Bye{})
	s.close(cs, errors.New("BYE"))
	s.left(cs)
}

// subscribeEvents answers X_EVENTS: from here on cs gets every event, the first of them
// "subscribed", so a script knows nothing is missed after it.
func (s *state) subscribeEvents(cs *connState, e *proto.Envelope) {
	s.flush()
	cs.events = true
	s.reply(cs, proto.TypeResult, proto.Result{Re: e.ID})
	s.eventTo(cs, proto.Event{Kind: proto.EventSubscribed})
}
