// Tests of the wire: frames round-trip and fail on every malformed stream with the
// sentinel a server needs (too large, empty, cut mid-frame); Decode accepts what an
// agent-relay 1.0.7 client sends (extra fields ignored) and rejects each kind of bad
// envelope with ErrInvalid; FuzzFrames feeds arbitrary bytes through both and checks no
// panic and no frame over the limit.
package proto

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteFrame(&buf, []byte(`{"a":1}`)))
	require.NoError(t, WriteFrame(&buf, []byte(`{"b":2}`)))
	require.Equal(t, []byte{0, 0, 0, 7}, buf.Bytes()[:4])
	got, err := ReadFrame(&buf, 100, nil)
	require.NoError(t, err)
	assert.Equal(t, `{"a":1}`, string(got))
	got, err = ReadFrame(&buf, 100, got)
	require.NoError(t, err)
	assert.Equal(t, `{"b":2}`, string(got))
	_, err = ReadFrame(&buf, 100, nil)
	assert.Equal(t, io.EOF, err)
}

func TestFrameErrors(t *testing.T) {
	big := binary.BigEndian.AppendUint32(nil, 1<<30)
	_, err := ReadFrame(bytes.NewReader(big), DefaultMaxFrameBytes, nil)
	assert.ErrorIs(t, err, ErrFrameTooLarge)

	_, err = ReadFrame(bytes.NewReader([]byte{0, 0, 0, 0}), 100, nil)
	assert.ErrorIs(t, err, ErrEmptyFrame)

	cut := append(binary.BigEndian.AppendUint32(nil, 10), `{"v":`...)
	_, err = ReadFrame(bytes.NewReader(cut), 100, nil)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)

	_, err = ReadFrame(bytes.NewReader([]byte{0, 0}), 100, nil)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

func TestDecodeAgentRelayClient(t *testing.T) {
	// What agent-relay 1.0.7's RelayClient sends: HELLO with cli/program/… and
	// SEND with payload_meta beside the payload, plus a field nobody knows.
	hello := `{"v":1,"type":"HELLO","id":"u1","ts":1734440000000,"payload":{"agent":"claude-1","cli":"claude",
	"program":"claude","workingDirectory":"/tmp","capabilities":{"ack":true,"resume":true,"max_inflight":256,"supports_topics":true}},"extra":[1,2]}`
	e, err := Decode([]byte(hello))
	require.NoError(t, err)
	h, err := DecodePayload[Hello](e)
	require.NoError(t, err)
	assert.Equal(t, "claude-1", h.Agent)
	assert.Equal(t, "claude", h.CLI)
	assert.Equal(t, 256, h.Capabilities.MaxInflight)

	send := `{"v":1,"type":"SEND","id":"m-001","ts":1,"to":"codex-1","topic":"chat",
	"payload":{"kind":"message","body":"Your turn","data":{"x":1},"thread":"t1"},"payload_meta":{"requires_ack":true,"ttl_ms":60000}}`
	e, err = Decode([]byte(send))
	require.NoError(t, err)
	assert.Equal(t, "codex-1", e.To)
	assert.Equal(t, "chat", e.Topic)
	require.NotNil(t, e.PayloadMeta)
	assert.Equal(t, int64(60000), e.PayloadMeta.TTLMs)
	s, err := DecodePayload[Send](e)
	require.NoError(t, err)
	assert.Equal(t, "Your turn", s.Body)
	assert.JSONEq(t, `{"x":1}`, string(s.Data))
}

func TestDecodeRejects(t *testing.T) {
	for name, body := range map[string]string{
		"garbage":         "\x00\xffnot json",
		"not utf8":        "{\"v\":1,\"type\":\"\xff\"}",
		"array":           `[1,2,3]`,
		"string":          `"HELLO"`,
		"null":            `null`,
		"number":          `1`,
		"truncated":       `{"v":1,"type":"HELLO"`,
		"wrong v":         `{"v":2,"type":"HELLO","id":"a","ts":1,"payload":{}}`,
		"v as string":     `{"v":"1","type":"HELLO","id":"a","ts":1,"payload":{}}`,
		"missing v":       `{"type":"HELLO","id":"a","ts":1,"payload":{}}`,
		"missing type":    `{"v":1,"id":"a","ts":1,"payload":{}}`,
		"empty type":      `{"v":1,"type":"","id":"a","ts":1,"payload":{}}`,
		"missing id":      `{"v":1,"type":"HELLO","ts":1,"payload":{}}`,
		"missing ts":      `{"v":1,"type":"HELLO","id":"a","payload":{}}`,
		"missing payload": `{"v":1,"type":"HELLO","id":"a","ts":1}`,
		"payload array":   `{"v":1,"type":"HELLO","id":"a","ts":1,"payload":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Decode([]byte(body))
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
		})
	}
}

func TestDecodePayloadRejects(t *testing.T) {
	for name, tc := range map[string]struct{ typ, payload string }{
		"hello without agent": {TypeHello, `{"capabilities":{}}`},
		"hello bad role":      {TypeHello, `{"agent":"a","x_role":"root"}`},
		"send bad kind":       {TypeSend, `{"kind":"shout","body":"x"}`},
		"send body number":    {TypeSend, `{"body":5}`},
		"ack without id":      {TypeAck, `{"seq":1}`},
		"resume without id":   {TypeResume, `{"agent":"a"}`},
		"capture no target":   {TypeCapture, `{"lines":3}`},
	} {
		t.Run(name, func(t *testing.T) {
			e := &Envelope{V: 1, Type: tc.typ, ID: "x", Payload: []byte(tc.payload)}
			var err error
			switch tc.typ {
			case TypeHello:
				_, err = DecodePayload[Hello](e)
			case TypeSend:
				_, err = DecodePayload[Send](e)
			case TypeAck:
				_, err = DecodePayload[Ack](e)
			case TypeResume:
				_, err = DecodePayload[Resume](e)
			case TypeCapture:
				_, err = DecodePayload[Capture](e)
			}
			assert.ErrorIs(t, err, ErrInvalid)
		})
	}
	// An empty kind is a message.
	s, err := DecodePayload[Send](&Envelope{Type: TypeSend, Payload: []byte(`{"body":"hi"}`)})
	require.NoError(t, err)
	assert.Equal(t, KindMessage, s.Kind)
}

func TestEncodeDecode(t *testing.T) {
	e, err := New(TypeDeliver, "m1", 5, Send{Kind: KindMessage, Body: "hello"})
	require.NoError(t, err)
	e.From, e.To = "alice", "bob"
	e.Delivery = &Delivery{Seq: 3, SessionID: "s"}
	body, err := Encode(e)
	require.NoError(t, err)
	got, err := Decode(body)
	require.NoError(t, err)
	assert.Equal(t, e.Delivery, got.Delivery)
	assert.Equal(t, "alice", got.From)
	body, err = Encode(&Envelope{V: 1, Type: TypeBye, ID: "b", TS: 1})
	require.NoError(t, err)
	assert.Contains(t, string(body), `"payload":{}`)
}

// FuzzFrames reads frames from arbitrary bytes with a small limit and decodes each: no
// panic, no frame longer than the limit, every failure one of the known kinds.
func FuzzFrames(f *testing.F) {
	f.Add(AppendFrame(nil, []byte(`{"v":1,"type":"HELLO","id":"a","ts":1,"payload":{"agent":"x"}}`)))
	f.Add(AppendFrame(nil, []byte(`[1]`)))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, '{'})
	f.Add([]byte{0, 0, 0, 3, '{', '}'})
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 256
		r := bytes.NewReader(data)
		var buf []byte
		for {
			body, err := ReadFrame(r, limit, buf)
			if err != nil {
				if !(err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrFrameTooLarge) || errors.Is(err, ErrEmptyFrame)) {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if len(body) > limit {
				t.Fatalf("frame of %d bytes over limit", len(body))
			}
			buf = body
			e, err := Decode(body)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("decode error not ErrInvalid: %v", err)
				}
				continue
			}
			if e.V != Version || e.Type == "" || e.ID == "" || !isObject(e.Payload) {
				t.Fatalf("accepted invalid envelope %+v", e)
			}
			_, _ = DecodePayload[Send](e)
			_, _ = DecodePayload[Hello](e)
		}
	})
}
