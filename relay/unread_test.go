package relay

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// queueScreen is a line program's screen (rows, the cursor on the last) whose terminal
// tells how much typed into it the program has not read.
type queueScreen struct {
	rows   []string
	unread int
}

func (s *queueScreen) Read(from int64) Reading {
	rd := Reading{Info: Info{HasCursor: true, CursorRow: len(s.rows) - 1}, Rows: s.rows}
	if from == FromTop {
		from = 0
	}
	for i := from; i < int64(len(s.rows)); i++ {
		rd.Lines = append(rd.Lines, Line{N: i, Text: s.rows[i]})
	}
	return rd
}

func (s *queueScreen) Unread() (int, bool) { return s.unread, true }

// postOne opens a line program ("> " prompt) that has drawn its screen, and posts it
// one message from ops: the relay, the program's screen, the message's id and the
// relay's first actions, at t0.
func postOne(t *testing.T) (*Relay, *queueScreen, int, []Action) {
	t.Helper()
	r := New(Config{Idle: 100 * time.Millisecond})
	scr := &queueScreen{rows: []string{"ready", "> "}}
	r.Handle(Open{Pane: 1, Name: "rx", Screen: scr}, t0)
	r.Handle(Output{Pane: 1}, t0)
	id, acts := r.Post(Send{FromName: "ops", To: 1, Text: "m1"}, t0)
	require.NotZero(t, id)
	return r, scr, id, acts
}

// unreadRun opens a line program ("> " prompt) and sends it one message, running the
// relay's wake-ups until it submitted: the program's terminal then echoes the carriage
// return (output) while the line waits unread.
func unreadRun(t *testing.T) (*Relay, *queueScreen, int, time.Time) {
	t.Helper()
	r, scr, id, acts := postOne(t)
	now := t0
	for range 100 {
		for _, a := range acts {
			switch a := a.(type) {
			case Type:
				scr.rows[len(scr.rows)-1] += a.Text
			case Submit:
				scr.rows = append(scr.rows, "")
				scr.unread = len(scr.rows[len(scr.rows)-2]) + 1
				return r, scr, id, now
			}
		}
		next, ok := r.NextWake()
		require.True(t, ok, "nothing due and nothing submitted")
		now = next
		acts = r.Tick(now)
	}
	t.Fatal("never submitted")
	return nil, nil, 0, now
}

// phase is delivery id's phase as the relay's log says.
func phase(r *Relay, id int) Phase {
	ph := Phase(-1)
	for _, e := range r.Log() {
		if e.Delivery == id {
			ph = e.Phase
		}
	}
	return ph
}

// The terminal's echo of the carriage return is no reaction while the line waits for
// the program: a kill then would lose it. What the program prints once it read the
// line confirms the delivery.
func TestEchoWithTheLineUnreadIsNoConfirmation(t *testing.T) {
	r, scr, id, now := unreadRun(t)
	now = now.Add(time.Millisecond)
	r.Handle(Output{Pane: 1}, now) // the echo of the carriage return
	require.Equal(t, Submitted, phase(r, id), "confirmed on the terminal's echo, the line unread")

	scr.unread = 0 // the program read the line, and answers
	scr.rows = append(scr.rows[:len(scr.rows)-1], "got", "> ")
	r.Handle(Output{Pane: 1}, now.Add(time.Millisecond))
	require.Equal(t, Confirmed, phase(r, id))
}

// A program that reads the line and prints nothing more took it: at the end of the
// confirm window the delivery is confirmed, and no second carriage return is sent
// (it would submit an empty line).
func TestQuietReaderIsConfirmedWithoutASecondReturn(t *testing.T) {
	r, scr, id, now := unreadRun(t)
	r.Handle(Output{Pane: 1}, now.Add(time.Millisecond)) // the echo
	scr.unread = 0                                       // read, silently
	at, ok := r.NextWake()
	require.True(t, ok)
	for _, a := range r.Tick(at) {
		_, again := a.(Submit)
		require.False(t, again, "a second carriage return into a program that read the line")
	}
	require.Equal(t, Confirmed, phase(r, id))
}

// A line still unread when the window closes is sent its second carriage return as
// before (the program may have swallowed the first), never confirmed by the echo.
func TestLineStillUnreadIsNotConfirmed(t *testing.T) {
	r, _, id, now := unreadRun(t)
	r.Handle(Output{Pane: 1}, now.Add(time.Millisecond)) // the echo; the program never reads
	at, ok := r.NextWake()
	require.True(t, ok)
	r.Tick(at)
	require.NotEqual(t, Confirmed, phase(r, id))
}

// stalledRun opens a program that draws its input in a box and sends it one message,
// running the relay's wake-ups while the program, stalled, reads nothing typed into it
// (as Gemini CLI does while it loads a resumed conversation under load). It returns
// when the text was typed and every wake-up up to stall after it ran, and fails on a
// carriage return sent meanwhile: it would reach the program in the same read as the
// text, and Gemini CLI takes an Enter read within 30 ms of a paste as a newline.
func stalledRun(t *testing.T, stall time.Duration) (*Relay, *queueScreen, int, time.Time) {
	t.Helper()
	r, scr, id, acts := postOne(t)
	now := t0
	var typedAt time.Time
	for {
		for _, a := range acts {
			switch a := a.(type) {
			case Type:
				typedAt = now
				scr.unread = len(a.Bytes()) // nothing of it read
			case Submit:
				t.Fatalf("carriage return sent %v after the text, the text unread", now.Sub(typedAt))
			}
		}
		next, ok := r.NextWake()
		if !ok || (!typedAt.IsZero() && next.Sub(typedAt) > stall) {
			require.False(t, typedAt.IsZero(), "never typed")
			return r, scr, id, typedAt.Add(stall)
		}
		now = next
		acts = r.Tick(now)
	}
}

// A program stalled when its delivery is due to be submitted gets the carriage return
// SubmitDelay after its output shows it read the text, and no sooner.
func TestSubmitWaitsForTheTextToBeRead(t *testing.T) {
	r, scr, id, now := stalledRun(t, 5*time.Second)
	require.Equal(t, Typed, phase(r, id))
	require.Contains(t, note(r, id), "not read by its program yet", "the relay log does not say why it waits")

	scr.unread = 0 // it reads the text and draws its input box
	scr.rows[len(scr.rows)-1] = "> m1"
	for _, a := range r.Handle(Output{Pane: 1}, now) {
		_, sub := a.(Submit)
		require.False(t, sub, "carriage return sent with the read, not after it")
	}
	at, ok := r.NextWake()
	require.True(t, ok)
	require.Equal(t, now.Add(Config{}.withDefaults().SubmitDelay), at, "the submit is due SubmitDelay after the read")
	submitted := false
	for _, a := range r.Tick(at) {
		_, submitted = a.(Submit)
	}
	require.True(t, submitted, "no carriage return once the text was read")
	require.Equal(t, Submitted, phase(r, id))
	require.Contains(t, note(r, id), "submitted after the read")
}

// note is delivery id's note in the relay's log.
func note(r *Relay, id int) string {
	for _, e := range r.Log() {
		if e.Delivery == id {
			return e.Note
		}
	}
	return ""
}

// A program that never reads its input gets the carriage return readWait after the
// text, as a program that cannot tell would get it at once: the delivery does not wait
// for good.
func TestSubmitDoesNotWaitForeverForTheRead(t *testing.T) {
	r, _, id, _ := stalledRun(t, readWait-time.Millisecond)
	at, ok := r.NextWake()
	require.True(t, ok)
	submitted := false
	for _, a := range r.Tick(at) {
		_, submitted = a.(Submit)
	}
	require.True(t, submitted, "no carriage return at the end of the read wait")
	require.Equal(t, Submitted, phase(r, id))
}
