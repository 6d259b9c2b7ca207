package parser

// Strategy: one table per rule of the grammar (commands.go), each with rows where the
// rule makes a command and rows where it keeps one from being made; every row is parsed
// as a whole stream, byte by byte and in random chunks (they must agree); then the
// incremental cases: commands split inside a marker, a block or its JSON, and what
// Flush does.

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// cmd is a command as the tables write it; err marks a malformed one.
type cmd struct {
	to, kind, body, thread, data string
	err                          bool
}

func msg(to, body string) cmd   { return cmd{to: to, kind: "message", body: body} }
func think(to, body string) cmd { return cmd{to: to, kind: "thinking", body: body} }
func bad() cmd                  { return cmd{err: true} }

// simplify turns commands into table form.
func simplify(cs []Command) []cmd {
	var out []cmd
	for _, c := range cs {
		if c.Err != nil {
			out = append(out, bad())
			continue
		}
		out = append(out, cmd{to: c.To, kind: string(c.Kind), body: c.Body, thread: c.Thread, data: string(c.Data)})
	}
	return out
}

type row struct {
	name string
	in   string
	want []cmd
}

// check parses each row whole, byte by byte and in random chunks, each with a final
// line break and Flush, and compares.
func check(t *testing.T, s Syntax, rows []row) {
	t.Helper()
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			whole := simplify(CommandsWith(s, tt.in))
			if !reflect.DeepEqual(whole, tt.want) {
				t.Fatalf("%q:\n got %+v\nwant %+v", tt.in, whole, tt.want)
			}
			in := tt.in
			if !strings.HasSuffix(in, "\n") {
				in += "\n"
			}
			if got := simplify(feedChunks(s, in, 1, nil)); !reflect.DeepEqual(got, whole) {
				t.Errorf("byte by byte: got %+v, want %+v", got, whole)
			}
			rng := rand.New(rand.NewPCG(uint64(len(in)), 7))
			if got := simplify(feedChunks(s, in, 0, rng)); !reflect.DeepEqual(got, whole) {
				t.Errorf("random chunks: got %+v, want %+v", got, whole)
			}
		})
	}
}

// feedChunks feeds in in chunks of n bytes (random sizes from rng when n is 0), then
// flushes.
func feedChunks(s Syntax, in string, n int, rng *rand.Rand) []Command {
	p := NewParser(s)
	var out []Command
	for len(in) > 0 {
		k := n
		if rng != nil {
			k = 1 + rng.IntN(17)
		}
		k = min(k, len(in))
		out = append(out, p.Feed([]byte(in[:k]))...)
		in = in[k:]
	}
	return append(out, p.Flush()...)
}

func TestLineStart(t *testing.T) {
	check(t, Syntax{}, []row{
		{"at column 0", "@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"indented", "   \t@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"prompt glyph, no space", ">@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"stacked glyphs", "  ➜ › @relay:bob hi", []cmd{msg("bob", "hi")}},
		{"bullet", "- @relay:bob hi", []cmd{msg("bob", "hi")}},
		{"every glyph", "> $ ⏺ ● • - * ➜ ›@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"table pipe is not a glyph", "| @relay:bob hi", nil},
		{"numbered list is not a glyph", "1. @relay:bob hi", nil},
		{"text before", "say @relay:bob hi", nil},
		{"mid-line", "hello @relay:bob hi", nil},
	})
}

func TestMarkers(t *testing.T) {
	check(t, Syntax{}, []row{
		{"@relay", "@relay:bob hi", []cmd{msg("bob", "hi")}},
		{">>relay", ">>relay:bob hi", []cmd{msg("bob", "hi")}},
		{"@thinking", "@thinking:bob maybe", []cmd{think("bob", "maybe")}},
		{">>thinking", ">>thinking:bob maybe", []cmd{think("bob", "maybe")}},
		{"glyph then >>relay", "> >>relay:bob hi", []cmd{msg("bob", "hi")}},
		{"unknown marker", "@relay2:bob hi", nil},
		{"case matters", "@RELAY:bob hi", nil},
	})
	only := Syntax{MessagePrefixes: []string{">>relay:"}, ThinkingPrefixes: []string{}}
	check(t, only, []row{
		{"only >>relay: on", ">>relay:bob hi", []cmd{msg("bob", "hi")}},
		{"@relay: off", "@relay:bob hi", nil},
		{"@thinking: off", "@thinking:bob hi", nil},
	})
	custom := Syntax{MessagePrefixes: []string{">>"}}
	check(t, custom, []row{
		{"custom >>", ">>bob hi", []cmd{msg("bob", "hi")}},
		{"longer marker wins", ">>thinking:bob hm", []cmd{think("bob", "hm")}},
		{"custom needs its marker", "> bob hi", nil},
	})
	check(t, Syntax{NoInline: true}, []row{
		{"inline off", "@relay:bob hi", nil},
		{"blocks still on", `[[RELAY]]{"to":"bob","type":"message","body":"hi"}[[/RELAY]]`, []cmd{msg("bob", "hi")}},
	})
}

func TestTarget(t *testing.T) {
	check(t, Syntax{}, []row{
		{"name", "@relay:Bob hi", []cmd{msg("Bob", "hi")}},
		{"number", "@relay:2 hi", []cmd{msg("2", "hi")}},
		{"broadcast", "@relay:* all of you", []cmd{msg("*", "all of you")}},
		{"punctuation kept", "@relay:team:Bob, hi", []cmd{msg("team:Bob,", "hi")}},
		{"dots dashes underscores", "@relay:a.b-c_d hi", []cmd{msg("a.b-c_d", "hi")}},
		{"space after colon", "@relay: Bob hi", nil},
		{"nothing after colon", "@relay:", nil},
	})
}

func TestBody(t *testing.T) {
	check(t, Syntax{}, []row{
		{"rest of line", "@relay:bob please   check  it", []cmd{msg("bob", "please   check  it")}},
		{"trailing white space kept", "@relay:bob hi  \t", []cmd{msg("bob", "hi  \t")}},
		{"several spaces after target", "@relay:bob \t  hi", []cmd{msg("bob", "hi")}},
		{"thread", "@relay:bob [thread:auth-1] token?", []cmd{{to: "bob", kind: "message", body: "token?", thread: "auth-1"}}},
		{"thread not at start is words", "@relay:bob see [thread:x] y", []cmd{msg("bob", "see [thread:x] y")}},
		{"empty thread is words", "@relay:bob [thread:] y", []cmd{msg("bob", "[thread:] y")}},
		{"no body", "@relay:bob", nil},
		{"only spaces", "@relay:bob    ", nil},
		{"thread but no words", "@relay:bob [thread:t1]  ", nil},
	})
}

func TestContinuation(t *testing.T) {
	check(t, Syntax{}, []row{
		{"indented lines join", "@relay:bob first\n  second\n\tthird\nafter", []cmd{msg("bob", "first\n  second\n\tthird")}},
		{"blank line ends", "@relay:bob first\n\n  not this", []cmd{msg("bob", "first")}},
		{"white-space line ends", "@relay:bob first\n   \n  not this", []cmd{msg("bob", "first")}},
		{"unindented line ends", "@relay:bob first\nnot this\n  nor this", []cmd{msg("bob", "first")}},
		{"escape-only line ends", "@relay:bob first\n\x1b[2K\x1b[1G\n  not this", []cmd{msg("bob", "first")}},
		{"a new command ends", "@relay:bob first\n  @relay:carol second", []cmd{msg("bob", "first"), msg("carol", "second")}},
		{"a block ends", "@relay:bob first\n  [[RELAY]]{\"to\":\"c\",\"type\":\"state\",\"body\":\"x\"}[[/RELAY]]",
			[]cmd{msg("bob", "first"), {to: "c", kind: "state", body: "x"}}},
		{"a fence ends", "@relay:bob first\n```\n  @relay:carol hidden\n```", []cmd{msg("bob", "first")}},
	})
}

func TestEscape(t *testing.T) {
	check(t, Syntax{}, []row{
		{"escaped @relay", `\@relay:bob hi`, nil},
		{"escaped >>relay", `\>>relay:bob hi`, nil},
		{"escaped after indentation", `  \@relay:bob hi`, nil},
		{"backslash elsewhere is a character", `@relay:bob C:\dir \@relay:x`, []cmd{msg("bob", `C:\dir \@relay:x`)}},
	})
}

func TestBlocks(t *testing.T) {
	blk := func(js string) string { return "[[RELAY]]" + js + "[[/RELAY]]" }
	check(t, Syntax{}, []row{
		{"message", blk(`{"to":"bob","type":"message","body":"hi"}`), []cmd{msg("bob", "hi")}},
		{"text when no body", blk(`{"to":"bob","type":"message","text":"hi"}`), []cmd{msg("bob", "hi")}},
		{"body wins over text", blk(`{"to":"bob","type":"message","body":"b","text":"t"}`), []cmd{msg("bob", "b")}},
		{"empty body", blk(`{"to":"bob","type":"state","body":""}`), []cmd{{to: "bob", kind: "state"}}},
		{"action with data and thread", blk(`{"to":"bob","type":"action","body":"run","data":{ "n": 1 },"thread":"t9"}`),
			[]cmd{{to: "bob", kind: "action", body: "run", data: `{"n":1}`, thread: "t9"}}},
		{"thinking", blk(`{"to":"*","type":"thinking","body":"hm"}`), []cmd{{to: "*", kind: "thinking", body: "hm"}}},
		{"indented", "   " + blk(`{"to":"bob","type":"message","body":"hi"}`), []cmd{msg("bob", "hi")}},
		{"over many lines", "[[RELAY]]\n{\"to\": \"bob\",\n   \"type\": \"message\",\n \"body\": \"hi\"}\n[[/RELAY]]", []cmd{msg("bob", "hi")}},
		{"text after the close holds commands", blk(`{"to":"a","type":"message","body":"1"}`) + " @relay:b two\n",
			[]cmd{msg("a", "1"), msg("b", "two")}},
		{"two blocks on a line", blk(`{"to":"a","type":"message","body":"1"}`) + blk(`{"to":"b","type":"message","body":"2"}`),
			[]cmd{msg("a", "1"), msg("b", "2")}},
		{"glyph before is no block", "> " + blk(`{"to":"bob","type":"message","body":"hi"}`), nil},
		{"text before is no block", "see " + blk(`{"to":"bob","type":"message","body":"hi"}`), nil},
		{"bad JSON", blk(`{"to": bob}`), []cmd{bad()}},
		{"two objects", blk(`{"to":"a","type":"message"}{}`), []cmd{bad()}},
		{"no to", blk(`{"type":"message","body":"x"}`), []cmd{bad()}},
		{"empty to", blk(`{"to":"","type":"message","body":"x"}`), []cmd{bad()}},
		{"no type", blk(`{"to":"bob","body":"x"}`), []cmd{bad()}},
		{"unknown type", blk(`{"to":"bob","type":"shout","body":"x"}`), []cmd{bad()}},
		{"data not an object", blk(`{"to":"bob","type":"action","data":[1]}`), []cmd{bad()}},
		{"never closed", "[[RELAY]]{\"to\":\"bob\",\n\"type\":\"message\"", []cmd{bad()}},
	})
	check(t, Syntax{NoBlock: true}, []row{
		{"blocks off", blk(`{"to":"bob","type":"message","body":"hi"}`), nil},
		{"inline still on", "@relay:bob hi", []cmd{msg("bob", "hi")}},
	})
	small := Syntax{MaxBlockBytes: 41} // the first block below is exactly 41 bytes
	check(t, small, []row{
		{"at the limit", blk(`{"to":"b","type":"message","body":"0123"}`), []cmd{msg("b", "0123")}},
		{"over the limit", blk(`{"to":"b","type":"message","body":"01234"}`), []cmd{bad()}},
		{"over the limit across lines, then a command", "[[RELAY]]{\"to\":\"b\",\n\"type\":\"message\",\n\"body\":\"0123456789\"}\n@relay:c after",
			[]cmd{bad(), msg("c", "after")}},
	})
	if c := Commands("[[RELAY]]{"); len(c) != 1 || !errors.Is(c[0].Err, ErrUnterminated) {
		t.Errorf("unterminated: %+v", c)
	}
	if c := CommandsWith(small, blk(strings.Repeat("x", 100))); len(c) != 1 || !errors.Is(c[0].Err, ErrBlockTooLarge) {
		t.Errorf("too large: %+v", c)
	}
}

func TestFences(t *testing.T) {
	check(t, Syntax{}, []row{
		{"inside a fence", "```\n@relay:bob hi\n```", nil},
		{"fence with a language", "```go\n@relay:bob hi\n[[RELAY]]{\"to\":\"bob\",\"type\":\"message\",\"body\":\"x\"}[[/RELAY]]\n```\n@relay:bob after", []cmd{msg("bob", "after")}},
		{"after the fence closes", "```\ncode\n```\n@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"indented backticks are no fence", "  ```\n@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"fence inside a block is block text", "[[RELAY]]{\"to\":\"bob\",\"type\":\"message\",\n```\n\"body\":\"x\"}[[/RELAY]]\n@relay:c y", []cmd{bad(), msg("c", "y")}},
	})
	// The fence state outlives Flush: a fence opened in one turn holds in the next.
	p := NewParser(Syntax{})
	p.Feed([]byte("```\n"))
	p.Flush()
	if got := p.Feed([]byte("@relay:bob hi\n")); len(got) != 0 || !p.InFence() {
		t.Errorf("command inside a fence opened in an earlier turn: %+v", got)
	}
	p.Feed([]byte("```\n"))
	got := append(p.Feed([]byte("@relay:bob hi\n")), p.Flush()...)
	if len(got) != 1 {
		t.Errorf("after the fence closed in a later turn: %+v", got)
	}
}

func TestEscapeSequencesAndLineEnds(t *testing.T) {
	check(t, Syntax{}, []row{
		{"SGR in marker", "\x1b[1m@re\x1b[0mlay:bob \x1b[32mhi\x1b[m", []cmd{msg("bob", "hi")}},
		{"cursor movement", "\x1b[2K\x1b[1G@relay:bob hi\x1b[K", []cmd{msg("bob", "hi")}},
		{"OSC title with BEL", "\x1b]0;✳ Claude\x07@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"OSC title with ST", "\x1b]2;t\x1b\\@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"charset designation", "\x1b(B@relay:bob hi", []cmd{msg("bob", "hi")}},
		{"CRLF", "@relay:bob hi\r\n@relay:carol yo\r\n", []cmd{msg("bob", "hi"), msg("carol", "yo")}},
		{"escape hides no text", "x\x1b[0m@relay:bob hi", nil},
	})
}

func TestIncremental(t *testing.T) {
	type step struct {
		chunk string
		want  []cmd
	}
	tests := []struct {
		name  string
		steps []step
		flush []cmd
	}{
		{"split in the marker", []step{{"@rel", nil}, {"ay:bob hi", nil}, {"\n", nil}}, []cmd{msg("bob", "hi")}},
		{"counts once its line ended and the next began", []step{{"@relay:bob hi\n", nil}, {"x\n", []cmd{msg("bob", "hi")}}}, nil},
		{"continuation across chunks", []step{{"@relay:bob a\n  b", nil}, {"\n  c\n", nil}, {"\n", []cmd{msg("bob", "a\n  b\n  c")}}}, nil},
		{"split in a block", []step{{"[[RELAY]]{\"to\":\"bob\",", nil}, {"\"type\":\"message\",\"body\":\"hi\"}[[/RE", nil}, {"LAY]]\n", []cmd{msg("bob", "hi")}}}, nil},
		{"split in the JSON string", []step{{"[[RELAY]]{\"to\":\"bo", nil}, {"b\",\"type\":\"mess", nil}, {"age\",\"body\":\"hi\"}[[/RELAY]]\n", []cmd{msg("bob", "hi")}}}, nil},
		{"split in an escape sequence", []step{{"@relay:bob \x1b[3", nil}, {"2mhi\n\n", []cmd{msg("bob", "hi")}}}, nil},
		{"flush drops an unterminated line", []step{{"@relay:bob hi", nil}}, nil},
		{"flush ends a pending command", []step{{"@relay:bob hi\n", nil}}, []cmd{msg("bob", "hi")}},
		{"flush drops an unfinished block", []step{{"[[RELAY]]{\"to\":\"bob\"\n", nil}}, []cmd{bad()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser(Syntax{})
			for i, s := range tt.steps {
				if got := simplify(p.Feed([]byte(s.chunk))); !reflect.DeepEqual(got, s.want) {
					t.Fatalf("step %d %q: got %+v, want %+v", i, s.chunk, got, s.want)
				}
			}
			if got := simplify(p.Flush()); !reflect.DeepEqual(got, tt.flush) {
				t.Fatalf("flush: got %+v, want %+v", got, tt.flush)
			}
		})
	}
}

func TestSyntaxValidate(t *testing.T) {
	for _, s := range []Syntax{
		{MessagePrefixes: []string{""}},
		{ThinkingPrefixes: []string{"a b"}},
		{MaxBlockBytes: -1},
	} {
		if s.Validate() == nil {
			t.Errorf("%+v: no error", s)
		}
	}
	if err := (Syntax{MessagePrefixes: []string{">>"}}).Validate(); err != nil {
		t.Errorf("valid syntax: %v", err)
	}
}
