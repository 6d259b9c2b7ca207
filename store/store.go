// Package store owns the durable message history of every agentmux session: one SQLite
// database (modernc.org/sqlite, pure Go) at $XDG_STATE_HOME/agentmux/agentmux.db in WAL
// mode, its versioned schema and migrations, and the queries for history, read,
// pending-for-resume and retention. Every message is written here before it is queued,
// so a crash loses only what was never written.
//
// A Store is safe for concurrent use (database/sql's pool; SQLite serialises writers,
// WAL lets readers run beside them). It must not import anything of the project, nor
// bubbletea or lipgloss.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/agentmux/agentmux/dirs"
)

// DefaultRetention is how long messages are kept unless configured otherwise.
const DefaultRetention = 30 * 24 * time.Hour

// ErrNotFound is returned by Get for an id the store does not hold.
var ErrNotFound = errors.New("no such message")

// Store is an open history database.
type Store struct {
	db     *sql.DB
	insert *sql.Stmt
	path   string // the database's file
}

// Open opens (creating when needed) the database at path, switches it to WAL and
// migrates its schema to the current version. Messages are private: the folder is made
// 0700 (SecureDir) and the database with its -wal and -shm files 0600, whatever the
// umask and however an older agentmux left them. synchronous=NORMAL: in WAL mode a
// committed transaction survives the process being killed; only a power loss may take
// the last ones.
func Open(path string) (*Store, error) {
	if _, err := dirs.SecureDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := privateFiles(path); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(5000)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	ins, err := db.Prepare(`INSERT INTO messages (id, session, sender, recipient, topic, kind, body, data, meta, seq, queued)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return &Store{db: db, insert: ins, path: path}, nil
}

// Close closes the database.
func (s *Store) Close() error {
	s.insert.Close()
	return s.db.Close()
}

// migrations[i] takes the schema from version i to i+1 (PRAGMA user_version).
var migrations = []string{
	`CREATE TABLE messages (
		id        TEXT    NOT NULL,
		session   TEXT    NOT NULL,
		sender    TEXT    NOT NULL,
		recipient TEXT    NOT NULL,
		topic     TEXT    NOT NULL DEFAULT '',
		kind      TEXT    NOT NULL,
		body      TEXT    NOT NULL,
		data      TEXT,
		meta      TEXT,
		seq       INTEGER NOT NULL,
		queued    INTEGER NOT NULL,
		typed     INTEGER,
		submitted INTEGER,
		confirmed INTEGER,
		failed    INTEGER,
		dropped   INTEGER,
		PRIMARY KEY (id, recipient)
	);
	CREATE INDEX messages_stream ON messages (session, recipient, topic, seq);
	CREATE INDEX messages_queued ON messages (queued);
	CREATE TABLE streams (
		session        TEXT    NOT NULL,
		recipient      TEXT    NOT NULL,
		topic          TEXT    NOT NULL,
		pruned_through INTEGER NOT NULL,
		PRIMARY KEY (session, recipient, topic)
	);`,
	// submitting: the carriage return that submits a pane's message is about to be
	// written (recorded ahead of it), so a restart can tell a message its pane may have
	// read from one it cannot have.
	`ALTER TABLE messages ADD COLUMN submitting INTEGER;`,
	// expired: a message's timeout passed before it was delivered (it was "dropped"
	// before, like a message whose recipient left).
	`ALTER TABLE messages ADD COLUMN expired INTEGER;`,
	// snapshots: what each session is (its panes, links, budgets spent), recorded as it
	// changes, so that agentmux restore can bring it back after its server died;
	// conversations: each pane's agent CLI's own conversation id, as its hooks said it.
	`CREATE TABLE snapshots (
		session TEXT    NOT NULL PRIMARY KEY,
		folder  TEXT    NOT NULL,
		spec    TEXT    NOT NULL,
		pid     INTEGER NOT NULL,
		started INTEGER NOT NULL,
		updated INTEGER NOT NULL,
		stopped INTEGER,
		why     TEXT    NOT NULL DEFAULT '',
		offered INTEGER NOT NULL DEFAULT 1
	);
	CREATE TABLE conversations (
		session TEXT    NOT NULL,
		pane    INTEGER NOT NULL,
		cli     TEXT    NOT NULL,
		id      TEXT    NOT NULL,
		updated INTEGER NOT NULL,
		PRIMARY KEY (session, pane)
	);`,
	// spend: what the panes' model requests used, as their CLIs recorded it (spend.go).
	`CREATE TABLE spend (
		session     TEXT    NOT NULL,
		pane        TEXT    NOT NULL,
		link        TEXT    NOT NULL DEFAULT '',
		model       TEXT    NOT NULL DEFAULT '',
		at          INTEGER NOT NULL,
		requests    INTEGER NOT NULL,
		input       INTEGER NOT NULL,
		output      INTEGER NOT NULL,
		cache_read  INTEGER NOT NULL,
		cache_write INTEGER NOT NULL,
		cost_usd    REAL
	);
	CREATE INDEX spend_session ON spend (session, at);`,
}

// SchemaVersion is the schema version Open migrates to.
var SchemaVersion = len(migrations)

func migrate(db *sql.DB) error {
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// A database already at this schema (every open but the first) needs no write lock
	// and no write: read its version first.
	var now int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&now); err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	if now == len(migrations) {
		return nil
	}
	// BEGIN IMMEDIATE: two processes opening a fresh database migrate one after the other.
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var v int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("schema version: %w", err)
	}
	if v > len(migrations) {
		conn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("schema version %d is newer than this agentmux (%d)", v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		if _, err := conn.ExecContext(ctx, migrations[i]); err != nil {
			conn.ExecContext(ctx, "ROLLBACK")
			return fmt.Errorf("migrate to schema %d: %w", i+1, err)
		}
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations))); err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("migrate: %w", err)
	}
	_, err = conn.ExecContext(ctx, "COMMIT")
	return err
}
