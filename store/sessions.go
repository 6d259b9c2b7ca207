package store

import "fmt"

// SessionSummary is what the store keeps of one session: how many messages (one row
// per recipient) and when the newest was queued (ms since the epoch).
type SessionSummary struct {
	Name     string
	Messages int
	Last     int64
}

// Sessions lists the sessions the store has messages of, the most recently active
// last.
func (s *Store) Sessions() ([]SessionSummary, error) {
	rows, err := s.db.Query(`SELECT session, COUNT(*), MAX(queued) FROM messages GROUP BY session ORDER BY MAX(queued), session`)
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	defer rows.Close()
	var out []SessionSummary
	for rows.Next() {
		var ss SessionSummary
		if err := rows.Scan(&ss.Name, &ss.Messages, &ss.Last); err != nil {
			return nil, fmt.Errorf("sessions: %w", err)
		}
		out = append(out, ss)
	}
	return out, rows.Err()
}
