package session

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/relay"
)

// Strategy: the draft tracker against what a line editor (readline, an agent CLI's
// input) does with each key: a sequence of keys and pastes, then the event the last
// one makes. A draft the tracker reports known must be exactly the input's text; a key
// it cannot follow must make it unknown (Draft true, Text ""), never a guess.

// press builds keys: a rune types itself; the named keys are functional or chorded.
var (
	left      = keys.Key{Code: keys.KeyLeft}
	right     = keys.Key{Code: keys.KeyRight}
	home      = keys.Key{Code: keys.KeyHome}
	end       = keys.Key{Code: keys.KeyEnd}
	del       = keys.Key{Code: keys.KeyDelete}
	backspace = keys.Key{Code: keys.KeyBackspace}
	altBS     = keys.Key{Code: keys.KeyBackspace, Mod: keys.ModAlt}
	enter     = keys.Key{Code: keys.KeyEnter}
	shiftEnt  = keys.Key{Code: keys.KeyEnter, Mod: keys.ModShift}
	esc       = keys.Key{Code: keys.KeyEscape}
	up        = keys.Key{Code: keys.KeyUp}
	down      = keys.Key{Code: keys.KeyDown}
	tab       = keys.Key{Code: keys.KeyTab}
	pgUp      = keys.Key{Code: keys.KeyPgUp}
	pgDn      = keys.Key{Code: keys.KeyPgDn}
	shiftLeft = keys.Key{Code: keys.KeyLeft, Mod: keys.ModShift}
	lshift    = keys.Key{Code: keys.KeyLeftShift}
)

func ctrl(c rune) keys.Key { return keys.Key{Code: keys.KeyRune, Rune: c, Mod: keys.ModCtrl} }
func alt(c rune) keys.Key  { return keys.Key{Code: keys.KeyRune, Rune: c, Mod: keys.ModAlt} }

// typed returns the keys that type s.
func typed(s string) []any {
	var out []any
	for _, c := range s {
		out = append(out, keys.Key{Code: keys.KeyRune, Rune: c})
	}
	return out
}

// seq joins keys, strings (typed) and pastes.
type paste string

func seq(parts ...any) []any {
	var out []any
	for _, p := range parts {
		if s, ok := p.(string); ok {
			out = append(out, typed(s)...)
			continue
		}
		out = append(out, p)
	}
	return out
}

// feed runs a sequence into pane 1 of d and returns the event the last step made.
func feed(d drafts, steps []any) relay.Event {
	var ev relay.Event
	for _, s := range steps {
		switch s := s.(type) {
		case keys.Key:
			ev = d.key(1, s)
		case paste:
			ev = nil
			if evs := d.paste(1, string(s), false); len(evs) > 0 {
				ev = evs[len(evs)-1]
			}
		}
	}
	return ev
}

func known(text string) relay.Event { return relay.Keystroke{Pane: 1, Draft: true, Text: text} }

// knownAt is known with the cursor after runes characters before the end.
func knownAt(text string, after int) relay.Event {
	return relay.Keystroke{Pane: 1, Draft: true, Text: text, After: after}
}

var (
	empty   relay.Event = relay.Keystroke{Pane: 1}
	unknown relay.Event = relay.Keystroke{Pane: 1, Draft: true}
)

func TestDraftTrackerModelsLineEditing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []any
		want  relay.Event
	}{
		{"typing", seq("hello"), known("hello")},
		{"left then type inserts", seq("helo", left, "l"), knownAt("hello", 1)},
		{"ctrl+b then type", seq("helo", ctrl('b'), "l"), knownAt("hello", 1)},
		{"left stops at the start", seq("ab", left, left, left, "x"), knownAt("xab", 2)},
		{"right stops at the end", seq("ab", left, right, right, "x"), known("abx")},
		{"ctrl+f", seq("ac", left, left, ctrl('f'), "b"), knownAt("abc", 1)},
		{"home", seq("world", home, "hello "), knownAt("hello world", 5)},
		{"ctrl+a", seq("world", ctrl('a'), "hello "), knownAt("hello world", 5)},
		{"end", seq("hello", home, end, "!"), known("hello!")},
		{"ctrl+e", seq("hello", ctrl('a'), ctrl('e'), "!"), known("hello!")},
		{"backspace at the cursor", seq("hexllo", left, left, left, backspace), knownAt("hello", 3)},
		{"backspace at the start", seq("ab", home, backspace), knownAt("ab", 2)},
		{"ctrl+h is backspace", seq("abc", ctrl('h')), known("ab")},
		{"delete under the cursor", seq("helxlo", left, left, left, del), knownAt("hello", 2)},
		{"delete at the end", seq("ab", del), known("ab")},
		{"ctrl+w the word before", seq("say hello  ", ctrl('w')), known("say ")},
		{"ctrl+w mid-line", seq("one two three", left, left, left, left, left, left, ctrl('w')), knownAt("one  three", 6)},
		{"ctrl+w takes punctuation", seq("a foo.bar", ctrl('w')), known("a ")},
		{"alt+backspace stops at punctuation", seq("a foo.bar", altBS), known("a foo.")},
		{"ctrl+k to the end", seq("hello world", left, left, left, left, left, left, ctrl('k')), known("hello")},
		{"paste at the cursor", seq("held", left, paste("lo worl")), knownAt("hello world", 1)},
		{"shift+enter adds a line", seq("a", shiftEnt, "b"), known("a\nb")},
		{"shifted rune", seq(keys.Key{Code: keys.KeyRune, Rune: 'H', Mod: keys.ModShift}, "i"), known("Hi")},
		{"release changes nothing", seq("ab", keys.Key{Code: keys.KeyRune, Rune: 'c', Event: keys.KeyRelease}), known("ab")},
		{"lone modifier changes nothing", seq("ab", lshift), known("ab")},
		{"ctrl+c empties", seq("abc", ctrl('c')), empty},
		{"esc on an empty input", seq(esc), empty},
		{"ctrl+u at the end empties", seq("abc", ctrl('u')), empty},
		{"backspace to nothing", seq("a", backspace), empty},
		{"empty paste", seq(paste("")), nil},

		// Keys the tracker cannot follow: unknown, never a guess.
		{"up recalls history", seq("ab", up), unknown},
		{"up on an empty input", seq(up), unknown},
		{"down", seq(down), unknown},
		{"tab completes", seq("gi", tab), unknown},
		{"tab on an empty input", seq(tab), unknown},
		{"ctrl+r searches", seq(ctrl('r')), unknown},
		{"ctrl+y yanks", seq(ctrl('y')), unknown},
		{"ctrl+p history", seq(ctrl('p')), unknown},
		{"alt+. yanks the last word", seq(alt('.')), unknown},
		{"page up in a draft", seq("ab", pgUp), unknown},
		{"page down in a draft", seq("ab", pgDn), unknown},
		{"shift+left selects", seq("ab", shiftLeft), unknown},
		{"alt+b moves by word", seq("ab cd", alt('b')), unknown},
		{"ctrl+d in a draft", seq("ab", ctrl('d')), unknown},
		{"ctrl+u before the end", seq("abc", left, ctrl('u')), unknown},
		{"esc in a draft: programs differ", seq("abc", esc), unknown},
		{"unknown, esc", seq(up, esc), unknown},
		{"home on more lines", seq("a", shiftEnt, "b", home), unknown},
		{"ctrl+k on more lines", seq("a", shiftEnt, "b", ctrl('k')), unknown},
		{"unknown stays unknown while typing", seq(up, "more", paste("x"), left, backspace, ctrl('w')), unknown},
		{"unknown, ctrl+u: its cursor is not known", seq(up, ctrl('u')), unknown},

		// An empty input stays empty under keys that bring no text into it.
		{"page up on an empty input", seq(pgUp), empty},
		{"ctrl+l on an empty input", seq(ctrl('l')), empty},
		{"left on an empty input", seq(left, backspace, del), empty},

		// Emptied from unknown.
		{"unknown, ctrl+c", seq("ab", tab, ctrl('c')), empty},
		{"unknown, then typing after ctrl+c is known", seq(up, ctrl('c'), "hi"), known("hi")},

		// Enter submits.
		{"enter sends the text", seq("ab", left, "x", enter), relay.Sent{Pane: 1, Text: "axb"}},
		{"enter on an unknown draft", seq(up, enter), relay.Sent{Pane: 1}},
		{"enter on nothing", seq(enter), empty},
		{"enter on blanks", seq("  ", enter), empty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, feed(drafts{}, tc.steps))
		})
	}
}

// After Enter, and after a reset from the relay, the draft starts again: from empty,
// or from the text the relay typed back with the cursor at its end.
func TestDraftTrackerStartsAgain(t *testing.T) {
	d := drafts{}
	feed(d, seq("abc", enter))
	assert.Equal(t, known("x"), feed(d, seq("x")))

	d = drafts{}
	feed(d, seq("my draft", left, left)) // the cursor inside it
	d.reset(1, "")                       // the relay cleared the input
	assert.Equal(t, known("k"), feed(d, seq("k")))

	d.reset(1, "my draft") // typed back: the program's cursor is at its end
	assert.Equal(t, known("my draft!"), feed(d, seq("!")))

	feed(d, seq(up))
	d.reset(1, "") // the screen showed the input empty
	assert.Equal(t, known("a"), feed(d, seq("a")))

	d.reset(1, "")
	assert.Equal(t, empty, d.event(1))
	_, held := d[1]
	assert.False(t, held, "an empty input is not kept")
}
