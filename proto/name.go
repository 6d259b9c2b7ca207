package proto

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckVisible reports why name (a member's name, a sender's) cannot be shown to a
// person as it is, or nil: it must be UTF-8 and every character must print (letters,
// marks, numbers, punctuation, symbols, the ASCII space). Control characters (an escape
// sequence's ESC, a newline that forges a header), format characters (bidi overrides,
// zero-width ones, tags) and other spaces are refused.
func CheckVisible(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("name %q is not UTF-8", name)
	}
	for i, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("name %q has an invisible or control character (%U at byte %d)", name, r, i)
		}
	}
	return nil
}

// The names of panes, client members and senders (`agentmux send --from`) follow one
// rule, CheckName, here, so every place that takes a name (the command line, the
// session, the socket) takes the same ones. A name is shown to the person and typed
// into agents ("NAME (N):" frames a delivery), so it must not pass for another:
// ASCII letters, digits, '_', '.' and '-' only, which no other script can imitate and
// where case and the look-alikes 0/o and 1/l/I are folded when names are compared
// (SameName); every form of the person's name ("you", "YOU", "you-2", "you.web") is
// reserved, and so are agentmux's own notices'.

// PersonName is the sender name of the person at the keyboard.
const PersonName = "you"

// MaxNameBytes is the longest name, in bytes.
const MaxNameBytes = 64

// reservedNames are the names (and their forms) no pane, member or sender may take.
var reservedNames = []string{PersonName, "agentmux"}

// ErrBadName is wrapped by CheckName's and CheckNameShape's errors.
var ErrBadName = fmt.Errorf("not a name")

// NameRule says what a name may hold, for errors.
const NameRule = "a name may hold only ASCII letters, digits, _ . and - (at most 64 bytes), and not start with - or ."

// CheckNameShape reports why s is not written as a name (nil when it is): empty,
// longer than MaxNameBytes, starting with '-' or '.', or holding anything but ASCII
// letters, digits, '_', '.' and '-'. The command line reads NAME=COMMAND by it.
func CheckNameShape(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("an empty name: %w", ErrBadName)
	case len(s) > MaxNameBytes:
		return fmt.Errorf("a name of %d bytes: at most %d: %w", len(s), MaxNameBytes, ErrBadName)
	case s[0] == '-' || s[0] == '.':
		return fmt.Errorf("%q starts with %c: %w", s, s[0], ErrBadName)
	}
	if err := CheckVisible(s); err != nil {
		return fmt.Errorf("%w: %w", err, ErrBadName)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return fmt.Errorf("%s: %s: %w", strconv.Quote(s), NameRule, ErrBadName)
		}
	}
	return nil
}

// IsWord reports whether s is 1 to max ASCII letters, digits, '_' or '-': the shape of
// the identifiers agentmux takes from files and peers (a hub's session names, an agent's
// turn ids). A loop, not a regexp: a counted repeat compiled at package init cost every
// agentmux process milliseconds.
func IsWord(s string, max int) bool {
	if len(s) < 1 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// NameKind says what a name is to name, for CheckName: every kind follows one rule;
// the kind words the error.
type NameKind string

// The kinds of names CheckName checks.
const (
	PaneName   NameKind = "pane"
	MemberName NameKind = "member"
	SenderName NameKind = "sender"
)

// CheckName reports why name cannot be the name of a kind (a pane's, a client
// member's, a sender's), or nil: it must have a name's shape (CheckNameShape), not be
// a number (numbers address panes by position), and not be a form of a reserved name
// (Reserved). It is the one name rule: the command line, the session and the socket
// all check by it. Its errors say the kind and wrap ErrBadName.
func CheckName(kind NameKind, name string) error {
	if err := CheckNameShape(name); err != nil {
		return fmt.Errorf("%s name: %w", kind, err)
	}
	if _, err := strconv.Atoi(name); err == nil {
		return fmt.Errorf("%s name %s: numbers address panes by position: %w", kind, name, ErrBadName)
	}
	if r := Reserved(name); r != "" {
		why := ""
		if kind == SenderName {
			why = ": a send without a sender is the person's (you), or the pane's it runs in"
		}
		return fmt.Errorf("%s name %s is reserved (a form of %q)%s: %w", kind, name, r, why, ErrBadName)
	}
	return nil
}

// DefaultName is the name a pane started from program (its argv[0]) takes when none
// is given: the program's base name, or "pane" when that breaks the rule (CheckName).
// The session adds -2, -3… when a member has it.
func DefaultName(program string) string {
	if base := filepath.Base(program); CheckName(PaneName, base) == nil {
		return base
	}
	return "pane"
}

// Reserved returns the reserved name ("you", "agentmux") name is a form of: the same
// but for case and look-alike characters (SameName), or such a name followed by
// anything but a letter ("you-2", "you.web", "Y0U_1"). "" when none.
func Reserved(name string) string {
	for _, r := range reservedNames {
		for p := 1; p <= len(name); p++ {
			if SameName(name[:p], r) && (p == len(name) || !isLetter(name[p])) {
				return r
			}
		}
	}
	return ""
}

// isLetter reports an ASCII letter.
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// SameName reports whether a and b would pass for one another: equal but for case and
// the look-alikes 0/o, 1/l/I, rn/m and vv/w.
func SameName(a, b string) bool { return nameKey(a) == nameKey(b) }

// nameKey folds s for comparison: 'I' and '1' to 'l', '0' to 'o', lower case, then "rn"
// to "m" and "vv" to "w". Characters outside ASCII are kept (CheckName refuses them).
func nameKey(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c == 'I' || c == '1':
			b[i] = 'l'
		case c == '0':
			b[i] = 'o'
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return strings.NewReplacer("rn", "m", "vv", "w").Replace(string(b))
}
