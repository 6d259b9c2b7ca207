package usage

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Budget is a spend limit: tokens (all four kinds together) or US dollars. The zero
// Budget is no limit.
type Budget struct {
	Tokens int64
	USD    float64
}

// IsZero reports whether b sets no limit.
func (b Budget) IsZero() bool { return b == Budget{} }

// String is the budget in the form ParseBudget reads: 300k, 1.5M, 1200, $2, $0.50.
func (b Budget) String() string {
	switch {
	case b.USD > 0:
		return "$" + strconv.FormatFloat(b.USD, 'f', -1, 64)
	case b.Tokens > 0:
		return Short(b.Tokens)
	}
	return ""
}

// Crossed reports whether spent tokens, or spent dollars (when known), reach b.
func (b Budget) Crossed(spent Tokens, usd float64, usdKnown bool) bool {
	switch {
	case b.Tokens > 0:
		return spent.Total() >= b.Tokens
	case b.USD > 0:
		return usdKnown && usd >= b.USD
	}
	return false
}

// ErrBudget is wrapped by every error ParseBudget returns.
var ErrBudget = errors.New("bad budget")

// budgetExample is the right forms, for errors.
const budgetExample = `use tokens like 300k, 1.5M or 12000, or dollars like '$2' or '$0.50'`

// ParseBudget reads a budget: a count of tokens with an optional k or M (300k, 1.5M,
// 12000) or dollars after a $ ($2, $0.50). "" is no budget. Anything else (2$, -3k,
// abc, 0) is an error that shows the right forms.
func ParseBudget(s string) (Budget, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Budget{}, nil
	}
	bad := func() (Budget, error) {
		return Budget{}, fmt.Errorf("%w %q: %s", ErrBudget, s, budgetExample)
	}
	if rest, ok := strings.CutPrefix(s, "$"); ok {
		v, err := strconv.ParseFloat(rest, 64)
		if err != nil || strings.ContainsAny(rest, "eExXpP_+-") || v <= 0 || v > 1e9 || math.IsNaN(v) {
			return bad()
		}
		return Budget{USD: v}, nil
	}
	mult := 1.0
	num := s
	switch {
	case strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K"):
		mult, num = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "M") || strings.HasSuffix(s, "m"):
		mult, num = 1e6, s[:len(s)-1]
	}
	if num == "" || strings.ContainsAny(num, "eExXpP_+-") {
		return bad()
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v <= 0 || v*mult > 1e15 || math.IsNaN(v) {
		return bad()
	}
	n := int64(math.Round(v * mult))
	if n < 1 {
		return bad()
	}
	return Budget{Tokens: n}, nil
}
