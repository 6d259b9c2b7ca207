package vterm

// This file keeps the main screen's history: a bounded ring of 16-byte line headers over
// one ring of bytes that holds every held line's encoding (hline.go) back to back, oldest
// first. A new line's bytes go after the newest line's, or at the start of the byte ring
// when its end has no room; dropping the oldest line frees its bytes. The byte ring grows
// (by a quarter, compacting the lines) only when the held lines outgrow it, so a full
// history takes new lines without allocating, and a line costs its encoding and its
// header: no slice per line, no allocation rounding.

// hline is the header of one held line.
type hline struct {
	off, size uint32 // the line's bytes in history.data
	nruns     uint32 // bytes of style runs, after the text
	ntext     uint16 // bytes of text
	cols      uint16 // the row's width when it was pushed, with wrappedBit
}

// wrappedBit marks an hline whose row soft-wrapped into the next.
const wrappedBit = 1 << 15

// history is a bounded ring of lines, oldest first.
type history struct {
	lines []hline
	start int // ring index of the oldest line
	n     int
	limit int
	enc   encScratch

	// data holds the lines' bytes: [head, tail), or [head, end of the lines there) and
	// [0, tail) when wrapped.
	data       []byte
	head, tail int
	wrapped    bool
}

func (h *history) len() int { return h.n }

// index returns the ring index of the i-th oldest held line.
func (h *history) index(i int) int {
	j := h.start + i
	if j >= len(h.lines) {
		j -= len(h.lines)
	}
	return j
}

// at returns the i-th oldest held line.
func (h *history) at(i int) hview {
	l := &h.lines[h.index(i)]
	b := h.data[l.off : l.off+l.size]
	nt, nr := int(l.ntext), int(l.nruns)
	return hview{text: b[:nt], runs: b[nt : nt+nr], comb: b[nt+nr:],
		cols: int(l.cols &^ wrappedBit), wrapped: l.cols&wrappedBit != 0}
}

// push stores a row, dropping the oldest line when the ring is full.
func (h *history) push(cells []Cell, cols int, wrapped bool, pre *prefix) {
	text, runs, comb := h.enc.encode(cells, pre)
	size := len(text) + len(runs) + len(comb)
	if h.n == h.limit {
		h.dropOldest()
	}
	off := h.reserve(size)
	n := copy(h.data[off:], text)
	n += copy(h.data[off+n:], runs)
	copy(h.data[off+n:], comb)
	l := h.add()
	*l = hline{off: uint32(off), size: uint32(size), nruns: uint32(len(runs)),
		ntext: uint16(len(text)), cols: uint16(cols)}
	if wrapped {
		l.cols |= wrappedBit
	}
}

// dropOldest forgets the oldest line, freeing its bytes.
func (h *history) dropOldest() {
	h.start++
	if h.start == len(h.lines) {
		h.start = 0
	}
	h.n--
	if h.n == 0 {
		h.head, h.tail, h.wrapped = 0, 0, false
		return
	}
	next := int(h.lines[h.start].off)
	if h.wrapped && next < h.head {
		h.wrapped = false // the oldest line now is the first one after the wrap
	}
	h.head = next
}

// add returns the header slot of a new newest line.
func (h *history) add() *hline {
	if h.n == len(h.lines) {
		// start stays 0 until the ring is full, so a growing ring appends in order
		if h.n == cap(h.lines) {
			// grow by doubling, but never past the limit: a full ring has no spare slots
			lines := make([]hline, h.n, min(h.limit, max(64, 2*h.n)))
			copy(lines, h.lines)
			h.lines = lines
		}
		h.lines = h.lines[:h.n+1]
	}
	h.n++
	return &h.lines[h.index(h.n-1)]
}

// reserve returns where size bytes for a new newest line go.
func (h *history) reserve(size int) int {
	if h.n == 0 {
		h.head, h.tail, h.wrapped = 0, 0, false
	}
	switch {
	case !h.wrapped && len(h.data)-h.tail >= size:
	case !h.wrapped && h.head >= size:
		h.wrapped, h.tail = true, 0 // the start of the ring is free up to head
	case h.wrapped && h.head-h.tail >= size:
	default:
		h.grow(size)
	}
	off := h.tail
	h.tail += size
	return off
}

// grow moves the held lines to a bigger byte ring, back to back from its start, with
// room for size more bytes.
func (h *history) grow(size int) {
	live := 0
	for i := 0; i < h.n; i++ {
		live += int(h.lines[h.index(i)].size)
	}
	data := make([]byte, max(len(h.data)+len(h.data)/4, (live+size)*5/4, 1024))
	pos := 0
	for i := 0; i < h.n; i++ {
		l := &h.lines[h.index(i)]
		copy(data[pos:], h.data[l.off:l.off+l.size])
		l.off = uint32(pos)
		pos += int(l.size)
	}
	h.data, h.head, h.tail, h.wrapped = data, 0, pos, false
}

// clear drops every line (ED 3). Buffers are released.
func (h *history) clear() {
	h.lines, h.data = nil, nil
	h.start, h.n = 0, 0
	h.head, h.tail, h.wrapped = 0, 0, false
}

// pushHistory appends a main-screen row to history.
func (t *Terminal) pushHistory(r *row) {
	t.pushed++
	if t.hist.limit <= 0 {
		return
	}
	t.hist.push(r.cells[:r.hi], len(r.cells), r.wrapped, &r.pre)
}
