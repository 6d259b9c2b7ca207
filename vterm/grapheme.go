package vterm

import (
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// This file joins runes into grapheme clusters: zero-width marks and VS16 (combine),
// and runes of their own width that Unicode's rules (UAX #29, as uniseg implements
// them) attach to the previous cell (joinCluster). uniseg decides every join; a small
// per-terminal cache of what each rune can do keeps the common case (a rune that starts
// a new cluster) off uniseg's tables.

// combine appends a zero-width rune to the previous cell. A VS16 turns an
// emoji-capable narrow character (❤, ⚠) into its two-cell emoji presentation.
func (t *Terminal) combine(r rune) {
	c, x := t.previousCell()
	if c == nil {
		return
	}
	row := t.scr.rows[t.cur.y]
	ends := row.touchMark(x)
	c, _ = t.previousCell()
	if !t.appendComb(c, r) {
		return
	}
	if ends {
		row.pre.setComb(x, c.Comb)
	}
	if r == vs16 && c.Width == 1 {
		var buf [maxComb + utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], c.Rune)
		n += copy(buf[n:], c.Comb)
		if cl, _, w, _ := uniseg.FirstGraphemeCluster(buf[:n], -1); len(cl) == n && w == 2 {
			t.widen(x)
		}
	}
}

// joinCluster adds r to the previous cell when it continues that cell's grapheme
// cluster: anything but ASCII after a ZWJ (as tmux and xterm join it), and what Unicode's
// grapheme rules (UAX #29, through uniseg) join: emoji modifiers, the second regional
// indicator of a flag, spacing marks, Hangul jamo. A cluster that uniseg measures two
// cells wide widens a narrow cell. It reports whether r was taken.
func (t *Terminal) joinCluster(r rune) bool {
	if r < 0x80 {
		// ASCII starts a new cell even after a ZWJ, as tmux has it and as the bulk
		// path for printable ASCII writes it
		return false
	}
	c, x := t.previousCell()
	if c == nil {
		return false
	}
	if c.Comb != "" {
		if last, _ := utf8.DecodeLastRuneInString(c.Comb); last == zwj {
			row := t.scr.rows[t.cur.y]
			ends := row.touchMark(x)
			c, _ = t.previousCell()
			if t.appendComb(c, r) && ends {
				row.pre.setComb(x, c.Comb)
			}
			return true
		}
	}
	if c.Rune < 0x80 && r < 0x300 {
		return false // Latin text: no cluster continues across these
	}
	last, _ := utf8.DecodeLastRuneInString(c.Comb)
	if c.Comb == "" {
		last = c.Rune
	}
	// a Hangul syllable continues a cluster only after a leading jamo (UAX #29 GB6):
	// Korean text is decided here too
	if t.gclass.of(r)&gcContinues == 0 || hangulSyllable(r) && !hangulLeading(last) {
		if t.gclass.of(last)&gcPrepend == 0 {
			return false // the common case, decided without asking uniseg
		}
	}
	var buf [maxComb + 2*utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], c.Rune)
	n += copy(buf[n:], c.Comb)
	n += utf8.EncodeRune(buf[n:], r)
	cl, _, w, _ := uniseg.FirstGraphemeCluster(buf[:n], -1)
	if len(cl) != n {
		return false
	}
	row := t.scr.rows[t.cur.y]
	ends := row.touchMark(x)
	c, _ = t.previousCell()
	ok := t.appendComb(c, r)
	if ok && ends {
		row.pre.setComb(x, c.Comb)
	}
	if ok && w >= 2 && c.Width == 1 {
		t.widen(x)
	}
	return true
}

// appendComb appends r to c's joined runes, within the maxComb bound; it reports
// whether r was kept. The cell's row must have been touched.
func (t *Terminal) appendComb(c *Cell, r rune) bool {
	if len(c.Comb)+utf8.RuneLen(r) > maxComb {
		return false
	}
	c.Comb = t.combs.join(c.Comb, r)
	t.lastRune, t.lastWidth, t.lastComb = c.Rune, int(c.Width), c.Comb
	return true
}

// The grapheme classes gclassCache records for a rune.
const (
	gcKnown     = 1 << iota // the entry holds a computed class
	gcContinues             // can continue a cluster another rune began (Extend, SpacingMark, ZWJ, regional indicator, Hangul jamo and syllables)
	gcPrepend               // joins the rune after it (Prepend)
)

// gclassCacheSize is the number of runes whose class is cached (direct mapped).
const gclassCacheSize = 4096

// gclassCache maps runes to their cell widths and grapheme classes: rune<<5 | width<<3 |
// class, direct mapped by the rune's low bits. Entries are filled on first use, by
// asking go-runewidth and uniseg.
type gclassCache [gclassCacheSize]uint32

// entry returns r's cache entry, computing it on a miss.
func (g *gclassCache) entry(r rune) uint32 {
	e := &g[uint32(r)%gclassCacheSize]
	if *e&gcKnown != 0 && *e>>5 == uint32(r) {
		return *e
	}
	class := uint32(gcKnown)
	// a rune that joins one of these openers can continue some cluster: any rune
	// (Extend, SpacingMark, ZWJ), a Hangul leading jamo (L, V, LV, LVT), a Hangul LV
	// syllable (V, T) and a regional indicator (the second of a flag)
	for _, first := range [...]rune{'a', 0x1100, 0xAC00, 0x1F1E6} {
		if joins(first, r) {
			class |= gcContinues
			break
		}
	}
	if joins(r, 'a') {
		class |= gcPrepend
	}
	*e = uint32(r)<<5 | uint32(runeWidth(r))<<3 | class
	return *e
}

// of returns r's grapheme class bits.
func (g *gclassCache) of(r rune) uint32 { return g.entry(r) & 7 }

// width returns runeWidth(r).
func (g *gclassCache) width(r rune) int {
	if r < 0x300 {
		return runeWidth(r)
	}
	return int(g.entry(r) >> 3 & 3)
}

// joins reports whether uniseg puts a and b in one grapheme cluster.
func joins(a, b rune) bool {
	var buf [2 * utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], a)
	n += utf8.EncodeRune(buf[n:], b)
	cl, _, _, _ := uniseg.FirstGraphemeCluster(buf[:n], -1)
	return len(cl) == n
}

// combTable interns the strings of joined runes (Cell.Comb), so that text full of
// combining marks or emoji sequences does not allocate a string per mark: the same few
// strings come back again and again.
type combTable struct {
	m map[string]string
}

// maxCombStrings bounds the table; past it, new strings are made without being kept.
const maxCombStrings = 1024

// join returns s followed by r, interned.
func (ct *combTable) join(s string, r rune) string {
	var buf [maxComb + utf8.UTFMax]byte
	n := copy(buf[:], s)
	n += utf8.EncodeRune(buf[n:], r)
	if v, ok := ct.m[string(buf[:n])]; ok {
		return v
	}
	v := string(buf[:n])
	if ct.m == nil {
		ct.m = make(map[string]string)
	}
	if len(ct.m) < maxCombStrings {
		ct.m[v] = v
	}
	return v
}

// hangulSyllable reports whether r is a precomposed Hangul syllable (LV or LVT).
func hangulSyllable(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

// hangulLeading reports whether r is a Hangul leading consonant jamo (L).
func hangulLeading(r rune) bool { return r >= 0x1100 && r <= 0x115F || r >= 0xA960 && r <= 0xA97C }
