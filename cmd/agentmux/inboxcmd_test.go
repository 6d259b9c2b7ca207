package main

// Strategy: two real sessions (session cores over fake panes, internal/fakeproc) served
// by real hubs in a temp XDG_RUNTIME_DIR; panes print an approval prompt of Claude
// Code's shape. inbox lists the waiting panes of both sessions with what they ask;
// answer types the choice's key into the pane, and is refused once the prompt is gone.

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/internal/hubtest"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/session"
)

const approvalPrompt = "\x1b[2J\x1b[H Bash command\r\n   touch probe\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel"

// paneSession serves a session named name of fake claude panes; it returns their
// processes and the session.
func paneSession(t *testing.T, name string, panes int) (*session.Session, map[int]*fakeproc.Proc) {
	var mu sync.Mutex
	procs := map[int]*fakeproc.Proc{}
	o := session.Options{OutputInterval: -1, Start: func(spec ptyhost.Spec, out io.Writer) (session.Process, error) {
		f := fakeproc.New(spec, out)
		mu.Lock()
		procs[spec.Pane] = f
		mu.Unlock()
		return f, nil
	}}
	for i := range panes {
		o.Panes = append(o.Panes, session.PaneSpec{Name: fmt.Sprintf("claude-%d", i+1), Argv: []string{"claude"}, Cols: 60, Rows: 12})
	}
	s, err := session.Start(o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Stop() })
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	hubtest.Start(t, dir, hub.Config{Session: name, Core: s})
	return s, procs
}

// needsYou prints the prompt in pane id of s and waits until s says it needs you.
func needsYou(t *testing.T, s *session.Session, p *fakeproc.Proc, id int) {
	printAndWait(t, s, p, id, approvalPrompt, true)
}

// printAndWait prints text in pane id of s and waits until it needs you (or not).
func printAndWait(t *testing.T, s *session.Session, p *fakeproc.Proc, id int, text string, want bool) {
	sub := s.Subscribe(0)
	defer sub.Close()
	p.Print(text)
	deadline := time.After(10 * time.Second)
	for {
		if m, _ := s.Member(id); (m.State == session.NeedsYou && m.Asks != nil) == want {
			return
		}
		select {
		case <-sub.Ready():
			sub.Next()
		case <-deadline:
			t.Fatalf("the pane never said needs you = %v", want)
		}
	}
}

func TestInboxAndAnswer(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	for _, k := range []string{"AGENTMUX_SESSION", "AGENTMUX_SOCKET", "AGENTMUX_NAME", "AGENTMUX_PROOF", "AGENTMUX_PANE"} {
		t.Setenv(k, "")
	}
	a, pa := paneSession(t, "alpha", 2)
	b, pb := paneSession(t, "beta", 1)
	needsYou(t, a, pa[2], 2)
	needsYou(t, b, pb[1], 1)

	// A session named that is not running is said, not "nothing waits for you".
	code, _, err := runCmd(t, "", "inbox", "--session", "alpah")
	assert.Equal(t, 1, code)
	assert.ErrorContains(t, err, `no session "alpah" is running`)

	code, out, err := runCmd(t, "", "inbox", "--json")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	var got []inboxEntry
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, 2, "one waiting pane in each session: %s", out)
	sessions := []string{got[0].Session, got[1].Session}
	assert.ElementsMatch(t, []string{"alpha", "beta"}, sessions)
	for _, e := range got {
		assert.Equal(t, "Do you want to proceed?", e.Asks.Question)
		assert.Len(t, e.Asks.Options, 2)
	}

	_, out, err = runCmd(t, "", "inbox")
	require.NoError(t, err)
	assert.Contains(t, out, "SESSION")
	assert.Contains(t, out, "2 claude-2")
	assert.Contains(t, out, "1 Yes · 2 No")

	// The prompt appeared moments ago: the key is typed once it stood a while (the
	// session holds it, as programs drop keys that come while they draw a prompt).
	typed := make(chan struct{}, 1)
	pa[2].SetOnWrite(func() {
		select {
		case typed <- struct{}{}:
		default:
		}
	})
	code, out, err = runCmd(t, "", "answer", "--session", "alpha", "--question", "Do you want to proceed?", "claude-2", "yes")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	assert.Equal(t, "answered claude-2: 1 Yes\n", out)
	select {
	case <-typed:
	case <-time.After(10 * time.Second):
		t.Fatal("the answer was never typed")
	}
	assert.Equal(t, "1", pa[2].Sent(), "the choice's key typed into the pane")
	assert.Empty(t, pa[1].Sent())

	// Answered in the terminal meanwhile: the prompt is gone, the answer refused.
	printAndWait(t, b, pb[1], 1, "\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n", false)
	code, _, err = runCmd(t, "", "answer", "--session", "beta", "1", "yes")
	require.Error(t, err)
	assert.Equal(t, 1, code)
	assert.Contains(t, err.Error(), "does not wait at a prompt")
	assert.Equal(t, 1, strings.Count(err.Error(), "answer "), "the refusal says answer once: %s", err)
	b.Sync()
	assert.Empty(t, pb[1].Sent(), "nothing typed")

	_, out, err = runCmd(t, "", "inbox")
	require.NoError(t, err)
	assert.NotContains(t, out, "beta")
	assert.True(t, strings.Contains(out, "alpha"), out)
}
