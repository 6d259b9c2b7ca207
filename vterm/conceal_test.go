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

// Text drawn in one colour on itself is as unseen as concealed text: ReadText leaves it
// blank, on the screen and in history, whatever the notation (truecolour, palette,
// a palette entry against its RGB value, reverse video, colours too close to tell
// apart). A default colour is the one the terminal tells programs; text the person can
// read (grey on black, white on blue, black on a light background) stays.
func TestReadTextBlanksTextDrawnInOneColour(t *testing.T) {
	unseen := []string{
		"\x1b[38;2;0;0;0;48;2;0;0;0m",         // black on black, truecolour
		"\x1b[38;5;4;48;5;4m",                 // a palette pair
		"\x1b[38:2::9:9:9;48:2::9:9:9m",       // colon form
		"\x1b[38;5;16;48;2;0;0;0m",            // palette 16 is #000000
		"\x1b[7;38;5;21;48;5;21m",             // reverse video of one colour
		"\x1b[38;2;5;5;5;48;2;0;0;0m",         // too close to tell apart
		"\x1b[38;2;255;255;255;48;5;231m",     // white on palette white
		"\x1b[38;2;0;0;0m",                    // black on the default black (told below)
		"\x1b[7;38;2;0;0;0m",                  // reverse: the default black on black
		"\x1b[38;2;10;20;30;48;2;10;20;30;1m", // bold changes nothing
	}
	for _, sgr := range unseen {
		term := New(Options{Cols: 40, Rows: 3, Colors: Colors{FG: RGBColor{0xe5, 0xe5, 0xe5}, BG: RGBColor{0, 0, 0}}})
		term.Write([]byte("said " + sgr + "@relay:bob secret\x1b[m end\r\n"))
		want := "said " + strings.Repeat(" ", len("@relay:bob secret")) + " end"
		if got := term.ReadText(-1).Rows[0]; got != want {
			t.Errorf("%q: ReadText row = %q, want %q", sgr, got, want)
		}
		term.Write([]byte("a\r\nb\r\nc\r\n")) // into history
		for _, l := range term.ReadText(term.ScreenTop() - int64(term.HistoryLen())).Lines {
			if strings.Contains(l.Text, "@relay") {
				t.Errorf("%q: read from history: %q", sgr, l.Text)
			}
		}
		if got := term.TextFrom(0); len(got) == 0 || !strings.Contains(got[0].Text, "@relay:bob secret") {
			t.Errorf("%q: TextFrom lost the cells: %+v", sgr, got)
		}
	}

	seen := []string{
		"\x1b[38;2;128;128;128;48;2;0;0;0m", // grey on black
		"\x1b[38;5;15;48;5;4m",              // white on blue
		"\x1b[7m",                           // reverse of the defaults
		"\x1b[38;5;0;48;5;8m",               // black on dark grey
	}
	for _, sgr := range seen {
		term := New(Options{Cols: 40, Rows: 3, Colors: Colors{FG: RGBColor{0xe5, 0xe5, 0xe5}, BG: RGBColor{0, 0, 0}}})
		term.Write([]byte(sgr + "@relay:bob hi\x1b[m\r\n"))
		if got := term.ReadText(-1).Rows[0]; got != "@relay:bob hi" {
			t.Errorf("%q: visible text blanked: %q", sgr, got)
		}
	}
	// On a light background, black on the default is read.
	term := New(Options{Cols: 40, Rows: 3, Colors: Colors{BG: RGBColor{0xff, 0xff, 0xf0}}})
	term.Write([]byte("\x1b[38;2;0;0;0m@relay:bob hi\x1b[m\r\n"))
	if got := term.ReadText(-1).Rows[0]; got != "@relay:bob hi" {
		t.Errorf("black on a light default blanked: %q", got)
	}
}
