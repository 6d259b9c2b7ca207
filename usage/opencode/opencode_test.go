package opencode

// Strategy: a database with opencode 1.18's message and part tables, written by another
// connection in WAL mode as opencode writes it, read between writes. Each finished step
// must count once, exactly (reasoning as output, opencode's own cost kept), a step of
// another session or before the reader's start never; a step inside a transaction not
// yet committed is not seen, then counted once committed; a missing database or one
// that is not opencode's is an error that loses nothing.

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/usage"
)

// opencodeDB makes a database with opencode's two tables, open for writing.
func opencodeDB(t *testing.T) (string, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "opencode.db")
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	require.NoError(t, err)
	w.SetMaxOpenConns(1)
	t.Cleanup(func() { w.Close() })
	_, err = w.Exec(`CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
		CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);`)
	require.NoError(t, err)
	return path, w
}

type execer interface {
	Exec(string, ...any) (sql.Result, error)
}

func addMessage(t *testing.T, w execer, id, session string) {
	t.Helper()
	_, err := w.Exec(`INSERT INTO message VALUES (?, ?, 0, 0, ?)`, id, session, `{"role":"assistant","modelID":"mock-model","providerID":"mock"}`)
	require.NoError(t, err)
}

func addPart(t *testing.T, w execer, id, msg, session string, at time.Time, data string) {
	t.Helper()
	_, err := w.Exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, id, msg, session, at.UnixMilli(), at.UnixMilli(), data)
	require.NoError(t, err)
}

const stepData = `{"type":"step-finish","reason":"stop","tokens":{"input":120,"output":30,"reasoning":7,"cache":{"read":900,"write":40}},"cost":0.0125}`

func TestReadCountsEachStepOnce(t *testing.T) {
	path, w := opencodeDB(t)
	start := time.Now()
	addMessage(t, w, "msg_1", "ses_a")
	addMessage(t, w, "msg_x", "ses_b")
	addPart(t, w, "prt_old", "msg_1", "ses_a", start.Add(-time.Hour), stepData) // before the pane started
	addPart(t, w, "prt_1", "msg_1", "ses_a", start, `{"type":"step-start"}`)
	addPart(t, w, "prt_2", "msg_1", "ses_a", start, stepData)
	addPart(t, w, "prt_3", "msg_1", "ses_a", start, `{"type":"text","text":"hi"}`)
	addPart(t, w, "prt_x", "msg_x", "ses_b", start, stepData) // another session

	r := NewReader(path, "ses_a", start)
	reqs, err := r.Read()
	require.NoError(t, err)
	require.Len(t, reqs, 1)
	assert.Equal(t, "prt_2", reqs[0].ID)
	assert.Equal(t, "mock/mock-model", reqs[0].Model)
	assert.Equal(t, usage.Tokens{Input: 120, Output: 37, CacheRead: 900, CacheWrite: 40}, reqs[0].Tokens)
	require.NotNil(t, reqs[0].CostUSD, "opencode's own cost")
	assert.InDelta(t, 0.0125, *reqs[0].CostUSD, 1e-12)

	// Nothing new: nothing. A step in a transaction not committed: not yet.
	reqs, err = r.Read()
	require.NoError(t, err)
	assert.Empty(t, reqs)
	tx, err := w.Begin()
	require.NoError(t, err)
	addMessage(t, tx, "msg_2", "ses_a")
	addPart(t, tx, "prt_4", "msg_2", "ses_a", start.Add(time.Second), `{"type":"step-finish","tokens":{"input":5,"output":6,"reasoning":0,"cache":{"read":0,"write":0}}}`)
	reqs, err = r.Read()
	require.NoError(t, err)
	assert.Empty(t, reqs, "an uncommitted step")
	require.NoError(t, tx.Commit())
	reqs, err = r.Read()
	require.NoError(t, err)
	require.Len(t, reqs, 1)
	assert.Equal(t, "prt_4", reqs[0].ID)
	assert.Equal(t, usage.Tokens{Input: 5, Output: 6}, reqs[0].Tokens)
	assert.Nil(t, reqs[0].CostUSD, "no cost recorded: priced from the table")
	// Committed later but stamped before the newest step read: still seen, once.
	addPart(t, w, "prt_5", "msg_1", "ses_a", start.Add(500*time.Millisecond), `{"type":"step-finish","tokens":{"input":1,"output":0,"reasoning":0,"cache":{"read":0,"write":0}},"cost":0}`)
	reqs, err = r.Read()
	require.NoError(t, err)
	require.Len(t, reqs, 1)
	assert.Equal(t, "prt_5", reqs[0].ID)
	reqs, err = r.Read()
	require.NoError(t, err)
	assert.Empty(t, reqs)
}

func TestReadErrorsLoseNothing(t *testing.T) {
	dir := t.TempDir()
	missing := NewReader(filepath.Join(dir, "none.db"), "ses_a", time.Time{})
	_, err := missing.Read()
	assert.Error(t, err)

	junk := filepath.Join(dir, "junk.db")
	require.NoError(t, os.WriteFile(junk, []byte("not a database at all, not at all"), 0o600))
	_, err = NewReader(junk, "ses_a", time.Time{}).Read()
	assert.Error(t, err)

	// The database appears later (opencode created it): everything is read then.
	path, w := opencodeDB(t)
	r := NewReader(path, "ses_a", time.Time{})
	require.NoError(t, os.Rename(path, path+".away"))
	_, err = r.Read()
	assert.Error(t, err)
	require.NoError(t, os.Rename(path+".away", path))
	addMessage(t, w, "msg_1", "ses_a")
	addPart(t, w, "prt_1", "msg_1", "ses_a", time.Now(), stepData)
	reqs, err := r.Read()
	require.NoError(t, err)
	assert.Len(t, reqs, 1)
}

// A pane's opencode: every session opencode started in the pane's folder since the pane
// started counts (a session started later too), others never. DB finds the database as
// opencode does.
func TestFolderReadsThePanesSessions(t *testing.T) {
	path, w := opencodeDB(t)
	_, err := w.Exec(`CREATE TABLE session (id text PRIMARY KEY, directory text NOT NULL, time_created integer NOT NULL)`)
	require.NoError(t, err)
	start := time.Now()
	for _, s := range []struct {
		id, dir string
		at      time.Time
	}{{"ses_1", "/work/a", start}, {"ses_old", "/work/a", start.Add(-time.Hour)}, {"ses_b", "/work/b", start}} {
		_, err := w.Exec(`INSERT INTO session VALUES (?, ?, ?)`, s.id, s.dir, s.at.UnixMilli())
		require.NoError(t, err)
		addMessage(t, w, "msg_"+s.id, s.id)
		addPart(t, w, "prt_"+s.id, "msg_"+s.id, s.id, start, stepData)
	}
	f := NewFolder(path, "/work/a", start)
	reqs, err := f.Read()
	require.NoError(t, err)
	require.Len(t, reqs, 1)
	assert.Equal(t, "prt_ses_1", reqs[0].ID)
	_, err = w.Exec(`INSERT INTO session VALUES ('ses_2', '/work/a', ?)`, start.Add(time.Second).UnixMilli())
	require.NoError(t, err)
	addMessage(t, w, "msg_ses_2", "ses_2")
	addPart(t, w, "prt_ses_2", "msg_ses_2", "ses_2", start.Add(2*time.Second), stepData)
	reqs, err = f.Read()
	require.NoError(t, err)
	require.Len(t, reqs, 1)
	assert.Equal(t, "prt_ses_2", reqs[0].ID)

	t.Setenv("XDG_DATA_HOME", "") // the pane's words first, then the process's own
	t.Setenv("OPENCODE_DB", "")
	assert.Equal(t, "/d/opencode/opencode.db", DB([]string{"HOME=/h", "XDG_DATA_HOME=/d"}))
	assert.Equal(t, "/h/.local/share/opencode/opencode.db", DB([]string{"HOME=/h", "XDG_DATA_HOME=relative"}))
	assert.Equal(t, "/x/my.db", DB([]string{"HOME=/h", "OPENCODE_DB=/x/my.db"}))
	assert.Equal(t, "/h/.local/share/opencode/other.db", DB([]string{"HOME=/h", "XDG_DATA_HOME=", "OPENCODE_DB=other.db"}))
}
