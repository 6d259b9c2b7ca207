package hub

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// An X_RESULT must fit the frame limit the server announces, however large the stored
// messages are: X_HISTORY answers a page that fits (older messages through x_next), and
// X_READ a body in parts (x_next_offset).

// resultOverhead is room kept in a frame for the envelope and the result's other
// fields; the request id is counted on top (escaped, at worst 6 bytes a byte).
const resultOverhead = 512

// minBudget keeps a page making progress even when a request id eats the frame.
const minBudget = 4 << 10

// budget is how many bytes of messages an answer to request id may carry.
func (s *state) budget(id string) int {
	return max(s.cfg.MaxFrameBytes-resultOverhead-6*len(id), minBudget)
}

// jsonSize is the length of v as the envelope will carry it.
func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// jsonRuneSize is how many bytes encoding/json writes for rune r of size bytes in a
// string (HTML-escaped, as json.Marshal does).
func jsonRuneSize(r rune, size int) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20 || r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029:
		return 6
	case r == utf8.RuneError && size == 1:
		return 6 // \ufffd
	}
	return size
}

// fit returns the longest prefix of body, ending on a character, whose JSON string text
// is at most room bytes; at least one character, so that reading in parts progresses.
func fit(body string, room int) string {
	used := 0
	for i, r := range body {
		size := utf8.RuneLen(r)
		if r == utf8.RuneError {
			_, size = utf8.DecodeRuneInString(body[i:])
		}
		used += jsonRuneSize(r, size)
		if used > room {
			if i == 0 {
				return body[:size]
			}
			return body[:i]
		}
	}
	return body
}

// historyPage turns ms (oldest first) into the newest messages that fit one answer to
// request id, oldest first, and the cursor for the older ones that did not (0: none).
// A single message too large for a frame is cut (x_cut; X_READ gives it whole).
func (s *state) historyPage(id string, ms []store.Message) ([]proto.Message, int64) {
	budget := s.budget(id)
	out := make([]proto.Message, 0, len(ms))
	used, first := 0, len(ms)
	for i := len(ms) - 1; i >= 0; i-- {
		w := WireMessage(ms[i])
		size := jsonSize(w) + 1 // and a comma
		if used+size > budget {
			if len(out) > 0 {
				break
			}
			w = cutMessage(w, budget)
			size = jsonSize(w) + 1
		}
		out = append(out, w)
		used += size
		first = i
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	if first > 0 {
		return out, ms[first].Row
	}
	return out, 0
}

// cutMessage cuts w's body (and drops its data when that alone is too large) so that it
// fits room bytes.
func cutMessage(w proto.Message, room int) proto.Message {
	body := w.Body
	w.Body, w.Cut, w.BodyBytes = "", true, max(w.BodyBytes, len(body))
	if jsonSize(w) > room/2 {
		w.Data = nil
	}
	w.Body = fit(body, room-jsonSize(w))
	return w
}

// readPage answers X_READ for message rows ms from byte offset of the body: the whole
// message and its rows when they fit one frame; otherwise message carries the part of
// the body from offset that fits (data with the first part), the rows carry no body
// (x_cut), and next is where the rest starts (0: nothing left).
func (s *state) readPage(id string, ms []store.Message, offset int) (msg *proto.Message, rows []proto.Message, next int, err error) {
	rows = make([]proto.Message, len(ms))
	for i, m := range ms {
		rows[i] = WireMessage(m)
	}
	body := ms[0].Body
	if offset < 0 || offset > len(body) {
		return nil, nil, 0, fmt.Errorf("offset %d: the body has %d bytes", offset, len(body))
	}
	budget := s.budget(id)
	if offset == 0 && 2*jsonSize(rows[0])+jsonSize(rows) <= budget {
		return &rows[0], rows, 0, nil
	}
	for i := range rows {
		rows[i].Body, rows[i].Data, rows[i].Cut, rows[i].BodyBytes = "", nil, true, len(body)
	}
	m := rows[0]
	m.BodyBytes = len(body)
	if offset > 0 {
		m.Data = nil
	} else {
		m.Data = json.RawMessage(ms[0].Data)
		if ms[0].Data == "" {
			m.Data = nil
		}
	}
	room := budget - jsonSize(rows) - jsonSize(m)
	if room < minBudget && m.Data != nil {
		m.Data = nil // data too large beside the rows: the first part goes without it
		room = budget - jsonSize(rows) - jsonSize(m)
	}
	m.Body = fit(body[offset:], max(room, 1))
	m.Cut = offset > 0 || offset+len(m.Body) < len(body)
	if end := offset + len(m.Body); end < len(body) {
		next = end
	}
	return &m, rows, next, nil
}

// fitsDeliver checks that the DELIVER of SEND e (payload p, from from) to the client
// members among ts fits max_frame_bytes: the server encodes it anew (with its own
// escaping, '<' as \u003c: six bytes where the client may have sent one), so a SEND
// within the limit can make a DELIVER over it, which the member could never read and
// would be sent again for ever. Panes are typed, not framed, and take any length.
func (s *state) fitsDeliver(e *proto.Envelope, from string, p proto.Send, ts []target) error {
	if len(p.Body)+len(p.Data) < s.cfg.MaxFrameBytes/8 {
		return nil // even escaped six times over, with the envelope, it fits
	}
	to := ""
	for _, t := range ts {
		if t.member != nil && len(t.name) > len(to) {
			to = t.name
		}
	}
	if to == "" {
		return nil
	}
	payload, err := json.Marshal(proto.Send{Kind: p.Kind, Body: p.Body, Data: p.Data})
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	d := &proto.Envelope{
		V: proto.Version, Type: proto.TypeDeliver, ID: "m0000000000000000000000", TS: s.now().UnixMilli(),
		From: from, To: to, Topic: e.Topic, Payload: payload, PayloadMeta: e.PayloadMeta,
		Delivery: &proto.Delivery{Seq: 1 << 62, SessionID: s.cfg.Session + "/" + to},
	}
	body, err := proto.Encode(d)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if len(body) > s.cfg.MaxFrameBytes {
		return fmt.Errorf("message too large to deliver to %s: %d bytes as DELIVER, over max_frame_bytes %d", to, len(body), s.cfg.MaxFrameBytes)
	}
	return nil
}

// cutToFrame cuts the body of DELIVER e of stored message msg when the frame would be
// over max_frame_bytes (a pane's long turn relayed to a member; a message stored
// before SENDs were checked), as a pane's delivery is cut: the first part, then a line
// saying where the rest is. The store keeps the whole body.
func (s *state) cutToFrame(e *proto.Envelope, msg store.Message) {
	if len(msg.Body)+len(msg.Data) < s.cfg.MaxFrameBytes/8 {
		return
	}
	body, err := proto.Encode(e)
	if err != nil || len(body) <= s.cfg.MaxFrameBytes {
		return
	}
	note := "\n[cut: `agentmux read " + msg.ID + "` shows the rest]"
	p := proto.Send{Kind: msg.Kind, Body: note}
	if len(msg.Data) < s.cfg.MaxFrameBytes/4 {
		p.Data = json.RawMessage(msg.Data)
	}
	if msg.Data == "" {
		p.Data = nil
	}
	e.Payload, _ = json.Marshal(p)
	rest, _ := proto.Encode(e)
	p.Body = fit(msg.Body, s.cfg.MaxFrameBytes-len(rest)-16) + note
	e.Payload, _ = json.Marshal(p)
}

// fitScreen keeps the bottom of a captured screen that fits room bytes of JSON: the
// lines above are dropped, and a first line says how many.
func fitScreen(screen string, room int) string {
	if len(screen) < room/6 || jsonSize(screen) <= room {
		return screen
	}
	room -= 64 // the note
	used, cut := 0, len(screen)
	for cut > 0 {
		i := strings.LastIndexByte(screen[:cut-1], '\n') + 1 // the start of the line ending at cut
		used += jsonSize(screen[i:cut]) - 2
		if used > room {
			break
		}
		cut = i
	}
	if cut >= len(screen) { // one line too long on its own: its end
		return fit(screen[len(screen)-room/6:], room)
	}
	return fmt.Sprintf("[cut: %d lines above did not fit]\n", strings.Count(screen[:cut], "\n")) + screen[cut:]
}
