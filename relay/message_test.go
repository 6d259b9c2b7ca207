package relay

// Messages from the session's clients: an external name's message waits for the target
// to be idle, is framed "NAME:", spends the (name, pane) budget, and a link renews it; a
// pane's name sends as that pane.

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestMessageFromExternalMember(t *testing.T) {
	r := New(Config{Turns: 2, Idle: time.Second})
	now := time.Unix(0, 0)
	a, b := quietScreen{}, quietScreen{}
	r.Handle(Open{Pane: 1, Name: "alice", Screen: a}, now)
	r.Handle(Open{Pane: 2, Name: "bob", Screen: b}, now)
	r.Handle(Output{Pane: 1}, now)
	r.Handle(Output{Pane: 2}, now)
	now = now.Add(2 * time.Second)
	r.Tick(now) // both started: printed, then quiet for --idle

	_, acts, err := r.Message(Send{FromName: "ops", To: r.Addressee("bob"), Text: "please rebase"}, now)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	typed, ok := acts[0].(Type)
	require.True(t, ok, "%T", acts[0])
	require.Equal(t, 2, typed.Pane)
	require.Equal(t, "ops:  please rebase", typed.Text) // unbracketed: the blank line becomes spaces

	_, _, err = r.Message(Send{FromName: "ops", To: r.Addressee("9"), Text: "hello"}, now)
	require.ErrorIs(t, err, ErrNoAddressee)
	_, _, err = r.Message(Send{FromName: "ops", To: 2, Text: "  "}, now)
	require.ErrorIs(t, err, ErrEmpty)

	_, _, err = r.Message(Send{FromName: "OPS", To: r.Addressee("2"), Text: "again"}, now)
	require.NoError(t, err)
	_, _, err = r.Message(Send{FromName: "ops", To: 2, Text: "third"}, now)
	require.True(t, errors.Is(err, ErrBudgetSpent), "%v", err)
	r.Handle(Link{Pane: 1, With: 2}, now)
	_, _, err = r.Message(Send{FromName: "ops", To: r.Addressee("BOB"), Text: "after the link"}, now)
	require.NoError(t, err)

	log := r.Log()
	require.True(t, strings.Contains(log[0].Note, "sent by ops"), "%+v", log[0])
}

func TestMessageFromPaneUsesItsBudget(t *testing.T) {
	r := New(Config{Turns: 1, Idle: time.Second})
	now := time.Unix(0, 0)
	r.Handle(Open{Pane: 1, Name: "alice", Screen: quietScreen{}}, now)
	r.Handle(Open{Pane: 2, Name: "bob", Screen: quietScreen{}}, now)
	r.Handle(Output{Pane: 1}, now)
	r.Handle(Output{Pane: 2}, now)
	now = now.Add(2 * time.Second)
	r.Tick(now)
	_, acts, err := r.Message(Send{From: 1, To: 2, Text: "hi"}, now)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	require.Contains(t, acts[0].(Type).Text, "alice (1):")
	_, _, err = r.Message(Send{From: 1, To: 2, Text: "again"}, now)
	require.ErrorIs(t, err, ErrBudgetSpent)
	_, _, err = r.Message(Send{From: 1, To: 1, Text: "me"}, now)
	require.Error(t, err)
}

// quietScreen is a program that printed nothing and reads as idle once quiet.
type quietScreen struct{}

func (s quietScreen) Read(from int64) Reading { return readParts(s, from) }
func (quietScreen) Info() Info                { return Info{} }
func (quietScreen) ScreenTop() int64          { return 0 }
func (quietScreen) ScreenText() []string      { return nil }
func (quietScreen) TextFrom(int64) []Line     { return nil }

// A client that takes a new name for every message gets no new turns: the budget into a
// pane is shared by every client sender (8 of 30 renamed sends go through, not 30).
func TestMessageRenamedSenderSharesTheBudget(t *testing.T) {
	r := New(Config{Turns: 8, Idle: time.Second})
	now := time.Unix(0, 0)
	r.Handle(Open{Pane: 1, Name: "alice", Screen: quietScreen{}}, now)
	r.Handle(Output{Pane: 1}, now)
	now = now.Add(2 * time.Second)
	r.Tick(now)
	through := 0
	for i := range 30 {
		if _, _, err := r.Message(Send{FromName: fmt.Sprintf("carol%d", i), To: 1, Text: "go on"}, now); err == nil {
			through++
		} else {
			require.ErrorIs(t, err, ErrBudgetSpent)
		}
	}
	require.Equal(t, 8, through, "renamed sends that went through")
}

// The person is no loop: their messages spend no budget, the 9th..20th arrive too.
func TestMessageFromPersonIsNotLimited(t *testing.T) {
	r := New(Config{Turns: 8, Idle: time.Second})
	now := time.Unix(0, 0)
	r.Handle(Open{Pane: 1, Name: "alice", Screen: quietScreen{}}, now)
	r.Handle(Output{Pane: 1}, now)
	now = now.Add(2 * time.Second)
	r.Tick(now)
	for i := range 20 {
		_, _, err := r.Message(Send{FromName: "you", To: 1, Text: fmt.Sprintf("note %d", i), Options: Options{Person: true}}, now)
		require.NoError(t, err, "person's send %d", i+1)
	}
	// A client is still limited after them: the person spent nothing of its budget.
	for i := range 8 {
		_, _, err := r.Message(Send{FromName: "ops", To: 1, Text: "x"}, now)
		require.NoError(t, err, "client's send %d", i+1)
	}
}
