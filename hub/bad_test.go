// Bad input and limits: each bad connection gets ERROR (when it can still be told) and
// is closed, while a member connected before it keeps sending and receiving. A
// thousand connections at once; a client that floods requests and never reads is
// dropped; one that dies mid-frame changes nothing for the others.
package hub_test

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// stillWorks checks that alice can still reach bob and bob can ACK.
func stillWorks(t *testing.T, alice, bob *client.Conn) {
	t.Helper()
	id, err := deadline(alice).Send("", "bob", "still here")
	require.NoError(t, err)
	d := next(t, bob, proto.TypeDeliver)
	require.Equal(t, id, d.ID)
	require.NoError(t, bob.Ack(d))
}

func frame(body string) []byte { return proto.AppendFrame(nil, []byte(body)) }

func TestBadInput(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) { c.MaxFrameBytes = 4096 })
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	hello := frame(`{"v":1,"type":"HELLO","id":"h","ts":1,"payload":{"agent":"x"}}`)
	for name, tc := range map[string]struct {
		bytes []byte
		code  string
	}{
		"garbage":           {[]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), proto.CodeTooLarge},
		"oversize frame":    {binary.BigEndian.AppendUint32(nil, 4097), proto.CodeTooLarge},
		"empty frame":       {[]byte{0, 0, 0, 0}, proto.CodeBadRequest},
		"not json":          {frame("\x01\x02hello"), proto.CodeBadRequest},
		"json array":        {frame(`[{"v":1}]`), proto.CodeBadRequest},
		"json string":       {frame(`"HELLO"`), proto.CodeBadRequest},
		"wrong v":           {frame(`{"v":2,"type":"HELLO","id":"h","ts":1,"payload":{"agent":"x"}}`), proto.CodeBadRequest},
		"missing id":        {frame(`{"v":1,"type":"HELLO","ts":1,"payload":{"agent":"x"}}`), proto.CodeBadRequest},
		"missing payload":   {frame(`{"v":1,"type":"HELLO","id":"h","ts":1}`), proto.CodeBadRequest},
		"hello no agent":    {frame(`{"v":1,"type":"HELLO","id":"h","ts":1,"payload":{}}`), proto.CodeBadRequest},
		"hello bad name":    {frame(`{"v":1,"type":"HELLO","id":"h","ts":1,"payload":{"agent":"a b"}}`), proto.CodeBadRequest},
		"send before hello": {frame(`{"v":1,"type":"SEND","id":"s","ts":1,"to":"bob","payload":{"body":"x"}}`), proto.CodeBadRequest},
		"send without to":   {append(hello, frame(`{"v":1,"type":"SEND","id":"s","ts":1,"payload":{"body":"x"}}`)...), proto.CodeBadRequest},
		"send body number":  {append(hello, frame(`{"v":1,"type":"SEND","id":"s","ts":1,"to":"bob","payload":{"body":1}}`)...), proto.CodeBadRequest},
		"ack without id":    {append(hello, frame(`{"v":1,"type":"ACK","id":"a","ts":1,"payload":{}}`)...), proto.CodeBadRequest},
		"bad frame later":   {append(hello, frame(`{"v":1,`)...), proto.CodeBadRequest},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := client.DialRaw(e.path)
			require.NoError(t, err)
			defer c.Raw().Close()
			deadline(c)
			_, err = c.Raw().Write(tc.bytes)
			require.NoError(t, err)
			got := expectClosed(t, c)
			require.NotNil(t, got, "an ERROR before the close")
			assert.Equal(t, tc.code, got.Code)
			assert.True(t, got.Fatal)
			assert.NotEmpty(t, got.Message)
			stillWorks(t, alice, bob)
		})
	}
}

func TestDyingMidFrame(t *testing.T) {
	e := start(t, nil, "", nil)
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	for _, cut := range []int{2, 4, 10} {
		c, err := client.DialRaw(e.path)
		require.NoError(t, err)
		f := frame(`{"v":1,"type":"HELLO","id":"h","ts":1,"payload":{"agent":"x"}}`)
		_, err = c.Raw().Write(f[:cut])
		require.NoError(t, err)
		c.Raw().Close()
	}
	// A member dying mid-frame: its name is free again, its messages wait.
	carol := e.member("carol", 0)
	f := frame(`{"v":1,"type":"SEND","id":"s","ts":1,"to":"bob","payload":{"body":"x"}}`)
	_, err := carol.Raw().Write(f[:20])
	require.NoError(t, err)
	carol.Raw().Close()
	stillWorks(t, alice, bob)
}

func TestThousandConnections(t *testing.T) {
	// The thousand never read, so they answer no PING: with the default heartbeat a
	// busy machine that takes 10 s to open them all would rightly drop the first ones
	// as dead. What is tested here is the count, not liveness: no heartbeat in reach.
	e := start(t, nil, "", func(c *hub.Config) { c.Heartbeat = time.Hour })
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	conns := make([]*client.Conn, 1000)
	for i := range conns {
		c, err := client.Dial(e.path, proto.Hello{Agent: fmt.Sprint("agent-", i)})
		require.NoError(t, err, "connection %d", i)
		conns[i] = deadline(c)
	}
	stillWorks(t, alice, bob)
	// Every one of them is a live member that receives.
	id, err := alice.Send("", "agent-999", "hi")
	require.NoError(t, err)
	assert.Equal(t, id, next(t, conns[999], proto.TypeDeliver).ID)
	res, err := alice.Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
	assert.Len(t, res.Members, 1002)
	for _, c := range conns {
		c.Raw().Close()
	}
	stillWorks(t, alice, bob)
}

func TestClientThatNeverReadsIsDropped(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) { c.OutQueue = 8 })
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	hog := e.control()
	// It asks and asks and never reads an answer: the socket's buffers fill, then its
	// queue, and the hub drops it instead of waiting.
	req := frame(`{"v":1,"type":"X_LIST","id":"l","ts":1,"payload":{}}`)
	var err error
	for i := 0; i < 1_000_000 && err == nil; i++ {
		_, err = hog.Raw().Write(req)
	}
	require.Error(t, err, "the hub closed the connection")
	stillWorks(t, alice, bob)
}

func TestMemberThatNeverReadsIsBoundedInBytes(t *testing.T) {
	// A heartbeat of a minute: only the byte bound can drop bob within this test.
	e := start(t, nil, "", func(c *hub.Config) {
		c.MaxFrameBytes = 64 << 10
		c.OutBytes = 128 << 10
		c.Heartbeat = time.Minute
	})
	alice := e.member("alice", 0)
	carol := e.member("carol", 0)
	e.member("bob", 512) // says HELLO, then never reads
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	big := strings.Repeat("x", 60<<10)
	for range 40 { // 2.4 MB: more than the socket's buffers and the bound together
		_, err := deadline(alice).Send("", "bob", big)
		require.NoError(t, err)
	}
	waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Member == "bob" && ev.State == "disconnected" })
	id, err := deadline(alice).Send("", "carol", "still here")
	require.NoError(t, err)
	assert.Equal(t, id, next(t, carol, proto.TypeDeliver).ID)
}
