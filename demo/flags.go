package demo

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// style is one of the three screen styles the agent can draw in.
type style int

const (
	styleInline style = iota // Claude Code's classic main-screen renderer
	styleAlt                 // Codex's alternate-screen renderer
	stylePlain               // a plain line REPL
)

func (s style) String() string {
	switch s {
	case styleAlt:
		return "alt"
	case stylePlain:
		return "plain"
	default:
		return "inline"
	}
}

func parseStyle(v string) (style, error) {
	switch v {
	case "inline":
		return styleInline, nil
	case "alt":
		return styleAlt, nil
	case "plain":
		return stylePlain, nil
	}
	return 0, fmt.Errorf("unknown style %q (want inline, alt or plain)", v)
}

// config is the parsed command line of one simulated agent.
type config struct {
	name      string
	style     style
	busy      time.Duration // how long a turn "thinks"
	reply     replyFunc
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
}

// parseFlags parses args. Usage and errors go to out, the terminal the agent runs in.
// It returns flag.ErrHelp for -h.
func parseFlags(args []string, out io.Writer) (config, error) {
	cfg := config{name: "agent", busy: 2 * time.Second, reply: chatReply, exitAfter: -1}
	if n := os.Getenv("AGENTMUX_NAME"); n != "" {
		cfg.name = n
	}
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&cfg.name, "name", cfg.name, "the agent's `name`, shown in its banner, title and answers")
	fs.Func("style", "screen style: inline (Claude Code-like), alt (Codex-like) or plain (line REPL)", func(v string) error {
		s, err := parseStyle(v)
		cfg.style = s
		return err
	})
	fs.DurationVar(&cfg.busy, "busy", cfg.busy, "how long the agent thinks after each message")
	fs.Func("reply", "what it answers: chat (a conversational line quoting the message) or echo (NAME heard: WORDS)", func(v string) error {
		r, err := parseReply(v)
		cfg.reply = r
		return err
	})
	fs.IntVar(&cfg.exitAfter, "exit-after", cfg.exitAfter, "exit after answering `N` messages (0: right after start; negative: never)")
	fs.IntVar(&cfg.exitCode, "exit-code", 0, "the exit status used by -exit-after")
	fs.Int64Var(&cfg.flood, "flood", 0, "print this many `bytes` of filler lines at start, then idle")
	fs.BoolVar(&cfg.queries, "queries", false, "send DA1, CPR and OSC 11 queries at start and show whether answers came")
	fs.StringVar(&cfg.pidfile, "pidfile", "", "write the process id to this `file` at start")
	fs.StringVar(&cfg.greet, "greet", "", "answer this `text` as a first turn, without being asked")
	fs.StringVar(&cfg.transcript, "transcript", "", "append every message received and answer given to this `file`, as JSON lines {\"in\": TEXT} / {\"out\": TEXT}")
	fs.Func("settings", "a Claude Code settings `file`: its Stop hooks run after each answer", cfg.hooks.loadSettings)
	fs.Func("c", "a Codex config `key=value`: notify=[PROGRAM, ARGS…] runs after each answer", cfg.hooks.setConfig)
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected argument %q", fs.Arg(0))
		fmt.Fprintln(out, err)
		return cfg, err
	}
	if cfg.busy < 0 || cfg.flood < 0 {
		err := errors.New("-busy and -flood must not be negative")
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
