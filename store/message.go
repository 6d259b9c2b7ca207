package store

import (
	"database/sql"
	"fmt"
	"strings"
)

// Message is one message to one recipient: a broadcast is one row per recipient, all
// with the same ID. Times are ms since the epoch; 0 means the phase has not happened.
type Message struct {
	ID      string
	Session string
	From    string
	To      string
	Topic   string
	Kind    string
	Body    string
	Data    string // JSON text or ""
	Meta    string // the SEND's payload_meta, JSON text or ""
	Seq     int64
	Queued  int64
	Typed   int64
	// Submitting is when the carriage return submitting it to a pane was about to be
	// written (recorded before it is): from then on the pane's program may have read it.
	Submitting int64
	Submitted  int64
	Confirmed  int64
	Failed     int64
	Dropped    int64
	// Expired is when the message's timeout (ttl) passed before it was typed.
	Expired int64
	// Row is the message's place in the store, in the order of writing (History sets
	// it): Query.Before takes it to page through older messages.
	Row int64
	// BodyBytes is the whole body's size when a bounded read (Query.Bytes) cut Body;
	// 0 when Body is whole.
	BodyBytes int
}

// Phase is a delivery phase with a time column.
type Phase string

// The phases after queued. Submitting is recorded just before a pane's carriage
// return is written, Submitted once it was.
const (
	Typed      Phase = "typed"
	Submitting Phase = "submitting"
	Submitted  Phase = "submitted"
	Confirmed  Phase = "confirmed"
	Failed     Phase = "failed"
	Dropped    Phase = "dropped"
	// Expired: not delivered within its timeout (ttl); never will be.
	Expired Phase = "expired"
)

func (p Phase) valid() bool {
	switch p {
	case Typed, Submitting, Submitted, Confirmed, Failed, Dropped, Expired:
		return true
	}
	return false
}

func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Insert writes messages in one transaction: all of them or none.
func (s *Store) Insert(ms ...Message) error {
	if len(ms) == 1 {
		m := ms[0]
		_, err := s.insert.Exec(m.ID, m.Session, m.From, m.To, m.Topic, m.Kind, m.Body, nullStr(m.Data), nullStr(m.Meta), m.Seq, m.Queued)
		if err != nil {
			return fmt.Errorf("store message %s: %w", m.ID, err)
		}
		return nil
	}
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("store messages: %w", err)
	}
	st := tx.Stmt(s.insert)
	for _, m := range ms {
		if _, err := st.Exec(m.ID, m.Session, m.From, m.To, m.Topic, m.Kind, m.Body, nullStr(m.Data), nullStr(m.Meta), m.Seq, m.Queued); err != nil {
			tx.Rollback()
			return fmt.Errorf("store message %s: %w", m.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store messages: %w", err)
	}
	return nil
}

// Mark records that message id reached phase for recipient to at ms, once: a phase
// already recorded keeps its first time. It reports whether a row changed.
func (s *Store) Mark(id, to string, phase Phase, ms int64) (bool, error) {
	if !phase.valid() {
		return false, fmt.Errorf("mark %s: unknown phase %q", id, phase)
	}
	col := string(phase)
	res, err := s.db.Exec("UPDATE messages SET "+col+" = ? WHERE id = ? AND recipient = ? AND "+col+" IS NULL", ms, id, to)
	if err != nil {
		return false, fmt.Errorf("mark %s %s: %w", id, phase, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Mark is one phase reached, for MarkAll.
type Mark struct {
	ID, To string
	Phase  Phase
	Ms     int64
}

// MarkAll records marks in one transaction (each as Mark would).
func (s *Store) MarkAll(marks []Mark) error {
	if len(marks) == 0 {
		return nil
	}
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("mark: %w", err)
	}
	defer tx.Rollback()
	stmts := map[Phase]*sql.Stmt{}
	for _, m := range marks {
		if !m.Phase.valid() {
			return fmt.Errorf("mark %s: unknown phase %q", m.ID, m.Phase)
		}
		st := stmts[m.Phase]
		if st == nil {
			col := string(m.Phase)
			if st, err = tx.Prepare("UPDATE messages SET " + col + " = ? WHERE id = ? AND recipient = ? AND " + col + " IS NULL"); err != nil {
				return fmt.Errorf("mark: %w", err)
			}
			defer st.Close()
			stmts[m.Phase] = st
		}
		if _, err := st.Exec(m.Ms, m.ID, m.To); err != nil {
			return fmt.Errorf("mark %s %s: %w", m.ID, m.Phase, err)
		}
	}
	return tx.Commit()
}

const columns = `id, session, sender, recipient, topic, kind, body, COALESCE(data, ''), COALESCE(meta, ''), seq, queued,
	COALESCE(typed, 0), COALESCE(submitting, 0), COALESCE(submitted, 0), COALESCE(confirmed, 0), COALESCE(failed, 0), COALESCE(dropped, 0), COALESCE(expired, 0)`

// fields are where a row of columns goes in m, in their order; extra follow them (the
// further columns a query selects).
func fields(m *Message, extra ...any) []any {
	return append([]any{&m.ID, &m.Session, &m.From, &m.To, &m.Topic, &m.Kind, &m.Body, &m.Data, &m.Meta, &m.Seq, &m.Queued,
		&m.Typed, &m.Submitting, &m.Submitted, &m.Confirmed, &m.Failed, &m.Dropped, &m.Expired}, extra...)
}

func scan(rows *sql.Rows) ([]Message, error) {
	defer rows.Close()
	var out []Message
	for rows.Next() {
		var m Message
		if err := rows.Scan(fields(&m)...); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Pending returns the messages of session to recipient to that have reached neither
// done nor a later phase of delivery (typed, submitted, confirmed, in that order), nor
// failed, dropped nor expired, oldest first in seq order per topic: the ones to send again after
// a restart or a RESUME. done is Confirmed for protocol clients (their ACK) and for
// panes (the program reacted; its Submitting and Submitted times tell the caller whether
// the program may have read it before). A later phase counts as done even where an
// earlier one was never recorded: phases that follow each other quickly may be reported
// only by the last.
func (s *Store) Pending(session, to string, done Phase) ([]Message, error) {
	var cond string
	switch done {
	case Typed:
		cond = "typed IS NULL AND submitting IS NULL AND submitted IS NULL AND confirmed IS NULL"
	case Submitted:
		cond = "submitted IS NULL AND confirmed IS NULL"
	case Confirmed:
		cond = "confirmed IS NULL"
	default:
		return nil, fmt.Errorf("pending: phase %q is no phase of delivery", done)
	}
	rows, err := s.db.Query(`SELECT `+columns+` FROM messages
		WHERE session = ? AND recipient = ? AND `+cond+` AND failed IS NULL AND dropped IS NULL AND expired IS NULL
		ORDER BY topic, seq`, session, to)
	if err != nil {
		return nil, fmt.Errorf("pending for %s: %w", to, err)
	}
	return scan(rows)
}

// Readdress gives the messages of session to recipient from that no phase ended yet
// (not confirmed, failed, dropped nor expired) the recipient to: a pane renamed while
// they waited for it, so that they follow it (typed again under its new name after a
// restart). A message the pane sent that still waits somewhere comes from to, on all its
// rows: typed again after a restart it is the pane's, under the name it has. The history
// of the others keeps the names they were sent from and to.
func (s *Store) Readdress(session, from, to string) error {
	// OR IGNORE: a message with a row for the new name already (sent to both, that copy
	// ended) keeps its row for the old one; the others follow.
	_, err := s.db.Exec(`UPDATE OR IGNORE messages SET recipient = ?
		WHERE session = ? AND recipient = ? AND confirmed IS NULL AND failed IS NULL AND dropped IS NULL AND expired IS NULL`,
		to, session, from)
	if err != nil {
		return fmt.Errorf("readdress %s's messages to %s: %w", from, to, err)
	}
	// What the pane sent that waits is from it under its new name: the session takes a
	// pane's reminder into its own pane only, and a message from the old name would be
	// framed as an outsider's ("a:", not "alpha (1):") when it is handed again.
	_, err = s.db.Exec(`UPDATE messages SET sender = ? WHERE session = ? AND sender = ? AND id IN
		(SELECT id FROM messages WHERE session = ? AND sender = ? AND confirmed IS NULL AND failed IS NULL AND dropped IS NULL AND expired IS NULL)`,
		to, session, from, session, from)
	if err != nil {
		return fmt.Errorf("readdress %s's waiting messages as from %s: %w", from, to, err)
	}
	return nil
}

// Unsettled returns the messages of session whose carriage return was about to be
// written or was written (submitting or submitted) and that reached no final phase
// (confirmed, failed, dropped, expired), oldest first: after a restart, the ones the
// pane's program may have read and that nobody may take further.
func (s *Store) Unsettled(session string) ([]Message, error) {
	rows, err := s.db.Query(`SELECT `+columns+` FROM messages
		WHERE session = ? AND (submitting IS NOT NULL OR submitted IS NOT NULL)
		AND confirmed IS NULL AND failed IS NULL AND dropped IS NULL AND expired IS NULL
		ORDER BY queued, rowid`, session)
	if err != nil {
		return nil, fmt.Errorf("unsettled: %w", err)
	}
	return scan(rows)
}

// Known returns which of ids session has stored (for any recipient): a message that
// arrives again under its id (a retry from another session) is known. Sessions on one
// machine share the store, and a message crossing between two of them is stored by
// both under one id: each asks for its own.
func (s *Store) Known(session string, ids ...string) (map[string]bool, error) {
	known := map[string]bool{}
	for len(ids) > 0 {
		n := min(len(ids), 500) // under SQLite's limit of bound parameters
		args := make([]any, 0, n+1)
		args = append(args, session)
		for _, id := range ids[:n] {
			args = append(args, id)
		}
		rows, err := s.db.Query(`SELECT DISTINCT id FROM messages WHERE session = ? AND id IN (?`+strings.Repeat(",?", n-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("known ids: %w", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("known ids: %w", err)
			}
			known[id] = true
		}
		if err := rows.Close(); err != nil {
			return nil, fmt.Errorf("known ids: %w", err)
		}
		ids = ids[n:]
	}
	return known, nil
}

// PendingRemote returns the messages of session to members of other sessions (a
// recipient NAME@SESSION) that reached no phase there (typed or later, failed, dropped,
// expired), oldest
// first: the ones the mesh sends again after a restart (the other side drops a second
// copy by its id).
func (s *Store) PendingRemote(session string) ([]Message, error) {
	rows, err := s.db.Query(`SELECT `+columns+` FROM messages
		WHERE session = ? AND instr(recipient, '@') > 0
		AND typed IS NULL AND submitting IS NULL AND submitted IS NULL AND confirmed IS NULL
		AND failed IS NULL AND dropped IS NULL AND expired IS NULL
		ORDER BY queued, rowid`, session)
	if err != nil {
		return nil, fmt.Errorf("pending for other sessions: %w", err)
	}
	return scan(rows)
}

// Stream is the position of one (session, recipient, topic) stream.
type Stream struct {
	Topic         string
	LastSeq       int64 // the highest seq ever given (kept across pruning)
	PrunedThrough int64 // seqs up to here may have been deleted by retention
}

// Streams returns every stream of session to recipient to.
func (s *Store) Streams(session, to string) ([]Stream, error) {
	rows, err := s.db.Query(`SELECT topic, MAX(last), MAX(pruned) FROM (
			SELECT topic, MAX(seq) AS last, 0 AS pruned FROM messages WHERE session = ? AND recipient = ? GROUP BY topic
			UNION ALL
			SELECT topic, pruned_through, pruned_through FROM streams WHERE session = ? AND recipient = ?)
		GROUP BY topic ORDER BY topic`, session, to, session, to)
	if err != nil {
		return nil, fmt.Errorf("streams of %s: %w", to, err)
	}
	defer rows.Close()
	var out []Stream
	for rows.Next() {
		var st Stream
		if err := rows.Scan(&st.Topic, &st.LastSeq, &st.PrunedThrough); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// Get returns message id, one row per recipient.
func (s *Store) Get(id string) ([]Message, error) {
	rows, err := s.db.Query(`SELECT `+columns+` FROM messages WHERE id = ? ORDER BY rowid`, id)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", id, err)
	}
	ms, err := scan(rows)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", id, err)
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return ms, nil
}

// Query selects history: Session and Member ("" for any: Member matches sender or
// recipient, its case aside), messages queued at or after SinceMs and written before the message with
// Row Before (0: any), the newest Limit (0: 100) of them.
type Query struct {
	Session string
	Member  string
	SinceMs int64
	Before  int64
	Limit   int
	// Bytes, when above 0, bounds what is read (HistoryWithin): the newest messages
	// while their bodies and data add up to at most Bytes (one at least), each body
	// read up to Bytes characters (BodyBytes then says its size).
	Bytes int
}

// History returns the messages matching q, newest last.
func (s *Store) History(q Query) ([]Message, error) {
	ms, _, err := s.HistoryWithin(q)
	return ms, err
}

// HistoryWithin is History that also says whether older messages matching q were left
// out for q.Bytes (more): the next page starts before the first one returned. The
// sizes are read first, from the rows' headers (octet_length reads no large value),
// then the rows kept: a page of large messages reads about Bytes, not Limit of them.
func (s *Store) HistoryWithin(q Query) (ms []Message, more bool, err error) {
	if q.Bytes <= 0 {
		ms, err = s.history(q)
		return ms, false, err
	}
	cond, args := q.where()
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.Query(`SELECT rowid, octet_length(body) + octet_length(COALESCE(data, '')) FROM messages `+cond+
		` ORDER BY rowid DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, false, fmt.Errorf("history: %w", err)
	}
	var keep []any
	total := 0
	for rows.Next() {
		var row int64
		var n int
		if err := rows.Scan(&row, &n); err != nil {
			rows.Close()
			return nil, false, fmt.Errorf("history: %w", err)
		}
		if len(keep) > 0 && total+n > q.Bytes {
			more = true
			break
		}
		keep, total = append(keep, row), total+n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("history: %w", err)
	}
	if len(keep) == 0 {
		return nil, false, nil
	}
	cut := strings.Replace(columns, "body,", "substr(body, 1, ?),", 1)
	rows, err = s.db.Query(`SELECT `+cut+`, octet_length(body), rowid FROM messages WHERE rowid IN (?`+strings.Repeat(", ?", len(keep)-1)+`) ORDER BY rowid`,
		append([]any{q.Bytes}, keep...)...)
	if err != nil {
		return nil, false, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m Message
		var whole int
		if err := rows.Scan(fields(&m, &whole, &m.Row)...); err != nil {
			return nil, false, fmt.Errorf("history: %w", err)
		}
		if whole > len(m.Body) {
			m.BodyBytes = whole
		}
		ms = append(ms, m)
	}
	return ms, more, rows.Err()
}

// where is q's condition and its arguments.
func (q Query) where() (string, []any) {
	var where []string
	var args []any
	if q.Session != "" {
		where, args = append(where, "session = ?"), append(args, q.Session)
	}
	if q.Member != "" {
		where, args = append(where, "(sender = ? COLLATE NOCASE OR recipient = ? COLLATE NOCASE)"), append(args, q.Member, q.Member)
	}
	if q.SinceMs > 0 {
		where, args = append(where, "queued >= ?"), append(args, q.SinceMs)
	}
	if q.Before > 0 {
		where, args = append(where, "rowid < ?"), append(args, q.Before)
	}
	if len(where) == 0 {
		return "", nil
	}
	return "WHERE " + strings.Join(where, " AND "), args
}

// history is History without a bound in bytes.
func (s *Store) history(q Query) ([]Message, error) {
	cond, args := q.where()
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.Query(`SELECT * FROM (SELECT `+columns+`, rowid AS r FROM messages `+cond+
		` ORDER BY rowid DESC LIMIT ?) ORDER BY r`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		var m Message
		if err := rows.Scan(fields(&m, &m.Row)...); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// HasMember reports whether any message of session (any: "") was sent by or to name,
// its case aside (SameName: no two members' names differ only in case).
func (s *Store) HasMember(session, name string) (bool, error) {
	var found bool
	err := s.db.QueryRow(`SELECT EXISTS (SELECT 1 FROM messages WHERE (? = '' OR session = ?) AND
		(sender = ? COLLATE NOCASE OR recipient = ? COLLATE NOCASE))`, session, session, name, name).Scan(&found)
	if err != nil {
		return false, fmt.Errorf("history: %w", err)
	}
	return found, nil
}

// Prune deletes the messages queued before cutoffMs, remembering per stream the highest
// seq deleted (so a RESUME from before it is STALE). It returns how many were deleted.
func (s *Store) Prune(cutoffMs int64) (int64, error) {
	// Nothing that old (a session's start, mostly): no write lock is taken, which another
	// session's writer could hold up to the busy timeout.
	var old bool
	if err := s.db.QueryRow(`SELECT EXISTS (SELECT 1 FROM messages WHERE queued < ?)`, cutoffMs).Scan(&old); err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	if !old {
		return 0, nil
	}
	tx, err := s.db.Begin()
	if err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO streams (session, recipient, topic, pruned_through)
		SELECT session, recipient, topic, MAX(seq) FROM messages WHERE queued < ? GROUP BY session, recipient, topic
		ON CONFLICT (session, recipient, topic) DO UPDATE SET pruned_through = MAX(pruned_through, excluded.pruned_through)`, cutoffMs); err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	res, err := tx.Exec(`DELETE FROM messages WHERE queued < ?`, cutoffMs)
	if err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, tx.Commit()
}
