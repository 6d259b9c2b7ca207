package vterm_test

// The package example: the whole host-side API in one place (writing output, answering
// queries, reading snapshots, history text with absolute row numbers, events). Its
// output is checked by go test.

import (
	"fmt"

	"github.com/agentmux/agentmux/vterm"
)

func Example() {
	var replies [][]byte
	term := vterm.New(vterm.Options{
		Cols: 20, Rows: 3,
		// Replies run inside Write with the lock held: copy and hand off, never block.
		Reply:   func(b []byte) { replies = append(replies, append([]byte(nil), b...)) },
		OnEvent: func(e vterm.Event) { fmt.Printf("event %d %q\n", e.Kind, e.Text) },
		Colors:  vterm.Colors{BG: vterm.RGBColor{R: 0x1e, G: 0x1e, B: 0x2e}},
	})

	// A program's output: a title, a coloured word, some lines and two queries.
	fmt.Fprint(term, "\x1b]0;demo\x07\x1b[1;32mok\x1b[0m build\r\n")
	fmt.Fprint(term, "line two\r\nline three is longer than twenty\r\n\x1b[6n\x1b]11;?\x1b\\")

	s := term.Snapshot()
	fmt.Println("title:", s.Title, "cursor:", s.Cursor.X, s.Cursor.Y, "history:", s.HistoryLen)
	for _, row := range term.ScreenText() {
		fmt.Printf("|%s\n", row)
	}
	fmt.Printf("replies: %q\n", replies)

	// Everything printed from absolute row 0, soft wraps joined.
	for _, l := range term.TextFrom(0) {
		fmt.Println(l.N, l.Rows, l.Text)
	}
	// Unchanged terminal, same snapshot.
	fmt.Println("same snapshot:", term.Snapshot() == s)

	// Output:
	// event 2 "demo"
	// title: demo cursor: 0 2 history: 2
	// |line three is longer
	// | than twenty
	// |
	// replies: ["\x1b[3;1R" "\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\"]
	// 0 1 ok build
	// 1 1 line two
	// 2 2 line three is longer than twenty
	// same snapshot: true
}
