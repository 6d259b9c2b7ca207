package proto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Version is the protocol version every envelope carries in "v".
const Version = 1

// Envelope is one message on the wire. Payload stays raw until the receiver knows the
// type; PayloadMeta and Delivery sit beside it as in agent-relay (SEND and DELIVER).
// Unknown fields are ignored when decoding.
type Envelope struct {
	V           int             `json:"v"`
	Type        string          `json:"type"`
	ID          string          `json:"id"`
	TS          int64           `json:"ts"`
	From        string          `json:"from,omitempty"`
	To          string          `json:"to,omitempty"`
	Topic       string          `json:"topic,omitempty"`
	Payload     json.RawMessage `json:"payload"`
	PayloadMeta *SendMeta       `json:"payload_meta,omitempty"`
	Delivery    *Delivery       `json:"delivery,omitempty"`
}

// ErrInvalid wraps every validation failure of Decode and DecodePayload: the frame is
// bad input, answered with ERROR code BAD_REQUEST.
var ErrInvalid = errors.New("invalid envelope")

// wireEnvelope detects missing required fields: pointers stay nil when absent.
type wireEnvelope struct {
	V           *int            `json:"v"`
	Type        *string         `json:"type"`
	ID          *string         `json:"id"`
	TS          *int64          `json:"ts"`
	From        string          `json:"from"`
	To          string          `json:"to"`
	Topic       string          `json:"topic"`
	Payload     json.RawMessage `json:"payload"`
	PayloadMeta *SendMeta       `json:"payload_meta"`
	Delivery    *Delivery       `json:"delivery"`
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// isObject reports whether raw JSON text is an object (after leading white space).
func isObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

// Decode parses and validates one frame body: valid UTF-8, a JSON object, v == 1, a
// non-empty type and id, a ts, and a payload that is an object. It does not check that
// the type is known (the receiver answers unknown types) nor the payload's fields
// (DecodePayload does). The envelope does not alias body.
func Decode(body []byte) (*Envelope, error) {
	if !utf8.Valid(body) {
		return nil, invalid("not UTF-8")
	}
	if !isObject(body) {
		return nil, invalid("not a JSON object")
	}
	var w wireEnvelope
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, invalid("%v", err)
	}
	switch {
	case w.V == nil:
		return nil, invalid("missing field v")
	case *w.V != Version:
		return nil, invalid("unsupported version v=%d (this server speaks v=%d)", *w.V, Version)
	case w.Type == nil || *w.Type == "":
		return nil, invalid("missing field type")
	case w.ID == nil || *w.ID == "":
		return nil, invalid("missing field id")
	case w.TS == nil:
		return nil, invalid("missing field ts")
	case w.Payload == nil:
		return nil, invalid("missing field payload")
	case !isObject(w.Payload):
		return nil, invalid("payload is not an object")
	}
	return &Envelope{
		V: *w.V, Type: *w.Type, ID: *w.ID, TS: *w.TS,
		From: w.From, To: w.To, Topic: w.Topic,
		Payload: w.Payload, PayloadMeta: w.PayloadMeta, Delivery: w.Delivery,
	}, nil
}

// Encode returns the JSON body of e (not framed). A nil payload is sent as {}.
func Encode(e *Envelope) ([]byte, error) {
	if e.Payload == nil {
		c := *e
		c.Payload = json.RawMessage("{}")
		e = &c
	}
	return json.Marshal(e)
}

// New returns an envelope of type typ with id and ts, its payload p marshalled.
func New(typ, id string, ts int64, p any) (*Envelope, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encode %s payload: %w", typ, err)
	}
	return &Envelope{V: Version, Type: typ, ID: id, TS: ts, Payload: raw}, nil
}

// Validator is implemented by payloads with required fields.
type Validator interface {
	Validate() error
}

// DecodePayload unmarshals e's payload into a T and validates it when T is a Validator.
// Errors wrap ErrInvalid and name the type.
func DecodePayload[T any](e *Envelope) (T, error) {
	var p T
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return p, invalid("%s payload: %v", e.Type, err)
	}
	if v, ok := any(&p).(Validator); ok {
		if err := v.Validate(); err != nil {
			return p, invalid("%s payload: %v", e.Type, err)
		}
	}
	return p, nil
}
