package demo

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Style is how the simulated agent draws its screen.
type Style int

// The screen styles. Inline, Alt and Plain look like the agent CLIs agentmux knows (its
// demo's look); Line, Bare, Full, Boxed and Clear are the shapes of chat programs no
// built-in profile knows, for testing the relay under the generic profile.
const (
	// Inline is Claude Code's classic renderer: a banner, the transcript scrolling up the
	// main screen above a live region redrawn in place (a spinner row while busy, a "❯"
	// input row between two rules, a footer), the hardware cursor hidden.
	Inline Style = iota
	// Alt is Codex: the alternate screen redrawn whole in synchronized-output frames, a
	// "› " composer at the bottom with the cursor in it, kitty keyboard flags pushed.
	Alt
	// Plain is a line REPL in raw mode: a "> " prompt, the typed keys echoed by the agent
	// itself, plain answers, no title, no bracketed paste.
	Plain
	// Line is a line REPL in cooked mode: "NAME ready.", then "NAME> " prompts; the
	// terminal's line discipline echoes what is typed and hands the agent whole lines
	// (ollama run, llm chat, bash's read -p).
	Line
	// Bare is a plain inline chat UI on the main screen: a banner, the transcript, and
	// under it an input box (rules around a "❯ " row) with a footer, the terminal cursor
	// after the draft; while it works a spinner row sits above the box. No colours, no
	// synchronized output.
	Bare
	// Full is a full-screen program on the alternate screen: a header row, the
	// transcript's last rows, a status row (a spinner while busy) and an input row at the
	// bottom, redrawn whole in synchronized-output frames.
	Full
	// Boxed is an Ink-like program on the main screen: its transcript, and under it an
	// input box drawn with round corners and a hint row, with the terminal cursor parked
	// on the row under them (where Ink leaves it), not in the box.
	Boxed
	// Clear is a full-screen program that clears and redraws the whole screen
	// (ESC[H ESC[2J) on every change with no synchronized output, as many ratatui and
	// bubbletea programs do, showing each message it received as "you: …" rows and a
	// status row naming its model under the input row.
	Clear
	// Prefixed is a full-screen program that shows each message it received behind a
	// prefix ("you: " on every line, by default; see EchoForm), with a spinner header
	// redrawn ten times a second while it works, a rule and a "› " input row, and no
	// synchronized output: every frame clears the whole screen, or rewrites only the rows
	// that changed (RowUpdates); long rows are word-wrapped by the program itself, or left
	// to the terminal to wrap (SoftWrap).
	Prefixed
)

// EchoForm is how a Prefixed agent shows a message it received in its transcript.
type EchoForm int

// The echo forms.
const (
	// EchoEach puts the prefix before every line of the message (a blank line shows as
	// the prefix alone).
	EchoEach EchoForm = iota
	// EchoFirst puts the prefix before the first line and indents the others as wide.
	EchoFirst
	// EchoBox draws the message in a box with round corners.
	EchoBox
	// EchoNone does not show the message.
	EchoNone
)

// EchoForms are every echo form, in order.
var EchoForms = []EchoForm{EchoEach, EchoFirst, EchoBox, EchoNone}

var echoFormNames = [...]string{"each", "first", "box", "none"}

// String returns the form's name as --echo takes it.
func (f EchoForm) String() string {
	if f < 0 || int(f) >= len(echoFormNames) {
		return fmt.Sprintf("EchoForm(%d)", int(f))
	}
	return echoFormNames[f]
}

// Styles are every style, in order.
var Styles = []Style{Inline, Alt, Plain, Line, Bare, Full, Boxed, Clear, Prefixed}

var styleNames = [...]string{"inline", "alt", "plain", "line", "bare", "full", "boxed", "clear", "prefixed"}

// String returns the style's name as --style takes it.
func (s Style) String() string {
	if s < 0 || int(s) >= len(styleNames) {
		return fmt.Sprintf("Style(%d)", int(s))
	}
	return styleNames[s]
}

// ParseStyle returns the style named v.
func ParseStyle(v string) (Style, error) {
	for _, s := range Styles {
		if s.String() == v {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown style %q (want %s)", v, strings.Join(styleNames[:], ", "))
}

// cooked reports whether the style reads its terminal in cooked mode (whole lines, echoed
// by the terminal), not raw keys.
func (s Style) cooked() bool { return s == Line }

// Config is what one simulated agent is: its name, screen style, answers and pace, and the
// quirks of its input. Main fills it from the flags; tests build a Bot from it.
type Config struct {
	Name  string
	Style Style
	// Reply is what it answers: "chat" (a conversational line quoting the message; the
	// demo's alice and bob follow a script), "echo" ("NAME heard: WORDS") or "corpus"
	// (seeded answers built to trip a relay, see corpus.go). "" is chat.
	Reply string
	// Seed seeds the corpus answers: the same seed gives the same answers to the same
	// messages.
	Seed uint64
	// MaxChars bounds a corpus answer's length (0: 6000 characters).
	MaxChars int
	// Think is the time from a message to the first lines of its answer; Pace, when not
	// zero, prints a long answer a few lines at a time, Pace apart (0: all at once).
	Think, Pace time.Duration
	// Readline makes a Line agent turn bracketed paste on, as a program reading with
	// readline does (bash's read -e): its terminal still hands it one line per Enter.
	Readline bool
	// Label is what a Boxed agent's input row shows before the draft ("> " when empty);
	// Masked makes it show a "•" for each character of the draft instead (a field whose
	// text cannot be read off the screen).
	Label  string
	Masked bool
	// IgnoreKill makes the agent ignore Ctrl+U (its input cannot be cleared so).
	IgnoreKill bool
	// Echo is how a Prefixed agent shows a message it received; EchoPrefix the prefix
	// ("you: " when empty). SoftWrap leaves its long rows to the terminal to wrap;
	// RowUpdates makes it rewrite only the rows that changed instead of clearing the
	// screen for every frame.
	Echo       EchoForm
	EchoPrefix string
	SoftWrap   bool
	RowUpdates bool
	// Cols and Rows are the screen's size for a Bot (80×24 when not set); Main reads the
	// terminal's.
	Cols, Rows int
}

// config is the parsed command line of one simulated agent: its Config and what only a
// program run by Main has.
type config struct {
	Config
	exitAfter int   // exit after this many answers; negative: never
	exitCode  int   // the status to exit with after exitAfter answers
	flood     int64 // bytes of filler output to print at start
	queries   bool  // send DA1, CPR and OSC 11 at start and show the answers
	pidfile   string
	greet     string // an opening line answered as a first turn, with no message
	// transcript names a file to which every message received and every answer given is
	// appended, one JSON object a line ({"in": TEXT} or {"out": TEXT}), for tests.
	transcript string
	// hooks run after each answer (--settings FILE as Claude Code, -c notify=[…] as
	// Codex; hooks.go).
	hooks hooks
	// conversation is the id of the conversation the agent holds, which its hooks report
	// as the CLIs do: a new random one, or the one --resume ID (Claude Code's, Gemini
	// CLI's and Qwen Code's form) or `resume ID` (Codex's) names; resumed says which.
	conversation string
	resumed      bool
	// conversations names a file to which the agent appends, at start, "ID new" or "ID
	// resumed", for tests.
	conversations string
}

// parseFlags parses args. Usage and errors go to out, the terminal the agent runs in.
// It returns flag.ErrHelp for -h.
func parseFlags(args []string, out io.Writer) (config, error) {
	cfg := config{Config: Config{Name: "agent", Think: 2 * time.Second, Reply: "chat"}, exitAfter: -1}
	if n := os.Getenv("AGENTMUX_NAME"); n != "" {
		cfg.Name = n
	}
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&cfg.Name, "name", cfg.Name, "the agent's `name`, shown in its banner, title and answers")
	fs.Func("style", "screen style: inline (Claude Code-like), alt (Codex-like), plain (raw-mode REPL), line (cooked-mode REPL), bare (inline chat), full (full-screen), boxed (Ink-like), clear (clears its screen on every change) or prefixed (full-screen, echoes messages behind a prefix)", func(v string) error {
		s, err := ParseStyle(v)
		cfg.Style = s
		return err
	})
	fs.DurationVar(&cfg.Think, "busy", cfg.Think, "how long the agent thinks after each message")
	fs.DurationVar(&cfg.Pace, "pace", 0, "print a long answer a few lines at a time, this `long` apart (0: all at once)")
	fs.Func("reply", "what it answers: chat (a conversational line quoting the message), echo (NAME heard: WORDS) or corpus (seeded answers built to trip a relay)", func(v string) error {
		cfg.Reply = v
		return checkReply(v)
	})
	fs.Uint64Var(&cfg.Seed, "seed", 1, "the seed of corpus answers")
	fs.IntVar(&cfg.MaxChars, "max-chars", 0, "the most characters of a corpus answer (0: 6000)")
	fs.BoolVar(&cfg.Readline, "readline", false, "line style: turn bracketed paste on, as a readline program does")
	fs.StringVar(&cfg.Label, "label", "", "boxed style: the `text` before the draft on the input row")
	fs.BoolVar(&cfg.Masked, "masked", false, "boxed style: show the draft as dots")
	fs.Func("echo", "prefixed style: how a message is echoed: each (the prefix on every line), first (on the first line), box or none", func(v string) error {
		for _, f := range EchoForms {
			if f.String() == v {
				cfg.Echo = f
				return nil
			}
		}
		return fmt.Errorf("unknown echo form %q (want %s)", v, strings.Join(echoFormNames[:], ", "))
	})
	fs.StringVar(&cfg.EchoPrefix, "echo-prefix", "", "prefixed style: the `text` before an echoed message (default \"you: \")")
	fs.BoolVar(&cfg.SoftWrap, "soft-wrap", false, "prefixed style: leave long rows to the terminal to wrap")
	fs.BoolVar(&cfg.RowUpdates, "row-updates", false, "prefixed style: rewrite only the rows that changed, not the whole screen")
	fs.BoolVar(&cfg.IgnoreKill, "ignore-kill", false, "ignore Ctrl+U (the input cannot be cleared)")
	fs.IntVar(&cfg.exitAfter, "exit-after", cfg.exitAfter, "exit after answering `N` messages (0: right after start; negative: never)")
	fs.IntVar(&cfg.exitCode, "exit-code", 0, "the exit status used by -exit-after")
	fs.Int64Var(&cfg.flood, "flood", 0, "print this many `bytes` of filler lines at start, then idle")
	fs.BoolVar(&cfg.queries, "queries", false, "send DA1, CPR and OSC 11 queries at start and show whether answers came")
	fs.StringVar(&cfg.pidfile, "pidfile", "", "write the process id to this `file` at start")
	fs.StringVar(&cfg.greet, "greet", "", "answer this `text` as a first turn, without being asked")
	fs.StringVar(&cfg.transcript, "transcript", "", "append every message received and answer given to this `file`, as JSON lines {\"in\": TEXT} / {\"out\": TEXT}")
	fs.Func("settings", "a Claude Code settings `file`: its Stop hooks run after each answer", cfg.hooks.loadSettings)
	fs.Func("c", "a Codex config `key=value`: notify=[PROGRAM, ARGS…] runs after each answer", cfg.hooks.setConfig)
	fs.StringVar(&cfg.conversation, "resume", "", "resume the conversation `ID` (its hooks report it); `resume ID` as a first argument too")
	fs.StringVar(&cfg.conversations, "conversations", "", "append \"ID new\" or \"ID resumed\" to this `file` at start")
	fs.StringVar(&cfg.hooks.usage, "usage", "", "after each answer, append its usage (UsageInput and UsageOutput tokens of UsageModel) to this `file` as Claude Code writes its transcript, and name it transcript_path in the Stop hook")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() >= 2 && fs.Arg(0) == "resume" { // Codex's form: flags may follow
		cfg.conversation = fs.Arg(1)
		if err := fs.Parse(fs.Args()[2:]); err != nil {
			return cfg, err
		}
	}
	cfg.resumed = cfg.conversation != ""
	if !cfg.resumed {
		cfg.conversation = newConversation()
	}
	cfg.hooks.conversation = cfg.conversation
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected argument %q", fs.Arg(0))
		fmt.Fprintln(out, err)
		return cfg, err
	}
	if cfg.Think < 0 || cfg.Pace < 0 || cfg.flood < 0 || cfg.MaxChars < 0 {
		err := errors.New("-busy, -pace, -flood and -max-chars must not be negative")
		fmt.Fprintln(out, err)
		return cfg, err
	}
	return cfg, nil
}

// Agents returns the argument lists (the flags after agentmux __agent) of the two simulated
// agents agentmux demo starts: alice in the inline style, who opens the conversation, and bob
// in the alternate-screen style.
func Agents() [][]string {
	return [][]string{
		{"--name", "alice", "--style", "inline", "--greet", "Hi bob! I'm alice. Shall we plan a tiny to-do app together?"},
		{"--name", "bob", "--style", "alt"},
	}
}

// newConversation is a new conversation's id: random hex, as a CLI's own ids are
// random.
func newConversation() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "fake-" + hex.EncodeToString(b)
}
