package keys

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrBadKey is wrapped by every ParseKey error.
var ErrBadKey = errors.New("bad key")

// keyAliases are the names ParseKey accepts besides the canonical ones of Code.String.
var keyAliases = map[string]Key{
	"space": {Code: KeyRune, Rune: ' '}, "plus": {Code: KeyRune, Rune: '+'},
	"minus": {Code: KeyRune, Rune: '-'}, "esc": {Code: KeyEscape}, "return": {Code: KeyEnter},
	"cr": {Code: KeyEnter}, "bs": {Code: KeyBackspace}, "bspace": {Code: KeyBackspace},
	"del": {Code: KeyDelete}, "ins": {Code: KeyInsert}, "pageup": {Code: KeyPgUp},
	"page_up": {Code: KeyPgUp}, "ppage": {Code: KeyPgUp}, "pagedown": {Code: KeyPgDn},
	"page_down": {Code: KeyPgDn}, "npage": {Code: KeyPgDn}, "btab": {Code: KeyTab, Mod: ModShift},
}

// modAliases are the modifier names ParseKey accepts in "mod+key" specs.
var modAliases = map[string]Mod{
	"ctrl": ModCtrl, "control": ModCtrl, "alt": ModAlt, "opt": ModAlt, "option": ModAlt,
	"shift": ModShift, "super": ModSuper, "cmd": ModSuper, "command": ModSuper,
	"win": ModSuper, "hyper": ModHyper, "meta": ModMeta,
}

// ParseKey parses a key binding such as "ctrl+a", "ctrl+b", "alt+shift+x", "f5",
// "shift+enter", "space" or "q". Modifier and key names are case-insensitive; a single
// character is taken as written, except that Shift upper-cases an ASCII letter
// ("shift+a" is "A"). tmux's "C-a", "M-x" (Alt) and "S-" forms are accepted too.
// The result has no Raw bytes; use Key.Matches to compare it with decoded input.
func ParseKey(spec string) (Key, error) {
	orig := spec
	fail := func(why string) (Key, error) {
		return Key{}, fmt.Errorf("%w %q: %s", ErrBadKey, orig, why)
	}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return fail("empty")
	}
	var mods Mod
	var name string
	if tmuxStyle(spec) {
		for len(spec) > 2 && spec[1] == '-' {
			switch spec[0] {
			case 'C':
				mods |= ModCtrl
			case 'M':
				mods |= ModAlt
			case 'S':
				mods |= ModShift
			}
			spec = spec[2:]
		}
		name = spec
	} else {
		parts := strings.Split(spec, "+")
		if strings.HasSuffix(spec, "++") || spec == "+" {
			parts = append(parts[:len(parts)-2], "+") // the key itself is '+'
		}
		name = parts[len(parts)-1]
		for _, p := range parts[:len(parts)-1] {
			m, ok := modAliases[strings.ToLower(strings.TrimSpace(p))]
			if !ok {
				return fail(fmt.Sprintf("unknown modifier %q", p))
			}
			if mods&m != 0 {
				return fail(fmt.Sprintf("modifier %q given twice", p))
			}
			mods |= m
		}
	}
	name = strings.TrimSpace(name)
	k, err := keyByName(name)
	if err != nil {
		return fail(err.Error())
	}
	k.Mod |= mods
	if k.Code == KeyRune {
		k.Rune = k.char()
	}
	return k, nil
}

// tmuxStyle reports whether spec looks like "C-a" / "M-S-x" rather than "ctrl+a".
func tmuxStyle(spec string) bool {
	return len(spec) > 2 && spec[1] == '-' && strings.ContainsRune("CMS", rune(spec[0])) && !strings.Contains(spec, "+")
}

// keyByName resolves a key name or a single character.
func keyByName(name string) (Key, error) {
	if name == "" {
		return Key{}, errors.New("no key after the modifiers")
	}
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		if !unicode.IsPrint(r) {
			return Key{}, fmt.Errorf("unprintable key %U", r)
		}
		return Key{Code: KeyRune, Rune: r}, nil
	}
	lower := strings.ToLower(name)
	if k, ok := keyAliases[lower]; ok {
		return k, nil
	}
	for c, n := range fnNames {
		if n == lower && c != KeyUnknown {
			return Key{Code: c}, nil
		}
	}
	return Key{}, fmt.Errorf("unknown key %q", name)
}

// LegacySends returns the key a terminal without the kitty keyboard protocol delivers
// when k is pressed (xterm's encoding, decoded back), and whether that is k itself.
// ctrl+m arrives as Enter, ctrl+i as Tab, ctrl+[ as Escape and ctrl+1 as "1": a
// binding on them never fires there. ok is false with a zero Key when such a terminal
// sends nothing for k at all (super+a, f13 and beyond arrive as something else or not
// at all).
func LegacySends(k Key) (Key, bool) {
	b := Encode(k, Mode{})
	if len(b) == 0 {
		return Key{}, false
	}
	var d Decoder
	evs := append(d.Feed(b), d.Flush()...)
	if len(evs) != 1 {
		return Key{}, false
	}
	got, isKey := evs[0].(Key)
	if !isKey {
		return Key{}, false
	}
	got.Raw = nil
	return got, got.Matches(k)
}
