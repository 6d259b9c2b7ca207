package vterm

// Internal invariants under random input: streams built from a vocabulary of text,
// wide and combining characters, controls and escape sequences (including broken
// ones) are fed in random chunks; after each chunk every row must hold exactly Cols
// cells, cells past a row's used extent (hi) must be default blanks, wide characters
// must be whole, the cursor and margins must be inside the screen, every row's encoded
// prefix must encode for history exactly what its cells do, and a history round trip
// must keep each line's text; the blank template every never-written row shares must still
// be blank. Seeds are fixed so failures reproduce.

import (
	"math/rand/v2"
	"strings"
	"testing"
)

var vocabulary = []string{
	"a", "hello ", "中", "文字", "😀", "e\u0301", "\u200d", "\ufe0f", "\r", "\n", "\r\n", "\b", "\t", "\x07",
	"\x1b[H", "\x1b[5;3H", "\x1b[A", "\x1b[3B", "\x1b[9C", "\x1b[2D", "\x1b[K", "\x1b[1K", "\x1b[2K",
	"\x1b[J", "\x1b[1J", "\x1b[2J", "\x1b[3J", "\x1b[2@", "\x1b[3P", "\x1b[2X", "\x1b[L", "\x1b[2M",
	"\x1b[S", "\x1b[2T", "\x1b[3b", "\x1b[2;4r", "\x1b[r", "\x1b[1;3r", "\x1bM", "\x1bD", "\x1bE",
	"\x1b7", "\x1b8", "\x1b[?1049h", "\x1b[?1049l", "\x1b[?47h", "\x1b[?47l", "\x1b[4h", "\x1b[4l",
	"\x1b[?7l", "\x1b[?7h", "\x1b[?6h", "\x1b[?6l", "\x1b[31;44m", "\x1b[0m", "\x1b[48;5;3m", "\x1b[38:2::1:2:3m",
	"\x1bH", "\x1b[3g", "\x1b[2I", "\x1b[Z", "\x1b#8", "\x1bc", "\x1b[!p", "\x1b(0qx", "\x1b(B",
	"\x1b]0;t\x07", "\x1b]8;;u\x1b\\", "\x1b_G\x1b\\", "\x1b[", "\x1b", "\xe4", "\xb8", "\xff",
}

func TestRandomStreamsKeepInvariants(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		cols, rows := 1+r.IntN(12), 1+r.IntN(6)
		term := New(Options{Cols: cols, Rows: rows, HistoryLimit: 20})
		var stream strings.Builder
		for i := 0; i < 200; i++ {
			stream.WriteString(vocabulary[r.IntN(len(vocabulary))])
		}
		b := []byte(stream.String())
		for len(b) > 0 {
			n := 1 + r.IntN(min(len(b), 40))
			term.Write(b[:n])
			b = b[n:]
			if r.IntN(15) == 0 {
				cols, rows = 1+r.IntN(12), 1+r.IntN(6)
				term.Resize(cols, rows)
			}
			if err := term.checkInvariants(); err != "" {
				t.Fatalf("seed %d: %s\nstream %q", seed, err, stream.String())
			}
		}
	}
}

// checkInvariants describes the first broken invariant, or returns "".
func (t *Terminal) checkInvariants() string {
	if t.cur.x < 0 || t.cur.x >= t.cols || t.cur.y < 0 || t.cur.y >= t.rows {
		return "cursor off screen"
	}
	if t.margin.top < 0 || t.margin.bot >= t.rows || t.margin.top >= t.margin.bot && t.rows > 1 {
		return "bad margins"
	}
	if len(t.tabs) != t.cols {
		return "tab stops do not match the width"
	}
	for x, c := range blankRow {
		if c != (Cell{Width: 1}) {
			return "blankRow written at " + itoa(x) // every never-written row shares it
		}
	}
	for _, s := range []*screen{t.main, t.alt} {
		if len(s.rows) != t.rows {
			return "row count"
		}
		for y, r := range s.rows {
			if len(r.cells) != t.cols {
				return "row width"
			}
			if r.lazy < 0 || r.lazy > r.hi || r.lazy > 0 && r.pre.cells != r.hi {
				return "lazy cells " + itoa(r.lazy) + " with the prefix at " + itoa(r.pre.cells) + ", used " + itoa(r.hi)
			}
			for x := r.hi - r.lazy; x < len(r.cells); x++ {
				if c := r.cells[x]; c != (Cell{Width: 1}) {
					return "non-blank cell past the used extent at " + itoa(x) + "," + itoa(y)
				}
			}
			// The rest reads the cells as materialize would write them.
			r = r.materialized()
			if msg := r.checkPrefix(); msg != "" {
				return msg + " in row " + itoa(y)
			}
			for x, c := range r.cells {
				if c.Width == 2 && (x+1 >= len(r.cells) || r.cells[x+1].Width != 0) ||
					c.Width == 0 && (x == 0 || r.cells[x-1].Width != 2) {
					return "broken wide character at " + itoa(x) + "," + itoa(y)
				}
			}
		}
	}
	for i := 0; i < t.hist.len(); i++ {
		h := t.hist.at(i)
		cells := h.decode(h.cols) // at its own width: nothing is cut
		text, runs, comb := (&encScratch{}).encode(cells, nil)
		if string(text) != string(h.text) || string(runs) != string(h.runs) || string(comb) != string(h.comb) {
			return "history line does not round-trip"
		}
	}
	return ""
}

// checkPrefix describes how the row's encoded prefix disagrees with its cells, or
// returns "": history must encode the row the same with the prefix as from the cells
// alone, and the prefix must be made of printed cells within the used extent.
func (r *row) checkPrefix() string {
	if r.pre.cells > r.hi || r.pre.cells > len(r.cells) {
		return "encoded prefix of " + itoa(r.pre.cells) + " cells past the used extent"
	}
	if r.pre.cells > 0 && (len(r.pre.spans) == 0 || r.pre.spans[0].start != 0) {
		return "encoded prefix without a first span"
	}
	for x := 0; x < r.pre.cells; x++ {
		if c := r.cells[x]; c.Width == 1 && c.Rune == 0 {
			return "encoded prefix holds the empty cell " + itoa(x)
		}
	}
	ft, fr, fc := (&encScratch{}).encode(r.cells[:r.hi], &r.pre)
	st, sr, sc := (&encScratch{}).encode(r.cells[:r.hi], nil)
	if string(ft) != string(st) || string(fr) != string(sr) || string(fc) != string(sc) {
		return "history encodes the encoded prefix differently"
	}
	return ""
}

// materialized returns a copy of r with its lazy cells written, r left as it is.
func (r *row) materialized() *row {
	m := *r
	m.cells = append([]Cell(nil), r.cells...)
	r.lazyInto(m.cells)
	m.lazy = 0
	return &m
}
