package parser

// Strategy: fuzzing with real screens as seeds. FuzzDelta checks that Extract never
// panics, agrees with a slow reference (the same profile with the first-rune shortcut
// off, so every pattern runs on every row), never invents text, and never lets a chrome
// row through (a chrome-looking output row must come from a longer, non-chrome row whose
// glyph or indentation was stripped). FuzzFresh checks bounds and that Fresh of a
// transcript against itself finds nothing new. FuzzMainTurn checks that the words of a
// main-screen turn never panic whatever the rows, their numbers and the cursors, never
// invent text, and that a screen compared with itself has no words; the same for a
// full-screen transcript. FuzzCommands checks that every command is either well-formed
// or carries an error.

import (
	"strings"
	"testing"
)

// slowProfile returns p with the first-rune shortcut disabled on every pattern.
func slowProfile(p Profile) Profile {
	p = p.clone()
	for _, l := range [][]Pattern{p.IdleTitle, p.BusyTitle, p.ApprovalTitle, p.BusyMarkers, p.ApprovalMarkers, p.Chrome} {
		for i := range l {
			l[i] = withoutShortcut(l[i])
		}
	}
	return p
}

// withoutShortcut returns a new compilation of p with no first-rune shortcut.
func withoutShortcut(p Pattern) Pattern {
	if p.c == nil {
		return p
	}
	c := &compiled{expr: p.String()}
	c.once.Do(func() {
		if err := c.compile(); err != nil {
			panic(err)
		}
		c.first = nil
	})
	return Pattern{c: c}
}

func seedScreens(f *testing.F) {
	for _, name := range fixtureNames {
		ss := loadSamples(f, name)
		for _, s := range []sample{ss[0], ss[len(ss)/2], ss[len(ss)-1]} {
			f.Add(strings.Join(s.rows, "\n"), "say hi", uint8(len(name)))
		}
	}
	f.Add("❯ hi\n● Hello\n  world\n❯ ", "hi", uint8(0))
	f.Add("> x\n\n\n  code\n> ", "x", uint8(3))
}

var fuzzProfiles = []string{"claude", "codex", "gemini", "generic"}

func FuzzDelta(f *testing.F) {
	seedScreens(f)
	f.Fuzz(func(t *testing.T, text, typed string, which uint8) {
		p := Builtins()[fuzzProfiles[int(which)%len(fuzzProfiles)]]
		lines := strings.Split(text, "\n")
		got, last := extractLive(p, lines, []string{typed})
		ref, refLast := extractLive(slowProfile(p), lines, []string{typed})
		if got != ref || last != refLast {
			t.Fatalf("fast %q/%d, reference %q/%d", got, last, ref, refLast)
		}
		if (got == "") != (last < 0) || last >= len(lines) {
			t.Fatalf("text %q with last %d of %d", got, last, len(lines))
		}
		cleaned := cleanAll(lines)
		for _, out := range strings.Split(got, "\n") {
			if out == "" {
				continue
			}
			found, fromLonger := false, false
			for _, in := range cleaned {
				if strings.HasSuffix(in, out) {
					found = true
					if in != out && !p.IsChrome(in) {
						fromLonger = true
					}
				}
			}
			if !found {
				t.Fatalf("output row %q is in no input row", out)
			}
			if p.IsChrome(out) && !fromLonger {
				t.Fatalf("chrome row %q in the delta %q", out, got)
			}
		}
	})
}

func FuzzFresh(f *testing.F) {
	seedScreens(f)
	f.Fuzz(func(t *testing.T, text, before string, which uint8) {
		p := Builtins()[fuzzProfiles[int(which)%len(fuzzProfiles)]]
		lines := strings.Split(text, "\n")
		n := freshOf(p, strings.Split(before, "\n"), lines)
		if n < 0 || n > len(lines) {
			t.Fatalf("Fresh = %d for %d rows", n, len(lines))
		}
		content := lines[:LiveStart(p, lines)]
		if k := freshOf(p, lines, content); delta(p, content[k:], nil) != "" {
			t.Fatalf("a screen compared with itself has new words: %q", delta(p, content[k:], nil))
		}
		var acc []string
		for _, frame := range strings.Split(before, "\f") {
			acc = merge(acc, strings.Split(frame, "\n"), nil)
		}
	})
}

func FuzzMainTurn(f *testing.F) {
	f.Add("a ready.\na> ", "a ready.\na> hi\nanswer\na> ", int8(1), int8(3), int8(0), "hi", uint8(3))
	f.Add("", "x", int8(-1), int8(5), int8(2), "", uint8(0))
	f.Add("one\n\ntwo\n❯ ", "zero\none\n\ntwo\n❯ hi\n● ok\n❯ ", int8(3), int8(2), int8(-1), "hi", uint8(1))
	f.Fuzz(func(t *testing.T, before, after string, bcur, acur, shift int8, typed string, which uint8) {
		p := Builtins()[fuzzProfiles[int(which)%len(fuzzProfiles)]]
		view := func(text string, top int64, cur int8) View {
			rows := strings.Split(text, "\n")
			v := screenAt(rows, top, -1)
			v.Cursor = top + int64(cur) // anywhere: above, inside or below the rows
			if c := int(cur); c >= 0 && c < len(rows) {
				v.Input = rows[c]
			}
			if cur < 0 && cur%2 == 0 {
				v.Cursor = -1
			}
			return v
		}
		b, a := view(before, 10, bcur), view(after, 10+int64(shift), acur)
		w := MainTurn(p, b, a, []string{typed})
		shown := strings.Join(cleanAll(strings.Split(after, "\n")), "\n") // as the parser reads it: no-break spaces are spaces
		for _, l := range strings.Split(w.Text, "\n") {
			if l != "" && !strings.Contains(shown, strings.TrimSpace(l)) {
				t.Fatalf("row %q is not in the screen %q", l, after)
			}
		}
		if w := MainTurn(p, a, a, nil); w.Text != "" {
			t.Fatalf("a screen compared with itself has words: %q", w.Text)
		}
		rows := strings.Split(after, "\n")
		tr := NewTranscript(p, strings.Split(before, "\n"), int(bcur))
		tr.Add(p, rows, -1)
		tr.Add(p, rows, int(acur))
		tr.Words(p, []string{typed})
		same := NewTranscript(p, rows, int(acur))
		same.Add(p, rows, int(acur))
		if w := same.Words(p, nil); w.Text != "" {
			t.Fatalf("a frame compared with itself has words: %q", w.Text)
		}
	})
}

func FuzzCommands(f *testing.F) {
	f.Add("@relay:bob hi")
	f.Add(`[[RELAY]]{"to":"a","text":"b"}[[/RELAY]]`)
	f.Add("[[RELAY]]{\n\"to\": \"a\",\n\"text\": \"x\"\n}\n[[/RELAY]]\n@relay:c d")
	f.Add("[[RELAY]][[/RELAY]][[RELAY]]")
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range Commands(text) {
			if c.Err == nil && (c.To == "" || c.Kind == "") {
				t.Fatalf("command without error is incomplete: %+v", c)
			}
		}
	})
}
