package vterm

// SetSlowPath makes t parse every byte on its own through the reference path (no bulk
// handling of printable text or parameters), for tests and benchmarks that compare the
// fast paths with it.
func SetSlowPath(t *Terminal, on bool) {
	t.mu.Lock()
	t.slow = on
	t.mu.Unlock()
}

// Decode3 is decode3, for the test that checks it against utf8.DecodeRune.
var Decode3 = decode3

// CheckInvariants describes the first broken internal invariant of t (rows, wide
// characters, cursor, margins, encoded prefixes, history round trips), or returns "".
func CheckInvariants(t *Terminal) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.checkInvariants()
}

// PrintableRun is printableRun, for the test that checks it against a byte loop.
var PrintableRun = printableRun
