package keys

// Helpers shared by the keys tests: short constructors for keys and a one-line
// description of every event kind, so decode tables read as "bytes in → events out".

import (
	"fmt"
	"strings"
)

// key builds a functional key with modifiers.
func key(c Code, m Mod) Key { return Key{Code: c, Mod: m} }

// ch builds a character key with modifiers.
func ch(r rune, m Mod) Key { return Key{Code: KeyRune, Rune: r, Mod: m} }

// describe renders an event without its Raw bytes.
func describe(ev Event) string {
	switch e := ev.(type) {
	case Key:
		s := "key " + e.String()
		if e.Base != 0 && e.Base != e.Rune {
			s += fmt.Sprintf(" base=%q", e.Base)
		}
		if e.Layout != 0 {
			s += fmt.Sprintf(" layout=%q", e.Layout)
		}
		if e.Text != "" {
			s += fmt.Sprintf(" text=%q", e.Text)
		}
		return s
	case Paste:
		return fmt.Sprintf("paste %q", e.Text)
	case Mouse:
		return fmt.Sprintf("mouse %s %s %d,%d%s", buttonName(e.Button), actionName(e.Action), e.X, e.Y, modSuffix(e.Mod))
	case Focus:
		if e.In {
			return "focus in"
		}
		return "focus out"
	case Reply:
		return fmt.Sprintf("reply %q", e.Raw)
	}
	return fmt.Sprintf("unexpected %T", ev)
}

func describeAll(evs []Event) string {
	parts := make([]string, len(evs))
	for i, ev := range evs {
		parts[i] = describe(ev)
	}
	return strings.Join(parts, " | ")
}

func modSuffix(m Mod) string {
	if m == 0 {
		return ""
	}
	return " " + m.String()
}

func buttonName(b MouseButton) string {
	return [...]string{"none", "left", "middle", "right", "wheelup", "wheeldown", "wheelleft",
		"wheelright", "back", "forward", "b10", "b11"}[b]
}

func actionName(a MouseAction) string {
	return [...]string{"press", "release", "motion"}[a]
}

// rawOf returns the Raw bytes of any event.
func rawOf(ev Event) []byte {
	switch e := ev.(type) {
	case Key:
		return e.Raw
	case Paste:
		return e.Raw
	case Mouse:
		return e.Raw
	case Focus:
		return e.Raw
	case Reply:
		return e.Raw
	}
	return nil
}
