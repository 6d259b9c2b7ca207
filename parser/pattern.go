package parser

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Pattern is a regular expression (Go RE2 syntax) matched against one line of screen
// text or a title. Patterns anchored at the start of the line remember which characters
// the first non-space character of a match can be, so a line is only handed to the
// regexp engine when it could match: that keeps chrome removal over long transcripts
// fast while the patterns stay plain data.
//
// A Pattern is a handle on one compilation, shared by its copies: Compile compiles at
// once; the built-in profiles' patterns compile on their first use instead (compiling
// them all took every agentmux process ~7 ms at start-up), once, safely from any number
// of goroutines.
type Pattern struct {
	c *compiled // nil: the zero Pattern, which matches nothing
}

// compiled is a Pattern's expression and, once done, its compilation.
type compiled struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
	// first lists the runes a matching line's first non-space rune must be one of; nil
	// means the pattern gives no such guarantee.
	first []rune
	// need lists strings one of which every match contains; nil means no such guarantee.
	need []string
}

// Compile parses a regular expression into a Pattern.
func Compile(expr string) (Pattern, error) {
	c := &compiled{expr: expr}
	var err error
	c.once.Do(func() { err = c.compile() })
	if err != nil {
		return Pattern{}, err
	}
	return Pattern{c: c}, nil
}

// MustCompile is Compile for expressions known to be valid; it panics on a bad
// expression.
func MustCompile(expr string) Pattern {
	p, err := Compile(expr)
	if err != nil {
		panic(err)
	}
	return p
}

// lazyPattern returns a Pattern of expr compiled on its first use, for expressions
// known to be valid: the built-in profiles' (TestBuiltinPatternsCompile compiles every
// one). A bad expression panics on first use.
func lazyPattern(expr string) Pattern {
	return Pattern{c: &compiled{expr: expr}}
}

// compile fills in c from c.expr; it runs once, under c.once.
func (c *compiled) compile() error {
	re, err := regexp.Compile(c.expr)
	if err != nil {
		return fmt.Errorf("pattern %q: %w", c.expr, err)
	}
	c.re = re
	if tree, err := syntax.Parse(c.expr, syntax.Perl); err == nil {
		tree = tree.Simplify()
		c.first = firstRunes(tree)
		c.need = required(tree)
	}
	return nil
}

// get returns the compilation of p, compiling it on first use; nil for the zero Pattern.
func (p Pattern) get() *compiled {
	if p.c == nil {
		return nil
	}
	p.c.once.Do(func() {
		if err := p.c.compile(); err != nil {
			panic(err)
		}
	})
	return p.c
}

// String returns the source expression.
func (p Pattern) String() string {
	if p.c == nil {
		return ""
	}
	return p.c.expr
}

// Match reports whether the pattern matches s. The zero Pattern matches nothing.
func (p Pattern) Match(s string) bool {
	c := p.get()
	if c == nil {
		return false
	}
	if c.first != nil {
		r, ok := firstNonSpace(s)
		if !ok || !containsRune(c.first, r) {
			return false
		}
	}
	if c.need != nil && !containsAny(s, c.need) {
		return false
	}
	return c.re.MatchString(s)
}

// matchAny reports whether any of ps matches s.
func matchAny(ps []Pattern, s string) bool {
	for _, p := range ps {
		if p.Match(s) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// firstNonSpace returns the first rune of s that is not white space.
func firstNonSpace(s string) (rune, bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			return r, true
		}
		i += n
	}
	return 0, false
}

// maxFirstRunes bounds the character classes firstRunes expands.
const maxFirstRunes = 64

// firstRunes returns the runes the first non-space rune of any match of re must be one
// of, or nil when that cannot be told (unanchored patterns, case folding, big classes,
// a leading part that may match nothing, ...). nil is always safe: it only disables the
// shortcut.
func firstRunes(re *syntax.Regexp) []rune {
	if re.Op != syntax.OpConcat || len(re.Sub) == 0 {
		return nil
	}
	subs := re.Sub
	switch subs[0].Op {
	case syntax.OpBeginLine, syntax.OpBeginText:
		subs = subs[1:]
	default:
		return nil // not anchored: a match may start anywhere
	}
	for _, s := range subs {
		switch {
		case s.Op == syntax.OpBeginLine || s.Op == syntax.OpBeginText:
			continue
		case onlySpace(s):
			continue
		}
		rs := leadRunes(s)
		for _, r := range rs {
			if unicode.IsSpace(r) {
				return nil
			}
		}
		return rs
	}
	return nil
}

// onlySpace reports whether every string re matches consists of white space only
// (the empty string included), such as `\s*`, ` +` or `[ \t]{0,3}`.
func onlySpace(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return true
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return false
		}
		for _, r := range re.Rune {
			if !unicode.IsSpace(r) {
				return false
			}
		}
		return true
	case syntax.OpCharClass:
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if n++; n > maxFirstRunes || !unicode.IsSpace(r) {
					return false
				}
			}
		}
		return true
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat, syntax.OpCapture:
		return onlySpace(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		for _, s := range re.Sub {
			if !onlySpace(s) {
				return false
			}
		}
		return true
	}
	return false
}

// leadRunes returns the possible first runes of a non-empty match of re, or nil if re may
// match the empty string or the set cannot be told.
func leadRunes(re *syntax.Regexp) []rune {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil
		}
		return []rune{re.Rune[0]}
	case syntax.OpCharClass:
		var rs []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if rs = append(rs, r); len(rs) > maxFirstRunes {
					return nil
				}
			}
		}
		return rs
	case syntax.OpCapture, syntax.OpPlus:
		return leadRunes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil
		}
		return leadRunes(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil
		}
		return leadRunes(re.Sub[0])
	case syntax.OpAlternate:
		var rs []rune
		for _, s := range re.Sub {
			sub := leadRunes(s)
			if sub == nil {
				return nil
			}
			if rs = append(rs, sub...); len(rs) > maxFirstRunes {
				return nil
			}
		}
		return rs
	}
	return nil
}

// maxNeed bounds the alternatives required keeps.
const maxNeed = 8

// required returns strings one of which every match of re contains (the literal parts it
// cannot match without), or nil when that cannot be told. Like firstRunes, nil only
// disables a shortcut.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil
		}
		return []string{string(re.Rune)}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil
		}
		return required(re.Sub[0])
	case syntax.OpConcat:
		// The sub whose shortest alternative is longest says the most.
		var best []string
		bestLen := 0
		for _, s := range re.Sub {
			r := required(s)
			if r == nil {
				continue
			}
			short := len(r[0])
			for _, x := range r[1:] {
				short = min(short, len(x))
			}
			if short > bestLen {
				best, bestLen = r, short
			}
		}
		return best
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			r := required(s)
			if r == nil {
				return nil
			}
			if out = append(out, r...); len(out) > maxNeed {
				return nil
			}
		}
		return out
	}
	return nil
}
