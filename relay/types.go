package relay

import (
	"math"
	"time"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/usage"
)

// Screen is the relay's read-only view of one pane's terminal. The host adapts its
// emulator to it (for vterm: ReadText). The relay calls it only from inside Handle and
// Tick, and judges each decision by one Reading: the rows, the cursor and the title it
// compares must be of one moment, though the program may be writing meanwhile.
type Screen interface {
	// Read returns the terminal at one moment: the title, the modes and the cursor, the
	// absolute number of the main screen's first row, the active screen's rows and the
	// main screen's lines from absolute row from (FromTop: from the main screen's first
	// row; NoLines: none). All of it from the same state of the terminal.
	Read(from int64) Reading
}

// InputQueue is a Screen that can also tell how many bytes typed into its pane the
// program has not read yet (queued for its terminal, or held by the terminal: in
// canonical mode whole lines only); ok is false when that cannot be told. A delivery
// is confirmed only once its program read everything typed: a terminal in canonical
// mode echoes the submitting carriage return itself, before the program reads the
// line, and a line still waiting dies with the terminal if agentmux is killed.
type InputQueue interface {
	Unread() (n int, ok bool)
}

// FrameScreen is a Screen that also keeps the states of the alternate screen the relay
// did not read: a busy host reads a pane's screen once for many writes of its program,
// and a full-screen program's transcript scrolls through its screen with no history,
// so lines that came and went between two readings would be lost. ReadFrames returns
// those states (oldest first; with no Lines) and a reading as Read(FromTop) gives it,
// with no write between them; it is called once per output the relay handles.
type FrameScreen interface {
	Screen
	ReadFrames() (kept []Reading, now Reading)
}

// The from of Screen.Read that asks for no absolute row.
const (
	// FromTop asks for the main screen's lines from its first row.
	FromTop int64 = -1
	// NoLines asks for no lines.
	NoLines int64 = math.MaxInt64
)

// Reading is a terminal at one moment, as Screen.Read returns it.
type Reading struct {
	Info
	// Top is the absolute number of the main screen's first row: rows pushed into
	// history keep their numbers, so a number is never reused.
	Top int64
	// Rows is the active screen (alternate or main) as plain text rows, top to bottom.
	Rows []string
	// Lines are the logical lines (soft-wrapped rows joined) of the main screen's
	// history and screen that start at or after the row asked for, clamped to what is
	// held. The main screen is read even while the alternate screen is active.
	Lines []Line
}

// Line is one logical line of main-screen text: N is the absolute number of its first
// row, Text its text with trailing blanks trimmed (the parser's type, so the relay hands
// a screen's lines to the parser as they are).
type Line = parser.Line

// Info is what the relay reads about a terminal besides its text.
type Info struct {
	// Title is the last title the program set (OSC 0/2).
	Title string
	// AltScreen is true while the alternate screen is active.
	AltScreen bool
	// BracketedPaste is true when the program enabled bracketed paste (mode 2004).
	BracketedPaste bool
	// MidFrame is true while the program holds synchronized output (mode 2026) on: the
	// screen is half drawn and not worth reading.
	MidFrame bool
	// HasCursor is true when CursorRow says where the cursor is (shown or hidden): the row
	// of the active screen it is on, counted from the screen's top. A program waiting for
	// input keeps it on its input row, which tells the relay where a turn's output starts
	// and stops; without it the relay judges by the profile's chrome alone.
	HasCursor bool
	CursorRow int
}

// Config holds the relay's tunables. Zero fields take the defaults.
type Config struct {
	// Turns is a new group's budget: deliveries before it is severed (--turns, 8).
	Turns int
	// LinkBudget is a new group's spend budget (--link-budget: tokens or dollars; zero:
	// none): the group is severed after the turn that reached it (spend.go).
	LinkBudget usage.Budget
	// SessionBudget caps the session's spend ([spend] session): once reached, every
	// delivery is held but the person's own (zero: no cap).
	SessionBudget usage.Budget
	// PaneBudget caps each pane's spend ([spend] pane): once a pane's reached it, every
	// delivery into it is held but the person's own (zero: no cap).
	PaneBudget usage.Budget
	// Idle is the quiet time after which a program no profile can read counts as idle
	// (--idle, 1.5 s).
	Idle time.Duration
	// Settle is the quiet time a program must also keep after its title or screen says
	// idle, so a turn is not cut between two bursts (300 ms, never more than Idle).
	Settle time.Duration
	// TypingHold is how long after a person's last keystroke in a pane deliveries into it
	// wait (3 s).
	TypingHold time.Duration
	// SubmitDelay is the wait between typing a delivery and submitting it with a lone
	// carriage return (200 ms): Codex and Gemini CLI take an Enter that follows input
	// closely as a newline. A program that has not read the text by then (InputQueue)
	// gets it SubmitDelay after it is seen to have read it. It is also the wait after clear keys before anything more is
	// typed, unless the screen shows them read (Claude Code takes keys that arrive
	// together with text as part of a paste).
	SubmitDelay time.Duration
	// Confirm is how long a submitted delivery has to make its target busy before the
	// carriage return is sent once more, and then before the delivery counts as failed
	// (2.5 s).
	Confirm time.Duration
	// Limit is the most characters of words one delivery carries; longer deltas are cut
	// with a visible marker (8000).
	Limit int
	// Template frames a delivery: {name} and {pane} are the sender's name and number,
	// {text} the words ("{name} ({pane}):\n\n{text}").
	Template string
	// LogLimit is how many relay log entries are kept (500).
	LogLimit int
	// Address lets every pane's relay commands reach panes not linked with it
	// (--address); otherwise only linked members, and panes the person turned
	// addressing on for (Address events), may address others.
	Address bool
	// Brief types the brief into every pane once it is ready (--brief); a profile's
	// Brief does it for that program's panes.
	Brief bool
	// MCP says the programs whose profile takes hooks were started with agentmux's
	// MCP server (--mcp): their brief names its tools.
	MCP bool
	// Delivery holds the delivery rules' tunables ([delivery] in config.toml).
	Delivery
	// NewID, when set, gives a delivery the relay queues by itself (a relayed turn, a
	// pane's relay command) its message id (Entry.ID), made at now: the host's clients
	// know such a message by it from its first event on. nil: such deliveries have
	// none.
	NewID func(now time.Time) string
}

// Delivery holds the tunables of the delivery rules (modes.go, aside.go, batch.go), as
// config.toml's [delivery] table sets them. Zero fields take the defaults.
type Delivery struct {
	// InputStale is how long a person's draft must stay unchanged before deliveries
	// waiting behind it set it aside, go, and put it back (input_stale_timeout, 2 min).
	InputStale time.Duration
	// MaxBatch is the most messages one paste carries (max_batch, 10).
	MaxBatch int
	// UrgentDelay is the longest an urgent message waits for the interrupted agent to
	// show idle (urgent_delay, 500 ms).
	UrgentDelay time.Duration
	// DefaultTimeout is the timeout of a Send without one of its own (default_timeout;
	// 0: none).
	DefaultTimeout time.Duration
	// HookWait is how long a turn of a pane with hooks waits, after its screen says
	// idle, for the hook's turn end and exact answer before it ends on the screen's
	// delta (hook_wait, 1 s).
	HookWait time.Duration
}

// DefaultTemplate is the attribution a delivery carries unless configured otherwise.
const DefaultTemplate = "{name} ({pane}):\n\n{text}"

// WithDefaults returns d with its zero fields set to the defaults the relay uses, for
// showing the rules in force.
func (d Delivery) WithDefaults() Delivery {
	return Config{Delivery: d}.withDefaults().Delivery
}

// withDefaults returns c with zero fields set to their defaults.
func (c Config) withDefaults() Config {
	if c.Turns <= 0 {
		c.Turns = 8
	}
	if c.Idle <= 0 {
		c.Idle = 1500 * time.Millisecond
	}
	if c.Settle <= 0 {
		c.Settle = 300 * time.Millisecond
	}
	c.Settle = min(c.Settle, c.Idle)
	if c.TypingHold <= 0 {
		c.TypingHold = 3 * time.Second
	}
	if c.SubmitDelay <= 0 {
		c.SubmitDelay = 200 * time.Millisecond
	}
	if c.Confirm <= 0 {
		c.Confirm = 2500 * time.Millisecond
	}
	if c.Limit <= 0 {
		c.Limit = 8000
	}
	if c.Template == "" {
		c.Template = DefaultTemplate
	}
	if c.LogLimit <= 0 {
		c.LogLimit = 500
	}
	if c.InputStale <= 0 {
		c.InputStale = 2 * time.Minute
	}
	if c.MaxBatch <= 0 {
		c.MaxBatch = 10
	}
	if c.HookWait <= 0 {
		c.HookWait = time.Second
	}
	if c.UrgentDelay <= 0 {
		c.UrgentDelay = 500 * time.Millisecond
	}
	c.DefaultTimeout = max(c.DefaultTimeout, 0)
	return c
}

// Event is something that happened, handed to Relay.Handle.
type Event interface{ isEvent() }

// Open registers a pane: its number, its name as shown in attributions, the profile of
// its program and its terminal. A pane must be opened before any other event names it;
// opening a number again replaces the pane.
type Open struct {
	Pane    int
	Name    string
	Profile parser.Profile
	Screen  Screen
	// Program is the program (its base name is shown in the brief; "" shows the
	// profile's name).
	Program string
	// Hooks: the program reports its turn ends and answers through its hooks
	// (TurnEnd events, hooks.go).
	Hooks bool
	// Shell: the pane runs an interactive shell, which runs as commands whatever is
	// typed into it: no pane's relay command reaches it, and no pane's program links
	// into a group that holds it; only a group the person made with it does.
	Shell bool
}

// Output reports that a pane's terminal received new bytes (coalesced: once per burst
// is enough). Title changes arrive this way too.
type Output struct{ Pane int }

// Keystroke reports a key a person typed into a pane. Draft is true while the person
// has unsent input there (the host tracks it from the keys it forwards, modelling line
// editing: typing and pastes insert at a cursor, the editing keys move it and delete).
// Text is that draft as the host tracks it, "" when it cannot (a key it cannot follow,
// such as Up recalling history or Tab completing, made it unknown): a known draft on one
// line can be set aside and put back (aside.go); any other holds deliveries for a
// bounded time. After is how many characters of Text follow the cursor (0: the cursor is
// at its end): the clear keys, which empty a line only from the cursor back, go to its
// end first. The host starts its tracking again from what TakeInputResets says.
type Keystroke struct {
	Pane  int
	Draft bool
	Text  string
	After int
}

// Sent reports that a person submitted Text in a pane (pressed Enter on a draft; Text
// "" when the draft was unknown). The relay remembers it so its echo never becomes part
// of a delta, and the turn it starts is read from the pane's input row as it is then
// (see Relay).
type Sent struct {
	Pane int
	Text string
}

// Hold holds (On) or releases deliveries into a pane: a person is driving it.
type Hold struct {
	Pane int
	On   bool
}

// Link puts Pane into the group of With (creating a group of the two if With has
// none), leaving Pane's old group. Turns, when above 0, is the group's turn budget from
// now on (a person's link with --turns), said in the link's own notice.
type Link struct{ Pane, With, Turns int }

// LinkAll puts every listed pane into one new group with a fresh budget.
//
// Left are the panes the host left out because they run a shell (which would run an
// agent's answer as commands): the notice names them. Used and Budget, when Budget is
// set, are the turns already spent and allowed: a restored session's group comes back
// as it was (nothing is linked when Used has reached Budget). Limit, when set, is its
// spend budget and Spent what its turns spent before (nothing is linked when Spent
// has reached Limit).
type LinkAll struct {
	Panes, Left  []int
	Used, Budget int
	Limit        usage.Budget
	Spent        SpendTotal
}

// Unlink takes a pane out of its group; deliveries waiting for it are dropped.
type Unlink struct{ Pane int }

// Exit reports that a pane was closed or its program exited: it leaves its group, and
// deliveries to it, waiting or half done, are dropped. Nothing is ever typed into it
// again. Closed says a person closed it (the log says "closed", not "exited"); Status,
// when set, is how its program ended, as the pane's border says it ("exited (1)",
// "killed (SIGSEGV)"), for the log's notice.
type Exit struct {
	Pane   int
	Closed bool
	Status string
}

// Rename gives a pane a new name: deliveries framed from now on, the brief, the log
// and addressing by name use it (a delivery already queued keeps the words it was framed
// with). The host checks the name is free and allowed.
type Rename struct {
	Pane int
	Name string
}

// Shell reports that a pane now runs a shell (On), or no longer does: the program in its
// terminal's foreground changed (an agent exited into a shell, a shell ran a program in
// its place). Program names it for the notice. A pane that comes to run one while in a
// group leaves the group, with a notice, unless Kept (the person linked it knowing it
// runs a shell): no agent's answer is typed into a shell the person did not link.
type Shell struct {
	Pane    int
	On      bool
	Kept    bool
	Program string
}

func (Shell) isEvent()     {}
func (Rename) isEvent()    {}
func (Open) isEvent()      {}
func (Output) isEvent()    {}
func (Keystroke) isEvent() {}
func (Sent) isEvent()      {}
func (Hold) isEvent()      {}
func (Link) isEvent()      {}
func (LinkAll) isEvent()   {}
func (Unlink) isEvent()    {}
func (Exit) isEvent()      {}

// Action is something the host must do now: write Bytes to the pane's program (through
// its ordered writer).
type Action interface {
	// Target returns the pane number to write to.
	Target() int
	// Bytes returns exactly what to write.
	Bytes() []byte
}

// Type types a delivery, or a batch of them (Parts), into a pane: as one bracketed
// paste when the program enabled bracketed paste, otherwise as plain text with newlines
// turned into spaces. Text is already free of control characters and paste markers.
type Type struct {
	Pane      int
	Delivery  int
	Text      string
	Bracketed bool
	// Parts are the deliveries a batch joins (Delivery first), nil for one alone.
	Parts []int
}

// Submit sends the lone carriage return that submits a typed delivery. Between a Type
// and its Submit (PaneStatus.Typed) the host must hold back whatever a person types
// into the pane and write it right after the carriage return, in order: written in
// between, it would join the delivery's text and be submitted with it. Keystroke
// events for those keys still go to the relay when they are typed, so it holds further
// deliveries for the draft they start.
type Submit struct {
	Pane     int
	Delivery int
}

// Target returns the pane to type into.
func (t Type) Target() int { return t.Pane }

// Bytes returns the text, wrapped in bracketed-paste markers when Bracketed.
func (t Type) Bytes() []byte {
	if t.Bracketed {
		return []byte("\x1b[200~" + t.Text + "\x1b[201~")
	}
	return []byte(t.Text)
}

// Target returns the pane to submit in.
func (s Submit) Target() int { return s.Pane }

// Bytes returns "\r".
func (s Submit) Bytes() []byte { return []byte{'\r'} }

// Keys writes keys that are no delivery: a profile's interrupt or clear keys, or a
// person's draft typed back after deliveries went past it (without Enter).
type Keys struct {
	Pane    int
	Seq     string
	Purpose Purpose
}

// Purpose says why Keys are written.
type Purpose int

// The purposes of Keys.
const (
	// Interrupt stops a busy agent for an urgent message (Profile.InterruptKeys).
	Interrupt Purpose = iota
	// ClearLine empties the input line (Profile.ClearKeys).
	ClearLine
	// PutBack types a person's draft back, as it was, without Enter.
	PutBack
)

// String names the purpose.
func (p Purpose) String() string {
	switch p {
	case Interrupt:
		return "interrupt"
	case ClearLine:
		return "clear line"
	}
	return "put back"
}

// Target returns the pane to write to.
func (k Keys) Target() int { return k.Pane }

// Bytes returns the keys.
func (k Keys) Bytes() []byte { return []byte(k.Seq) }

var (
	_ Action = Type{}
	_ Action = Submit{}
	_ Action = Keys{}
)
