// Package opencode reads what opencode recorded one of its sessions spent, from its
// SQLite database (opencode.db in its data folder, $XDG_DATA_HOME/opencode, or the file
// $OPENCODE_DB names). opencode 1.18 writes a part row for each model step it finished
// (JSON data with type "step-finish", the step's tokens and the cost opencode computed
// itself from its model table); the step's assistant message row names the model.
//
// It is a leaf beside usage (which it returns requests of), apart so that the packages
// that import usage (the relay, the hooks) do not link SQLite.
package opencode

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/agentmux/agentmux/usage"
)

// Reader reads one opencode session's steps, incrementally: each step (a part row) is
// counted once, whatever was read before. It has one owner: its methods must not be
// called concurrently.
type Reader struct {
	db, session string
	since       time.Time
	after       int64           // the newest step read (ms), less a margin: the next query's floor
	seen        map[string]bool // part ids counted
}

// NewReader returns a Reader of session's steps in the database at db. Steps made
// before since (a session resumed from an earlier run) are not counted; zero counts
// all.
func NewReader(db, session string, since time.Time) *Reader {
	return &Reader{db: db, session: session, since: since, seen: map[string]bool{}}
}

// margin is how far before the newest step read the next query starts: a step stamped
// a little earlier but committed later is still seen (its id keeps it from counting
// twice).
const margin = int64(60_000)

// Read returns the steps finished since the last Read, one Request each: the tokens
// by kind (opencode's reasoning tokens are billed as output; its input excludes the
// cached part), the model ("provider/model"), and opencode's own cost of the step
// (CostUSD). What another process has not committed yet is not seen, and is read by a
// later Read. A database that is missing, locked past the wait, or not opencode's is
// an error that loses nothing: the next Read tries again.
func (r *Reader) Read() ([]usage.Request, error) {
	q := url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(2000)"}}
	db, err := sql.Open("sqlite", "file:"+r.db+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("usage: opencode %s: %w", r.db, err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT p.id, p.time_created, p.data, COALESCE(m.data, '{}') FROM part p
		LEFT JOIN message m ON m.id = p.message_id
		WHERE p.session_id = ? AND p.time_created >= ? ORDER BY p.time_created, p.id`, r.session, max(r.after, r.since.UnixMilli()))
	if err != nil {
		return nil, fmt.Errorf("usage: opencode %s: %w", r.db, err)
	}
	defer rows.Close()
	var out []usage.Request
	newest := r.after
	for rows.Next() {
		var id, part, msg string
		var at int64
		if err := rows.Scan(&id, &at, &part, &msg); err != nil {
			return nil, fmt.Errorf("usage: opencode %s: %w", r.db, err)
		}
		newest = max(newest, at-margin)
		if r.seen[id] {
			continue
		}
		q, ok := step(id, part, msg)
		if !ok {
			continue
		}
		r.seen[id] = true
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("usage: opencode %s: %w", r.db, err)
	}
	r.after = newest
	return out, nil
}

// step reads a part row's data as a finished step's usage (false for any other part),
// with the model its message names.
func step(id, part, msg string) (usage.Request, bool) {
	var p struct {
		Type   string   `json:"type"`
		Cost   *float64 `json:"cost"`
		Tokens *struct {
			Input     int64 `json:"input"`
			Output    int64 `json:"output"`
			Reasoning int64 `json:"reasoning"`
			Cache     struct {
				Read  int64 `json:"read"`
				Write int64 `json:"write"`
			} `json:"cache"`
		} `json:"tokens"`
	}
	if json.Unmarshal([]byte(part), &p) != nil || p.Type != "step-finish" || p.Tokens == nil {
		return usage.Request{}, false
	}
	var m struct {
		ModelID    string `json:"modelID"`
		ProviderID string `json:"providerID"`
	}
	_ = json.Unmarshal([]byte(msg), &m) // no message: the model is not known
	model := m.ModelID
	if m.ProviderID != "" && model != "" {
		model = m.ProviderID + "/" + model
	}
	t := p.Tokens
	q := usage.Request{ID: id, Model: model, Tokens: usage.Tokens{
		Input: t.Input, Output: usage.Clamp(t.Output) + usage.Clamp(t.Reasoning), CacheRead: t.Cache.Read, CacheWrite: t.Cache.Write,
	}.Clamped()}
	if p.Cost != nil && *p.Cost >= 0 {
		c := *p.Cost
		q.CostUSD = &c
	}
	return q, !q.Tokens.IsZero() || q.CostUSD != nil && *q.CostUSD > 0
}

// Folder reads the steps of every session opencode started in one folder from a time
// on (what a pane's opencode did there): one Reader per session, the sessions found
// again at each Read. It has one owner: its methods must not be called concurrently.
type Folder struct {
	db, dir string
	since   time.Time
	readers map[string]*Reader
}

// maxSessions bounds the sessions a Folder reads.
const maxSessions = 256

// NewFolder returns a Folder of the sessions opencode's database at db holds for the
// folder dir, started at since or later.
func NewFolder(db, dir string, since time.Time) *Folder {
	return &Folder{db: db, dir: dir, since: since, readers: map[string]*Reader{}}
}

// Read returns what the folder's sessions finished since the last Read (Reader.Read).
func (f *Folder) Read() ([]usage.Request, error) {
	q := url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(2000)"}}
	db, err := sql.Open("sqlite", "file:"+f.db+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("usage: opencode %s: %w", f.db, err)
	}
	rows, err := db.Query(`SELECT id FROM session WHERE directory = ? AND time_created >= ? ORDER BY time_created, id LIMIT ?`,
		f.dir, f.since.UnixMilli(), maxSessions)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("usage: opencode %s: %w", f.db, err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			db.Close()
			return nil, fmt.Errorf("usage: opencode %s: %w", f.db, err)
		}
		ids = append(ids, id)
	}
	err = rows.Err()
	rows.Close()
	db.Close()
	if err != nil {
		return nil, fmt.Errorf("usage: opencode %s: %w", f.db, err)
	}
	var out []usage.Request
	for _, id := range ids {
		r := f.readers[id]
		if r == nil {
			r = NewReader(f.db, id, f.since)
			f.readers[id] = r
		}
		reqs, err := r.Read()
		if err != nil {
			return out, err
		}
		out = append(out, reqs...)
	}
	return out, nil
}

// DB is where opencode keeps its database for a program with environment env (the
// pane's, KEY=VALUE words, later ones winning; then the process's own): $OPENCODE_DB
// when absolute, else that name (or opencode.db) in its data folder,
// $XDG_DATA_HOME/opencode or ~/.local/share/opencode. "" when no home is known.
func DB(env []string) string {
	get := func(k string) string {
		v := ""
		for _, e := range env {
			if kk, vv, ok := strings.Cut(e, "="); ok && kk == k {
				v = vv
			}
		}
		if v == "" {
			v = os.Getenv(k)
		}
		return v
	}
	db := get("OPENCODE_DB")
	if filepath.IsAbs(db) {
		return db
	}
	data := get("XDG_DATA_HOME")
	if !filepath.IsAbs(data) {
		home := get("HOME")
		if home == "" {
			return ""
		}
		data = filepath.Join(home, ".local", "share")
	}
	if db == "" {
		db = "opencode.db"
	}
	return filepath.Join(data, "opencode", db)
}
