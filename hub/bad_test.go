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

// A member that never reads holds the hub to its bounds in bytes: no more than half a
// connection's OutBytes of bodies goes out to it unanswered, and its queue takes no
// more than QueueBytes: a SEND past it gets BUSY. Others are served all along.
func TestMemberThatNeverReadsIsBoundedInBytes(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) {
		c.MaxFrameBytes = 64 << 10
		c.OutBytes = 128 << 10
		c.QueueBytes = 1 << 20
		c.Heartbeat = time.Minute
	})
	alice := e.member("alice", 0)
	carol := e.member("carol", 0)
	e.member("bob", 512) // says HELLO, then never reads
	big := strings.Repeat("x", 60<<10)
	sent := 0
	var err error
	for ; sent < 40 && err == nil; sent++ { // 2.4 MB: more than the bound
		_, err = deadline(alice).Send("", "bob", big)
	}
	var busy *client.Error
	require.ErrorAs(t, err, &busy)
	assert.Equal(t, "BUSY", busy.Code)
	assert.Equal(t, 1<<20/(60<<10)+1, sent, "the queue takes what fits in QueueBytes, the next is BUSY")
	id, err := deadline(alice).Send("", "carol", "still here")
	require.NoError(t, err)
	assert.Equal(t, id, next(t, carol, proto.TypeDeliver).ID)
}

// Every member's queue together is bounded too (HeldBytes): names are many, and a
// member away (or one that does not read, as here) keeps its queue in memory.
func TestMembersAreBoundedTogether(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) {
		c.MaxFrameBytes = 64 << 10
		c.HeldBytes = 1 << 20
	})
	alice := e.member("alice", 0)
	sent := 0
	var err error
	for n := 0; err == nil && n < 100; n++ {
		name := fmt.Sprintf("member%d", n)
		e.member(name, 1) // never reads
		for range 3 {
			if _, err = deadline(alice).Send("", name, strings.Repeat("z", 60<<10)); err == nil {
				sent++
			}
		}
	}
	var busy *client.Error
	require.ErrorAs(t, err, &busy)
	assert.Equal(t, 1<<20/(60<<10), sent, "what fits in HeldBytes, over every member")
}

// A message to many members holds a copy for each: all of them count against HeldBytes.
func TestABroadcastCountsEachCopy(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) {
		c.MaxFrameBytes = 64 << 10
		c.HeldBytes = 1 << 20
	})
	alice := e.member("alice", 0)
	for n := range 40 {
		e.member(fmt.Sprintf("member%d", n), 1) // never reads
	}
	_, err := deadline(alice).Send("", "*", strings.Repeat("b", 60<<10)) // 40 copies: 2.4 MB
	var busy *client.Error
	require.ErrorAs(t, err, &busy)
	_, err = deadline(alice).Send("", "*", strings.Repeat("b", 20<<10)) // 800 KB
	require.NoError(t, err)
}

// What goes out to a member never passes what its connection may hold (OutBytes): the
// backlog waits for room and for its ACKs. Bodies of '<' grow six times as JSON: sent
// all at once, they passed it and the member was dropped (and was each time it came
// back to them). None is lost meanwhile.
func TestDeliveriesWaitForRoom(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) {
		c.MaxFrameBytes = 64 << 10
		c.OutBytes = 1 << 20
		c.Heartbeat = time.Minute
	})
	alice := e.member("alice", 0)
	carol := e.member("carol", 0)
	bob := e.member("bob", 256) // reads only at the end
	ctl := e.control()
	for range 60 { // 3.6 MB once escaped
		_, err := deadline(alice).Send("", "bob", strings.Repeat("<", 10<<10))
		require.NoError(t, err)
	}
	// The hub handles frames in order: carol's message goes after bob's were queued.
	id, err := deadline(alice).Send("", "carol", "after them")
	require.NoError(t, err)
	assert.Equal(t, id, next(t, carol, proto.TypeDeliver).ID)
	assert.Equal(t, "connected", clients(t, ctl)["bob"], "bob was not dropped")
	for i := range 60 {
		d := next(t, bob, proto.TypeDeliver)
		require.NoError(t, bob.Ack(d), "message %d", i)
	}
}
