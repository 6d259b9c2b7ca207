package session

// Strategy: a fake claude pane prints an approval prompt; the member the session
// publishes (its event, Members, the socket's Panes and events) must say "needs you"
// with the question and choices read from its screen, keep Since while the prompt is
// redrawn, and drop Asks once the prompt is gone.

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/parser"
)

const claudePrompt = "\x1b[2J\x1b[H Bash command\r\n   touch probe\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel"

func TestAsksFromScreen(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude")
	start := r.clock.Now()
	r.procs[1].Print(claudePrompt)
	ev := r.await(func(ev Event) bool { m, ok := ev.(MemberChanged); return ok && m.Member.State == NeedsYou })
	m := ev.(MemberChanged).Member
	require.NotNil(t, m.Asks)
	assert.Equal(t, "Do you want to proceed?", m.Asks.Question)
	assert.Equal(t, []parser.Option{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}, m.Asks.Options)
	assert.Equal(t, []string{"Bash command", "touch probe", "Do you want to proceed?", "❯ 1. Yes", "2. No"}, m.Asks.Context)
	assert.Equal(t, start, m.Asks.Since)
	assert.Equal(t, "Do you want to proceed? 1 Yes 2 No", m.Asks.Short())

	w := r.s.Panes()
	require.Len(t, w, 1)
	require.NotNil(t, w[0].Asks)
	assert.Equal(t, "needs you", w[0].State)
	assert.Equal(t, start.UnixMilli(), w[0].Asks.Since)
	assert.Equal(t, "2", w[0].Asks.Options[1].Key)
	evs := wireEvent(ev)
	require.Len(t, evs, 1)
	assert.Equal(t, "Do you want to proceed?", evs[0].Asks.Question)

	// Redrawn a second later: the same ask, waiting since the start.
	r.advance(time.Second)
	r.printed(1, claudePrompt)
	assert.Equal(t, start, r.s.Members()[0].Asks.Since)

	// Answered: the prompt is gone, and so is the ask.
	r.printed(1, "\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
	got := r.s.Members()[0]
	assert.NotEqual(t, NeedsYou, got.State)
	assert.Nil(t, got.Asks)
}

func TestAnswer(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude")
	_, _, err := r.s.Answer(1, "yes", "")
	require.ErrorIs(t, err, ErrNoPrompt, "no prompt yet: nothing to answer")

	r.printed(1, claudePrompt)
	_, _, err = r.s.Answer(1, "yes", "Delete everything?")
	require.ErrorIs(t, err, ErrNoPrompt, "an answer for another prompt is refused")
	_, _, err = r.s.Answer(1, "maybe", "")
	require.ErrorContains(t, err, `no choice "maybe" (the choices: 1 Yes; 2 No)`)
	r.s.Sync()
	assert.Empty(t, r.procs[1].Sent(), "nothing typed for a refused answer")

	r.advance(askSettle) // the prompt has stood a while: typed at once
	o, _, err := r.s.Answer(1, "no", "Do you want to proceed?")
	require.NoError(t, err)
	assert.Equal(t, parser.Option{Key: "2", Label: "No"}, o)
	r.s.Sync()
	assert.Equal(t, "2", r.procs[1].Sent(), "the choice's key, as a person would type it")

	// Answered in the terminal meanwhile: the prompt is gone, the answer refused.
	r.printed(1, "\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
	_, _, err = r.s.Answer(1, "yes", "Do you want to proceed?")
	require.ErrorIs(t, err, ErrNoPrompt)
	r.s.Sync()
	assert.Empty(t, r.procs[1].Sent())
}

// A choice's label too long for a narrow pane: Claude Code 2.1.332 wraps it onto a
// second row itself, another program leaves the terminal to wrap it. Either way the ask
// has its choices with the label whole (the soft-wrapped rows joined as printed, not with
// a space inside a word), so the person's answer is taken (before parser.ReadAsk read
// wrapped labels, it was refused as no prompt).
func TestAnswerAWrappedChoice(t *testing.T) {
	for name, second := range map[string]string{
		"wrapped by the program":  "   2. Yes, and always allow access to\r\n      /tmp/work/ from this project\r\n",
		"wrapped by the terminal": "   2. Yes, and always allow access to /tmp/work/ from this project\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, Options{OutputInterval: -1}, "claude") // 40 columns
			r.printed(1, "\x1b[2J\x1b[H Bash command\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n"+
				second+"   3. No\r\n\r\n Esc to cancel")
			m := r.s.Members()[0]
			require.Equal(t, NeedsYou, m.State)
			require.NotNil(t, m.Asks)
			assert.Equal(t, []parser.Option{{Key: "1", Label: "Yes"},
				{Key: "2", Label: "Yes, and always allow access to /tmp/work/ from this project"}, {Key: "3", Label: "No"}}, m.Asks.Options)
			r.advance(askSettle)
			o, _, err := r.s.Answer(1, "yes, and always", "Do you want to proceed?")
			require.NoError(t, err)
			assert.Equal(t, "2", o.Key)
			r.s.Sync()
			assert.Equal(t, "2", r.procs[1].Sent())
		})
	}
}

func TestAnswerNotOverTyping(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude", "claude")
	// Pane 1: the person's message led to the prompt; keys before it do not count.
	require.NoError(t, r.s.TypeText(1, "please run it", true))
	r.s.Sync()
	r.procs[1].Sent()
	r.advance(time.Second)
	r.printed(1, claudePrompt)
	r.advance(askSettle)
	_, _, err := r.s.Answer(1, "1", "")
	require.NoError(t, err, "the person's message before the prompt is no answer in progress")
	r.s.Sync()
	assert.Equal(t, "1", r.procs[1].Sent())

	// Pane 2: the person moves through the choices: an answer from elsewhere waits.
	r.printed(2, claudePrompt)
	r.s.Key(2, keys.Key{Code: keys.KeyDown})
	r.s.Sync()
	r.procs[2].Sent()
	_, _, err = r.s.Answer(2, "1", "")
	require.ErrorContains(t, err, "someone is answering it at the keyboard")
	r.s.Sync()
	assert.Empty(t, r.procs[2].Sent())
	r.advance(answerHold)
	_, _, err = r.s.Answer(2, "1", "")
	require.NoError(t, err, "once they stopped")
}

// An answer that comes while the prompt is being drawn (Claude Code drops keys for
// 100-200 ms after drawing it) is held until the choices have stood askSettle, then
// typed.
func TestAnswerWaitsForThePromptToSettle(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude")
	r.printed(1, claudePrompt)
	r.advance(askSettle / 3)
	o, typed, err := r.s.Answer(1, "yes", "Do you want to proceed?")
	require.NoError(t, err)
	assert.Equal(t, "1", o.Key)
	r.s.Sync()
	assert.Empty(t, r.procs[1].Sent(), "not typed while the prompt is new")
	assert.Empty(t, typed, "not said typed while it is held")
	_, _, err = r.s.Answer(1, "no", "")
	require.ErrorContains(t, err, "another answer to this prompt is about to be typed")

	r.advance(askSettle/3*2 - time.Millisecond)
	assert.Empty(t, r.procs[1].Sent())
	assert.Empty(t, typed)
	r.advance(time.Millisecond)
	assert.Equal(t, "1", r.procs[1].Sent(), "typed once the prompt stood askSettle")
	require.NoError(t, <-typed, "and said typed then")
	r.advance(time.Second)
	assert.Empty(t, r.procs[1].Sent(), "typed once")

	// The same prompt redrawn (Claude Code draws it again as it settles) is still the
	// same choices: the time counts from when they first showed.
	r.printed(1, "\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
	r.printed(1, claudePrompt)
	r.advance(askSettle / 2)
	r.printed(1, claudePrompt+" ")
	_, _, err = r.s.Answer(1, "2", "")
	require.NoError(t, err)
	r.advance(askSettle / 2)
	assert.Equal(t, "2", r.procs[1].Sent())
}

// A held answer is typed only into the prompt it was for, and never after someone
// typed into the pane.
func TestHeldAnswerDropped(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude", "claude")

	// Pane 1: answered at the keyboard meanwhile, the prompt gone.
	r.printed(1, claudePrompt)
	_, typed, err := r.s.Answer(1, "1", "")
	require.NoError(t, err)
	r.printed(1, "\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
	r.advance(askSettle)
	assert.Empty(t, r.procs[1].Sent(), "its prompt is gone")
	err = <-typed
	require.ErrorIs(t, err, ErrNoPrompt, "the answer says it was dropped")
	require.ErrorContains(t, err, "its prompt went")

	// Pane 2: the person moved through the choices while it was held.
	r.printed(2, claudePrompt)
	_, typed, err = r.s.Answer(2, "2", "")
	require.NoError(t, err)
	r.s.Key(2, keys.Key{Code: keys.KeyDown})
	r.s.Sync()
	r.procs[2].Sent()
	r.advance(askSettle)
	assert.Empty(t, r.procs[2].Sent(), "never typed over the person")
	require.ErrorContains(t, <-typed, "someone typed into the pane")
}

// A held answer whose pane is closed, or whose program is restarted, says so; an
// answer waited for (AnswerTyped) returns once typed.
func TestHeldAnswerOutcomes(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude", "claude", "claude")

	r.printed(1, claudePrompt)
	_, typed, err := r.s.Answer(1, "1", "")
	require.NoError(t, err)
	require.NoError(t, r.s.Close(1))
	require.ErrorIs(t, <-typed, ErrNoPane, "closed while held")

	r.printed(2, claudePrompt)
	_, typed, err = r.s.Answer(2, "1", "")
	require.NoError(t, err)
	r.procs[2].Exit(0)
	r.await(func(ev Event) bool { e, ok := ev.(Exit); return ok && e.Pane == 2 })
	require.NoError(t, r.s.Respawn(2, false))
	require.ErrorIs(t, <-typed, ErrNoPane, "restarted while held")

	r.printed(3, claudePrompt)
	r.advance(askSettle)
	_, err = r.s.AnswerTyped(3, "yes", "")
	require.NoError(t, err)
	assert.Equal(t, "1", r.procs[3].Sent(), "typed when AnswerTyped returned")
}

func TestPickOption(t *testing.T) {
	gemini := []parser.Option{{Key: "1", Label: "Allow once"}, {Key: "2", Label: "Allow for this session"}, {Key: "3", Label: "No, suggest changes (esc)"}}
	for in, want := range map[string]string{"1": "1", "3": "3", "yes": "1", "allow for": "2", "No": "3", "n": "3", "ALLOW ONCE": "1"} {
		o, err := pickOption(gemini, in)
		require.NoError(t, err, in)
		assert.Equal(t, want, o.Key, in)
	}
	codex := []parser.Option{{Key: "1", Label: "Yes, proceed (y)"}, {Key: "2", Label: "Yes, and don't ask again (p)"}, {Key: "3", Label: "No, and tell Codex (esc)"}}
	o, _ := pickOption(codex, "yes")
	assert.Equal(t, "1", o.Key, "the first label that starts so")
	_, err := pickOption(codex, "4")
	assert.Error(t, err)
}

func TestHookAsk(t *testing.T) {
	hooked := func(id int, spec PaneSpec, prof parser.Profile) (PaneSpec, bool) { return spec, true }
	r := newRig(t, Options{OutputInterval: -1, Hooks: hooked}, "claude")
	r.printed(1, "\x1b[2J\x1b[H⎿  Waiting…\r\n an unusual prompt drawn here\r\n")
	require.NotEqual(t, NeedsYou, r.s.Members()[0].State, "the screen alone says nothing")

	require.NoError(t, r.s.HookAsk("1", "Claude needs your permission to use Bash", "claude ask hook"))
	m := r.s.Members()[0]
	require.Equal(t, NeedsYou, m.State, "the program's own hook says it waits for the person")
	require.NotNil(t, m.Asks)
	assert.Equal(t, "Claude needs your permission to use Bash", m.Asks.Question)

	r.s.Key(1, keys.Key{Code: keys.KeyEscape}) // the person acted on it
	r.s.Sync()
	assert.NotEqual(t, NeedsYou, r.s.Members()[0].State)

	// A turn end clears it too.
	require.NoError(t, r.s.HookAsk("1", "again", "claude ask hook"))
	require.Equal(t, NeedsYou, r.s.Members()[0].State)
	require.NoError(t, r.s.Hook("1", "done", "claude stop hook"))
	assert.NotEqual(t, NeedsYou, r.s.Members()[0].State)
}

// Gemini CLI runs its notification hook before it draws its prompt, its screen still
// busy: the pane needs the person from the hook on, through the prompt, until its
// screen says it works again after that.
func TestHookAskWhileTheScreenIsStillBusy(t *testing.T) {
	hooked := func(id int, spec PaneSpec, prof parser.Profile) (PaneSpec, bool) { return spec, true }
	r := newRig(t, Options{OutputInterval: -1, Hooks: hooked}, "gemini")
	const working = "\x1b]0;✦  Working… (project)\x07"
	r.printed(1, working+"\x1b[2J\x1b[H > please run-tool now\r\n\r\n ⠏ Executing Hook: agentmux\r\n")
	require.NotEqual(t, NeedsYou, r.s.Members()[0].State)

	require.NoError(t, r.s.HookAsk("1", "Tool Shell requires execution", "gemini ask hook"))
	m := r.s.Members()[0]
	require.Equal(t, NeedsYou, m.State, "its hook says it waits for the person, its prompt yet to come")
	require.NotNil(t, m.Asks)
	assert.Equal(t, "Tool Shell requires execution", m.Asks.Question)
	since := m.Asks.Since

	r.advance(time.Second)
	r.printed(1, "\x1b]0;✋  Action Required (project)\x07\x1b[2J\x1b[H > please run-tool now\r\n"+
		" Allow execution of [Shell]?\r\n\r\n ● 1. Allow once\r\n   2. Allow for this session\r\n   3. No, suggest changes (esc)\r\n")
	m = r.s.Members()[0]
	require.Equal(t, NeedsYou, m.State)
	require.NotNil(t, m.Asks)
	assert.Equal(t, "Allow execution of [Shell]?", m.Asks.Question, "the screen's words, once it shows them")
	assert.Len(t, m.Asks.Options, 3)
	assert.Equal(t, since, m.Asks.Since, "the same ask, read better")

	r.printed(1, working+"\x1b[2J\x1b[H > please run-tool now\r\n\r\n ⠏ Running\r\n") // answered elsewhere
	assert.NotEqual(t, NeedsYou, r.s.Members()[0].State, "busy again after its prompt: it works")
}

func TestHookAskIgnoredWithoutHooks(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude")
	require.NoError(t, r.s.HookAsk("1", "trust me", "forged"))
	assert.NotEqual(t, NeedsYou, r.s.Members()[0].State, "a pane started without hooks ignores them")
}

// A program that leaves its prompt on the screen after taking the answer (or is slow to
// redraw it): a second answer to the same prompt, from the phone while the browser's
// went through, say, would be typed into whatever the program reads next. It is
// refused; the next prompt, after the program worked, takes an answer again.
func TestAnswerOncePerPrompt(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude")
	r.printed(1, claudePrompt)
	r.advance(askSettle)
	_, _, err := r.s.Answer(1, "1", "")
	require.NoError(t, err)
	r.s.Sync()
	assert.Equal(t, "1", r.procs[1].Sent())

	_, _, err = r.s.Answer(1, "2", "")
	require.ErrorIs(t, err, ErrAnswered, "the prompt has its answer")
	assert.ErrorContains(t, err, "answered already")
	r.printed(1, "\r\n ok\r\n") // it took the key and left the prompt standing
	_, _, err = r.s.Answer(1, "yes", "Do you want to proceed?")
	require.ErrorIs(t, err, ErrAnswered, "still the same prompt")
	r.s.Sync()
	assert.Empty(t, r.procs[1].Sent(), "nothing typed for the second answer")

	// It worked, then asked again: a new prompt, a new answer.
	r.printed(1, "\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
	r.advance(time.Second)
	r.printed(1, claudePrompt)
	r.advance(askSettle)
	_, _, err = r.s.Answer(1, "2", "")
	require.NoError(t, err)
	r.s.Sync()
	assert.Equal(t, "2", r.procs[1].Sent())
}

// A held answer, once typed, answers its prompt too: a second one given after it was
// typed is refused.
func TestHeldAnswerAnswersThePrompt(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude")
	r.printed(1, claudePrompt)
	_, typed, err := r.s.Answer(1, "1", "")
	require.NoError(t, err)
	r.advance(askSettle)
	require.NoError(t, <-typed)
	r.s.Sync()
	assert.Equal(t, "1", r.procs[1].Sent())
	_, _, err = r.s.Answer(1, "1", "")
	require.ErrorIs(t, err, ErrAnswered)
}

// An answer typed at a prompt is the prompt's, no draft in the pane's input: once the
// prompt goes and the input shows empty, nothing is said of a draft taken as gone
// (which every answer made the relay say).
func TestAnAnswerIsNoDraft(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1, Idle: time.Second}, "claude", "bob")
	r.started(1, 2)
	require.NoError(t, r.s.Link(1, 2))
	r.printed(1, claudePrompt)
	r.printed(2, "\r\nhere is my answer\r\n> ") // a turn for claude: it waits for the prompt
	r.advance(askSettle)
	_, _, err := r.s.Answer(1, "no", "")
	require.NoError(t, err)
	r.s.Sync()
	r.printed(1, "\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
	for range 5 {
		r.advance(5 * time.Second)
	}
	for {
		select {
		case <-r.sub.Ready():
		default:
			assert.Contains(t, r.procs[1].Sent(), "here is my answer", "bob's turn went in once the prompt was answered")
			return
		}
		for _, ev := range r.sub.Next() {
			if n, ok := ev.(Notice); ok {
				assert.NotContains(t, n.Entry.Note, "taken as gone")
			}
		}
	}
}
