package relay

// Strategy: a closed pane's screen is held through a weak pointer; after the close and
// a collection it must be gone, while the relay still says how the pane went.

import (
	"runtime"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
)

// heavyScreen stands for a pane's terminal and its history.
type heavyScreen struct{ history []byte }

func (s *heavyScreen) Read(int64) Reading { return Reading{} }

func TestAClosedPaneLetsGoOfItsScreen(t *testing.T) {
	r := New(Config{})
	open := func(id int, name string) weak.Pointer[heavyScreen] {
		scr := &heavyScreen{history: make([]byte, 1<<20)}
		r.Handle(Open{Pane: id, Name: name, Screen: scr}, t0)
		return weak.Make(scr)
	}
	closed, exited, both := open(1, "a"), open(2, "b"), open(3, "c")
	r.Handle(Exit{Pane: 1, Closed: true}, t0)
	r.Handle(Exit{Pane: 2, Status: "exited (1)"}, t0)
	r.Handle(Exit{Pane: 3, Status: "exited (0)"}, t0)
	r.Handle(Exit{Pane: 3, Closed: true}, t0)
	runtime.GC()
	assert.True(t, closed.Value() == nil, "the closed pane's screen is let go")
	assert.True(t, both.Value() == nil, "and one's that exited before it was closed")
	assert.True(t, exited.Value() != nil, "an exited pane's stays: it is still shown")
	gone, ok := r.Gone("a")
	assert.True(t, ok)
	assert.Equal(t, "pane 1 a was closed", gone)
	runtime.KeepAlive(r)
}
