package relay

// Strategy: a program's output races with the relay's reading of its screen (the
// session's emulator is written by the pane's reader goroutine while the loop reads).
// The fake screen below moves to the program's next stage right after a reading, the
// worst moment: every decision must be taken from one reading, so what the program
// wrote after it is in the next turn, never lost between a turn's words and the
// baseline that follows them.

import (
	"slices"
	"testing"
	"time"
)

// stagedScreen is a line-mode program's main screen (no history) that a test moves
// through stages; next, when set, is written right after the relay's next reading.
type stagedScreen struct {
	rows []string
	cur  int
	next []string // the rows of the next stage, the cursor on the last
}

func (s *stagedScreen) Read(from int64) Reading {
	rd := Reading{Info: Info{HasCursor: true, CursorRow: s.cur}, Rows: slices.Clone(s.rows)}
	if from == FromTop {
		from = 0
	}
	for i, r := range s.rows {
		if int64(i) >= from && (r != "" || i < s.cur) {
			rd.Lines = append(rd.Lines, Line{N: int64(i), Text: r})
		}
	}
	if s.next != nil {
		s.rows, s.cur, s.next = s.next, len(s.next)-1, nil
	}
	return rd
}

func TestOutputRightAfterATurnsReadingIsTheNextTurn(t *testing.T) {
	r := New(Config{Idle: time.Second})
	alice := &stagedScreen{rows: []string{"a ready.", "a> "}, cur: 1}
	now := t0
	r.Handle(Open{Pane: 1, Name: "alice", Screen: alice}, now)
	r.Handle(Open{Pane: 2, Name: "bob", Screen: quietScreen{}}, now)
	r.Handle(Output{Pane: 1}, now)
	r.Handle(Output{Pane: 2}, now)
	now = now.Add(time.Second)
	r.Tick(now)
	r.Handle(Link{Pane: 1, With: 2}, now)

	alice.rows[1] = "a> hi"
	r.Handle(Keystroke{Pane: 1, Draft: true, Text: "hi"}, now)
	r.Handle(Output{Pane: 1}, now)
	r.Handle(Sent{Pane: 1, Text: "hi"}, now)
	now = now.Add(100 * time.Millisecond)
	alice.rows, alice.cur = []string{"a ready.", "a> hi", "First part.", ""}, 3
	r.Handle(Output{Pane: 1}, now)
	// The program goes on just after the relay reads its quiet screen at the turn's end.
	alice.next = []string{"a ready.", "a> hi", "First part.", "Second part.", "a> "}
	now = now.Add(time.Second)
	r.Tick(now)
	r.Handle(Output{Pane: 1}, now)
	now = now.Add(time.Second)
	r.Tick(now)

	var bodies []string
	for _, e := range r.Log() {
		if e.Delivery > 0 {
			bodies = append(bodies, e.Body)
		}
	}
	if want := []string{"First part.", "Second part."}; !slices.Equal(bodies, want) {
		t.Errorf("delivered %q, want %q\n%v", bodies, want, r.Log())
	}
}

// frameScreen is a full-screen program's alternate screen as a test sets it.
type frameScreen struct{ rd Reading }

func (s *frameScreen) Read(int64) Reading {
	rd := s.rd
	rd.Rows = slices.Clone(rd.Rows)
	return rd
}

// show sets the frame, the cursor on its last row; mid: the program is still drawing it
// (synchronized output on).
func (s *frameScreen) show(mid bool, rows ...string) {
	s.rd = Reading{Info: Info{AltScreen: true, MidFrame: mid, HasCursor: true, CursorRow: len(rows) - 1}, Rows: rows}
}

// A person's Enter can come while a full-screen program is drawing the echo of their
// last key: rows erased and not drawn again yet. That half frame is no baseline (its
// erased rows would make the rows drawn again into them new): the last whole frame is.
func TestBaselineMidFrameIsTheLastWholeFrame(t *testing.T) {
	r := New(Config{Idle: time.Second})
	alice := &frameScreen{}
	alice.show(false, "alice · ready", "", "", "> ")
	now := t0
	r.Handle(Open{Pane: 1, Name: "alice", Screen: alice}, now)
	r.Handle(Open{Pane: 2, Name: "bob", Screen: quietScreen{}}, now)
	r.Handle(Output{Pane: 1}, now)
	r.Handle(Output{Pane: 2}, now)
	now = now.Add(time.Second)
	r.Tick(now)
	r.Handle(Link{Pane: 1, With: 2}, now)

	alice.show(false, "alice · ready", "", "", "> h")
	r.Handle(Keystroke{Pane: 1, Draft: true, Text: "h"}, now)
	r.Handle(Output{Pane: 1}, now)
	alice.show(true, "", "", "", "> h") // the next key's echo: the banner row erased
	r.Handle(Keystroke{Pane: 1, Draft: true, Text: "hi"}, now)
	r.Handle(Sent{Pane: 1, Text: "hi"}, now)
	now = now.Add(100 * time.Millisecond)
	alice.show(false, "alice · ready", "> hi", "Answer line.", "> ")
	r.Handle(Output{Pane: 1}, now)
	now = now.Add(time.Second)
	r.Tick(now)

	var bodies []string
	for _, e := range r.Log() {
		if e.Delivery > 0 {
			bodies = append(bodies, e.Body)
		}
	}
	if want := []string{"Answer line."}; !slices.Equal(bodies, want) {
		t.Errorf("delivered %q, want %q\n%v", bodies, want, r.Log())
	}
}

// An inline program (an input box, no synchronized output) redraws its box for every key
// of a draft, and a person's Enter can come mid-redraw: the draft's row drawn, the rule
// under it cut short, the cursor on it. What it printed since the draft began is the
// draft's echo, no turn; the baseline from before the draft (the whole box) stays.
func TestEnterWhileTheInputBoxIsRedrawn(t *testing.T) {
	r := New(Config{Idle: time.Second})
	rule := "────────────────────────────────────────"
	alice := &stagedScreen{rows: []string{"✻ Welcome to alice chat", "", rule, "❯", rule, "  ? for shortcuts"}, cur: 3}
	now := t0
	r.Handle(Open{Pane: 1, Name: "alice", Screen: alice}, now)
	r.Handle(Open{Pane: 2, Name: "bob", Screen: quietScreen{}}, now)
	r.Handle(Output{Pane: 1}, now)
	r.Handle(Output{Pane: 2}, now)
	now = now.Add(time.Second)
	r.Tick(now)
	r.Handle(Link{Pane: 1, With: 2}, now)

	r.Handle(Keystroke{Pane: 1, Draft: true, Text: "hi"}, now)
	alice.rows, alice.cur = []string{"✻ Welcome to alice chat", "", rule, "❯ hi", rule[:len("─")*12]}, 4
	r.Handle(Output{Pane: 1}, now)
	r.Handle(Sent{Pane: 1, Text: "hi"}, now)
	now = now.Add(100 * time.Millisecond)
	alice.rows, alice.cur = []string{"✻ Welcome to alice chat", "", "❯ hi", "", "Answer line.", "", rule, "❯", rule, "  ? for shortcuts"}, 7
	r.Handle(Output{Pane: 1}, now)
	now = now.Add(time.Second)
	r.Tick(now)

	var bodies []string
	for _, e := range r.Log() {
		if e.Delivery > 0 {
			bodies = append(bodies, e.Body)
		}
	}
	if want := []string{"Answer line."}; !slices.Equal(bodies, want) {
		t.Errorf("delivered %q, want %q\n%v", bodies, want, r.Log())
	}
}
