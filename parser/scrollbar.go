package parser

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// A full-screen program with a scrollable transcript may draw a scrollbar in the last
// column: a thumb (█) on a track (│), shown for a moment after the view scrolls (Qwen
// Code 0.24 does, at every answer that outgrows its screen) and then blanked. The rows
// carry it while it shows, so the same transcript row reads differently from frame to
// frame: frames no longer align and the bar's glyphs would go out with the words. The
// relay reads frames without it (dropScrollbar).

// barGlyphs are the glyphs a scrollbar column is drawn with: thumbs and tracks.
const (
	barThumbs = "█▐▌▓┃"
	barTracks = "│▕░▒║"
)

// minBarRows is the fewest rows a scrollbar spans: fewer could be a word's last letter.
const minBarRows = 3

// cellWidth measures runes as vterm does: not East Asian ambiguous-wide, emoji by their
// own width.
var cellWidth = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// dropScrollbar returns rows (cleaned) without a scrollbar drawn in their last column.
// A scrollbar is a run of at least minBarRows consecutive rows each ending in a bar glyph
// in one column that no row of the frame goes past (right after the text of a row that
// fills the width, too), with at least one thumb among them, and no box corner right
// above or below it in that column (a box's right edge is not a scrollbar). rows itself
// is left as it was.
func dropScrollbar(rows []string) []string {
	right, cols := -1, make([]int, len(rows))
	for i, r := range rows {
		cols[i] = lastCol(r)
		right = max(right, cols[i])
	}
	if right < 1 {
		return rows
	}
	var out []string
	for i := 0; i < len(rows); {
		if !barCell(rows[i], cols[i], right) {
			i++
			continue
		}
		j, thumb := i, false
		for j < len(rows) && barCell(rows[j], cols[j], right) {
			r, _ := utf8.DecodeLastRuneInString(rows[j])
			thumb = thumb || strings.ContainsRune(barThumbs, r)
			j++
		}
		if j-i >= minBarRows && thumb && !corner(rows, cols, i-1, right) && !corner(rows, cols, j, right) {
			if out == nil {
				out = append([]string(nil), rows...)
			}
			for k := i; k < j; k++ {
				_, n := utf8.DecodeLastRuneInString(rows[k])
				out[k] = strings.TrimRightFunc(rows[k][:len(rows[k])-n], unicode.IsSpace)
			}
		}
		i = j
	}
	if out == nil {
		return rows
	}
	return out
}

// lastCol returns the column of row's last rune (cleaned rows end in one), -1 for an
// empty row.
func lastCol(row string) int {
	w := 0
	for _, r := range row {
		w += cellWidth.RuneWidth(r)
	}
	if row == "" {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(row)
	return w - max(cellWidth.RuneWidth(r), 1)
}

// barCell reports whether row ends in column col == right with a bar glyph.
func barCell(row string, col, right int) bool {
	if col != right {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(row)
	return strings.ContainsRune(barThumbs, r) || strings.ContainsRune(barTracks, r)
}

// corner reports whether row i ends in a box corner or junction in column right.
func corner(rows []string, cols []int, i, right int) bool {
	if i < 0 || i >= len(rows) || cols[i] != right {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(rows[i])
	return strings.ContainsRune("╮╯┐┘┤╗╝╣┓┛┫", r)
}
