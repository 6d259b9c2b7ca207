// Tests of the store against real SQLite files in t.TempDir(): migrations and reopening,
// insert/mark/pending/history/read, retention with its stream watermark, and crash
// safety: a child process writes messages, marks some typed, says so, and is killed with
// SIGKILL mid-life; the parent reopens the file and finds exactly the untyped ones pending.
package store

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func msg(id, to string, seq, queued int64) Message {
	return Message{ID: id, Session: "s", From: "alice", To: to, Kind: "message", Body: "body " + id, Seq: seq, Queued: queued}
}

func TestOpenMigratesAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "agentmux.db")
	s := open(t, path)
	var v int
	require.NoError(t, s.db.QueryRow("PRAGMA user_version").Scan(&v))
	assert.Equal(t, SchemaVersion, v)
	var mode string
	require.NoError(t, s.db.QueryRow("PRAGMA journal_mode").Scan(&mode))
	assert.Equal(t, "wal", mode)
	require.NoError(t, s.Insert(msg("m1", "bob", 1, 10)))
	require.NoError(t, s.Close())
	st, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())

	s2 := open(t, path)
	got, err := s2.Get("m1")
	require.NoError(t, err)
	assert.Equal(t, "body m1", got[0].Body)

	_, err = s2.db.Exec("PRAGMA user_version = 99")
	require.NoError(t, err)
	require.NoError(t, s2.Close())
	_, err = Open(path)
	assert.ErrorContains(t, err, "newer than this agentmux")
}

// holdWriteLock takes the write lock of the database at path from a connection of its
// own, as another session's server writing the same file holds it, until release (or
// the test's end).
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	require.NoError(t, err)
	conn, err := other.Conn(context.Background())
	require.NoError(t, err)
	_, err = conn.ExecContext(context.Background(), "BEGIN IMMEDIATE")
	require.NoError(t, err)
	release = sync.OnceFunc(func() {
		_, err := conn.ExecContext(context.Background(), "ROLLBACK")
		assert.NoError(t, err)
		conn.Close()
		other.Close()
	})
	t.Cleanup(release)
	return release
}

// Opening a database already at this schema takes no write lock: a session starts while
// another session's server holds a write transaction on the same file (before, its open
// waited for that lock, up to the 5 s busy timeout, then failed).
func TestOpenUpToDateTakesNoWriteLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentmux.db")
	require.NoError(t, open(t, path).Close())
	holdWriteLock(t, path)

	s, err := Open(path)
	require.NoError(t, err, "open while another process writes")
	var v int
	require.NoError(t, s.db.QueryRow("PRAGMA user_version").Scan(&v))
	assert.Equal(t, SchemaVersion, v)
	require.NoError(t, s.Close())
}

// A database of the first schema (before submitting was recorded) keeps its messages
// when opened: they read as never submitting.
func TestOpenMigratesFirstSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentmux.db")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec(migrations[0] + "PRAGMA user_version = 1;")
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO messages (id, session, sender, recipient, kind, body, seq, queued, typed)
		VALUES ('m1', 's', 'alice', 'bob', 'message', 'hi', 1, 10, 11)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	s := open(t, path)
	p, err := s.Pending("s", "bob", Submitted)
	require.NoError(t, err)
	require.Len(t, p, 1)
	assert.Equal(t, int64(11), p[0].Typed)
	assert.Zero(t, p[0].Submitting)
	_, err = s.Mark("m1", "bob", Submitting, 12)
	require.NoError(t, err)
	got, err := s.Get("m1")
	require.NoError(t, err)
	assert.Equal(t, int64(12), got[0].Submitting)
}

func TestInsertMarkPending(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "db"))
	require.NoError(t, s.Insert(msg("m1", "bob", 1, 10), msg("m2", "bob", 2, 11), msg("m3", "bob", 3, 12), msg("m3", "carol", 1, 12)))
	// The same (id, recipient) twice is refused, and the batch with it is not written.
	err := s.Insert(msg("m4", "bob", 4, 13), msg("m1", "bob", 5, 13))
	require.Error(t, err)
	_, err = s.Get("m4")
	assert.ErrorIs(t, err, ErrNotFound)

	changed, err := s.Mark("m1", "bob", Confirmed, 20)
	require.NoError(t, err)
	assert.True(t, changed)
	changed, err = s.Mark("m1", "bob", Confirmed, 30)
	require.NoError(t, err)
	assert.False(t, changed, "a phase keeps its first time")
	_, err = s.Mark("m2", "bob", Typed, 21)
	require.NoError(t, err)
	_, err = s.Mark("m3", "bob", Dropped, 22)
	require.NoError(t, err)
	_, err = s.Mark("m1", "bob", Phase("queued"), 1)
	require.Error(t, err)

	p, err := s.Pending("s", "bob", Confirmed)
	require.NoError(t, err)
	require.Len(t, p, 1)
	assert.Equal(t, "m2", p[0].ID)
	assert.Equal(t, int64(21), p[0].Typed)
	p, err = s.Pending("s", "bob", Typed)
	require.NoError(t, err)
	require.Empty(t, p, "m1 confirmed (a later phase: typed too), m2 typed, m3 dropped")
	p, err = s.Pending("s", "bob", Submitted)
	require.NoError(t, err)
	require.Len(t, p, 1, "m2 typed, never submitted")
	assert.Equal(t, "m2", p[0].ID)
	assert.Equal(t, int64(21), p[0].Typed, "its typing had begun")
	assert.Zero(t, p[0].Submitting, "its carriage return was never about to be sent")
	_, err = s.Mark("m2", "bob", Submitting, 23)
	require.NoError(t, err)
	p, err = s.Pending("s", "bob", Submitted)
	require.NoError(t, err)
	require.Len(t, p, 1, "submitting is not submitted")
	assert.Equal(t, int64(23), p[0].Submitting)
	_, err = s.Pending("s", "bob", Failed)
	require.Error(t, err, "failed is no phase of delivery")
	p, err = s.Pending("s", "carol", Confirmed)
	require.NoError(t, err)
	require.Len(t, p, 1)

	got, err := s.Get("m3")
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, int64(22), got[0].Dropped)
	assert.Equal(t, "carol", got[1].To)
}

func TestHistory(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "db"))
	for i := 1; i <= 5; i++ {
		m := msg(fmt.Sprint("m", i), "bob", int64(i), int64(100*i))
		if i == 3 {
			m.From, m.To = "bob", "carol"
		}
		require.NoError(t, s.Insert(m))
	}
	h, err := s.History(Query{Limit: 2})
	require.NoError(t, err)
	require.Len(t, h, 2)
	assert.Equal(t, []string{"m4", "m5"}, []string{h[0].ID, h[1].ID}, "the newest, newest last")
	h, err = s.History(Query{Member: "carol"})
	require.NoError(t, err)
	require.Len(t, h, 1)
	assert.Equal(t, "m3", h[0].ID)
	h, err = s.History(Query{SinceMs: 400, Session: "s"})
	require.NoError(t, err)
	assert.Len(t, h, 2)
	h, err = s.History(Query{Session: "other"})
	require.NoError(t, err)
	assert.Empty(t, h)
	h, err = s.History(Query{Member: "Carol"})
	require.NoError(t, err)
	require.Len(t, h, 1, "a member's name in another case is the member")

	for name, want := range map[string]bool{"carol": true, "BOB": true, "dave": false} {
		got, err := s.HasMember("s", name)
		require.NoError(t, err)
		assert.Equal(t, want, got, name)
	}
	got, err := s.HasMember("other", "bob")
	require.NoError(t, err)
	assert.False(t, got, "another session's messages are not this one's")
}

func TestPruneKeepsWatermark(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "db"))
	require.NoError(t, s.Insert(msg("m1", "bob", 1, 10), msg("m2", "bob", 2, 20), msg("m3", "bob", 3, 30)))
	n, err := s.Prune(25)
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
	_, err = s.Get("m1")
	assert.ErrorIs(t, err, ErrNotFound)
	st, err := s.Streams("s", "bob")
	require.NoError(t, err)
	assert.Equal(t, []Stream{{Topic: "", LastSeq: 3, PrunedThrough: 2}}, st)
	n, err = s.Prune(35)
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	st, err = s.Streams("s", "bob")
	require.NoError(t, err)
	assert.Equal(t, []Stream{{Topic: "", LastSeq: 3, PrunedThrough: 3}}, st, "the last seq survives pruning")
}

// A prune with nothing old enough to delete (every session's start) takes no write
// lock: another process writing meanwhile does not hold it up (for the busy timeout, then
// "database is locked").
func TestPruneOfNothingTakesNoWriteLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentmux.db")
	s := open(t, path)
	require.NoError(t, s.Insert(msg("m1", "bob", 1, 10), msg("m2", "bob", 2, 20)))
	release := holdWriteLock(t, path)

	n, err := s.Prune(5)
	require.NoError(t, err, "prune while another process writes")
	assert.Zero(t, n)
	release()
	n, err = s.Prune(15)
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	st, err := s.Streams("s", "bob")
	require.NoError(t, err)
	assert.Equal(t, []Stream{{Topic: "", LastSeq: 2, PrunedThrough: 1}}, st)
}

const crashEnv = "AGENTMUX_STORE_CRASH_CHILD"

// TestCrashChild is the child of TestCrashSafety: it writes, marks, reports, then waits
// to be killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("only run as the child of TestCrashSafety")
	}
	s, err := Open(path)
	require.NoError(t, err)
	for i := 1; i <= 10; i++ {
		require.NoError(t, s.Insert(msg(fmt.Sprint("m", i), "bob", int64(i), int64(i))))
	}
	for i := 1; i <= 4; i++ {
		_, err := s.Mark(fmt.Sprint("m", i), "bob", Typed, 100)
		require.NoError(t, err)
	}
	fmt.Println("written")
	select {} // killed here, store open, never closed
}

func TestCrashSafety(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentmux.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "written\n", line)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()

	s := open(t, path)
	p, err := s.Pending("s", "bob", Typed)
	require.NoError(t, err)
	var ids []string
	for _, m := range p {
		ids = append(ids, m.ID)
	}
	assert.Equal(t, []string{"m5", "m6", "m7", "m8", "m9", "m10"}, ids, "untyped pending, typed ones never again")
}

// BenchmarkInsert measures one durable message write and reports the database's bytes
// per stored message.
func BenchmarkInsert(b *testing.B) {
	path := filepath.Join(b.TempDir(), "db")
	s, err := Open(path)
	require.NoError(b, err)
	defer s.Close()
	body := "please review the tests in hub/hub_test.go and tell me what is missing"
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := Message{ID: fmt.Sprintf("m-%016x", i), Session: "agentmux", From: "alice", To: "bob", Kind: "message", Body: body, Seq: int64(i + 1), Queued: 1764000000000 + int64(i)}
		if err := s.Insert(m); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if b.N >= 1000 {
		_, err := s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
		require.NoError(b, err)
		st, err := os.Stat(path)
		require.NoError(b, err)
		b.ReportMetric(float64(st.Size())/float64(b.N), "dbbytes/msg")
	}
}

func TestMarkAll(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "db"))
	require.NoError(t, s.Insert(msg("m1", "bob", 1, 10), msg("m2", "bob", 2, 11)))
	_, err := s.Mark("m2", "bob", Typed, 5)
	require.NoError(t, err)
	require.NoError(t, s.MarkAll([]Mark{{"m1", "bob", Confirmed, 20}, {"m2", "bob", Typed, 21}, {"m2", "bob", Failed, 22}}))
	got, err := s.Get("m1")
	require.NoError(t, err)
	assert.Equal(t, int64(20), got[0].Confirmed)
	got, err = s.Get("m2")
	require.NoError(t, err)
	assert.Equal(t, []int64{5, 22}, []int64{got[0].Typed, got[0].Failed}, "first times kept")
	assert.Error(t, s.MarkAll([]Mark{{"m1", "bob", Phase("x"), 1}}))
}

// Known says which ids a session stored, past SQLite's limit of parameters in one
// query.
func TestKnown(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "db"))
	require.NoError(t, s.Insert(msg("m1", "bob", 1, 10), msg("m1", "carol", 1, 10), msg("m2", "bob", 2, 11)))
	ids := []string{"m2", "nope"}
	for i := 0; i < 1200; i++ {
		ids = append(ids, fmt.Sprintf("x%d", i))
	}
	ids = append(ids, "m1")
	known, err := s.Known("s", ids...)
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"m1": true, "m2": true}, known)
	other, err := s.Known("other", ids...)
	require.NoError(t, err)
	assert.Empty(t, other, "another session's ids are not this one's")
}

// PendingRemote is the messages to NAME@SESSION not yet typed, failed or dropped,
// oldest first; a pane's messages are not among them.
func TestPendingRemote(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "db"))
	require.NoError(t, s.Insert(msg("m1", "bob@box", 1, 10), msg("m2", "bob@box", 2, 11), msg("m3", "bob", 1, 12),
		msg("m4", "carol@lap", 1, 13), msg("m5", "bob@box", 3, 14)))
	_, err := s.Mark("m2", "bob@box", Typed, 20)
	require.NoError(t, err)
	_, err = s.Mark("m5", "bob@box", Dropped, 20)
	require.NoError(t, err)
	got, err := s.PendingRemote("s")
	require.NoError(t, err)
	var ids []string
	for _, m := range got {
		ids = append(ids, m.ID)
	}
	assert.Equal(t, []string{"m1", "m4"}, ids)
	other, err := s.PendingRemote("other")
	require.NoError(t, err)
	assert.Empty(t, other)
}

// BenchmarkMarkSubmitting measures the write-ahead of a pane's submit: one phase
// recorded at once, in its own transaction, as the session's loop waits for it.
func BenchmarkMarkSubmitting(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "db"))
	require.NoError(b, err)
	defer s.Close()
	ms := make([]Message, b.N)
	for i := range ms {
		ms[i] = Message{ID: fmt.Sprintf("m-%016x", i), Session: "agentmux", From: "alice", To: "bob", Kind: "message", Body: "hi", Seq: int64(i + 1), Queued: 1764000000000}
	}
	for i := 0; i < len(ms); i += 256 {
		require.NoError(b, s.Insert(ms[i:min(i+256, len(ms))]...))
	}
	b.ResetTimer()
	for i := range ms {
		if _, err := s.Mark(ms[i].ID, "bob", Submitting, 1764000000001); err != nil {
			b.Fatal(err)
		}
	}
}

// A history read bounded in bytes takes the newest messages while they fit (one at
// least, its body cut to the bound, BodyBytes its size) and says older ones were left.
func TestHistoryWithinBytes(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "db"))
	for i := 1; i <= 5; i++ {
		m := msg(fmt.Sprint("m", i), "bob", int64(i), int64(100*i))
		m.Body = strings.Repeat(fmt.Sprint(i), 100)
		require.NoError(t, s.Insert(m))
	}
	ms, more, err := s.HistoryWithin(Query{Session: "s", Bytes: 250})
	require.NoError(t, err)
	assert.True(t, more)
	require.Len(t, ms, 2)
	assert.Equal(t, []string{"m4", "m5"}, []string{ms[0].ID, ms[1].ID}, "the newest, newest last")
	assert.Zero(t, ms[1].BodyBytes, "whole")
	ms, more, err = s.HistoryWithin(Query{Session: "s", Bytes: 40, Before: ms[0].Row})
	require.NoError(t, err)
	assert.True(t, more)
	require.Len(t, ms, 1, "one at least, however large")
	assert.Equal(t, "m3", ms[0].ID)
	assert.Equal(t, strings.Repeat("3", 40), ms[0].Body)
	assert.Equal(t, 100, ms[0].BodyBytes)
	ms, more, err = s.HistoryWithin(Query{Session: "s", Bytes: 1 << 20})
	require.NoError(t, err)
	assert.False(t, more)
	assert.Len(t, ms, 5)
}

// BenchmarkHistoryOfLargeMessages: a page of the history of 100 messages of 900 KB,
// read whole (History) and within a frame's bytes (HistoryWithin, as X_HISTORY reads).
func BenchmarkHistoryOfLargeMessages(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "db"))
	require.NoError(b, err)
	defer s.Close()
	for i := range 100 {
		m := msg(fmt.Sprint("m", i), "bob", int64(i+1), int64(i+1))
		m.Body = strings.Repeat("x", 900<<10)
		require.NoError(b, s.Insert(m))
	}
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			_, _ = s.History(Query{Session: "s", Limit: 100})
		}
	})
	b.Run("within", func(b *testing.B) {
		for b.Loop() {
			_, _, _ = s.HistoryWithin(Query{Session: "s", Limit: 100, Bytes: 1 << 20})
		}
	})
}
