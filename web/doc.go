// Package web is agentmux's web view: one more client of the session core, serving a
// page that shows every pane live as a terminal and the conversation between the
// agents beside them, read-only unless started with control.
//
// Whichever process owns the session (the terminal's, or a session server) starts it
// with Start and gets the URL it serves. The page, its scripts and styles, and the
// vendored terminal widget (@xterm/xterm, with its licence) are embedded in the binary:
// nothing is fetched from elsewhere.
//
// Event flow, one page (every page has its own subscription, so pages never share
// state and a slow one is dropped alone):
//
//	session events (Subscribe: output coalesced per pane, bounded queue)
//	     │ Ready / Next
//	     ▼
//	page writer (the handler's goroutine): members, conversation, pane pictures
//	     │ Output → Snapshot → rows that changed since the page's copy (vterm keeps
//	     │ unchanged rows' pointers), lines that scrolled into history, cursor, modes
//	     ▼
//	WebSocket (binary frames for pictures, JSON for the rest; each write bounded by a
//	deadline: a browser that does not read is disconnected, and a queue that overflows
//	ends the subscription with session.ErrSlow — the session never waits for a page)
//
//	page reader: input frames (send, link, unlink, hold, release, input) → session
//	commands when Options.Control, else a clear error frame.
//
// A pane's picture is always drawn from the session's emulator (a snapshot on connect,
// then changes), never a replay of the program's raw output.
//
// Security: the server listens on loopback unless told otherwise. No cookie (a host's
// cookies reach every port of it): the URL's fragment carries a one-use token, which
// the page keeps in sessionStorage and shows in the WebSocket's first frame; the server
// trades it for a page secret, kept in localStorage (scoped by origin, port included),
// that reloads, reconnects and later tabs of the browser show (auth.go). The Host header must name the listen address and a
// WebSocket's Origin the same host, or 403 (a page of another site, a DNS-rebinding
// name). Connections that showed no key are capped and timed out (conns.go).
//
// web imports session, store and vterm; it must not import ui, tty or bubbletea, and
// nothing but cmd imports it (internal/archtest checks both).
package web
