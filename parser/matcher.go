package parser

// matcher answers "is this row chrome?" for many rows of one call, faster than trying
// every pattern on every row: patterns are indexed by the first non-space rune they need,
// the rest are screened by the literals they need, and the answer for a row that reached
// the regexp engine is remembered (transcripts repeat rules, prompts and footers).
type matcher struct {
	byRune map[rune][]*compiled
	rest   []*compiled
	memo   map[string]bool
}

// maxMemo bounds the remembered answers of one matcher; rows shorter than minMemo are
// cheaper to match again than to look up.
const (
	maxMemo = 4096
	minMemo = 64
)

// newMatcher indexes ps, compiling those not compiled yet.
func newMatcher(ps []Pattern) *matcher {
	m := &matcher{byRune: map[rune][]*compiled{}}
	for _, pat := range ps {
		p := pat.get()
		if p == nil {
			continue
		}
		if p.first == nil {
			m.rest = append(m.rest, p)
			continue
		}
		for _, r := range p.first {
			m.byRune[r] = append(m.byRune[r], p)
		}
	}
	return m
}

// match reports whether any pattern matches row. It gives the same answer as matchAny.
func (m *matcher) match(row string) bool {
	var cands []*compiled
	if r, ok := firstNonSpace(row); ok {
		cands = m.byRune[r]
	}
	tried := false
	memo := len(row) >= minMemo
	for _, p := range cands {
		if p.need != nil && !containsAny(row, p.need) {
			continue
		}
		if !tried && memo {
			if v, ok := m.memo[row]; ok {
				return v
			}
		}
		tried = true
		if p.re.MatchString(row) {
			return m.remember(row, true)
		}
	}
	for _, p := range m.rest {
		if p.need != nil && !containsAny(row, p.need) {
			continue
		}
		if !tried && memo {
			if v, ok := m.memo[row]; ok {
				return v
			}
		}
		tried = true
		if p.re.MatchString(row) {
			return m.remember(row, true)
		}
	}
	if tried {
		m.remember(row, false)
	}
	return false
}

func (m *matcher) remember(row string, v bool) bool {
	if len(row) < minMemo {
		return v
	}
	if m.memo == nil {
		m.memo = make(map[string]bool)
	}
	if len(m.memo) < maxMemo {
		m.memo[row] = v
	}
	return v
}
