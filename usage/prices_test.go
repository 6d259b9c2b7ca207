package usage

// Strategy: the price table's lookups (dated ids, provider prefixes, unknown models),
// the money a request costs, and the budget forms, good and bad, as tables.

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	p := DefaultPrices()
	for _, tc := range []struct {
		model string
		want  Price
		ok    bool
	}{
		{"claude-sonnet-4-5-20250929", p["claude-sonnet-4-5"], true},
		{"anthropic/claude-opus-4-1", p["claude-opus-4-1"], true},
		{"gpt-4o-2024-08-06", p["gpt-4o"], true},
		{"gemini-2.5-pro", p["gemini-2.5-pro"], true},
		{"GPT-5", p["gpt-5"], true},
		{"gpt-5-turbo-ultra", Price{}, false}, // no guess from a prefix
		{"mock-model", Price{}, false},
		{"", Price{}, false},
	} {
		got, ok := p.Lookup(tc.model)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v, %v", tc.model, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCost(t *testing.T) {
	p := DefaultPrices()
	q := Request{Model: "claude-sonnet-4-5", Tokens: Tokens{Input: 1_000_000, Output: 100_000, CacheRead: 2_000_000, CacheWrite: 400_000}}
	c, ok := p.Cost(q)
	if want := 3 + 1.5 + 0.6 + 1.5; !ok || math.Abs(c-want) > 1e-9 {
		t.Fatalf("cost = %v, %v; want %v", c, ok, want)
	}
	if _, ok := p.Cost(Request{Model: "mock", Tokens: Tokens{Input: 1}}); ok {
		t.Fatal("an unknown model has a cost")
	}
	over := p.Merge(Prices{"Mock": {1, 2, 0, 0}})
	if c, ok := over.Cost(Request{Model: "mock", Tokens: Tokens{Input: 1e6, Output: 1e6}}); !ok || c != 3 {
		t.Fatalf("override cost = %v, %v", c, ok)
	}
	if _, ok := p["mock"]; ok {
		t.Fatal("Merge changed the table it was called on")
	}
}

func TestParsePrice(t *testing.T) {
	if got, err := ParsePrice([]string{"3", "15", "0.30", "$3.75"}); err != nil || got != (Price{3, 15, 0.3, 3.75}) {
		t.Fatalf("ParsePrice = %+v, %v", got, err)
	}
	for _, bad := range [][]string{{"3", "15"}, {"3", "x", "0", "0"}, {"-1", "1", "1", "1"}, {"NaN", "1", "1", "1"}} {
		if _, err := ParsePrice(bad); err == nil {
			t.Errorf("ParsePrice(%q) took it", bad)
		}
	}
}

func TestParseBudget(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Budget
	}{
		{"300k", Budget{Tokens: 300_000}},
		{"1.5M", Budget{Tokens: 1_500_000}},
		{"12000", Budget{Tokens: 12000}},
		{"5K", Budget{Tokens: 5000}},
		{"$2", Budget{USD: 2}},
		{"$0.50", Budget{USD: 0.5}},
		{"", Budget{}},
	} {
		got, err := ParseBudget(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseBudget(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if tc.in != "" {
			if back, err := ParseBudget(got.String()); err != nil || back != got {
				t.Errorf("%q: String %q reads back as %+v, %v", tc.in, got.String(), back, err)
			}
		}
	}
	for _, bad := range []string{"2$", "-3k", "abc", "0", "$0", "$-2", "k", "1e9", "$1e3", "0x10", "3kk", "$", "NaN", "$Inf"} {
		_, err := ParseBudget(bad)
		if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "300k") || !strings.Contains(err.Error(), "$2") {
			t.Errorf("ParseBudget(%q) = %v, want an error showing the right forms", bad, err)
		}
	}
}

func TestCrossed(t *testing.T) {
	b := Budget{Tokens: 5000}
	if b.Crossed(Tokens{Input: 4999}, 0, false) || !b.Crossed(Tokens{Input: 4000, Output: 1000}, 0, false) {
		t.Fatal("token budget")
	}
	m := Budget{USD: 2}
	if m.Crossed(Tokens{}, 5, false) || m.Crossed(Tokens{}, 1.99, true) || !m.Crossed(Tokens{}, 2, true) {
		t.Fatal("money budget: an unknown cost never crosses it")
	}
}

func TestShortAndMoney(t *testing.T) {
	for n, want := range map[int64]string{950: "950", 1200: "1.2k", 120_000: "120k", 1_200_000: "1.2M", 25_000_000: "25M", 1000: "1k"} {
		if got := Short(n); got != want {
			t.Errorf("Short(%d) = %q, want %q", n, got, want)
		}
	}
	if Money(0.42, true) != "$0.42" || Money(0.0031, true) != "$0.0031" || Money(1, false) != "$?" {
		t.Fatal("Money")
	}
}
