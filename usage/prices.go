package usage

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Price is what a model's tokens cost, in US dollars per million tokens of each kind.
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cache_read"`
	CacheWrite float64 `json:"cache_write"`
}

// Cost is what t costs at p, in US dollars.
func (p Price) Cost(t Tokens) float64 {
	return (float64(t.Input)*p.Input + float64(t.Output)*p.Output +
		float64(t.CacheRead)*p.CacheRead + float64(t.CacheWrite)*p.CacheWrite) / 1e6
}

// Prices maps model ids to their prices.
type Prices map[string]Price

// PricesDate and PricesSource say when and where the shipped table (DefaultPrices) was
// taken. They are copied from the vendors' published list prices for standard
// (non-batch, shortest-context tier, 5-minute cache write) use; check them against the
// source and override in config.toml [prices] where they differ.
const (
	PricesDate   = "2025-11-30"
	PricesSource = "anthropic.com/pricing, openai.com/api/pricing, ai.google.dev/gemini-api/docs/pricing"
)

// DefaultPrices is the shipped price table (see PricesDate and PricesSource).
func DefaultPrices() Prices {
	return Prices{
		// Anthropic: cache write is the 5-minute write (1.25× input), cache read 0.1×.
		"claude-opus-4-5":   {5, 25, 0.50, 6.25},
		"claude-opus-4-1":   {15, 75, 1.50, 18.75},
		"claude-opus-4":     {15, 75, 1.50, 18.75},
		"claude-sonnet-4-5": {3, 15, 0.30, 3.75},
		"claude-sonnet-4":   {3, 15, 0.30, 3.75},
		"claude-3-7-sonnet": {3, 15, 0.30, 3.75},
		"claude-haiku-4-5":  {1, 5, 0.10, 1.25},
		"claude-3-5-haiku":  {0.80, 4, 0.08, 1},
		// OpenAI: cached input is read at the cached rate; there is no write charge.
		"gpt-5":         {1.25, 10, 0.125, 0},
		"gpt-5-codex":   {1.25, 10, 0.125, 0},
		"gpt-5.1":       {1.25, 10, 0.125, 0},
		"gpt-5.1-codex": {1.25, 10, 0.125, 0},
		"gpt-5-mini":    {0.25, 2, 0.025, 0},
		"gpt-5-nano":    {0.05, 0.40, 0.005, 0},
		"gpt-4.1":       {2, 8, 0.50, 0},
		"gpt-4.1-mini":  {0.40, 1.60, 0.10, 0},
		"gpt-4o":        {2.50, 10, 1.25, 0},
		"gpt-4o-mini":   {0.15, 0.60, 0.075, 0},
		"o3":            {2, 8, 0.50, 0},
		"o4-mini":       {1.10, 4.40, 0.275, 0},
		// Google: prompts up to 200k tokens; cache storage is not counted.
		"gemini-2.5-pro":        {1.25, 10, 0.31, 0},
		"gemini-2.5-flash":      {0.30, 2.50, 0.075, 0},
		"gemini-2.5-flash-lite": {0.10, 0.40, 0.025, 0},
		"gemini-2.0-flash":      {0.10, 0.40, 0.025, 0},
	}
}

// dated matches a model id's date or version tail: claude-sonnet-4-5-20250929,
// gpt-4o-2024-08-06, gemini-2.5-pro@001, a "-latest" alias. Compiled on first use, not
// at every agentmux process's start.
var dated = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(-\d{8}|-\d{4}-\d{2}-\d{2}|@[\w.-]+|-latest)$`) })

// Lookup returns the price of model: its own entry, else the entry of the id without a
// provider prefix ("anthropic/claude-…") or a date tail; false when the table has none.
func (p Prices) Lookup(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		if pr, ok := p[m]; ok {
			return pr, true
		}
		m = m[i+1:]
	}
	for m != "" {
		if pr, ok := p[m]; ok {
			return pr, true
		}
		next := dated().ReplaceAllString(m, "")
		if next == m {
			break
		}
		m = next
	}
	return Price{}, false
}

// Cost is what request q cost: the CLI's own figure when it gives one, else t at the
// model's price; false when neither is known.
func (p Prices) Cost(q Request) (float64, bool) {
	if q.CostUSD != nil {
		return *q.CostUSD, true
	}
	pr, ok := p.Lookup(q.Model)
	if !ok {
		return 0, false
	}
	return pr.Cost(q.Tokens), true
}

// Merge returns a copy of p with over's entries added or replacing p's.
func (p Prices) Merge(over Prices) Prices {
	out := Prices{}
	for k, v := range p {
		out[k] = v
	}
	for k, v := range over {
		out[strings.ToLower(k)] = v
	}
	return out
}

// Models returns the table's model ids in order.
func (p Prices) Models() []string {
	ms := make([]string, 0, len(p))
	for m := range p {
		ms = append(ms, m)
	}
	slices.Sort(ms)
	return ms
}

// ParsePrice reads a price override's value: four numbers, dollars per million input,
// output, cache-read and cache-write tokens, as "3, 15, 0.30, 3.75" (an array's items
// or one string). Each must be a finite number of at least 0.
func ParsePrice(fields []string) (Price, error) {
	if len(fields) != 4 {
		return Price{}, fmt.Errorf("want 4 prices (input, output, cache read, cache write per million tokens), e.g. [3, 15, 0.30, 3.75]; got %d", len(fields))
	}
	var v [4]float64
	for i, f := range fields {
		n, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(f), "$"), 64)
		if err != nil || n < 0 || n > 1e6 || n != n {
			return Price{}, fmt.Errorf("price %q is not a number of dollars per million tokens, e.g. 3 or 0.30", f)
		}
		v[i] = n
	}
	return Price{v[0], v[1], v[2], v[3]}, nil
}
