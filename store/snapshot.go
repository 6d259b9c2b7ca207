package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// Snapshot is what the store keeps of one session's shape, for agentmux restore: the
// session's description (Spec, JSON the caller owns), the folder it ran in, its
// server's process id, and how it stopped. A snapshot whose Stopped is 0 belongs to a
// session that was running when last heard of: either it still runs, or its server
// died without a word (SIGKILL, out of memory, a power loss).
type Snapshot struct {
	Session string
	Folder  string
	Spec    []byte
	PID     int
	// Started, Updated and Stopped are ms since the epoch (Stopped 0: not stopped).
	Started, Updated, Stopped int64
	// Why says how it stopped ("" while running, or after a crash).
	Why string
	// Offered is false for a session the person ended on purpose: restore does not
	// offer it (kill-session --keep keeps it offered).
	Offered bool
}

// ErrNoSnapshot is returned for a session the store holds no snapshot of.
var ErrNoSnapshot = errors.New("no snapshot of that session")

// StartSnapshot records that session starts (or starts again) in folder, served by
// process pid: its description is spec, it has not stopped, and it is offered.
func (s *Store) StartSnapshot(session, folder string, spec []byte, pid int, now int64) error {
	_, err := s.db.Exec(`INSERT INTO snapshots (session, folder, spec, pid, started, updated, stopped, why, offered)
		VALUES (?, ?, ?, ?, ?, ?, NULL, '', 1)
		ON CONFLICT (session) DO UPDATE SET folder = excluded.folder, spec = excluded.spec, pid = excluded.pid,
			started = excluded.started, updated = excluded.updated, stopped = NULL, why = '', offered = 1`,
		session, folder, string(spec), pid, now, now)
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", session, err)
	}
	return nil
}

// SaveSnapshot records session's description as it is now.
func (s *Store) SaveSnapshot(session string, spec []byte, now int64) error {
	_, err := s.db.Exec(`UPDATE snapshots SET spec = ?, updated = ? WHERE session = ?`, string(spec), now, session)
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", session, err)
	}
	return nil
}

// StopSnapshot records that session stopped, why, and whether restore offers it.
func (s *Store) StopSnapshot(session, why string, offered bool, now int64) error {
	_, err := s.db.Exec(`UPDATE snapshots SET stopped = ?, why = ?, offered = ? WHERE session = ?`, now, why, offered, session)
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", session, err)
	}
	return nil
}

// Snapshot returns session's snapshot (ErrNoSnapshot when there is none).
func (s *Store) Snapshot(session string) (Snapshot, error) {
	ss, err := s.snapshots(`WHERE session = ?`, session)
	if err != nil {
		return Snapshot{}, err
	}
	if len(ss) == 0 {
		return Snapshot{}, fmt.Errorf("%s: %w", session, ErrNoSnapshot)
	}
	return ss[0], nil
}

// Snapshots returns every session's snapshot, the most recently updated last.
func (s *Store) Snapshots() ([]Snapshot, error) {
	return s.snapshots(`ORDER BY updated, session`)
}

func (s *Store) snapshots(where string, args ...any) ([]Snapshot, error) {
	rows, err := s.db.Query(`SELECT session, folder, spec, pid, started, updated, stopped, why, offered FROM snapshots `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("snapshots: %w", err)
	}
	defer rows.Close()
	var out []Snapshot
	for rows.Next() {
		var sn Snapshot
		var spec string
		var stopped sql.NullInt64
		if err := rows.Scan(&sn.Session, &sn.Folder, &spec, &sn.PID, &sn.Started, &sn.Updated, &stopped, &sn.Why, &sn.Offered); err != nil {
			return nil, fmt.Errorf("snapshots: %w", err)
		}
		sn.Spec, sn.Stopped = []byte(spec), stopped.Int64
		out = append(out, sn)
	}
	return out, rows.Err()
}

// Conversation is the conversation an agent CLI in a pane said it holds: the CLI
// ("claude", "codex", "gemini", "qwen") and its own id of the conversation.
type Conversation struct {
	CLI, ID string
}

// SetConversation records that pane number pane of session holds conversation c.
func (s *Store) SetConversation(session string, pane int, c Conversation, now int64) error {
	_, err := s.db.Exec(`INSERT INTO conversations (session, pane, cli, id, updated) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (session, pane) DO UPDATE SET cli = excluded.cli, id = excluded.id, updated = excluded.updated`,
		session, pane, c.CLI, c.ID, now)
	if err != nil {
		return fmt.Errorf("conversation of %s pane %d: %w", session, pane, err)
	}
	return nil
}

// Conversations returns session's conversations by pane number.
func (s *Store) Conversations(session string) (map[int]Conversation, error) {
	rows, err := s.db.Query(`SELECT pane, cli, id FROM conversations WHERE session = ?`, session)
	if err != nil {
		return nil, fmt.Errorf("conversations of %s: %w", session, err)
	}
	defer rows.Close()
	out := map[int]Conversation{}
	for rows.Next() {
		var pane int
		var c Conversation
		if err := rows.Scan(&pane, &c.CLI, &c.ID); err != nil {
			return nil, fmt.Errorf("conversations of %s: %w", session, err)
		}
		out[pane] = c
	}
	return out, rows.Err()
}

// ReplaceConversations sets session's conversations to cs (by pane number) in one
// transaction: a restored session whose panes were numbered anew keeps them.
func (s *Store) ReplaceConversations(session string, cs map[int]Conversation, now int64) error {
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("conversations of %s: %w", session, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit: nothing to undo
	if _, err := tx.Exec(`DELETE FROM conversations WHERE session = ?`, session); err != nil {
		return fmt.Errorf("conversations of %s: %w", session, err)
	}
	for pane, c := range cs {
		if _, err := tx.Exec(`INSERT INTO conversations (session, pane, cli, id, updated) VALUES (?, ?, ?, ?, ?)`,
			session, pane, c.CLI, c.ID, now); err != nil {
			return fmt.Errorf("conversations of %s: %w", session, err)
		}
	}
	return tx.Commit()
}
