package hub_test

import (
	"bytes"
	"database/sql"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// syncBuffer is a log destination the hub's loop and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A store that refuses to record delivery phases (a full disk, simulated by a trigger
// that fails every update of a message) is said in the log and to the person, once
// while it keeps failing; the write-ahead of a submit reports the failure to the core.
// The phases are kept and written once the store takes writes again.
func TestDeliveryMarkFailureIsSaid(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("bob")
	var log syncBuffer
	e := start(t, core, db, func(c *hub.Config) { c.Logger = slog.New(slog.NewTextHandler(&log, nil)) })
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)

	room := diskFull(t, db)

	_, err = ctl.Send("alice", "bob", "one")
	require.NoError(t, err)
	one := sent(t, core)
	require.ErrorContains(t, core.sentOptions()[0].BeforeSubmit(), "disk is full", "the write-ahead's failure reaches the core")

	core.ev.Emit(proto.Event{Kind: "delivery", ID: one.id, Member: "bob", Phase: "submitted"})
	select {
	case w := <-core.warned:
		assert.Contains(t, w, "disk is full")
		assert.Contains(t, w, "may be typed again")
	case <-time.After(5 * time.Second):
		t.Fatal("the person was not told that delivery phases were not recorded")
	}
	assert.Contains(t, log.String(), "delivery phases not recorded")

	// Still failing: neither logged nor said again.
	core.ev.Emit(proto.Event{Kind: "delivery", ID: one.id, Member: "bob", Phase: "confirmed"})
	waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "delivery" && ev.Phase == "confirmed" })
	_, err = ctl.Request(proto.TypeHistory, proto.History{}) // a read writes the marks first
	require.NoError(t, err)
	assert.Empty(t, core.warned)
	var got []string
	for _, l := range bytes.Split([]byte(log.String()), []byte("\n")) {
		if bytes.Contains(l, []byte("delivery phases not recorded")) {
			got = append(got, string(l))
		}
	}
	assert.Len(t, got, 1, "logged once while it keeps failing")

	// Room again: every phase kept is written, and that is logged.
	room()
	_, err = ctl.Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	ms, err := e.st.Get(one.id)
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.NotZero(t, ms[0].Submitting, "the refused write-ahead is written")
	assert.NotZero(t, ms[0].Submitted)
	assert.NotZero(t, ms[0].Confirmed)
	assert.Contains(t, log.String(), "delivery phases recorded again")
}

// A message submitted while the store refused every write (a full disk) still carries
// the note that it may repeat when it is typed again after a restart: the write-ahead
// the store refused is kept and written once the store takes writes again.
func TestWriteAheadRefusedByAFullDiskStillMarksTheRepeat(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	room := diskFull(t, db)

	id, err := ctl.Send("alice", "bob", "one")
	require.NoError(t, err)
	require.Equal(t, id, sent(t, core).id)
	require.ErrorContains(t, core.sentOptions()[0].BeforeSubmit(), "disk is full")

	// Room again: the next write of the loop records the phase it could not.
	room()
	_, err = ctl.Request(proto.TypeHistory, proto.History{}) // a read writes the marks first
	require.NoError(t, err)
	e.h.Close()

	core2 := newFakeCore("bob")
	start(t, core2, db, nil)
	assert.Equal(t, hub.RepeatNote(id)+"one", sent(t, core2).text)
}

// Killed while the store still refused writes: the submission that began is in the
// session's reserve (written in place, which a full disk does not refuse), and the next
// start records it before typing the message again, with the possible-repeat note.
func TestWriteAheadRefusedUntilAKillIsKeptInTheReserve(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	room := diskFull(t, db)

	id, err := ctl.Send("alice", "bob", "one")
	require.NoError(t, err)
	require.Equal(t, id, sent(t, core).id)
	require.ErrorContains(t, core.sentOptions()[0].BeforeSubmit(), "disk is full")
	e.h.Close() // the store still refuses: nothing kept in memory reaches it
	require.FileExists(t, db+".test.reserve", "what it holds is kept for the next start")
	ms, err := e.st.Get(id)
	require.NoError(t, err)
	require.Zero(t, ms[0].Submitting)

	room()
	core2 := newFakeCore("bob")
	e2 := start(t, core2, db, nil)
	assert.Equal(t, hub.RepeatNote(id)+"one", sent(t, core2).text)
	e2.h.Close()

	// A third start types it again from the store alone.
	core3 := newFakeCore("bob")
	start(t, core3, db, nil)
	assert.Equal(t, hub.RepeatNote(id)+"one", sent(t, core3).text)
}

// Started again while the disk is still full: the store refuses the reserve's records
// too, and the message is typed again with the note all the same; the reserve keeps
// them until a start whose store takes them.
func TestReserveStillRefusedAtTheNextStart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	room := diskFull(t, db)
	id, err := ctl.Send("alice", "bob", "one")
	require.NoError(t, err)
	require.Equal(t, id, sent(t, core).id)
	require.ErrorContains(t, core.sentOptions()[0].BeforeSubmit(), "disk is full")
	e.h.Close()

	core2 := newFakeCore("bob")
	e2 := start(t, core2, db, nil)
	assert.Equal(t, hub.RepeatNote(id)+"one", sent(t, core2).text, "the store refuses, the reserve says")
	e2.h.Close()
	require.FileExists(t, db+".test.reserve")

	room()
	core3 := newFakeCore("bob")
	e3 := start(t, core3, db, nil)
	assert.Equal(t, hub.RepeatNote(id)+"one", sent(t, core3).text)
	e3.h.Close()
	ms, err := e3.st.Get(id)
	require.NoError(t, err)
	assert.NotZero(t, ms[0].Submitting)
}

// diskFull makes the store at db refuse every update, as a full disk does (through a
// connection of its own that waits out the hub's writes), until room gives it room again.
func diskFull(t *testing.T, db string) (room func()) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+db+"?_pragma=busy_timeout(5000)")
	require.NoError(t, err)
	t.Cleanup(func() { raw.Close() })
	_, err = raw.Exec(`CREATE TRIGGER full BEFORE UPDATE ON messages BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`)
	require.NoError(t, err)
	return func() {
		t.Helper()
		_, err := raw.Exec(`DROP TRIGGER full`)
		require.NoError(t, err)
	}
}
