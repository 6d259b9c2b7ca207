package vterm

import (
	"strings"
	"testing"
)

// ReadText, what the relay reads, leaves concealed cells (SGR 8) blank, on the screen
// and in history, one space per column (wide characters two); TextFrom and ScreenText
// keep the characters (the cells hold them).
func TestReadTextBlanksConcealedCells(t *testing.T) {
	term := New(Options{Cols: 40, Rows: 3})
	term.Write([]byte("seen \x1b[8m@relay:bob hidden 日本\x1b[28m end\r\nplain\r\n"))
	want := "seen " + strings.Repeat(" ", len("@relay:bob hidden ")+4) + " end"

	rd := term.ReadText(-1)
	if rd.Rows[0] != want {
		t.Errorf("ReadText row 0 = %q, want %q", rd.Rows[0], want)
	}
	if len(rd.Lines) == 0 || rd.Lines[0].Text != want {
		t.Errorf("ReadText lines = %+v, want first %q", rd.Lines, want)
	}
	if got := term.ScreenText()[0]; !strings.Contains(got, "@relay:bob hidden 日本") {
		t.Errorf("ScreenText lost the cells: %q", got)
	}

	// Pushed into history, the line keeps its concealment for the reader.
	term.Write([]byte("a\r\nb\r\nc\r\nd\r\n"))
	if term.HistoryLen() == 0 {
		t.Fatal("nothing in history")
	}
	rd = term.ReadText(term.ScreenTop() - int64(term.HistoryLen()))
	found := false
	for _, l := range rd.Lines {
		if strings.Contains(l.Text, "@relay") {
			t.Errorf("concealed text read from history: %q", l.Text)
		}
		if l.Text == want {
			found = true
		}
	}
	if !found {
		t.Errorf("history lines %+v lack %q", rd.Lines, want)
	}
	all := term.TextFrom(0)
	if len(all) == 0 || !strings.Contains(all[0].Text, "@relay:bob hidden") {
		t.Errorf("TextFrom lost the cells: %+v", all)
	}
}
