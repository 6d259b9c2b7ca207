package session

// Helpers only tests use, kept out of the package's code.

// isClosed reports whether pane id's gate is closed.
func (g *gate) isClosed(id int) bool {
	_, ok := g.held[id]
	return ok
}

// tracked returns how many deliveries the session follows as on their way.
func (s *Session) tracked() int {
	var n int
	s.call(func() { n = len(s.open) })
	return n
}
