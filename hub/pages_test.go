package hub_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

const smallFrames = 64 << 10

// strictRequest sends a request and reads its answer frame by frame, failing when a frame
// is over the limit the server announced (the client library would take up to 1 MiB).
func strictRequest(t *testing.T, c *client.Conn, typ string, p any) *proto.Result {
	t.Helper()
	id, err := deadline(c).Write(typ, "", "", p)
	require.NoError(t, err)
	for {
		var hdr [4]byte
		_, err := io.ReadFull(c.Raw(), hdr[:])
		require.NoError(t, err)
		n := binary.BigEndian.Uint32(hdr[:])
		require.LessOrEqual(t, int(n), smallFrames, "a %s answer frame of %d bytes, over max_frame_bytes", typ, n)
		body := make([]byte, n)
		_, err = io.ReadFull(c.Raw(), body)
		require.NoError(t, err)
		e, err := proto.Decode(body)
		require.NoError(t, err)
		if e.Type == proto.TypePing {
			continue
		}
		require.Equal(t, proto.TypeResult, e.Type, "%s", e.Payload)
		r := payload[proto.Result](t, e)
		require.Equal(t, id, r.Re)
		return &r
	}
}

// bigBody is about n bytes of text that JSON escapes heavily ('<', quotes, newlines)
// with multi-byte characters, so sizes on the wire are not the stored ones.
func bigBody(n int, seed string) string {
	unit := seed + " <tag> \"q\" é日本\n\t"
	return strings.Repeat(unit, n/len(unit))
}

// History larger than a frame comes in pages that each fit max_frame_bytes, newest
// first, older ones through x_next: every message is there once, in order; a message
// larger than a frame on its own is cut (x_cut) and X_READ gives it whole in parts.
func TestHistoryAndReadFitTheFrameLimit(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) { c.MaxFrameBytes = smallFrames })
	var want []store.Message
	now := time.Now().UnixMilli()
	for i := range 30 {
		size := 9 << 10
		if i == 17 {
			size = 300 << 10 // over the limit on its own, escaped several times over
		}
		m := store.Message{ID: fmt.Sprintf("m%02d", i), Session: "test", From: "alice", To: "bob", Kind: "message",
			Body: bigBody(size, fmt.Sprint(i)), Seq: int64(i + 1), Queued: now + int64(i)}
		want = append(want, m)
	}
	// m17 goes to three recipients: X_READ answers one row per recipient.
	for _, to := range []string{"carol", "dave"} {
		m := want[17]
		m.To = to
		want = append(want, m)
	}
	require.NoError(t, e.st.Insert(want...))
	ctl := e.control()

	var got []proto.Message
	pages := 0
	q := proto.History{Limit: 1000}
	for {
		r := strictRequest(t, ctl, proto.TypeHistory, q)
		pages++
		got = append(r.Messages, got...)
		if r.Next == 0 {
			break
		}
		q.Before = r.Next
		require.Less(t, pages, 100, "paging does not end")
	}
	assert.Greater(t, pages, 3, "the history was more than a frame")
	require.Len(t, got, len(want))
	for i, m := range got {
		assert.Equal(t, want[i].ID, m.ID)
		assert.Equal(t, want[i].To, m.To)
		if m.ID == "m17" {
			assert.True(t, m.Cut, "a message over the limit alone is cut")
			assert.Equal(t, len(want[17].Body), m.BodyBytes)
			assert.True(t, strings.HasPrefix(want[17].Body, m.Body))
			assert.NotEmpty(t, m.Body)
			continue
		}
		assert.False(t, m.Cut)
		assert.True(t, want[i].Body == m.Body, "%s: the body whole", m.ID)
	}

	// A limit smaller than a page is a page of that many.
	r := strictRequest(t, ctl, proto.TypeHistory, proto.History{Limit: 1})
	require.Len(t, r.Messages, 1)
	assert.Equal(t, "m17", r.Messages[0].ID)
	assert.Zero(t, r.Next)

	// X_READ: the body in parts, each answer within the limit, together the whole.
	var body strings.Builder
	r = strictRequest(t, ctl, proto.TypeRead, proto.Read{ID: "m17"})
	require.Len(t, r.Messages, 3, "one row per recipient")
	for _, row := range r.Messages {
		assert.Empty(t, row.Body, "rows leave the body to message")
		assert.True(t, row.Cut)
	}
	assert.Equal(t, []string{"bob", "carol", "dave"}, []string{r.Messages[0].To, r.Messages[1].To, r.Messages[2].To})
	parts := 1
	body.WriteString(r.Message.Body)
	for r.NextOffset > 0 {
		require.Equal(t, body.Len(), r.NextOffset)
		r = strictRequest(t, ctl, proto.TypeRead, proto.Read{ID: "m17", Offset: r.NextOffset})
		body.WriteString(r.Message.Body)
		parts++
		require.Less(t, parts, 200)
	}
	assert.Greater(t, parts, 4)
	assert.True(t, want[17].Body == body.String(), "the parts make the body: %d bytes of %d", body.Len(), len(want[17].Body))

	// A message that fits is answered whole, as before.
	r = strictRequest(t, ctl, proto.TypeRead, proto.Read{ID: "m03"})
	assert.True(t, want[3].Body == r.Message.Body && want[3].Body == r.Messages[0].Body, "m03 whole")
	assert.False(t, r.Message.Cut)
	assert.Zero(t, r.NextOffset)

	_, err := ctl.Request(proto.TypeRead, proto.Read{ID: "m03", Offset: 1 << 30})
	assert.ErrorContains(t, err, "offset")
}

// A capture larger than a frame (a long history, in colour) keeps the bottom lines that
// fit, and says how many lines above were dropped.
func TestCaptureFitsTheFrameLimit(t *testing.T) {
	core := newFakeCore("claude")
	e := start(t, core, "", func(c *hub.Config) { c.MaxFrameBytes = smallFrames })
	ctl := e.control()
	r := strictRequest(t, ctl, proto.TypeCapture, proto.Capture{Target: "claude", Lines: 10000, SGR: true})
	require.NotNil(t, r.Screen)
	lines := strings.Split(strings.TrimSuffix(*r.Screen, "\n"), "\n")
	assert.Regexp(t, `^\[cut: \d+ lines above did not fit\]$`, lines[0])
	assert.Contains(t, lines[len(lines)-1], "line 9999 of claude")
	assert.Greater(t, len(lines), 100)
}

// A limit past what one page reads (a huge one, from any client) reads historyRows
// stored messages at most, and the page says where the older ones go on: paging with
// the limit gets them all, in order.
func TestHistoryReadsAPageAtATime(t *testing.T) {
	e := start(t, nil, "", nil)
	var want []store.Message
	now := time.Now().UnixMilli()
	for i := range 250 {
		want = append(want, store.Message{ID: fmt.Sprintf("m%03d", i), Session: "test", From: "alice", To: "bob", Kind: "message",
			Body: "small", Seq: int64(i + 1), Queued: now + int64(i)})
	}
	require.NoError(t, e.st.Insert(want...))
	ctl := e.control()
	q := proto.History{Limit: 1 << 30}
	r := strictRequest(t, ctl, proto.TypeHistory, q)
	require.Len(t, r.Messages, 100, "one page reads 100 rows at most")
	assert.Equal(t, "m249", r.Messages[99].ID)
	assert.NotZero(t, r.Next)
	var got []proto.Message
	for pages := 0; ; pages++ {
		got = append(r.Messages, got...)
		if r.Next == 0 {
			break
		}
		require.Less(t, pages, 10)
		q.Before = r.Next
		r = strictRequest(t, ctl, proto.TypeHistory, q)
	}
	require.Len(t, got, 250)
	assert.Equal(t, "m000", got[0].ID)
}
