package ui

import (
	"log/slog"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// PaneSpec is a pane to start: its name, its program's argument vector and its relay
// profile (the session's own type).
type PaneSpec = session.PaneSpec

// Config is what the ui of each terminal is told by the command line and the config
// file. What the session does (its panes, the relay's rules) is session.Options, read
// from the session itself where the ui shows it.
type Config struct {
	// Prefix is the prefix key; PrefixSpec is how the user spelled it ("ctrl+a").
	Prefix     keys.Key
	PrefixSpec string
	// Layout is the arrangement of the panes.
	Layout LayoutKind

	// AllowClipboard forwards a pane program's clipboard writes (OSC 52) to the outer
	// terminal ([ui] allow_clipboard); off, they are dropped and the status line says so.
	AllowClipboard bool
	// NotifyTerminal is how a pane that begins to need the person (not the focused
	// one) is told to the terminal: NotifyOSC9 ("", the default), NotifyOSC777,
	// NotifyBell or NotifyOff ([notify] terminal, --notify-terminal).
	NotifyTerminal string
	// Session is the session's name, shown on the status line ("" shows none).
	Session string
	// Logger receives diagnostics; it must never write to the terminal. Nil discards.
	Logger *slog.Logger
	// Web, when set, says what the status line shows of the session's web view ("web",
	// "web (control)"; "" while there is none). It is called when the status line is
	// drawn: it must be quick and safe from the ui's goroutine.
	Web func() string
	// ParsePane reads a command line as the command line's AGENT arguments are read
	// (NAME=COMMAND, VAR=value words): prefix c's new pane. Nil: prefix c says it cannot.
	ParsePane func(line string) (PaneSpec, error)
	// Bindings are the person's keys after the prefix ([ui.keys] in config.toml), checked
	// before the built-in ones.
	Bindings []Binding
	// Closed is called with the spec of a pane prefix c could not start, so its worktree
	// goes back (session.Options.Closed, which the session calls for the panes it ran);
	// a note it returns shows on the status line.
	Closed func(PaneSpec) string
	// Notice, when set, is called once as a terminal's ui starts: a text it returns
	// shows on the status line (a kept worktree a pane was started in again).
	Notice func() string
}
