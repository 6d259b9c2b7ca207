package ui

import (
	"log/slog"
	"time"

	"github.com/agentmux/agentmux/keys"
)

// Config is everything the command line decided, handed to Run.
type Config struct {
	// Panes are the panes to start, numbered 1..N in this order.
	Panes []PaneSpec
	// Prefix is the prefix key; PrefixSpec is how the user spelled it ("ctrl+a").
	Prefix     keys.Key
	PrefixSpec string
	// Layout is the arrangement of the panes.
	Layout LayoutKind

	// Link, Turns and Idle configure the relay (UX.md: --link, --turns, --idle). They are
	// parsed and kept now; the relay task wires them in.
	Link  bool
	Turns int
	Idle  time.Duration

	// Version is agentmux's version (XTVERSION answers, --version).
	Version string
	// Logger receives diagnostics; it must never write to the terminal. Nil discards.
	Logger *slog.Logger
	// HistoryLimit is the lines of history per pane (0: vterm's default).
	HistoryLimit int
}
