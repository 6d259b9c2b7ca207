package parser

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// State is what a program's title and screen say about it.
type State int

// The states Classify tells apart.
const (
	// Unknown means neither the title nor the live region says: the caller falls back on
	// quiet time.
	Unknown State = iota
	// Idle means the program waits for input.
	Idle
	// Busy means the program is working on a turn.
	Busy
	// NeedsApproval means the program waits for the person to answer a permission, trust
	// or sign-in prompt: nothing may be typed into it.
	NeedsApproval
)

// String returns the state's name as the UI shows it.
func (s State) String() string {
	switch s {
	case Idle:
		return "idle"
	case Busy:
		return "busy"
	case NeedsApproval:
		return "needs you"
	}
	return "unknown"
}

// Classify tells the state of a program from its title and screen rows (top to bottom).
// Approval, from the title or a marker in the live region, wins; then the title; then a
// busy marker in the live region; then, for a profile that says so, a screen with none is
// idle. Unknown when nothing says.
func Classify(p Profile, title string, screen []string) State {
	title = strings.TrimSpace(title)
	live := LiveRegion(p, screen)
	if matchAny(p.ApprovalTitle, title) || anyRowMatches(p.ApprovalMarkers, live) {
		return NeedsApproval
	}
	if title != "" {
		if matchAny(p.BusyTitle, title) {
			return Busy
		}
		if matchAny(p.IdleTitle, title) {
			return Idle
		}
	}
	if anyRowMatches(p.BusyMarkers, live) {
		return Busy
	}
	if len(p.DoneMarkers) > 0 && !doneShown(p, screen) {
		return Unknown
	}
	if p.IdleUnlessBusy && len(live) > 0 {
		return Idle
	}
	return Unknown
}

// doneShown reports whether no row of words stands under the screen's last done marker
// (see Profile.DoneMarkers): blank rows, chrome (the input box, the footer) and the rows
// of the input (a draft: see InputRow) aside. A row opening with an echo prefix anywhere
// else is a message the program took (opencode draws one in a box of the same kind as
// its input): standing under the done marker, it is the next turn, begun. A screen with
// no row of words at all (a start screen) counts as done too.
func doneShown(p Profile, screen []string) bool {
	chrome := newMatcher(p.Chrome)
	top, end, _ := inputRows(p, screen)
	for i := len(screen) - 1; i >= 0; i-- {
		r := clean(screen[i])
		switch {
		case isBlank(r):
		case matchAny(p.DoneMarkers, r):
			return true
		case chrome.match(r), i >= top && i < end:
		default:
			return false
		}
	}
	return true
}

func anyRowMatches(ps []Pattern, rows []string) bool {
	if len(ps) == 0 {
		return false
	}
	for _, r := range rows {
		if matchAny(ps, clean(r)) {
			return true
		}
	}
	return false
}

// LiveRegion returns the rows of screen where a program draws what changes while it
// works: from LiveStart to the end, and at least the last p.LiveRows rows that are not
// trailing blanks. Scrollback never belongs to it.
func LiveRegion(p Profile, screen []string) []string {
	end := len(screen)
	for end > 0 && isBlank(screen[end-1]) {
		end--
	}
	start := liveStart(p, p.liveMatcher(), screen[:end])
	if min := end - p.liveRows(); min < start {
		start = max(min, 0)
	}
	return screen[start:end]
}

// LiveStart returns the index of the first row of the trailing block of rows that are
// chrome, empty prompts, blank, or open with an echo prefix (an input box and its draft, the footer,
// spinner and status rows): the rows after the last thing the program settled. With
// StrictEcho only the last non-blank row may be an echo row (the prompt being typed at).
// It returns len(screen) when the last row is none of those.
func LiveStart(p Profile, screen []string) int {
	return liveStart(p, p.liveMatcher(), screen)
}

// liveStart is LiveStart with a matcher for p.Chrome and p.Prompts (see liveMatcher).
func liveStart(p Profile, live *matcher, screen []string) int {
	i := len(screen)
	seen := false // a non-blank row is already in the block
	for i > 0 {
		row := clean(screen[i-1])
		if row != "" {
			echo := p.echoPrefix(row) > 0 && (!p.StrictEcho || !seen)
			if !echo && !live.match(row) {
				break
			}
			seen = true
		}
		i--
	}
	return i
}

// clean returns row as the parser compares it: no-break spaces (Claude Code draws its
// prompt as "❯\u00a0") made plain spaces, trailing white space removed.
func clean(row string) string {
	if strings.ContainsRune(row, '\u00a0') {
		row = strings.ReplaceAll(row, "\u00a0", " ")
	}
	return strings.TrimRightFunc(row, unicode.IsSpace)
}

// cleanAll returns the rows cleaned (see clean), in a new slice.
func cleanAll(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = clean(r)
	}
	return out
}

// isBlank reports whether s holds nothing but white space.
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, _ := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsSpace(r) {
				return false
			}
			return strings.TrimSpace(s[i:]) == ""
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f' {
			return false
		}
	}
	return true
}
