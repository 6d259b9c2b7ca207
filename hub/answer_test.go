package hub_test

// X_ANSWER: the person's alone. A pane's program (by its proof, or a process running
// in a pane without it) is refused and the core never hears of it, so a prompt-injected
// agent can approve neither its own request nor another's; the person's answer reaches
// the core with the option and question, and the core's refusal (the prompt is gone)
// is the answer.

import (
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// answeringCore is a core whose panes can be answered (hub.Answerer).
type answeringCore struct {
	*fakeCore
	err     error         // what AnswerPrompt answers
	typed   chan struct{} // when not nil, AnswerPrompt returns once it is closed (a prompt settling)
	entered chan struct{} // with typed: receives as AnswerPrompt starts waiting
}

func (c answeringCore) AnswerPrompt(id int, option, question string) (proto.Option, error) {
	_ = c.act("answer " + c.name(id) + " " + option + " " + question)
	if c.typed != nil {
		c.entered <- struct{}{}
		<-c.typed
	}
	return proto.Option{Key: "1", Label: "Yes"}, c.err
}

func (c answeringCore) answers() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.actions...)
}

func TestAnswerIsThePersons(t *testing.T) {
	core := newFakeCore("claude", "codex")
	ac := answeringCore{fakeCore: core}
	e := start(t, core, "", func(c *hub.Config) { c.Core = ac })
	var ce *client.Error

	_, err := e.paneControl("codex").Request(proto.TypeAnswer, proto.Answer{A: "claude", Option: "yes"})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "X_ANSWER from pane codex: only the person answers")
	_, err = e.paneControl("claude").Request(proto.TypeAnswer, proto.Answer{A: "claude", Option: "yes"})
	require.ErrorAs(t, err, &ce, "not its own request either")
	assert.Empty(t, ac.answers(), "the core never heard of a pane's answer")

	res, err := e.control().Request(proto.TypeAnswer, proto.Answer{A: "1", Option: "yes", Question: "Run it?"})
	require.NoError(t, err)
	assert.Equal(t, &proto.Option{Key: "1", Label: "Yes"}, res.Answer)
	assert.Equal(t, []string{"answer claude yes Run it?"}, ac.answers())

	ac.err = errors.New("it now asks something else")
	e2 := start(t, newFakeCore("claude"), "", func(c *hub.Config) { c.Core = ac })
	_, err = e2.control().Request(proto.TypeAnswer, proto.Answer{A: "claude", Option: "yes", Question: "Run it?"})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "it now asks something else")
}

// An answer waits until its key is typed (a prompt drawn a moment ago settles first):
// the hub answers everyone else meanwhile, and the answer when it is typed.
func TestAnswerWaitsOffTheHubsLoop(t *testing.T) {
	core := newFakeCore("claude")
	ac := answeringCore{fakeCore: core, typed: make(chan struct{}), entered: make(chan struct{}, 1)}
	e := start(t, core, "", func(c *hub.Config) { c.Core = ac })
	var release sync.Once
	typed := func() { release.Do(func() { close(ac.typed) }) }
	t.Cleanup(typed) // a failed test lets the hub stop
	done := make(chan error, 1)
	go func() {
		_, err := e.control().Request(proto.TypeAnswer, proto.Answer{A: "claude", Option: "yes"})
		done <- err
	}()
	<-ac.entered // the answer waits for its key to be typed
	listed := make(chan error, 1)
	go func() {
		_, err := e.control().Request(proto.TypeList, struct{}{})
		listed <- err
	}()
	select {
	case err := <-listed:
		require.NoError(t, err, "another client is answered while the answer waits")
	case <-time.After(10 * time.Second):
		t.Fatal("the hub answers no one while an answer waits")
	}
	select {
	case err := <-done:
		t.Fatalf("the answer came back before its key was typed: %v", err)
	default:
	}
	typed()
	require.NoError(t, <-done)
}

func TestAnswerFromAPaneProcessRefused(t *testing.T) {
	core := newFakeCore("claude")
	ac := answeringCore{fakeCore: core}
	e := start(t, core, "", func(c *hub.Config) { c.Core = ac })
	core.runIn(os.Getpid(), "claude") // a process of pane claude, without its proof
	_, err := e.control().Request(proto.TypeAnswer, proto.Answer{A: "claude", Option: "1"})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "only the person answers")
	assert.Empty(t, ac.answers())
}

func (c answeringCore) HookAsk(pane, text, source string) error {
	return c.act("asks " + pane + " " + source + " " + text)
}

// A notification hook's ask reaches the core's HookAsk, never Hook (it ends no turn).
func TestHookAskRouted(t *testing.T) {
	core := newFakeCore("claude")
	ac := answeringCore{fakeCore: core}
	e := start(t, core, "", func(c *hub.Config) { c.Core = ac })
	_, err := e.paneControl("claude").Request(proto.TypeHook, proto.Hook{Pane: "claude", Event: proto.HookAsk, CLI: "claude", Text: "needs your permission"})
	require.NoError(t, err)
	assert.Equal(t, []string{"asks claude claude ask hook needs your permission"}, ac.answers())
}
