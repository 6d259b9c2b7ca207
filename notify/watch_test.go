package notify

// Strategy: a real session over fake panes (internal/fakeproc) with Watch running; the
// panes print an approval prompt of Claude Code's shape. The notes go to a recording
// command. The barrier: the test waits (on its own subscription) until the members say
// "needs you", Session.Sync puts every event with the subscribers, Watch handles what
// is pending when its context ends, and Notifier.Close sends what is gathered and waits
// for the command: after that the file holds all there will ever be.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/session"
)

const prompt = "\x1b[2J\x1b[H Bash command\r\n   touch probe\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel"

// startSession starts a session of n fake claude panes.
func startSession(t testing.TB, n int) (*session.Session, map[int]*fakeproc.Proc) {
	var mu sync.Mutex
	procs := map[int]*fakeproc.Proc{}
	o := session.Options{OutputInterval: -1, Start: func(spec ptyhost.Spec, out io.Writer) (session.Process, error) {
		f := fakeproc.New(spec, out)
		mu.Lock()
		procs[spec.Pane] = f
		mu.Unlock()
		return f, nil
	}}
	for i := range n {
		o.Panes = append(o.Panes, session.PaneSpec{Name: fmt.Sprintf("claude-%d", i+1), Argv: []string{"claude"}, Cols: 60, Rows: 12})
	}
	s, err := session.Start(o)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Stop()) })
	return s, procs
}

// waitNeedsYou waits until every pane of s says "needs you".
func waitNeedsYou(t *testing.T, s *session.Session, sub *session.Subscription, n int) {
	deadline := time.After(10 * time.Second)
	for {
		waiting := 0
		for _, m := range s.Members() {
			if m.State == session.NeedsYou && m.Asks != nil {
				waiting++
			}
		}
		if waiting == n {
			return
		}
		select {
		case <-sub.Ready():
			sub.Next()
		case <-deadline:
			t.Fatalf("%d of %d panes need you after 10 s", waiting, n)
		}
	}
}

// watched runs Watch over s into a notifier with a recording command; stop ends Watch
// and closes the notifier, then returns the command's lines.
func watched(t *testing.T, s *session.Session, window time.Duration) (stop func() []string) {
	argv, lines := recorder(t)
	n := New(Config{Session: "main", Command: argv, Window: window})
	ctx, cancel := context.WithCancel(context.Background())
	done := Watch(ctx, s, n)
	return func() []string {
		s.Sync() // every event so far is with the subscribers
		cancel()
		<-done
		n.Close()
		return lines()
	}
}

func TestWatchNeedsYou(t *testing.T) {
	s, procs := startSession(t, 1)
	sub := s.Subscribe(0)
	defer sub.Close()
	stop := watched(t, s, time.Millisecond)
	procs[1].Print(prompt)
	waitNeedsYou(t, s, sub, 1)
	procs[1].Print(prompt) // redrawn: the same state, no second note
	s.Sync()
	ls := stop()
	require.Len(t, ls, 1, "one note per change of state")
	var got Note
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &got))
	assert.Equal(t, NeedsYou, got.Event)
	assert.Equal(t, "claude-1", got.Name)
	assert.Equal(t, "claude-1 (1) needs you", got.Title)
	require.NotNil(t, got.Asks)
	assert.Equal(t, "Do you want to proceed?", got.Asks.Question)
	assert.Len(t, got.Asks.Options, 2)
	assert.Contains(t, got.Excerpt, "touch probe")
}

func TestWatchSixOnOnePrompt(t *testing.T) {
	s, procs := startSession(t, 6)
	sub := s.Subscribe(0)
	defer sub.Close()
	stop := watched(t, s, time.Hour) // gathered until stop
	for i := 1; i <= 6; i++ {
		procs[i].Print(prompt)
	}
	waitNeedsYou(t, s, sub, 6)
	ls := stop()
	require.Len(t, ls, 1, "six panes stuck on one prompt: one notification")
	var got Note
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &got))
	assert.Equal(t, 6, got.Count)
	assert.Equal(t, "6 panes need you: Do you want to proceed?", got.Title)
	assert.Equal(t, "claude-1, claude-2, claude-3, claude-4, claude-5, claude-6", got.Message)
}

func TestWatchExit(t *testing.T) {
	s, procs := startSession(t, 1)
	stop := watched(t, s, time.Millisecond)
	sub := s.Subscribe(0)
	defer sub.Close()
	procs[1].Exit(3)
	for exited := false; !exited; {
		<-sub.Ready()
		for _, ev := range sub.Next() {
			_, exited = ev.(session.Exit)
		}
	}
	ls := stop()
	require.Len(t, ls, 1)
	assert.Contains(t, ls[0], `"event":"exited"`)
	assert.Contains(t, ls[0], `"title":"claude-1 (1) exited (3)"`)
}

// The watcher's other notes, from the session's events as the session emits them.
func TestWatcherNotes(t *testing.T) {
	argv, lines := recorder(t)
	n := New(Config{Session: "main", Command: argv, Events: AllEvents, Window: time.Hour})
	w := watcher{n: n, state: map[int]session.State{}, names: map[int]string{2: "codex"}, pending: map[int]Note{}}
	at := time.UnixMilli(1_700_000_000_000)
	w.handle(session.Notice{Entry: session.Entry{At: at, Note: "budget spent (8/8): 1⇄2 severed; relink to continue"}})
	w.handle(session.Notice{Entry: session.Entry{At: at, Note: "linked 1⇄2 (0/8 turns)"}}) // no news
	w.handle(session.Delivery{Entry: session.Entry{Delivery: 3, To: 2, ToName: "codex", Words: "please rebase", Phase: relay.Expired, Changed: at}})
	w.handle(session.Delivery{Entry: session.Entry{Delivery: 4, To: 2, ToName: "codex", Phase: relay.Confirmed, Changed: at}})
	w.handle(session.Exit{Pane: 2, Code: -9})
	w.handle(session.Turn{Pane: 2, Name: "codex", Text: "done"})
	n.Close()
	ls := lines()
	require.Len(t, ls, 1)
	var got Note
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &got))
	require.Equal(t, 4, got.Count, "%s", ls[0])
	var events []string
	for _, note := range got.Notes {
		events = append(events, note.Event+": "+note.Title)
	}
	assert.Equal(t, []string{
		"budget: relay budget spent",
		"expired: a message to codex (2) expired",
		"exited: codex (2) killed (SIGKILL)",
		"turn: codex (2) finished a turn",
	}, events)
}

// A prompt drawn in pieces (the question first, the choices in a later frame) is one
// note, with the choices; one whose choices never come goes without them.
func TestWatchWaitsForChoices(t *testing.T) {
	const question = "\x1b[2J\x1b[H Bash command\r\n   touch probe\r\n\r\n Do you want to proceed?\r\n"
	s, procs := startSession(t, 2)
	sub := s.Subscribe(0)
	defer sub.Close()
	stop := watched(t, s, time.Millisecond)
	procs[1].Print(question)
	procs[2].Print(question)
	waitState2(t, s, sub, func(ms []session.Member) bool {
		return ms[0].State == session.NeedsYou && ms[1].State == session.NeedsYou
	})
	procs[1].Print(prompt) // pane 1's choices come; pane 2's never do
	waitState2(t, s, sub, func(ms []session.Member) bool { return ms[0].Asks != nil && len(ms[0].Asks.Options) == 2 })
	byPane := map[int]Note{}
	for _, l := range stop() {
		var n Note
		require.NoError(t, json.Unmarshal([]byte(l), &n))
		for _, one := range append(n.Notes, n) { // a summary's notes, or the note itself
			if one.Event == NeedsYou {
				_, twice := byPane[one.Pane]
				require.False(t, twice, "one note per pane")
				byPane[one.Pane] = one
			}
		}
	}
	require.Len(t, byPane, 2)
	require.NotNil(t, byPane[1].Asks)
	assert.Len(t, byPane[1].Asks.Options, 2, "pane 1's note waited for its choices")
	assert.Equal(t, "claude-2 (2) needs you", byPane[2].Title, "pane 2's went without them")
}

// waitState2 waits until the members of s satisfy ok.
func waitState2(t *testing.T, s *session.Session, sub *session.Subscription, ok func([]session.Member) bool) {
	deadline := time.After(10 * time.Second)
	for !ok(s.Members()) {
		select {
		case <-sub.Ready():
			sub.Next()
		case <-deadline:
			t.Fatal("the members never reached the state")
		}
	}
}

// A spend cap reached (the session's, a pane's) is a budget note, once: the notices
// that the person's own messages still go past it are no news.
func TestWatcherNotesSpendCaps(t *testing.T) {
	argv, lines := recorder(t)
	n := New(Config{Session: "main", Command: argv, Events: DefaultEvents, Window: time.Hour})
	w := watcher{n: n, state: map[int]session.State{}, names: map[int]string{2: "codex"}, pending: map[int]Note{}}
	at := time.UnixMilli(1_700_000_000_000)
	w.handle(session.Notice{Entry: session.Entry{At: at, Note: "session spend cap reached (2.1M tokens, $20.40 of $20): every delivery is held; your own messages still go"}})
	w.handle(session.Notice{Entry: session.Entry{At: at, From: 2, FromName: "codex", Note: "session spend cap reached (2.1M tokens, $20.40 of $20): your message to 2 codex goes; the agents' deliveries are held"}})
	w.handle(session.Notice{Entry: session.Entry{At: at, From: 2, FromName: "codex", Note: "pane spend cap reached (500k tokens, $5.10 of $5): deliveries into 2 codex are held; your own messages still go"}})
	n.Close()
	ls := lines()
	require.Len(t, ls, 1)
	var got Note
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &got))
	var events []string
	for _, note := range got.Notes {
		events = append(events, note.Event+": "+note.Title)
	}
	assert.Equal(t, []string{"budget: session spend cap reached", "budget: pane spend cap reached"}, events, "%s", ls[0])
}

// A new prompt while the pane still needs the person (its last one left on the screen,
// a second question under it) is news: a note of its own; the same prompt redrawn is
// not.
func TestWatchANewPromptWhileStillNeedingYou(t *testing.T) {
	argv, lines := recorder(t)
	n := New(Config{Session: "main", Command: argv, Events: AllEvents, Window: time.Hour})
	w := watcher{n: n, state: map[int]session.State{}, names: map[int]string{}, pending: map[int]Note{}, asked: map[int]time.Time{}}
	opts := []parser.Option{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}
	first := time.UnixMilli(1_700_000_000_000)
	ask := func(q string, since time.Time) session.Member {
		return session.Member{Pane: 1, Name: "bot", State: session.NeedsYou, Asks: &session.Asks{Question: q, Options: opts, Since: since}}
	}
	w.handle(session.MemberChanged{Member: ask("Do you want to proceed?", first)})
	w.handle(session.MemberChanged{Member: ask("Do you want to proceed?", first)}) // redrawn
	w.handle(session.MemberChanged{Member: ask("Again? Do you want to proceed?", first.Add(6*time.Second))})
	n.Close()
	ls := lines()
	require.Len(t, ls, 1)
	var got Note
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &got))
	var qs []string
	for _, note := range got.Notes {
		qs = append(qs, note.Message)
	}
	assert.Equal(t, []string{"Do you want to proceed?", "Again? Do you want to proceed?"}, qs)
}
