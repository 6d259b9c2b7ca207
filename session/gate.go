package session

// gate is the person's typing gate, one per pane: between a delivery's Type and its
// Submit whatever a client writes to the pane for the person is held, in order, and
// written right after the submitting carriage return, so none of it joins the delivery's
// text or is submitted with it. Owned by the loop.
type gate struct {
	held map[int][][]byte // panes whose gate is closed: the writes held, in order
}

// close closes pane id's gate (a delivery was typed into it).
func (g *gate) close(id int) {
	if g.held == nil {
		g.held = map[int][][]byte{}
	}
	if _, ok := g.held[id]; !ok {
		g.held[id] = nil
	}
}

// hold keeps a copy of b when pane id's gate is closed and reports whether it did; an
// open gate lets the caller write b at once.
func (g *gate) hold(id int, b []byte) bool {
	q, closed := g.held[id]
	if !closed {
		return false
	}
	g.held[id] = append(q, append([]byte(nil), b...))
	return true
}

// open opens pane id's gate and returns what it held, in order.
func (g *gate) open(id int) [][]byte {
	q := g.held[id]
	delete(g.held, id)
	return q
}
