package session

// LinkedAtStart reports whether the session put every pane in one relay group as it
// started (Options.Link). Options are not changed after Start, so any goroutine may ask.
func (s *Session) LinkedAtStart() bool { return s.opts.Link }

// AddressAll reports whether every pane's relay commands may reach panes it is not
// linked with (Options.Address), whatever each pane's own switch says.
func (s *Session) AddressAll() bool { return s.opts.Address }
