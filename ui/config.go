package ui

import (
	"log/slog"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/parser"
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

	// Link, Turns and Idle configure the relay (UX.md: --link, --turns, --idle): Link
	// puts every pane in one group at start; zero Turns and Idle take the relay's
	// defaults.
	Link  bool
	Turns int
	Idle  time.Duration
	// Address and Brief are the relay's Config.Address (--address) and Config.Brief
	// (--brief).
	Address, Brief bool
	// Profiles are the agent profiles panes are matched against by program name (the
	// built-ins merged with the user's profiles file); nil means parser.Builtins().
	Profiles parser.Profiles

	// Version is agentmux's version (XTVERSION answers, --version).
	Version string
	// Logger receives diagnostics; it must never write to the terminal. Nil discards.
	Logger *slog.Logger
	// HistoryLimit is the lines of history per pane (0: vterm's default).
	HistoryLimit int
}
