package session_test

// The session socket with the real core behind it: *session.Session is the hub's Core
// (and PaneCore, Warner) as it is, with no adapter between them.

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/hubtest"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

var (
	_ hub.Core     = (*session.Session)(nil)
	_ hub.PaneCore = (*session.Session)(nil)
	_ hub.Warner   = (*session.Session)(nil)
)

// serve starts a session of panes behind a real hub and returns it with a control
// client of its socket (both end with the test; the client's reads and writes have 20
// seconds).
func serve(t *testing.T, panes ...session.PaneSpec) (*session.Session, *client.Conn) {
	t.Helper()
	s, c, _ := serveWith(t, session.Options{Panes: panes})
	return s, c
}

// serveWith is serve with the session's options (Idle 50 ms unless set); it also
// returns the socket's path.
func serveWith(t *testing.T, o session.Options) (*session.Session, *client.Conn, string) {
	t.Helper()
	if o.Idle == 0 {
		o.Idle = 50 * time.Millisecond
	}
	s, err := session.Start(o)
	require.NoError(t, err)
	t.Cleanup(func() { s.Stop() })
	path := hubtest.Start(t, "", hub.Config{Session: "e2e", Core: s}).Path
	c, err := client.DialControl(path)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(20 * time.Second))
	return s, c, path
}

// waitCapture captures pane target through c again on each output of the session
// (out, a subscription) until its screen satisfies cond, and returns that screen; after
// 20 seconds it fails the test with the last screen.
func waitCapture(t *testing.T, c *client.Conn, out *session.Subscription, target, what string, cond func(string) bool) string {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		res, err := c.Request(proto.TypeCapture, proto.Capture{Target: target})
		require.NoError(t, err)
		if cond(*res.Screen) {
			return *res.Screen
		}
		select {
		case <-out.Ready():
			require.NoError(t, out.Err(), "the test's subscription ended")
			out.Next()
		case <-deadline:
			t.Fatalf("%s never showed in pane %s; screen:\n%s", what, target, *res.Screen)
		}
	}
}

// A real session core (cat in a PTY) behind a real hub: a control client's SEND is
// typed into the pane attributed to its sender, its phases reach the store under the
// message id, and capture shows it on the pane's screen.
func TestSendReachesAPane(t *testing.T) {
	s, c := serve(t, session.PaneSpec{Name: "cat", Argv: []string{"sh", "-c", "printf 'ready> '; exec cat"}, Cols: 80, Rows: 10})
	res, err := c.Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
	require.Len(t, res.Members, 1)
	assert.Equal(t, proto.Member{Number: 1, Name: "cat", Program: "sh", State: res.Members[0].State, Profile: "generic"}, res.Members[0])

	_, err = c.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	out := s.Subscribe(0)
	defer out.Close()
	id, err := c.Send("ops", "1", "please rebase")
	require.NoError(t, err)
	for {
		e, err := c.Read()
		require.NoError(t, err)
		if e.Type != proto.TypeEvent {
			continue
		}
		ev, err := proto.DecodePayload[proto.Event](e)
		require.NoError(t, err)
		t.Logf("%+v", ev)
		if ev.Kind == "delivery" && ev.ID == id && ev.Phase == "typed" {
			break
		}
	}
	r, err := c.Request(proto.TypeRead, proto.Read{ID: id})
	require.NoError(t, err)
	assert.NotZero(t, r.Message.Typed, "the phase reached the store")
	// "typed" means the bytes were handed to the pane's writer; cat's echo reaches the
	// screen after that.
	waitCapture(t, c, out, "cat", "the message", func(scr string) bool {
		return strings.Contains(scr, "ops:") && strings.Contains(scr, "please rebase")
	})
	// Names are read in any case, by every command (the session's one resolver).
	upper, err := c.Request(proto.TypeCapture, proto.Capture{Target: "CAT"})
	require.NoError(t, err)
	assert.Contains(t, *upper.Screen, "please rebase")
	_, err = c.Request(proto.TypeHold, proto.Target{A: "Cat"})
	require.NoError(t, err)
}

// Every command of the socket that names a pane reads the name in any case, as the
// session's one resolver (Resolve) does: SEND (and a reminder, which is one), capture,
// hold and release, link and unlink, the pane commands, and history's member filter.
// Each row names a pane in a case other than its own and must work.
func TestEveryPaneCommandFoldsCase(t *testing.T) {
	_, c := serve(t, session.PaneSpec{Name: "cat", Argv: []string{"cat"}, Cols: 80, Rows: 10},
		session.PaneSpec{Name: "dog", Argv: []string{"cat"}, Cols: 80, Rows: 10})

	history := &proto.Result{}
	request := func(typ string, p any) func() error {
		return func() error { _, err := c.Request(typ, p); return err }
	}
	for _, row := range []struct {
		name string
		do   func() error
	}{
		{"send", func() error { _, err := c.Send("ops", "CAT", "hello"); return err }},
		{"send NAME@SESSION", func() error { _, err := c.Send("ops", "Cat@e2e", "hello"); return err }},
		{"remind", func() error {
			_, err := c.SendMeta("", "cAT", "later", &proto.SendMeta{XRemindMs: 60_000}) // the person's: only it reminds another pane
			return err
		}},
		{"capture", request(proto.TypeCapture, proto.Capture{Target: "CAT"})},
		{"hold", request(proto.TypeHold, proto.Target{A: "Cat"})},
		{"release", request(proto.TypeRelease, proto.Target{A: "cAt"})},
		{"link", request(proto.TypeLink, proto.Target{A: "CAT", B: "Dog"})},
		{"unlink", request(proto.TypeUnlink, proto.Target{A: "DOG"})},
		{"type", request(proto.TypeType, proto.TypeText{A: "Dog", Text: "x"})},
		{"resize", request(proto.TypeResize, proto.Resize{A: "DOG", Width: 120})},
		{"rename", request(proto.TypeRename, proto.Rename{A: "DOG", Name: "puppy"})},
		{"rename back", request(proto.TypeRename, proto.Rename{A: "PUPPY", Name: "dog"})},
		{"respawn", request(proto.TypeRespawn, proto.Respawn{A: "dOG", Kill: true})},
		{"history", func() (err error) {
			history, err = c.Request(proto.TypeHistory, proto.History{Member: "CAT"})
			return err
		}},
	} {
		assert.NoError(t, row.do(), row.name)
	}
	if assert.NotNil(t, history) {
		assert.NotEmpty(t, history.Messages, "history of CAT: the messages sent to cat")
	}
}

// A pane's program (here with its own proof, as `agentmux link` from inside it speaks)
// links and unlinks: that renews no budget, which only the person's link does. The
// direct budget into bob (one turn) spent by a client stays spent, and once the
// person links, it is renewed.
func TestAPanesLinkRenewsNoBudget(t *testing.T) {
	s, c, path := serveWith(t, session.Options{Turns: 1, Panes: []session.PaneSpec{
		{Name: "bob", Argv: []string{"cat"}, Cols: 80, Rows: 10},
		{Name: "eve", Argv: []string{"sh", "-c", `printf 'P=%s=\n' "$AGENTMUX_PROOF"; exec cat`}, Cols: 80, Rows: 10},
	}})
	out := s.Subscribe(0)
	defer out.Close()
	scr := waitCapture(t, c, out, "eve", "eve's proof", func(scr string) bool { return regexp.MustCompile(`P=[0-9a-f]+=`).MatchString(scr) })
	proof := regexp.MustCompile(`P=([0-9a-f]+)=`).FindStringSubmatch(scr)[1]

	_, err := c.Send("ci", "bob", "one")
	require.NoError(t, err)
	_, err = c.Send("ci", "bob", "two")
	require.ErrorContains(t, err, "budget spent (1/1)")

	eve, err := client.DialPane(path, proof)
	require.NoError(t, err)
	defer eve.Close()
	eve.SetDeadline(time.Now().Add(20 * time.Second))
	_, err = eve.Request(proto.TypeLink, proto.Target{A: "eve", B: "bob"})
	require.NoError(t, err, "a pane's program may link agent panes")
	_, err = eve.Request(proto.TypeUnlink, proto.Target{A: "eve"})
	require.NoError(t, err, "a pane's program may leave its own link")
	_, err = c.Send("ci", "bob", "three")
	require.ErrorContains(t, err, "budget spent (1/1)", "a pane's link renewed the budget only the person's renews")

	_, err = c.Request(proto.TypeLink, proto.Target{A: "eve", B: "bob"})
	require.NoError(t, err)
	_, err = c.Send("ci", "bob", "four")
	require.NoError(t, err, "the person's link renews it")
}
