package usage

import "fmt"

// Tokens are the four kinds of tokens a request is billed for. Input excludes cached
// input: CacheRead is input read from the provider's cache, CacheWrite input written
// to it.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
}

// MaxRequestTokens is the most tokens of one kind one request is counted for. A
// usage file is the pane's program's to write: a count past any model's (a billion)
// is taken as this, and sums stop at MaxTokens, so that a forged huge count can
// neither wrap a total around to below zero (which turned every cap off) nor
// overflow the store's sums.
const (
	MaxRequestTokens = 1_000_000_000
	MaxTokens        = 1 << 62
)

// Clamped is t with each kind within 0..MaxRequestTokens.
func (t Tokens) Clamped() Tokens {
	return Tokens{Clamp(t.Input), Clamp(t.Output), Clamp(t.CacheRead), Clamp(t.CacheWrite)}
}

// Clamp is one request's count of one kind within 0..MaxRequestTokens.
func Clamp(n int64) int64 { return min(max(n, 0), MaxRequestTokens) }

// Add returns t plus u, each kind at most MaxTokens (counts are never negative).
func (t Tokens) Add(u Tokens) Tokens {
	return Tokens{sat(t.Input, u.Input), sat(t.Output, u.Output), sat(t.CacheRead, u.CacheRead), sat(t.CacheWrite, u.CacheWrite)}
}

// Total is the sum of the four kinds, at most MaxTokens.
func (t Tokens) Total() int64 { return sat(sat(t.Input, t.Output), sat(t.CacheRead, t.CacheWrite)) }

// sat is a+b for counts (not negative), at most MaxTokens.
func sat(a, b int64) int64 {
	a, b = min(max(a, 0), MaxTokens), min(max(b, 0), MaxTokens)
	if a > MaxTokens-b {
		return MaxTokens
	}
	return a + b
}

// IsZero reports whether no token of any kind was counted.
func (t Tokens) IsZero() bool { return t == Tokens{} }

// grow returns the part of now that exceeds was, field by field (never negative), and
// the field-wise maximum of the two: a request's usage seen again with larger counts
// adds only the difference.
//
// What now counts may be a running total (Codex's, of a whole thread, which passes a
// billion in a long one): the total is kept up to MaxTokens, and what one request
// adds, the delta, is clamped as one request's count.
func grow(was, now Tokens) (delta, most Tokens) {
	now = Tokens{}.Add(now) // within 0..MaxTokens
	defer func() { delta = delta.Clamped() }()
	d := func(a, b int64) (int64, int64) {
		if b > a {
			return b - a, b
		}
		return 0, a
	}
	delta.Input, most.Input = d(was.Input, now.Input)
	delta.Output, most.Output = d(was.Output, now.Output)
	delta.CacheRead, most.CacheRead = d(was.CacheRead, now.CacheRead)
	delta.CacheWrite, most.CacheWrite = d(was.CacheWrite, now.CacheWrite)
	return delta, most
}

// Request is one model request's usage as a Reader found it: its id in the CLI's file,
// the model that answered, the tokens newly counted, and the cost the CLI computed
// itself when it records one (pi), else nil.
type Request struct {
	ID      string
	Model   string
	Tokens  Tokens
	CostUSD *float64
}

// Short formats a token count the way the border shows it: 950, 12k, 1.2M.
func Short(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10_000:
		return trim(fmt.Sprintf("%.1f", float64(n)/1e3)) + "k"
	case n < 1_000_000:
		return fmt.Sprintf("%dk", n/1000)
	case n < 10_000_000:
		return trim(fmt.Sprintf("%.1f", float64(n)/1e6)) + "M"
	default:
		return fmt.Sprintf("%dM", n/1_000_000)
	}
}

// trim drops a ".0" ending.
func trim(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}

// Money formats dollars for a border or a table: $0.42, $12.30, $0.0031; "$?" for an
// unknown cost.
func Money(usd float64, known bool) string {
	if !known {
		return "$?"
	}
	if usd != 0 && usd < 0.01 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}
