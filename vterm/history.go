package vterm

// This file keeps the main screen's history: a bounded ring of 16-byte line headers over
// blocks of bytes that hold the lines' encodings (hline.go) back to back, oldest first.
// A new line's bytes go after the newest line's in the newest block, or start a new
// block; a block whose lines were all dropped is kept as the spare that the next new
// block reuses, so a full history takes new lines without allocating, and a line costs
// its encoding and its header: no slice per line, no allocation rounding, at most a
// block's tail and a spare block unused per pane.

// blockSize is the size of a block; a longer line gets a block of its own size.
const blockSize = 16 << 10

// hblock is a block of line bytes.
type hblock struct {
	data  []byte
	used  int // bytes taken, from the start
	lines int // held lines stored here
}

// hline is the header of one held line, packed: a is the block's id (32 bits), the
// offset in it (16) and the text's length (16); b the style runs' length (20 bits), the
// marks' length (20), the row's width (13) and its soft-wrap flag (1).
type hline struct{ a, b uint64 }

func (l hline) block() uint32 { return uint32(l.a >> 32) }
func (l hline) off() int      { return int(l.a >> 16 & 0xffff) }
func (l hline) ntext() int    { return int(l.a & 0xffff) }
func (l hline) nruns() int    { return int(l.b >> 44) }
func (l hline) ncomb() int    { return int(l.b >> 24 & 0xfffff) }
func (l hline) cols() int     { return int(l.b >> 1 & 0x1fff) }
func (l hline) wrapped() bool { return l.b&1 != 0 }
func (l hline) size() int     { return l.ntext() + l.nruns() + l.ncomb() }

// history is a bounded ring of lines, oldest first.
type history struct {
	lines []hline
	start int // ring index of the oldest line
	n     int
	limit int
	enc   encScratch

	blocks []*hblock // oldest first; the last takes new lines
	first  uint32    // the id of blocks[0]
	spare  *hblock   // an emptied block, for the next new one
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
	l := h.lines[h.index(i)]
	off, nt, nr := l.off(), l.ntext(), l.nruns()
	b := h.blocks[l.block()-h.first].data[off : off+l.size()]
	return hview{text: b[:nt], runs: b[nt : nt+nr], comb: b[nt+nr:], cols: l.cols(), wrapped: l.wrapped()}
}

// push stores a row, dropping the oldest line when the ring is full.
func (h *history) push(cells []Cell, cols int, wrapped bool, pre *prefix) {
	text, runs, comb := h.enc.encode(cells, pre)
	if h.n == h.limit {
		h.dropOldest()
	}
	id, blk := h.reserve(len(text) + len(runs) + len(comb))
	off := blk.used
	n := copy(blk.data[off:], text)
	n += copy(blk.data[off+n:], runs)
	n += copy(blk.data[off+n:], comb)
	blk.used += n
	blk.lines++
	l := h.add()
	l.a = uint64(id)<<32 | uint64(off)<<16 | uint64(len(text))
	l.b = uint64(len(runs))<<44 | uint64(len(comb))<<24 | uint64(cols)<<1
	if wrapped {
		l.b |= 1
	}
}

// dropOldest forgets the oldest line; a block left without lines is freed.
func (h *history) dropOldest() {
	blk := h.blocks[h.lines[h.start].block()-h.first]
	blk.lines--
	h.start++
	if h.start == len(h.lines) {
		h.start = 0
	}
	h.n--
	for len(h.blocks) > 0 && h.blocks[0].lines == 0 {
		if len(h.blocks) == 1 {
			h.blocks[0].used = 0 // the newest block: it starts over
			break
		}
		if h.spare == nil && len(h.blocks[0].data) == blockSize {
			h.spare = h.blocks[0]
		}
		h.blocks[0] = nil
		h.blocks = h.blocks[1:]
		h.first++
	}
}

// dropNewest forgets the newest line (a taller screen took it back); its bytes, the
// newest block's last, are given back to that block, and a block left without lines
// goes (the spare when it has the usual size), unless it is the only one.
func (h *history) dropNewest() {
	l := h.lines[h.index(h.n-1)]
	k := len(h.blocks) - 1 // the newest line is always in the newest block
	blk := h.blocks[k]
	blk.lines--
	blk.used = l.off()
	h.n--
	if blk.lines == 0 && k > 0 {
		if h.spare == nil && len(blk.data) == blockSize {
			h.spare = blk
		}
		h.blocks[k] = nil
		h.blocks = h.blocks[:k]
	}
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

// reserve returns the block (and its id) that takes size more bytes of a new newest line.
func (h *history) reserve(size int) (uint32, *hblock) {
	if k := len(h.blocks); k > 0 {
		if b := h.blocks[k-1]; len(b.data)-b.used >= size {
			return h.first + uint32(k-1), b
		}
	}
	var b *hblock
	if size <= blockSize && h.spare != nil {
		b, h.spare = h.spare, nil
		b.used, b.lines = 0, 0
	} else {
		b = &hblock{data: make([]byte, max(size, blockSize))}
	}
	h.blocks = append(h.blocks, b)
	return h.first + uint32(len(h.blocks)-1), b
}

// clear drops every line (ED 3). Buffers are released.
func (h *history) clear() {
	h.lines, h.blocks, h.spare = nil, nil, nil
	h.start, h.n, h.first = 0, 0, 0
}

// pushHistory appends a main-screen row to history.
func (t *Terminal) pushHistory(r *row) {
	t.pushed++
	if t.hist.limit <= 0 {
		return
	}
	if r.resized() {
		t.pushWritten(r)
		return
	}
	t.hist.push(r.cells[:r.hi], len(r.cells), r.wrapped, &r.pre)
}

// pullHistory takes the newest history line back as a new main-screen row of width cols,
// for a taller screen's top: the line keeps its absolute number (pushed goes down by
// one), and a resize cut shows as any cut row's does (row.tail).
func (t *Terminal) pullHistory(cols int) *row {
	h := t.hist.at(t.hist.len() - 1)
	r := &row{cells: h.decode(max(h.cols, cols)), wrapped: h.wrapped, dirty: true}
	r.hi = usedExtent(r.cells)
	if h.wrapped && h.cols < cols {
		r.tail, r.tailAt = padded, h.cols // its text ends where it wrapped
	}
	r.resize(cols)
	t.hist.dropNewest()
	t.pushed--
	// the number is the same, the line no longer history's: its decoding may change
	if slot := &t.hcache[t.pushed%int64(len(t.hcache))]; slot.abs == t.pushed {
		*slot = hcacheEntry{}
	}
	return r
}

// pushWritten appends a main-screen row a resize cut or padded to history as the
// program wrote it (row.written): what the cut hid, or up to where it wrapped.
func (t *Terminal) pushWritten(r *row) {
	cells := r.written()
	t.hist.push(cells[:usedExtent(cells)], len(cells), r.wrapped, &r.pre)
}
