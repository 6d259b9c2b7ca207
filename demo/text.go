package demo

import (
	"fmt"
	"strings"

	"github.com/mattn/go-runewidth"
)

// Text measuring, wrapping and styling shared by the renderers. Widths are display
// columns, measured with a fixed (non East Asian) condition so the layout does not depend
// on the locale the agent runs in.

var widths = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// width returns the display width of plain text (no escape sequences).
func width(s string) int { return widths.StringWidth(s) }

// truncate cuts plain text to at most w columns.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return widths.Truncate(s, w, "")
}

// padRight fills plain text with spaces to w columns (cutting it when longer).
func padRight(s string, w int) string {
	s = truncate(s, w)
	return s + strings.Repeat(" ", max(w-width(s), 0))
}

// wrap breaks text into rows of at most w columns: at its newlines, then at spaces, and
// inside words longer than a row. Empty text is one empty row.
func wrap(text string, w int) []string {
	w = max(w, 1)
	var rows []string
	for _, para := range strings.Split(text, "\n") {
		rows = append(rows, wrapParagraph(para, w)...)
	}
	return rows
}

func wrapParagraph(para string, w int) []string {
	var (
		rows  []string
		line  strings.Builder
		lineW int
	)
	flush := func() {
		rows = append(rows, strings.TrimRight(line.String(), " "))
		line.Reset()
		lineW = 0
	}
	for _, word := range splitKeepSpaces(para) {
		ww := width(word)
		if lineW+ww <= w {
			line.WriteString(word)
			lineW += ww
			continue
		}
		if word == " " { // a space at the end of a row is dropped
			flush()
			continue
		}
		if lineW > 0 {
			flush()
		}
		for _, r := range word { // hard-break a word longer than the row
			rw := widths.RuneWidth(r)
			if lineW+rw > w && lineW > 0 {
				flush()
			}
			line.WriteRune(r)
			lineW += rw
		}
	}
	if line.Len() > 0 || len(rows) == 0 {
		flush()
	}
	return rows
}

// splitKeepSpaces splits s into words and single-space runs, so wrapping keeps the
// original spacing inside a row.
func splitKeepSpaces(s string) []string {
	var parts []string
	start := 0
	for i, r := range s {
		if r == ' ' {
			if i > start {
				parts = append(parts, s[start:i])
			}
			parts = append(parts, " ")
			start = i + 1
		}
	}
	if start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts
}

// The styles are raw SGR runs: each turns an attribute on and back off, so runs nest and
// never leak into the next row.

func color(n int, s string) string { return fmt.Sprintf("\x1b[38;5;%dm%s\x1b[39m", n, s) }
func bgColor(n int, s string) string {
	return fmt.Sprintf("\x1b[48;5;%dm%s\x1b[49m", n, s)
}
func bold(s string) string    { return "\x1b[1m" + s + "\x1b[22m" }
func dim(s string) string     { return "\x1b[2m" + s + "\x1b[22m" }
func reverse(s string) string { return "\x1b[7m" + s + "\x1b[27m" }

// Colours of the 256-colour palette used by the renderers.
const (
	colorAccent = 174 // Claude's salmon
	colorGrey   = 246
	colorRule   = 244
	colorEchoBG = 237
	colorCodex  = 75 // a cyan-blue for the alternate-screen style
	colorError  = 167
)

// Sequences the renderers use.
const (
	hideCursor     = "\x1b[?25l"
	showCursor     = "\x1b[?25h"
	pasteOn        = "\x1b[?2004h"
	pasteOff       = "\x1b[?2004l"
	focusOn        = "\x1b[?1004h"
	focusOff       = "\x1b[?1004l"
	altOn          = "\x1b[?1049h"
	altOff         = "\x1b[?1049l"
	syncOn         = "\x1b[?2026h"
	syncOff        = "\x1b[?2026l"
	mouseOn        = "\x1b[?1000h\x1b[?1006h"
	mouseOff       = "\x1b[?1006l\x1b[?1000l"
	kittyQuery     = "\x1b[?u"
	kittyPush1     = "\x1b[>1u"
	kittyPush7     = "\x1b[>7u"
	kittyPop       = "\x1b[<u"
	eraseBelow     = "\x1b[J"
	eraseLine      = "\x1b[K"
	clearAll       = "\x1b[H\x1b[2J\x1b[3J"
	queryDA1       = "\x1b[c"
	queryCPR       = "\x1b[6n"
	queryOSC11     = "\x1b]11;?\x1b\\"
	titlePrefix    = "\x1b]0;"
	titleSuffix    = "\x07"
	cursorUpFmt    = "\x1b[%dA"
	cursorRightFmt = "\x1b[%dC"
	cursorPosFmt   = "\x1b[%d;%dH"
)
