package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/ui"
)

// usage is printed by -h/--help.
const usage = `usage: agentmux [flags] AGENT [AGENT...]
       agentmux demo

AGENT is a command line, split like a POSIX shell would (quotes honoured), or
NAME=COMMAND to name the pane: agentmux alice=claude bob="codex --full-auto"

flags:
  --link           link all panes into one relay group at start
  --turns N        turn budget per link (default 8)
  --idle D         quiet time before a pane counts as idle (default 1.5s)
  --prefix KEY     prefix key, e.g. ctrl+a, ctrl+b (default ctrl+a)
  --layout L       columns, rows or tiled (default: columns up to 3 panes, tiled beyond)
  --log-level L    debug, info, warn or error (default info)
  --version        print the version and exit

Keys: prefix ? shows every binding; prefix q quits.

` + clientUsage

// errUsage marks command-line errors (exit status 2).
var errUsage = errors.New("usage")

// usageError is a command-line error: printed on one line, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// Is makes errors.Is(err, errUsage) hold for every usageError.
func (e *usageError) Is(target error) bool { return target == errUsage }

// usagef returns a usageError.
func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// options is the parsed command line.
type options struct {
	cfg      ui.Config
	logLevel slog.Level
	demo     bool // agentmux demo: the panes are filled in by run
	help     bool
	version  bool
}

// parseArgs parses the flags and AGENT arguments. It does not look programs up.
func parseArgs(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("agentmux", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&o.cfg.Link, "link", false, "")
	fs.IntVar(&o.cfg.Turns, "turns", 8, "")
	fs.DurationVar(&o.cfg.Idle, "idle", 1500*time.Millisecond, "")
	prefix := fs.String("prefix", "ctrl+a", "")
	layout := fs.String("layout", "", "")
	level := fs.String("log-level", "info", "")
	fs.BoolVar(&o.version, "version", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			o.help = true
			return o, nil
		}
		return o, usagef("%v", err)
	}
	if o.version {
		return o, nil
	}
	if o.cfg.Turns < 1 {
		return o, usagef("--turns must be at least 1, not %d", o.cfg.Turns)
	}
	if o.cfg.Idle <= 0 {
		return o, usagef("--idle must be a positive duration, not %s", o.cfg.Idle)
	}
	k, err := keys.ParseKey(*prefix)
	if err != nil {
		return o, usagef("--prefix %q: %v", *prefix, err)
	}
	o.cfg.Prefix, o.cfg.PrefixSpec = k, *prefix
	if o.cfg.Layout, err = ui.ParseLayout(*layout); err != nil {
		return o, usagef("--layout: %v", err)
	}
	if err := o.logLevel.UnmarshalText([]byte(*level)); err != nil {
		return o, usagef("--log-level %q: want debug, info, warn or error", *level)
	}
	rest := fs.Args()
	switch {
	case len(rest) == 0:
		return o, usagef("no agents given (agentmux [flags] AGENT [AGENT...], or agentmux demo)")
	case rest[0] == "demo" && len(rest) == 1:
		o.demo = true
		return o, nil
	}
	o.cfg.Panes, err = parseAgents(rest)
	return o, err
}

// parseAgents turns AGENT arguments into pane specs with unique names.
func parseAgents(args []string) ([]ui.PaneSpec, error) {
	specs := make([]ui.PaneSpec, 0, len(args))
	for _, a := range args {
		name, line := "", a
		if i := strings.IndexByte(a, '='); i > 0 && validName(a[:i]) {
			name, line = a[:i], a[i+1:]
		}
		argv, err := splitWords(line)
		if err != nil {
			return nil, usagef("agent %q: %v", a, err)
		}
		if len(argv) == 0 || argv[0] == "" {
			return nil, usagef("agent %q: empty command", a)
		}
		if name == "" {
			name = filepath.Base(argv[0])
		}
		specs = append(specs, ui.PaneSpec{Name: name, Argv: argv})
	}
	uniqueNames(specs)
	return specs, nil
}

// validName reports whether s can be a pane name in NAME=COMMAND: letters, digits and
// _ . - only, not starting with - or ., so a command with = in its arguments (a flag
// like --opt=1, a path) is not mistaken for a name.
func validName(s string) bool {
	if s == "" || s[0] == '-' || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// uniqueNames gives repeated names a suffix, in order: claude, claude-2, claude-3.
func uniqueNames(specs []ui.PaneSpec) {
	used := make(map[string]bool, len(specs))
	for i := range specs {
		base := specs[i].Name
		name := base
		for n := 2; used[name]; n++ {
			name = base + "-" + strconv.Itoa(n)
		}
		used[name] = true
		specs[i].Name = name
	}
}
