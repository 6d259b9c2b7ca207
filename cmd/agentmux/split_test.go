package main

// splitWords is checked against a table of POSIX shell word splitting (what `sh -c
// 'printf "%s\n" WORDS'` prints, without expansions), and when /bin/sh exists, against
// the shell itself for the same inputs.

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

var splitCases = []struct {
	in   string
	want []string
}{
	{"claude", []string{"claude"}},
	{"  codex   --full-auto  ", []string{"codex", "--full-auto"}},
	{"a\tb\nc", []string{"a", "b", "c"}},
	{`echo 'hello world'`, []string{"echo", "hello world"}},
	{`echo "hello world"`, []string{"echo", "hello world"}},
	{`a"b c"d`, []string{"ab cd"}},
	{`'it''s'`, []string{"its"}},
	{`"it's"`, []string{"it's"}},
	{`'a\b'`, []string{`a\b`}},
	{`"a\b"`, []string{`a\b`}},
	{`"a\"b"`, []string{`a"b`}},
	{`"a\\b"`, []string{`a\b`}},
	{`"\$x \` + "`" + `"`, []string{"$x `"}},
	{`a\ b`, []string{"a b"}},
	{`a\\b`, []string{`a\b`}},
	{`\'x`, []string{"'x"}},
	{"a\\\nb", []string{"ab"}},
	{"\"a\\\nb\"", []string{"ab"}},
	{`'' ""`, []string{"", ""}},
	{`x ''`, []string{"x", ""}},
	{``, nil},
	{`   `, nil},
	{`--msg="$HOME"`, []string{"--msg=$HOME"}},
}

func TestSplitWords(t *testing.T) {
	for _, c := range splitCases {
		got, err := splitWords(c.in)
		if err != nil {
			t.Errorf("splitWords(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitWordsUnterminated(t *testing.T) {
	for _, in := range []string{`'abc`, `"abc`, `abc\`, `"abc\"`, `a 'b" c`} {
		if got, err := splitWords(in); err == nil {
			t.Errorf("splitWords(%q) = %q, want an error", in, got)
		}
	}
}

// TestSplitWordsMatchesShell runs the inputs without $, ` or a bare newline (which would
// end the shell's command) through /bin/sh.
func TestSplitWordsMatchesShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, c := range splitCases {
		bareNewline := strings.Contains(c.in, "\n") && !strings.Contains(c.in, "\\\n")
		if strings.ContainsAny(c.in, "$`") || strings.TrimSpace(c.in) == "" || bareNewline {
			continue
		}
		out, err := exec.Command(sh, "-c", `for w in `+c.in+`; do printf '[%s]' "$w"; done`).Output()
		if err != nil {
			t.Fatalf("sh %q: %v", c.in, err)
		}
		var b strings.Builder
		for _, w := range c.want {
			b.WriteString("[" + w + "]")
		}
		if string(out) != b.String() {
			t.Errorf("sh splits %q as %s; table says %s", c.in, out, b.String())
		}
	}
}

func FuzzSplitWords(f *testing.F) {
	for _, c := range splitCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitWords(s)
		if err != nil {
			return
		}
		// Re-quoting every word with single quotes must split back to the same words.
		var b strings.Builder
		for _, w := range words {
			b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "' ")
		}
		again, err := splitWords(b.String())
		if err != nil || !reflect.DeepEqual(again, words) && len(words) > 0 {
			t.Fatalf("%q → %q → %q (%v)", s, words, again, err)
		}
	})
}
