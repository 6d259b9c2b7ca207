package proto

import (
	"fmt"
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
