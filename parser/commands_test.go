package parser

// Strategy: tables of agent text → the commands found, in order, with malformed ones
// reported as errors (never a panic, never delivered).

import (
	"errors"
	"testing"
)

func TestCommands(t *testing.T) {
	type cmd struct {
		to, text string
		err      bool
	}
	tests := []struct {
		name string
		text string
		want []cmd
	}{
		{"none", "just words\nand more", nil},
		{"line", "@relay:bob please check the tests", []cmd{{"bob", "please check the tests", false}}},
		{"indented bullet line", "  - @relay:bob: do it", []cmd{{"bob", "do it", false}}},
		{"line without message", "@relay:bob", []cmd{{"bob", "", true}}},
		{"line without name", "@relay: hello", []cmd{{"", "hello", true}}},
		{"mid-sentence marker is not a command", "write @relay:bob to send", nil},
		{"block", `[[RELAY]]{"to": "alice", "text": "hi there"}[[/RELAY]]`, []cmd{{"alice", "hi there", false}}},
		{"block reflowed over rows", "[[RELAY]]{\"to\": \"alice\",\n  \"text\": \"a long\n  message\"}[[/RELAY]]", []cmd{{"alice", "a long message", false}}},
		{"bad json", `[[RELAY]]{"to": alice}[[/RELAY]]`, []cmd{{"", "", true}}},
		{"no to", `[[RELAY]]{"text": "x"}[[/RELAY]]`, []cmd{{"", "x", true}}},
		{"no text", `[[RELAY]]{"to": "bob"}[[/RELAY]]`, []cmd{{"bob", "", true}}},
		{"unterminated", "[[RELAY]]{\"to\": \"bob\"\n@relay:carol hi", []cmd{{"", "", true}, {"carol", "hi", false}}},
		{"order kept", "@relay:a one\n[[RELAY]]{\"to\":\"b\",\"text\":\"two\"}[[/RELAY]] @relay:c not at line start\n@relay:d four",
			[]cmd{{"a", "one", false}, {"b", "two", false}, {"d", "four", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Commands(tt.text)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d commands %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.To != w.to || g.Text != w.text || (g.Err != nil) != w.err {
					t.Errorf("command %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
	if c := Commands("[[RELAY]]{"); len(c) != 1 || !errors.Is(c[0].Err, ErrUnterminated) {
		t.Errorf("unterminated: %+v", c)
	}
}
