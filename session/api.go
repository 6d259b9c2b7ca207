package session

import (
	"io"
	"log/slog"
	"time"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/vterm"
)

// PaneSpec is a pane to start: its name and its program's argument vector.
type PaneSpec struct {
	Name string
	// Number is the pane's number at Start (0: the next one in order). A restored
	// session gives each pane the number it had, gaps where panes had been closed
	// included; numbers must rise through Options.Panes.
	Number int
	Argv   []string
	// Env holds KEY=VALUE entries added to the program's environment.
	Env []string
	// Profile names the relay profile for the pane's program ("claude", "codex",
	// "generic", or one from the profiles file); "" picks it by the program's name.
	Profile string
	// Cols and Rows are the size to start at (at least 1×1).
	Cols, Rows int
	// Dir is the folder the program starts in ("": agentmux's own).
	Dir string
	// Tree, when set, is the pane's own working tree (a git worktree in Dir): its
	// members carry it, and Options.Closed gets it back when the pane goes.
	Tree Workspace
	// Fresh, when set, is the command that starts the pane's program on a new
	// conversation: Argv resumes one (a restored session's agent CLI), or says why it
	// cannot start. A respawn may start either (Respawn, RespawnFresh).
	Fresh []string
	// Restored says, in a restored session, how the pane's agent came back, for its
	// border: "resumed" (on its own conversation) or "fresh (not resumed)"; "" for
	// any other pane.
	Restored string
	// NotStarted says Argv is a note in place of a program that cannot start (a
	// restored pane whose CLI is gone): messages and reminders for the pane are refused
	// with proto.ErrNotStarted, so the hub keeps them, until a respawn starts Fresh.
	NotStarted bool
}

// Workspace is a pane's own working tree as clients see it. Its methods run git: call
// them off the session's loop (a client's goroutine).
type Workspace interface {
	// Folder is where it is checked out; Branch its branch.
	Folder() string
	Branch() string
	// Status says what it holds beyond where it started ("clean", "changed, 2 ahead").
	Status() (string, error)
	// Diff is what changed against the starting commit (git's colours when color).
	Diff(color bool) (string, error)
}

// Process is what a pane needs from its child process. *ptyhost.Proc satisfies it;
// tests use a fake so the core runs without real processes.
type Process interface {
	// Write queues b for the child's input, in order, without blocking.
	Write(b []byte)
	// Resize sets the child's window size.
	Resize(cols, rows int) error
	// Close ends the child's process group and waits for its goroutines.
	Close() error
	// Updates signals (capacity 1, coalesced) that new output reached the emulator.
	Updates() <-chan struct{}
	// Done is closed when the child has exited and its output is drained.
	Done() <-chan struct{}
	// ExitCode is the child's exit status, valid after Done.
	ExitCode() int
}

var (
	_ Process  = (*ptyhost.Proc)(nil)
	_ unreader = (*ptyhost.Proc)(nil)
	_ quieter  = (*ptyhost.Proc)(nil)
)

// StartFunc starts a pane's program with its output written to out (the pane's emulator).
type StartFunc func(spec ptyhost.Spec, out io.Writer) (Process, error)

// StartPTY starts spec in a real PTY with ptyhost.
func StartPTY(spec ptyhost.Spec, out io.Writer) (Process, error) {
	p, err := ptyhost.Start(spec, out)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Clock is the core's time: Now, and a timer for the one wake-up the loop keeps. The
// real clock is the default; tests drive a fake one.
type Clock interface {
	Now() time.Time
	// Timer returns a channel that receives once the clock reaches at (at once when it
	// has already), and a func that stops it.
	Timer(at time.Time) (<-chan time.Time, func())
}

// Profiles are the agent profiles panes are matched against (parser's own type,
// re-exported so clients configure a session without importing parser).
type Profiles = parser.Profiles

// Options configure a Session.
type Options struct {
	// Panes are the panes to start, numbered 1..N in this order.
	Panes []PaneSpec
	// View is the layout the terminals start from (a restored session's; View).
	View View
	// Link puts every pane in one relay group at start; Turns and Idle configure the
	// relay (--turns, --idle; zero takes its defaults).
	Link  bool
	Turns int
	Idle  time.Duration
	// Address and Brief are the relay's Config.Address (--address: relay commands
	// between unlinked panes) and Config.Brief (--brief).
	Address, Brief bool
	// MCP is the relay's Config.MCP: the programs that take hooks got agentmux's MCP
	// server (--mcp), which their brief mentions.
	MCP bool
	// Delivery tunes the relay's delivery rules (config.toml's [delivery]); zero
	// values take the relay's defaults.
	Delivery DeliveryRules
	// Spend holds the spend budgets and the price table (spend.go).
	Spend SpendOptions
	// Profiles are the agent profiles panes are matched against by program name; nil
	// means parser.Builtins().
	Profiles parser.Profiles
	// Version is what the emulators answer to XTVERSION.
	Version string
	// HistoryLimit is the lines of history per pane (0: vterm's default).
	HistoryLimit int
	// Colors are the outer terminal's default colours (OSC 10/11 answers); KittyKeyboard
	// says keys may be encoded in the kitty keyboard protocol.
	Colors        vterm.Colors
	KittyKeyboard bool
	// Hooks, when set, is called for each pane whose profile passes hooks (Profile.Hooks,
	// not NoHooks) before its program starts: it returns the spec to start (the hook
	// settings added to its arguments or environment) and whether hooks are on, so
	// that Hook reports from the pane end its turns (nil: no hooks, --no-hooks).
	Hooks HookFunc
	// Closed, when set, is called with a pane's spec once the pane is closed (Close) or
	// the session stopped, its process group ended: where a pane's own working tree is
	// removed when unchanged. It runs on a goroutine of its own (not the loop). What it
	// returns, when not "", is a note for the person (a worktree kept with the agent's
	// work in it): a closed pane's Closed event carries it (Note).
	Closed func(PaneSpec) string
	// NewTree, when set, gives a pane started from the socket (New) with a worktree of
	// its own that worktree: it sets the spec's folder, tree and name. Closed takes the
	// tree back when the pane then does not start. Nil: such a pane is refused.
	NewTree func(spec *PaneSpec) error
	// AddEnv holds KEY=VALUE entries put before the own Env of each pane added at run
	// time (Add): what the panes given at start got from their caller (the session's
	// name and socket, so agentmux commands in the pane reach it).
	AddEnv []string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Typing, when set, is called on the loop each time a person's input (a key, a
	// paste, a mouse report) goes to a pane: where the process gives the echo's path
	// the processors while a person types (cmd/agentmux). It must return at once.
	Typing func()
	// NoPaneNamespaces starts the panes' programs in this process's own user
	// namespace, where setuid programs (sudo) work: the panes are then told from the
	// person by their processes' parents alone (best effort; see Origin).
	NoPaneNamespaces bool
	// Subreaper says this process reaps its panes' orphans (ptyhost.Subreap): a client
	// with it among its parents was started inside the session.
	Subreaper bool
	// Subreap, when not nil, makes this process the reaper of its panes' orphans
	// (ptyhost.Subreap): called by Start when the panes are told by their parents
	// (NoPaneNamespaces, or the system refuses user namespaces) and Subreaper is false;
	// Subreaper is set when it succeeds.
	Subreap func() error
	// Start starts a pane's process; nil means StartPTY.
	Start StartFunc
	// Clock is the time source; nil means the real clock.
	Clock Clock
	// OutputInterval is the least time between two observations of one pane's output
	// (relay and subscribers), so a flood costs one observation per interval; the first
	// output after a person's input is observed at once. Zero means 1/60 s; negative
	// observes every output signal at once (tests that pace frames themselves).
	OutputInterval time.Duration
}

// HookFunc adds the per-session hook settings to pane id's spec for its profile and
// says whether hooks are on for it.
type HookFunc func(id int, spec PaneSpec, prof parser.Profile) (PaneSpec, bool)

// State is what a member is doing, as its border says it.
type State uint8

// The member states.
const (
	// Running: starting, or a program no profile can read.
	Running State = iota
	// Idle: waiting for input.
	Idle
	// Busy: working on a turn.
	Busy
	// NeedsYou: an approval or trust prompt; nothing is typed into it.
	NeedsYou
	// Exited: the program ended (Member.Code says how).
	Exited
)

// String returns the state as the border shows it.
func (s State) String() string {
	switch s {
	case Idle:
		return "idle"
	case Busy:
		return "busy"
	case NeedsYou:
		return "needs you"
	case Exited:
		return "exited"
	}
	return "running"
}

// Member is one member of the session: a pane (or, with External, a registered name
// that is not a pane). It is a copy: it does not change.
type Member struct {
	// Pane is the pane's number, 1..N in start order, never reused (0 for external).
	Pane int
	// Name is the name shown in borders and attributions.
	Name string
	// Argv is the pane's command; Program its base name.
	Argv    []string
	Program string
	// Profile names the relay profile the pane's program is read with ("generic" for
	// a program no profile knows).
	Profile string
	// State is what the member is doing; Code is the exit status once Exited (-N:
	// killed by signal N; ExitText says it as a shell would).
	State State
	Code  int
	// Group is the relay group's ID, 0 when not linked.
	Group int
	// Held is true while prefix p (or Hold) holds deliveries into the pane; Typing
	// while a person's draft or recent keys do.
	Held, Typing bool
	// Waiting counts deliveries queued for the pane.
	Waiting int
	// Addressing is true while the pane's relay commands may reach panes it is not
	// linked with: its own switch (Address) or the session's (Options.Address) is on.
	Addressing bool
	// Cols and Rows are the pane's size.
	Cols, Rows int
	// External marks a registered member that is not a pane (RegisterMember).
	External bool
	// Share is the pane's width and height as a percentage of an even share of the
	// screen ({0, 0}: even), which every attached terminal's layout follows (SetShare).
	Share [2]int
	// Dir is the folder the pane's program started in ("": the session's); Tree its
	// own working tree, nil when none.
	Dir  string
	Tree Workspace
	// Command and Env are the pane's command and added environment as they were given,
	// before agentmux's hook settings: what a restored session starts again.
	Command, Env []string
	// Resumes says the pane's command resumes a conversation (or stands for a program
	// that could not start) and a respawn may start it fresh instead (PaneSpec.Fresh).
	Resumes bool
	// Restored is PaneSpec.Restored: how the agent came back in a restored session.
	Restored string
	// Spend is what the pane's program spent, as its CLI recorded it (Usage); Metered
	// says its hooks name a file agentmux reads usage from (false: its spend is not
	// known, shown as "?").
	Spend   Spend
	Metered bool
	// Asks is what the pane asks the person while its State is NeedsYou (nil
	// otherwise, and when its screen shows no choices to read).
	Asks *Asks
}

// Asks is what a pane that needs the person asks, as its program's screen shows it:
// the question, the choices (each with the key that picks it), the rows that say what
// it is about, and since when it waits.
type Asks struct {
	Question string
	Options  []parser.Option
	Context  []string
	Since    time.Time
	// shown is when these choices were first read from the screen (Since may be
	// earlier: a notification hook can say the program asks before it draws its
	// prompt). An answer is typed askSettle after it.
	shown time.Time
}

// Entry is a relay log entry; Phase a delivery's phase; GroupStatus one relay group.
// They are the relay's own types, re-exported so clients need not import it.
type (
	Entry       = relay.Entry
	Phase       = relay.Phase
	GroupStatus = relay.GroupStatus
	// SpendTotal is a running total of spend, as a link's (GroupStatus.Spent).
	SpendTotal = relay.SpendTotal
	// Budgets is what the budgets outside the live groups spent (Session.Budgets), of
	// LeftBudget, DirectBudget and ExternalBudget.
	Budgets        = relay.Budgets
	LeftBudget     = relay.LeftBudget
	DirectBudget   = relay.DirectBudget
	ExternalBudget = relay.ExternalBudget
)

// The phases of a delivery (relay.Phase), for clients that show them.
const (
	Waiting       = relay.Waiting
	WaitingPerson = relay.WaitingPerson
	HeldPhase     = relay.Held
	Typed         = relay.Typed
	Submitted     = relay.Submitted
	Confirmed     = relay.Confirmed
	Failed        = relay.Failed
	Dropped       = relay.Dropped
)

// Status summarises the relay for a status line.
type Status struct {
	// Summary reads e.g. "1⇄2 3/8 · 1 waiting"; "" when there is nothing to say.
	Summary string
	// Groups are the live groups, by ID.
	Groups []GroupStatus
	// Waiting counts deliveries not yet typed; InFlight those typed, not yet final.
	Waiting, InFlight int
}

// Event is something that happened in the session, delivered to subscribers. The set
// is closed: Output, MemberChanged, Exit, Closed, Alert, Delivery, Notice,
// StatusChanged, Mail.
type Event interface{ isEvent() }

// Output says a pane's screen changed since the subscriber last heard of it (coalesced:
// one pending Output per pane at most). Read the picture through Screen.
type Output struct {
	Pane int
	// Quiet says the pane's program had paused when its output was observed (it printed,
	// then nothing for a moment): the end of a burst, which a screen draws at once, once
	// per interval (ui's framePacer), instead of at the next tick of its frame rate.
	Quiet bool
}

// MemberChanged carries a member whose state, group, hold, typing or waiting count
// changed (or that appeared).
type MemberChanged struct{ Member Member }

// DeliveryRules are the tunables of the relay's delivery rules (stale drafts, batching,
// urgent messages, timeouts).
type DeliveryRules = relay.Delivery

// ExitText says how a program with exit status code ended, as a shell would:
// "exited (1)", "killed (SIGSEGV)".
func ExitText(code int) string { return ptyhost.ExitStatus(code).String() }

// Exit says a pane's program exited with Code; the pane stays until closed.
type Exit struct{ Pane, Code int }

// Closed says a pane was closed (Close): it is gone. Err is how ending its process
// group went, reported once that is done (a second Closed event with Done set), with
// Note, what Options.Closed had to tell the person ("" for nothing).
type Closed struct {
	Pane int
	Done bool
	Err  error
	Note string
}

// Alert says a pane rang the bell (Text "") or sent a desktop notification (OSC 9 /
// OSC 777) with Text.
type Alert struct {
	Pane int
	Text string
}

// Clipboard is a pane's program writing the clipboard (OSC 52): Text, decoded. A
// client forwards it to the person's terminal only where they allowed it.
type Clipboard struct {
	Pane int
	Text string
}

// Delivery carries a delivery's log entry when it is queued and each time its phase
// changes. Fresh marks its first event (the entry is new since the last events; its
// phase may be past waiting already).
type Delivery struct {
	Entry Entry
	Fresh bool
}

// Notice carries a relay notice: a link made, a budget spent, a group ended, held…
type Notice struct{ Entry Entry }

// StatusChanged carries the relay's new summary (groups, turns used, waiting).
type StatusChanged struct{ Status Status }

// Turn is a pane's finished turn, linked or not: Text is the words the relay delivers
// for it (relay.Turn), Name the pane's name then.
type Turn struct {
	Pane int
	Name string
	Text string
}

// Renamed says pane Pane, named From, is named To now.
type Renamed struct {
	Pane     int
	From, To string
}

// Mail is a notice for a sender that is not a pane (an external member, a client of
// the socket): "[agentmux] delivered to bob (2): …" or a reminder about a message it
// sent (SendOptions.NotifyOnDelivery, NotifyAfter). To names it; Delivery is the
// message's number, ID its id (SendOptions.ID).
type Mail struct {
	To       string
	Text     string
	Delivery int
	ID       string
}

func (Output) isEvent()        {}
func (MemberChanged) isEvent() {}
func (Exit) isEvent()          {}
func (Closed) isEvent()        {}
func (Alert) isEvent()         {}
func (Clipboard) isEvent()     {}
func (Delivery) isEvent()      {}
func (Notice) isEvent()        {}
func (StatusChanged) isEvent() {}
func (Mail) isEvent()          {}
func (Turn) isEvent()          {}
func (Renamed) isEvent()       {}

// Message is a relay message for an external member (RegisterMember): From is the
// sender's name and FromPane its pane; To the external member's name; Kind the relay
// command's kind (message, action, thinking, state; a relay notice is "state" from
// "agentmux"), Thread its thread. It is the socket's type, so that the socket's server
// registers members with this core as it is.
type Message = proto.RelayMessage

// Sink receives the messages addressed to an external member. It is called on the
// core's loop and must not block (hand the message to a queue of your own).
type Sink = func(Message)
