package hub_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// A SEND within the frame limit whose DELIVER would not be (the server writes '<' as
// \u003c, six bytes for one) is refused with NACK, not stored to be redelivered for
// ever in frames the member cannot read.
func TestDeliverFitsTheFrameLimit(t *testing.T) {
	e := start(t, nil, "", nil)
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	body := strings.Repeat("<", 300<<10)
	// As a client may write it ('<' raw): a 300 KiB frame.
	frame := `{"v":1,"type":"SEND","id":"big","ts":1,"to":"bob","payload":{"kind":"message","body":"` + body + `"}}`
	require.NoError(t, proto.WriteFrame(alice.Raw(), []byte(frame)))
	a := next(t, alice, proto.TypeNack)
	n := payload[proto.Nack](t, a)
	assert.Contains(t, n.Message, "too large")

	_, err := alice.Send("", "bob", "small")
	require.NoError(t, err)
	d := next(t, bob, proto.TypeDeliver)
	assert.Equal(t, "small", payload[proto.Send](t, d).Body)
}

// A stored message whose DELIVER would be over the frame limit (a pane's long turn
// relayed to a member) is delivered cut, saying where the rest is; the store keeps it
// whole.
func TestDeliverCutsWhatCannotFit(t *testing.T) {
	e := start(t, nil, "", nil)
	body := strings.Repeat("line <of> a long turn\n", 2<<20/22)
	require.NoError(t, e.st.Insert(store.Message{ID: "mlong", Session: "test", From: "claude", To: "bob", Kind: "message",
		Body: body, Seq: 1, Queued: time.Now().UnixMilli()}))
	bob := e.member("bob", 0)
	d := next(t, bob, proto.TypeDeliver) // the client reads at most 1 MiB frames
	got := payload[proto.Send](t, d).Body
	assert.True(t, strings.HasSuffix(got, "\n[cut: `agentmux read mlong` shows the rest]"), "ends %q", got[max(0, len(got)-80):])
	assert.True(t, strings.HasPrefix(body, strings.TrimSuffix(got, "\n[cut: `agentmux read mlong` shows the rest]")))
	assert.Greater(t, len(got), 100<<10, "as much as fits")
	require.NoError(t, bob.Ack(d))
	ms, err := e.st.Get("mlong")
	require.NoError(t, err)
	assert.Equal(t, len(body), len(ms[0].Body))
}
