package parser

// Strategy: the first-rune shortcut must never change a pattern's answer. A table pins
// which expressions get a shortcut and which do not; a differential test and FuzzPattern
// compare Pattern.Match with the plain regexp on every built-in pattern over real rows.
// The built-in patterns compile on first use, so a test compiles every one of them (a
// bad one would otherwise panic only when a pane first met it), and a lazy pattern is
// matched from many goroutines at once under -race.

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestFirstRunes(t *testing.T) {
	tests := []struct {
		expr string
		want string // "" = no shortcut
	}{
		{`^❯\s*$`, "❯"},
		{`^\s*❯\s*$`, "❯"},
		{`^ {0,2}[·✢*] \S+…`, "*·✢"},
		{`^\s*(?:✻|✽) x`, "✻✽"},
		{`^\s*(?:Worked|─+ Worked) for`, "W─"},
		{`esc to interrupt`, ""},
		{`^\s*.*x`, ""},
		{`^(?i)tip:`, ""},
		{`^\s*a?b`, ""},
		{`^\s*[\x{2800}-\x{28FF}]`, ""}, // class too big
		{`^$`, ""},
		{`^\s+\S`, ""},
	}
	for _, tt := range tests {
		p := MustCompile(tt.expr)
		if got := string(p.get().first); got != tt.want {
			t.Errorf("%q: first = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

// corpusRows returns every row of the rendered fixtures, plus rows built to tease the
// shortcut: leading tabs and no-break spaces, empty rows, odd glyphs.
func corpusRows(t testing.TB) []string {
	var rows []string
	for _, name := range fixtureNames {
		for _, s := range loadSamples(t, name) {
			rows = append(rows, s.rows...)
		}
	}
	rows = append(rows, "", " ", "\t❯ ", "\u00a0❯", "❯", "  Worked for 3s", "\t─ Worked for 1m ─", "·", "* x…")
	slices.Sort(rows)
	return slices.Compact(rows)
}

func builtinPatterns() []Pattern {
	var out []Pattern
	for _, p := range Builtins() {
		for _, l := range [][]Pattern{p.IdleTitle, p.BusyTitle, p.ApprovalTitle, p.BusyMarkers, p.ApprovalMarkers, p.Chrome} {
			out = append(out, l...)
		}
	}
	return out
}

func TestPatternShortcutAgreesWithRegexp(t *testing.T) {
	rows := corpusRows(t)
	for _, p := range builtinPatterns() {
		re := regexp.MustCompile(p.String())
		for _, r := range rows {
			if got, want := p.Match(r), re.MatchString(r); got != want {
				t.Errorf("%q on %q: Match %v, regexp %v", p.String(), r, got, want)
			}
		}
	}
}

func FuzzPattern(f *testing.F) {
	for _, r := range corpusRows(f) {
		f.Add(r)
	}
	pats := builtinPatterns()
	res := make([]*regexp.Regexp, len(pats))
	for i, p := range pats {
		res[i] = regexp.MustCompile(p.String())
	}
	f.Fuzz(func(t *testing.T, row string) {
		if strings.ContainsRune(row, '\n') {
			return
		}
		for i, p := range pats {
			if got, want := p.Match(row), res[i].MatchString(row); got != want {
				t.Fatalf("%q on %q: Match %v, regexp %v", p.String(), row, got, want)
			}
		}
	})
}

func TestRequired(t *testing.T) {
	tests := []struct {
		expr string
		want string // alternatives joined by "|"; "" = none
	}{
		{`esc to interrupt`, "esc to interrupt"},
		{`^\s*\S.*· for agents\s*$`, "· for agents"},
		{`(?:/effort|for agents)\s*$`, "/effort|for agents"},
		{`\(esc to cancel`, "(esc to cancel"},
		{`^\s*(?:x|.)`, ""},
		{`(?i)tip`, ""},
		{`a?`, ""},
	}
	for _, tt := range tests {
		p := MustCompile(tt.expr)
		if got := strings.Join(p.get().need, "|"); got != tt.want {
			t.Errorf("%q: need = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

func TestZeroPattern(t *testing.T) {
	var p Pattern
	if p.Match("") || p.Match("x") || p.String() != "" {
		t.Fatal("the zero Pattern must match nothing")
	}
	if _, err := Compile("("); err == nil {
		t.Fatal("Compile accepted a bad expression")
	}
}

// TestBuiltinPatternsCompile compiles every pattern of every built-in profile, whatever
// field holds it.
func TestBuiltinPatternsCompile(t *testing.T) {
	n := 0
	for name, p := range Builtins() {
		v := reflect.ValueOf(p)
		for i := range v.NumField() {
			l, ok := v.Field(i).Interface().([]Pattern)
			if !ok {
				continue
			}
			for _, pat := range l {
				if _, err := Compile(pat.String()); err != nil {
					t.Errorf("profile %s, %s: %v", name, v.Type().Field(i).Name, err)
				}
				n++
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d built-in patterns found: the walk over Profile's fields misses some", n)
	}
}

// TestLazyPatternShared: a built-in pattern compiles on its first use, once, whichever
// copy and however many goroutines use it first, and agrees with the regexp.
func TestLazyPatternShared(t *testing.T) {
	p := lazyPattern(`^\s*❯ \S+…`)
	if p.String() != `^\s*❯ \S+…` {
		t.Fatalf("String = %q", p.String())
	}
	if p.c.re != nil {
		t.Fatal("compiled before first use")
	}
	copies := []Pattern{p, p, p, p, p, p, p, p}
	var wg sync.WaitGroup
	for _, c := range copies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !c.Match("  ❯ thinking…") || c.Match("❯") {
				t.Error("wrong answer")
			}
		}()
	}
	wg.Wait()
	if p.c.re == nil || p.c.first == nil {
		t.Fatal("a copy's first use did not compile the shared pattern")
	}
	bad := lazyPattern(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("a bad built-in expression did not panic on first use")
		}
	}()
	bad.Match("x")
}
