package ui

import (
	"log/slog"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// PaneSpec is a pane to start: its name, its program's argument vector and its relay
// profile (the session's own type; Run fills in the size the layout gives it).
type PaneSpec = session.PaneSpec

// Config is everything the command line decided, handed to Run.
type Config struct {
	// Panes are the panes to start, numbered 1..N in this order.
	Panes []PaneSpec
	// Prefix is the prefix key; PrefixSpec is how the user spelled it ("ctrl+a").
	Prefix     keys.Key
	PrefixSpec string
	// Layout is the arrangement of the panes.
	Layout LayoutKind

	// Link, Turns and Idle configure the relay (--link, --turns, --idle): Link
	// puts every pane in one group at start; zero Turns and Idle take the relay's
	// defaults.
	Link  bool
	Turns int
	Idle  time.Duration
	// Address and Brief are the relay's Config.Address (--address) and Config.Brief
	// (--brief).
	Address, Brief bool
	// Delivery tunes the relay's delivery rules (config.toml's [delivery]).
	Delivery session.DeliveryRules
	// Profiles are the agent profiles panes are matched against by program name (the
	// built-ins merged with the user's profiles file); nil means the built-ins.
	Profiles session.Profiles
	// Hooks adds the programs' hook settings (nil: --no-hooks); see session.Options.
	Hooks session.HookFunc

	// AllowClipboard forwards a pane program's clipboard writes (OSC 52) to the outer
	// terminal ([ui] allow_clipboard); off, they are dropped and the status line says so.
	AllowClipboard bool
	// NotifyTerminal is how a pane that begins to need the person (not the focused
	// one) is told to the terminal: NotifyOSC9 ("", the default), NotifyOSC777,
	// NotifyBell or NotifyOff ([notify] terminal, --notify-terminal).
	NotifyTerminal string
	// Session is the session's name, shown on the status line ("" shows none).
	Session string
	// Version is agentmux's version (XTVERSION answers, --version).
	Version string
	// Logger receives diagnostics; it must never write to the terminal. Nil discards.
	Logger *slog.Logger
	// HistoryLimit is the lines of history per pane (0: vterm's default).
	HistoryLimit int
	// Web, when set, says what the status line shows of the session's web view ("web",
	// "web (control)"; "" while there is none). It is called when the status line is
	// drawn: it must be quick and safe from the ui's goroutine.
	Web func() string
	// OnStart, when set, is called with the session once its panes have started and
	// before the ui takes input: where another client of the session (the session
	// socket) is attached. It must not block; the session stops when Run returns.
	OnStart func(*session.Session)
	// ParsePane reads a command line as the command line's AGENT arguments are read
	// (NAME=COMMAND, VAR=value words): prefix c's new pane. Nil: prefix c says it cannot.
	ParsePane func(line string) (PaneSpec, error)
	// AddEnv is put before the environment of each pane started at run time (the
	// session's name and socket, as the command line's panes get them).
	AddEnv []string
	// Bindings are the person's keys after the prefix ([ui.keys] in config.toml), checked
	// before the built-in ones.
	Bindings []Binding
	// Closed is called with each pane's spec once it is gone (session.Options.Closed);
	// a note it returns shows on the status line.
	Closed func(PaneSpec) string
	// Notice, when set, is called once as a terminal's ui starts: a text it returns
	// shows on the status line (a kept worktree a pane was started in again).
	Notice func() string
	// NoPaneNamespaces and Subreaper are session.Options' (how panes are told from the
	// person).
	NoPaneNamespaces, Subreaper bool
	// NewTree gives a pane the session socket starts with a worktree of its own that
	// worktree (session.Options.NewTree). Nil: such a pane is refused.
	NewTree func(*PaneSpec) error
}
