package relay

// Messages from the session's clients: an external name's message waits for the target
// to be idle, is framed "NAME:", spends the (name, pane) budget, and a link renews it; a
// pane's name sends as that pane.

import (
	"errors"
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

	acts, err := r.Message("ops", "bob", "please rebase", now)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	typed, ok := acts[0].(Type)
	require.True(t, ok, "%T", acts[0])
	require.Equal(t, 2, typed.Pane)
	require.Equal(t, "ops:  please rebase", typed.Text) // unbracketed: the blank line becomes spaces

	_, err = r.Message("ops", "9", "hello", now)
	require.ErrorIs(t, err, ErrNoAddressee)
	_, err = r.Message("ops", "bob", "  ", now)
	require.ErrorIs(t, err, ErrEmpty)

	_, err = r.Message("OPS", "2", "again", now)
	require.NoError(t, err)
	_, err = r.Message("ops", "bob", "third", now)
	require.True(t, errors.Is(err, ErrBudgetSpent), "%v", err)
	r.Handle(Link{Pane: 1, With: 2}, now)
	_, err = r.Message("ops", "bob", "after the link", now)
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
	acts, err := r.Message("alice", "bob", "hi", now)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	require.Contains(t, acts[0].(Type).Text, "alice (1):")
	_, err = r.Message("alice", "bob", "again", now)
	require.ErrorIs(t, err, ErrBudgetSpent)
	_, err = r.Message("alice", "alice", "me", now)
	require.Error(t, err)
}

// quietScreen is a program that printed nothing and reads as idle once quiet.
type quietScreen struct{}

func (s quietScreen) Read(from int64) Reading { return readParts(s, from) }
func (quietScreen) Info() Info                { return Info{} }
func (quietScreen) ScreenTop() int64          { return 0 }
func (quietScreen) ScreenText() []string      { return nil }
func (quietScreen) TextFrom(int64) []Line     { return nil }
