package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
	spend "github.com/agentmux/agentmux/usage"
)

// spendCommand is `agentmux spend`: what the agents spent, from the store, so it works
// for a running session and an ended one alike.
func spendCommand() command {
	return command{name: "spend", short: "what the agents spent: tokens and cost", flags: []flagSpec{
		stringFlag("by", "KEY", "pane (default), link, session, day or model", func(a *spendArgs) *string { return &a.by }),
		durationFlag("since", "D", "of the last D (e.g. 24h)", true, func(a *spendArgs) *time.Duration { return &a.since }),
		stringFlag("session", "NAME", "one session's (default: every session's)", func(a *clientArgs) *string { return &a.session }),
		switchFlag("json", "one JSON array: key, requests, tokens {input, output, cache_read,\ncache_write}, cost_usd (null: no price known), cost_partial", func(a *clientArgs) *bool { return &a.json }),
	}, exec: func(_ context.Context, a clientArgs, sio stdio) (int, error) {
		if err := runSpend(a, sio.out); errors.Is(err, errUsage) {
			return 2, err
		} else if err != nil {
			return 1, err
		}
		return 0, nil
	}, synopsis: `agentmux spend [--by pane|link|session|day|model] [--since D] [--session NAME] [--json]`, help: `What the agents spent, as their CLIs recorded it: requests, tokens by kind (input,
output, cache read, cache write) and cost, by pane (SESSION/PANE across sessions), by
the link whose deliveries started the turns ("-" for turns the person started), by
session, by day (UTC) or by model. A cost ending in "+?" is a floor: some requests
were to a model with no price (set one in config.toml [prices]); "$?" means none had
one. Kept in the store: ended sessions' spend too. See docs/spend.md.`}
}

// spendArgs are spend's own flags (its --session and --json are the common ones).
type spendArgs struct {
	by    string
	since time.Duration
}

// spendRow is one row of agentmux spend --json.
type spendRow struct {
	Key         string       `json:"key"`
	Requests    int64        `json:"requests"`
	Tokens      proto.Tokens `json:"tokens"`
	CostUSD     *float64     `json:"cost_usd"`
	CostPartial bool         `json:"cost_partial"`
}

// runSpend prints the store's spend by a.by.
func runSpend(a clientArgs, w io.Writer) error {
	o := own[spendArgs](a)
	by := o.by
	if by == "" {
		by = "pane"
	}
	if !slices.Contains(store.SpendKeys, by) {
		return usagef("--by %q: want one of %s", by, strings.Join(store.SpendKeys, ", "))
	}
	st, err := openStoreIfAny()
	if err != nil {
		return err
	}
	defer st.Close()
	var since int64
	if o.since > 0 {
		since = time.Now().Add(-o.since).UnixMilli()
	}
	totals, err := st.SpendBy(a.session, by, since)
	if err != nil {
		return err
	}
	rows := make([]spendRow, 0, len(totals))
	for _, t := range totals {
		r := spendRow{Key: t.Key, Requests: t.Requests, Tokens: proto.Tokens{Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite},
			CostPartial: t.Priced > 0 && t.Unpriced > 0}
		if t.Priced > 0 {
			usd := t.CostUSD
			r.CostUSD = &usd
		}
		rows = append(rows, r)
	}
	if a.json {
		return printJSON(w, rows)
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "no spend recorded")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tREQUESTS\tINPUT\tOUTPUT\tCACHE READ\tCACHE WRITE\tTOKENS\tCOST\t\n", strings.ToUpper(by))
	var total spendRow
	priced, unpriced := false, false
	for _, r := range rows {
		key := r.Key
		if key == "" {
			key = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t\n", line(key), spendCells(r))
		total.Requests += r.Requests
		total.Tokens.Input += r.Tokens.Input
		total.Tokens.Output += r.Tokens.Output
		total.Tokens.CacheRead += r.Tokens.CacheRead
		total.Tokens.CacheWrite += r.Tokens.CacheWrite
		priced = priced || r.CostUSD != nil
		unpriced = unpriced || r.CostUSD == nil || r.CostPartial
		if r.CostUSD != nil {
			usd := *r.CostUSD
			if total.CostUSD != nil {
				usd += *total.CostUSD
			}
			total.CostUSD = &usd
		}
	}
	if len(rows) > 1 {
		total.CostPartial = priced && unpriced
		fmt.Fprintf(tw, "total\t%s\t\n", spendCells(total))
	}
	return tw.Flush()
}

// spendCells are a row's cells after its key.
func spendCells(r spendRow) string {
	t := r.Tokens
	return fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%s", r.Requests, spend.Short(t.Input), spend.Short(t.Output),
		spend.Short(t.CacheRead), spend.Short(t.CacheWrite), spend.Short(t.Total()), costText(r.CostUSD, r.CostPartial))
}

// costText is a cost as the tables show it: "$0.42", "$0.42+?" (part had no price),
// "$?" (none had).
func costText(usd *float64, partial bool) string {
	if usd == nil {
		return "$?"
	}
	s := spend.Money(*usd, true)
	if partial {
		s += "+?"
	}
	return s
}

// memberSpend is ls's TOKENS and COST cells of m: "?" for a pane whose CLI's usage
// agentmux cannot read (and that spent nothing known before), "-" for a client or
// nothing read yet.
func memberSpend(m proto.Member) string {
	if m.Tokens == nil {
		if m.Number > 0 && !m.Metered {
			return "?\t?"
		}
		return "-\t-"
	}
	cost := costText(m.CostUSD, m.CostPartial)
	if m.CostOwn {
		cost += " (cli)" // the CLI's own figure, not the price table's
	}
	return spend.Short(m.Tokens.Total()) + "\t" + cost
}
