package main

// Unit tests of restore's pieces that need no server: the resume command of each CLI
// (the forms checked against the installed CLIs' --help, docs/restore.md), ids that
// could pass as options refused, the plan of a saved pane whose program or folder is
// gone, and [session] restore's choice.

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/server"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
)

func TestResumeArgv(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		c    store.Conversation
		want string
	}{
		{[]string{"claude", "--model", "opus"}, store.Conversation{CLI: "claude", ID: "5f1c-22"}, "claude --model opus --resume 5f1c-22"},
		{[]string{"codex", "--full-auto"}, store.Conversation{CLI: "codex", ID: "019a-b"}, "codex resume 019a-b --full-auto"},
		{[]string{"gemini"}, store.Conversation{CLI: "gemini", ID: "g-1"}, "gemini --resume g-1"},
		{[]string{"qwen"}, store.Conversation{CLI: "qwen", ID: "q-1"}, "qwen --resume q-1"},
		{[]string{"pi", "--offline"}, store.Conversation{CLI: "pi", ID: "019ac2f3-8e1d"}, "pi --offline --session 019ac2f3-8e1d"},
		{[]string{"opencode"}, store.Conversation{CLI: "opencode", ID: "ses_4b1f2a"}, "opencode --session ses_4b1f2a"},
		{[]string{"aider"}, store.Conversation{CLI: "aider", ID: "x"}, ""},
		{[]string{"claude"}, store.Conversation{CLI: "claude", ID: "--dangerously-skip-permissions"}, ""},
		{[]string{"claude"}, store.Conversation{CLI: "claude", ID: "a b"}, ""},
		{nil, store.Conversation{CLI: "claude", ID: "a"}, ""},
	} {
		got, ok := resumeArgv(tc.argv, tc.c)
		assert.Equal(t, tc.want != "", ok, "%v %v", tc.argv, tc.c)
		assert.Equal(t, tc.want, strings.Join(got, " "), "%v %v", tc.argv, tc.c)
	}
}

func TestRestorePlanPane(t *testing.T) {
	folder := t.TempDir()
	plan := &restorePlan{given: map[int][]string{}, convs: map[int]store.Conversation{}, treeDirs: map[int]string{}}

	spec, note := plan.pane(1, savedPane{Name: "a", Command: []string{"sh", "-c", "true"}, Dir: filepath.Join(folder, "gone")}, store.Conversation{}, folder)
	assert.Empty(t, spec.Dir, "the session's folder, where the restored server starts")
	assert.Contains(t, note, "is gone, started in "+folder)
	assert.Contains(t, note, "started fresh")

	spec, note = plan.pane(2, savedPane{Name: "b", Command: []string{"no-such-agent-cli", "--x"}, Dir: folder}, store.Conversation{CLI: "claude", ID: "c1"}, folder)
	assert.Equal(t, "/bin/sh", spec.Argv[0])
	assert.Contains(t, strings.Join(spec.Argv, " "), "no-such-agent-cli is not installed")
	assert.Contains(t, note, "stays exited")
	assert.Equal(t, []string{"no-such-agent-cli", "--x"}, plan.given[2], "the next restore starts from what was given")
	assert.NotContains(t, plan.convs, 2)

	assert.Equal(t, []string{"no-such-agent-cli", "--x"}, spec.Fresh, "prefix R then f: the program, once installed")

	spec, note = plan.pane(3, savedPane{Name: "c", Command: []string{"sh"}, Dir: folder}, store.Conversation{}, folder)
	assert.Equal(t, []string{"sh"}, spec.Argv)
	assert.Empty(t, spec.Dir, "the session's folder is no folder of its own: its border names none")
	assert.Empty(t, note, "a shell starts again in its folder, nothing to say")
	spec, _ = plan.pane(3, savedPane{Name: "c", Command: []string{"sh"}, Dir: t.TempDir()}, store.Conversation{}, folder)
	assert.NotEmpty(t, spec.Dir, "a folder of its own stays")
	assert.Empty(t, spec.Restored, "a shell's border says nothing of it")

	// An agent on its conversation: resumed, and fresh is one prefix R f away; one with
	// no conversation recorded (or no way to resume it) starts fresh, and its border
	// and the note say so.
	spec, _ = plan.pane(4, savedPane{Name: "d", Command: []string{"sh", "-c", "true"}, Dir: folder}, store.Conversation{}, folder)
	assert.Equal(t, notResumed, spec.Restored)
	plan.pane(5, savedPane{Name: "e", Command: []string{"cat"}, Dir: folder, Profile: "claude"}, store.Conversation{CLI: "claude", ID: "c5"}, folder)
	assert.Contains(t, plan.convs, 5)
	spec, _ = plan.pane(6, savedPane{Name: "f", Command: []string{"cat", "-u"}, Dir: folder}, store.Conversation{CLI: "aider", ID: "a6"}, folder)
	assert.Equal(t, notResumed, spec.Restored)
	assert.Empty(t, spec.Fresh)
}

func TestRestorePlanResumes(t *testing.T) {
	folder := t.TempDir()
	plan := &restorePlan{given: map[int][]string{}, convs: map[int]store.Conversation{}, treeDirs: map[int]string{}}
	spec, note := plan.pane(1, savedPane{Name: "a", Command: []string{"cat", "-u"}, Dir: folder, Profile: "claude"}, store.Conversation{CLI: "claude", ID: "c1"}, folder)
	assert.Equal(t, []string{"cat", "-u", "--resume", "c1"}, spec.Argv)
	assert.Equal(t, []string{"cat", "-u"}, spec.Fresh)
	assert.Equal(t, "resumed", spec.Restored)
	assert.Empty(t, note)
}

// The CLI a pane's hook reported is the pane's word: a conversation recorded as
// codex's (or claude's) for a pane that runs a shell or another program does not shape
// its command (bash resume x, sh resume x -c …): it starts as the person started it.
func TestRestoreResumesOnlyTheCLIThePaneRuns(t *testing.T) {
	folder := t.TempDir()
	plan := &restorePlan{given: map[int][]string{}, convs: map[int]store.Conversation{}, treeDirs: map[int]string{}}
	for i, tc := range []struct {
		argv    []string
		profile string
		cli     string
	}{
		{[]string{"sh"}, "generic", "codex"},
		{[]string{"sh", "-c", "make test"}, "generic", "codex"},
		{[]string{"cat", "-u"}, "generic", "codex"},
		{[]string{"sh"}, "claude", "claude"}, // a shell, whatever its profile
		{[]string{"cat"}, "claude", "codex"}, // another CLI than its own
	} {
		spec, note := plan.pane(i+1, savedPane{Name: "p", Command: tc.argv, Dir: folder, Profile: tc.profile}, store.Conversation{CLI: tc.cli, ID: "x"}, folder)
		assert.Equal(t, tc.argv, spec.Argv, "%v", tc)
		assert.NotContains(t, plan.convs, i+1)
		assert.Contains(t, note, "a conversation of "+tc.cli+" was recorded, but the pane runs", "%v", tc)
	}
}

func TestWantRestore(t *testing.T) {
	sn := store.Snapshot{Session: "work", Folder: "/src", Spec: []byte(`{"panes":[{"number":1}]}`), Updated: 1, Offered: true}
	var errb bytes.Buffer
	got, err := wantRestore("auto", sn, nil, &errb, false)
	assert.True(t, got)
	assert.NoError(t, err)
	assert.Contains(t, errb.String(), "restoring session work")

	errb.Reset()
	got, _ = wantRestore("never", sn, nil, &errb, false)
	assert.False(t, got)
	assert.Contains(t, errb.String(), "it starts anew, which replaces its record (agentmux restore work, instead of starting it, brings one back; [session] restore = \"ask\" asks first)",
		"the record it replaces is said")
	got, _ = wantRestore("", sn, nil, &errb, false)
	assert.False(t, got)

	errb.Reset()
	got, _ = wantRestore("ask", sn, strings.NewReader("y\n"), &errb, false)
	assert.False(t, got, "no terminal to ask on: started anew")
	assert.Contains(t, errb.String(), "could have been restored")
}

// Restore offers a session that ended by accident, not one the person ended.
func TestEndOffered(t *testing.T) {
	for why, want := range map[string]bool{
		server.QuitKey: false, server.Killed: false, server.EndLastPane: false,
		server.KillKeep: true, "its terminal's program failed: read terminal input: EIO": true,
		"signal terminated": true, "every pane exited and no terminal is attached": true,
	} {
		if got := endOffered(why); got != want {
			t.Errorf("endOffered(%q) = %v, want %v", why, got, want)
		}
	}
}

// After a reboot the first things a person types are agentmux and agentmux attach:
// with no session running, both name the sessions restore can bring back.
func TestNoSessionNamesTheRestorableOnes(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_PANE", "")
	code, _, err := runCmd(t, "", "attach")
	assert.Equal(t, 1, code)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "restorable", "nothing to restore: nothing said")

	path, err := statePath("agentmux.db")
	require.NoError(t, err)
	st, err := store.Open(path)
	require.NoError(t, err)
	require.NoError(t, st.StartSnapshot("proj", "/tmp", []byte(`{"panes":[]}`), 1<<30, 1))
	require.NoError(t, st.Close())

	code, _, err = runCmd(t, "", "attach")
	assert.Equal(t, 1, code)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "restorable: proj (agentmux restore NAME brings one back)")
	code, _, err = runCmd(t, "")
	assert.Equal(t, 2, code)
	require.ErrorIs(t, err, errUsage)
	assert.Contains(t, err.Error(), "no agents given")
	assert.Contains(t, err.Error(), "restorable: proj")
}

// A restore runs only where the session's server ran (its person's user namespace):
// one from a pane's namespace, the record's own in the same boot or not, is refused;
// after a reboot, one with the same uid map is the person again. A record from before
// places were kept is restored only from the system's own namespace.
func TestRestoreOnlyWhereThePersonRan(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	path, err := statePath("agentmux.db")
	require.NoError(t, err)
	st, err := store.Open(path)
	require.NoError(t, err)
	person := session.Place{Boot: "b1", Dev: 4, Ino: 0xEFFFFFFD, UIDMap: "0 0 4294967295"}
	rec := func(name string, p *session.Place) {
		spec, err := json.Marshal(savedSession{Args: []string{"sh"}, Panes: []savedPane{{Number: 1, Name: "sh", Command: []string{"sh"}}}, Person: p})
		require.NoError(t, err)
		require.NoError(t, st.StartSnapshot(name, t.TempDir(), spec, 1<<30, 1))
	}
	rec("mine", &person)
	rec("old", nil)
	require.NoError(t, st.Close())
	t.Cleanup(func() { here = session.Here })
	pane := session.Place{Boot: "b1", Dev: 4, Ino: 4026532840, UIDMap: "1000 1000 1"}
	for _, tc := range []struct {
		name string
		here session.Place
		ok   bool
	}{
		{"mine", person, true},
		{"mine", pane, false},
		{"mine", session.Place{Boot: "b1", Dev: 4, Ino: 4026532841, UIDMap: person.UIDMap}, false},
		{"mine", session.Place{Boot: "b2", Dev: 5, Ino: 0xEFFFFFFD, UIDMap: person.UIDMap}, true}, // rebooted
		{"mine", session.Place{Boot: "b2", Dev: 5, Ino: 4026532840, UIDMap: pane.UIDMap}, false},
		{"mine", session.Place{}, false}, // where it runs cannot be read
		{"old", person, true},
		{"old", pane, false},
		// a pane that hid its place (/proc/sys in a mount namespace of its own): on
		// Linux, where places are read, nothing is admitted from nowhere
		{"old", session.Place{}, runtime.GOOS != "linux"},
	} {
		here = func() session.Place { return tc.here }
		_, _, err := restoredOptions(tc.name)
		if tc.ok {
			assert.NoError(t, err, "%s from %+v", tc.name, tc.here)
		} else {
			assert.ErrorIs(t, err, session.ErrNotThePersonsPlace, "%s from %+v", tc.name, tc.here)
		}
	}
}

// A burst of events that overflows the recorder's queue does not end the record: it
// subscribes again and saves the session as it is (here a queue of one, which a
// rename's two events overflow).
func TestRecorderFollowsPastABurst(t *testing.T) {
	recorderQueue = 1
	t.Cleanup(func() { recorderQueue = 1 << 10 })
	st, err := store.Open(filepath.Join(t.TempDir(), "agentmux.db"))
	require.NoError(t, err)
	defer st.Close()
	s, err := session.Start(session.Options{Panes: []session.PaneSpec{{Name: "cat", Argv: []string{"sh", "-c", "exec cat"}, Cols: 40, Rows: 5}}})
	require.NoError(t, err)
	defer s.Stop()
	r := startRecorder(st, "burst", []string{"cat"}, s, nil, slog.New(slog.DiscardHandler))
	defer r.stop("test", true)
	for _, name := range []string{"first", "second", "third"} {
		require.NoError(t, s.Rename(1, name))
	}
	require.Eventually(t, func() bool {
		sn, err := st.Snapshot("burst")
		return err == nil && strings.Contains(string(sn.Spec), `"name":"third"`)
	}, 10*time.Second, 10*time.Millisecond, "the record stopped following the session")
}

// What the budgets outside the links spent goes into the record and comes back with a
// restore, after the links (which renew their members' budgets as a person's link
// does), for the panes that came back.
func TestRestoreKeepsSpentBudgets(t *testing.T) {
	st := stateStore(t)
	s, err := session.Start(session.Options{Panes: []session.PaneSpec{cat("a"), cat("b"), cat("c"), cat("d")}})
	require.NoError(t, err)
	defer s.Stop()
	r := startRecorder(st, "kept", []string{"a=cat", "b=cat", "c=cat", "d=cat"}, s, nil, slog.New(slog.DiscardHandler))
	spent := session.Budgets{
		Left:     []session.LeftBudget{{Pane: 1, Used: 8, Budget: 8}, {Pane: 3, Used: 2, Budget: 8}},
		Direct:   []session.DirectBudget{{A: 1, B: 2, Used: 8}, {A: 1, B: 4, Used: 8}, {A: 2, B: 3, Used: 1}},
		External: []session.ExternalBudget{{Pane: 2, Used: 8}, {From: "ops", Pane: 2, Used: 8}},
	}
	require.NoError(t, s.RestoreBudgets(spent))
	require.Equal(t, spent, s.Budgets())
	require.NoError(t, s.Link(2, 3)) // a person's link renews 2's and 3's
	require.Eventually(t, func() bool {
		sn, err := st.Snapshot("kept")
		return err == nil && strings.Contains(string(sn.Spec), `"budgets"`) && strings.Contains(string(sn.Spec), `"groups"`)
	}, 10*time.Second, 10*time.Millisecond, "the record holds no budgets")
	want := session.Budgets{
		Left:   []session.LeftBudget{{Pane: 1, Used: 8, Budget: 8}},
		Direct: []session.DirectBudget{{A: 1, B: 4, Used: 8}},
	}
	require.Equal(t, want, s.Budgets())
	r.stop("test", true)
	s.Stop()

	o, plan, err := restoredOptions("kept")
	require.NoError(t, err)
	for i := range o.sess.Panes {
		o.sess.Panes[i].Cols, o.sess.Panes[i].Rows = 40, 5
	}
	s2, err := session.Start(o.sess)
	require.NoError(t, err)
	defer s2.Stop()
	plan.apply(s2, st, "kept", slog.New(slog.DiscardHandler))
	assert.Equal(t, want, s2.Budgets(), "what the restored session's budgets spent")
	assert.Equal(t, "2⇄3 0/8", s2.Status().Summary)
}

// Budgets spent by real sends come back spent, less what the store types again: a
// message not confirmed before the crash is queued anew and spends its turn again.
func TestRestoreCountsRetypedMessagesOnce(t *testing.T) {
	st := stateStore(t)
	panes := []session.PaneSpec{cat("alice"), cat("bob")}
	args := []string{"--turns", "3", "alice=cat", "bob=cat"}
	s, err := session.Start(session.Options{Turns: 3, Panes: panes})
	require.NoError(t, err)
	defer s.Stop()
	r := startRecorder(st, "again", args, s, nil, slog.New(slog.DiscardHandler))
	for _, text := range []string{"one", "two", "three"} {
		require.NoError(t, s.Send("alice", "bob", text, session.SendOptions{}))
		require.NoError(t, s.Send("Ops", "bob", text, session.SendOptions{}))
	}
	spent := session.Budgets{
		Direct:   []session.DirectBudget{{A: 1, B: 2, Used: 3}},
		External: []session.ExternalBudget{{Pane: 2, Used: 3}, {From: "ops", Pane: 2, Used: 3}},
	}
	require.Equal(t, spent, s.Budgets())
	require.Eventually(t, func() bool {
		sn, err := st.Snapshot("again")
		return err == nil && strings.Contains(string(sn.Spec), `"direct":[{"a":1,"b":2,"used":3}]`)
	}, 10*time.Second, 10*time.Millisecond, "the record holds no budgets")
	r.stop("test", true)
	s.Stop()
	// Of what was sent, one message of each sender was not confirmed: the store types it
	// again (the person's is no client's and spends nothing).
	now := time.Now().UnixMilli()
	require.NoError(t, st.Insert(
		store.Message{ID: "m1", Session: "again", From: "alice", To: "bob", Kind: "message", Body: "three", Queued: now},
		store.Message{ID: "m2", Session: "again", From: "Ops", To: "bob", Kind: "message", Body: "three", Queued: now},
		store.Message{ID: "m3", Session: "again", From: "you", To: "bob", Kind: "message", Body: "mine", Queued: now},
		// neither typed again nor charged: one whose timeout passed, and a reminder
		store.Message{ID: "m4", Session: "again", From: "alice", To: "bob", Kind: "message", Body: "late", Meta: `{"ttl_ms":1000}`, Queued: now - 60000},
		store.Message{ID: "m5", Session: "again", From: "Ops", To: "bob", Kind: "message", Body: "later", Meta: `{"x_remind_ms":60000}`, Queued: now},
	))

	_, plan, err := restoredOptions("again")
	require.NoError(t, err)
	s2, err := session.Start(session.Options{Turns: 3, Panes: panes})
	require.NoError(t, err)
	defer s2.Stop()
	plan.apply(s2, st, "again", slog.New(slog.DiscardHandler))
	assert.Equal(t, session.Budgets{
		Direct:   []session.DirectBudget{{A: 1, B: 2, Used: 2}},
		External: []session.ExternalBudget{{Pane: 2, Used: 2}, {From: "ops", Pane: 2, Used: 2}},
	}, s2.Budgets(), "the budgets less the messages typed again")
	// Typed again, each spends its turn: the budgets stand where they stood.
	require.NoError(t, s2.Send("alice", "bob", "three", session.SendOptions{}))
	require.NoError(t, s2.Send("Ops", "bob", "three", session.SendOptions{}))
	assert.Equal(t, spent, s2.Budgets())
	assert.Error(t, s2.Send("Ops", "bob", "four", session.SendOptions{}), "a fourth message from ops")
	_ = s2.Send("alice", "bob", "four", session.SendOptions{}) // refused on the relay's log
	assert.Equal(t, spent, s2.Budgets(), "after a fourth message of each")
}

// stateStore opens the store where restore reads it, in a state folder of the test's.
func stateStore(t *testing.T) *store.Store {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	path, err := statePath("agentmux.db")
	require.NoError(t, err)
	st, err := store.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return st
}

// cat is a pane named name that runs cat, at a small size.
func cat(name string) session.PaneSpec {
	return session.PaneSpec{Name: name, Argv: []string{"sh", "-c", "exec cat"}, Cols: 40, Rows: 5}
}

// Into a pane whose program cannot start nothing is typed again (the hub keeps it until
// the program runs), so nothing of it is charged again and no turn is given back.
func TestNothingIsRetypedIntoAPaneNotStarted(t *testing.T) {
	st := stateStore(t)
	require.NoError(t, st.Insert(store.Message{ID: "m1", Session: "s", From: "alice", To: "bob", Kind: "message", Body: "kept", Queued: time.Now().UnixMilli()}))
	plan := &restorePlan{names: map[int]string{1: "alice", 2: "bob"}, notStarted: map[int]bool{}}
	assert.Equal(t, []string{"alice"}, plan.retypedFrom(st, "s", 2))
	assert.Equal(t, 1, plan.retyped(st, "s", []int{1, 2}))
	plan.notStarted[2] = true
	assert.Empty(t, plan.retypedFrom(st, "s", 2))
	assert.Equal(t, 0, plan.retyped(st, "s", []int{1, 2}))
}
