package store

import (
	"database/sql"
	"fmt"
	"strings"
)

// Spend is one record of what a pane's model requests used: Requests requests to Model
// by pane Pane of session Session at AtMs (Unix ms), counted to link Link ("": the
// pane only), their tokens by kind and their cost (nil: the model had no price).
type Spend struct {
	Session, Pane, Link, Model string
	AtMs                       int64
	Requests                   int64
	Input, Output              int64
	CacheRead, CacheWrite      int64
	CostUSD                    *float64
}

// AddSpend records s.
func (s *Store) AddSpend(sp Spend) error {
	var cost sql.NullFloat64
	if sp.CostUSD != nil {
		cost = sql.NullFloat64{Float64: *sp.CostUSD, Valid: true}
	}
	_, err := s.db.Exec(`INSERT INTO spend (session, pane, link, model, at, requests, input, output, cache_read, cache_write, cost_usd)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		sp.Session, sp.Pane, sp.Link, sp.Model, sp.AtMs, sp.Requests, sp.Input, sp.Output, sp.CacheRead, sp.CacheWrite, cost)
	if err != nil {
		return fmt.Errorf("record spend: %w", err)
	}
	return nil
}

// RenameSpend gives what pane from of session spent to the name to: a pane renamed, so
// that its total follows it (what a restore gives each pane back, and what its spend cap
// counts, is the store's spend by pane name).
func (s *Store) RenameSpend(session, from, to string) error {
	if _, err := s.db.Exec(`UPDATE spend SET pane = ? WHERE session = ? AND pane = ?`, to, session, from); err != nil {
		return fmt.Errorf("rename %s's spend to %s: %w", from, to, err)
	}
	return nil
}

// SpendTotal is the spend of one key of a SpendBy: its requests, tokens by kind, the
// cost of its priced part, and how many of its records had a price and how many none.
type SpendTotal struct {
	Key                   string
	Requests              int64
	Input, Output         int64
	CacheRead, CacheWrite int64
	CostUSD               float64
	Priced, Unpriced      int64
}

// SpendKeys are the groupings SpendBy takes.
var SpendKeys = []string{"pane", "link", "session", "day", "model"}

// SpendBy sums the spend of session (every session's when "") recorded at or after
// sinceMs, by key: "pane" (SESSION/PANE when across sessions), "link" ("" for what
// counted to no link), "session", "day" (UTC, YYYY-MM-DD) or "model"; in key order.
func (s *Store) SpendBy(session, by string, sinceMs int64) ([]SpendTotal, error) {
	var key string
	switch by {
	case "pane":
		key = "pane"
		if session == "" {
			key = "session || '/' || pane"
		}
	case "link":
		key = "link"
		if session == "" {
			key = "CASE link WHEN '' THEN '' ELSE session || '/' || link END"
		}
	case "session":
		key = "session"
	case "day":
		key = "strftime('%Y-%m-%d', at / 1000, 'unixepoch')"
	case "model":
		key = "model"
	default:
		return nil, fmt.Errorf("spend by %q: want one of %s", by, strings.Join(SpendKeys, ", "))
	}
	rows, err := s.db.Query(`SELECT `+key+` AS k, SUM(requests), SUM(input), SUM(output), SUM(cache_read), SUM(cache_write),
		COALESCE(SUM(cost_usd), 0), COUNT(cost_usd), COUNT(*) - COUNT(cost_usd)
		FROM spend WHERE (? = '' OR session = ?) AND at >= ? GROUP BY k ORDER BY k`, session, session, sinceMs)
	if err != nil {
		return nil, fmt.Errorf("spend by %s: %w", by, err)
	}
	defer rows.Close()
	var out []SpendTotal
	for rows.Next() {
		var t SpendTotal
		if err := rows.Scan(&t.Key, &t.Requests, &t.Input, &t.Output, &t.CacheRead, &t.CacheWrite, &t.CostUSD, &t.Priced, &t.Unpriced); err != nil {
			return nil, fmt.Errorf("spend by %s: %w", by, err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("spend by %s: %w", by, err)
	}
	return out, nil
}
