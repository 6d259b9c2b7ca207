package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/ui"
	spend "github.com/agentmux/agentmux/usage"
)

// errUsage marks command-line errors (exit status 2).
var errUsage = errors.New("usage")

// usageError is a command-line error: printed on one line, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// Is makes errors.Is(err, errUsage) hold for every usageError.
func (e *usageError) Is(target error) bool { return target == errUsage }

// usagef returns a usageError.
func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// errNoAgents is agentmux's error with nothing to run.
var errNoAgents = usagef("no agents given (agentmux [flags] AGENT [AGENT...], or agentmux demo)")

// options is the parsed command line.
type options struct {
	// trees says which panes start in worktrees of their own (--worktree), by index;
	// set names the flags given, so config.toml's [ui] fills in only the others.
	trees    []bool
	treeFlag treeFlag
	set      map[string]bool

	cfg      ui.Config       // each terminal's ui
	sess     session.Options // the session: its panes and the relay's rules
	logLevel slog.Level
	session  string // --session: the session's name ("" names it after the working folder)
	demo     bool   // agentmux demo: the panes are filled in by run
	help     bool
	version  bool
	noHooks  bool // --no-hooks: no hook settings for any program
	mcp      bool // --mcp: each supported program gets agentmux's MCP server
	// inProcess: --in-process serves the session from this terminal's process (it ends
	// with the terminal and cannot detach).
	inProcess bool
	// detached: --detached (-d) starts the session's server without a terminal and
	// prints its name, as tmux new-session -d.
	detached bool
	web      webFlags
	webSet   map[string]bool // the --web flags given (they override config.toml's [web])
	mesh     meshFlags
	// linkBudget is --link-budget, when given (set["link-budget"]).
	linkBudget spend.Budget
	notify     notifyFlags
}

// subcommands are the words that, as the first argument after the flags, run something
// other than the agents given: each gets the options and the arguments after its word.
var subcommands = map[string]func(o *options, args []string) error{
	"demo": func(o *options, args []string) error {
		if len(args) > 0 {
			return usagef("demo takes no agents, only flags (got %q)", args[0])
		}
		if o.detached {
			return usagef("demo runs in its terminal: --detached does not go with it")
		}
		o.demo = true
		return nil
	},
}

// mainValues are the values of agentmux's own flags that parseArgs checks before they
// go into options.
type mainValues struct {
	prefix, layout, level string
	linkBudget            string
	cwd                   cwdFlag
}

// parseArgs parses the flags, wherever they stand before "--" (agentmux bash sh --link
// is agentmux --link bash sh), then the AGENT arguments or a subcommand. It does not
// look programs up.
func parseArgs(args []string) (options, error) {
	var o options
	var v mainValues
	fs := mainFlags(&o, &v)
	rest, err := parseFlags(fs, treeNames(args))
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			o.help = true
			return o, nil
		}
		return o, err
	}
	if o.version {
		return o, nil
	}
	o.set = map[string]bool{}
	o.webSet = map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		o.set[f.Name] = true
		if strings.HasPrefix(f.Name, "web") {
			o.webSet[f.Name] = true
		}
	})
	sessionSet := o.set["session"]
	if sessionSet && strings.TrimSpace(o.session) == "" {
		return o, usagef("--session needs a name")
	}
	if sessionSet {
		if err := dirs.ValidSessionName(o.session); err != nil {
			return o, usagef("--session %v", err)
		}
	}
	if o.sess.Turns < 1 {
		return o, usagef("--turns must be at least 1, not %d", o.sess.Turns)
	}
	if o.sess.Idle <= 0 {
		return o, usagef("--idle must be a positive duration, not %s", o.sess.Idle)
	}
	if o.set["link-budget"] {
		if o.linkBudget, err = spend.ParseBudget(v.linkBudget); err != nil || o.linkBudget.IsZero() {
			return o, usagef("--link-budget %q: use tokens like 300k, 1.5M or 12000, or dollars like '$2' or '$0.50'", v.linkBudget)
		}
	}
	k, err := keys.ParseKey(v.prefix)
	if err != nil {
		return o, usagef("--prefix: %v", err)
	}
	if err := usablePrefix(k); err != nil {
		return o, usagef("--prefix %q: %v", v.prefix, err)
	}
	o.cfg.Prefix, o.cfg.PrefixSpec = k, v.prefix
	if o.cfg.Layout, err = ui.ParseLayout(v.layout); err != nil {
		return o, usagef("--layout: %v", err)
	}
	if err := o.logLevel.UnmarshalText([]byte(v.level)); err != nil {
		return o, usagef("--log-level %q: want debug, info, warn or error", v.level)
	}
	if err := o.notify.check("flags"); err != nil {
		return o, usagef("%v", err)
	}
	if err := checkListen(o.web.listen); err != nil {
		return o, usagef("--web-listen %q: %v", o.web.listen, err)
	}
	if o.detached && o.inProcess {
		return o, usagef("--detached and --in-process exclude each other (an in-process session ends with its terminal)")
	}
	if len(rest) == 0 {
		return o, errNoAgents
	}
	if sub, ok := subcommands[rest[0]]; ok {
		return o, sub(&o, rest[1:])
	}
	if o.sess.Panes, err = parseAgents(rest); err != nil {
		return o, err
	}
	o.trees, err = applyFolders(o.sess.Panes, v.cwd, o.treeFlag)
	return o, err
}

// parseFlags sets fs's flags from args wherever they stand, up to a "--", and returns
// the other arguments in their order (with everything after "--"): scanFlags (flags.go)
// reads the words, fs holds what each flag takes. A flag is -name or --name, its value
// after "=" or else in the next argument (a boolean flag takes none: --link,
// --link=false). A lone "-" is an argument. -h and --help give flag.ErrHelp. Errors are
// usageErrors that name the flag as the user wrote it.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	lookup := func(name string) (flagDef, bool) {
		f := fs.Lookup(name)
		if f == nil {
			return flagDef{}, false
		}
		kind := kindValue
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			kind = kindBool
		}
		return flagDef{kind: kind, set: func(val string, given bool) error {
			if !given {
				val = "true"
			}
			return fs.Set(name, val)
		}}, true
	}
	rest, err := scanFlags(args, lookup, false)
	var fe *flagError
	if !errors.As(err, &fe) {
		return rest, err
	}
	switch fe.why {
	case flagUnknown:
		if fe.name == "h" || fe.name == "help" {
			return nil, flag.ErrHelp
		}
		return nil, unknownFlag(fe.arg, fe.before)
	case flagMissing:
		return nil, usagef("--%s needs a value", fe.name)
	case flagMalformed:
		return nil, usagef("malformed flag %s", fe.arg)
	}
	return nil, badValue(fs.Lookup(fe.name), fe.value, fe.err)
}

// unknownFlag is the error for flag a that fs does not define; after an agent it says
// where that agent's own flags go.
func unknownFlag(a string, before []string) error {
	name, _, _ := strings.Cut(a, "=")
	if len(before) > 0 {
		agent := before[len(before)-1]
		return usagef("unknown flag %s (if it is for %s, put it inside the quotes: '%s %s')", name, agent, agent, a)
	}
	return usagef("unknown flag %s (agentmux --help lists them)", name)
}

// badValue is the error for a value flag f refused, saying what it takes.
func badValue(f *flag.Flag, value string, err error) error {
	var v any
	if g, ok := f.Value.(flag.Getter); ok {
		v = g.Get()
	}
	switch v.(type) {
	case time.Duration:
		if _, perr := strconv.ParseFloat(value, 64); perr == nil {
			return usagef("--%s %s needs a unit, e.g. %ss or %sms", f.Name, value, value, value)
		}
		return usagef("--%s %q: want a duration such as 1.5s, 500ms or 2m", f.Name, value)
	case int:
		return usagef("--%s %q: want a whole number", f.Name, value)
	case bool:
		return usagef("--%s=%s: want true or false", f.Name, value)
	}
	return usagef("--%s %q: %v", f.Name, value, err)
}

// usablePrefix refuses prefix keys that would swallow ordinary typing: a letter, digit
// or space without Ctrl, Alt or Super (every word typed would start a command), and
// Enter, Tab, Backspace or Escape on their own. It also refuses keys an ordinary
// terminal cannot tell apart from another key or does not send at all: ctrl+m is the
// byte of Enter, ctrl+i of Tab, ctrl+[ of Escape, and super+… or f13 and beyond need
// the kitty keyboard protocol, which not every terminal speaks; such a prefix would
// never fire, and nothing but a signal would leave agentmux.
func usablePrefix(k keys.Key) error {
	if k.Mod&(keys.ModCtrl|keys.ModAlt|keys.ModSuper|keys.ModHyper|keys.ModMeta) != 0 {
		return sendable(k)
	}
	switch k.Code {
	case keys.KeyRune:
		if r := k.Rune; r == ' ' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return errors.New("a plain letter, digit or space is typed all the time; use a modifier, e.g. ctrl+a")
		}
	case keys.KeyEnter, keys.KeyTab, keys.KeyBackspace, keys.KeyEscape:
		return fmt.Errorf("%v on its own is typed all the time; use a modifier, e.g. ctrl+a", k.Code)
	}
	return sendable(k)
}

// sendable refuses a prefix key that an ordinary terminal never sends as itself.
func sendable(k keys.Key) error {
	sent, ok := keys.LegacySends(k)
	switch {
	case ok:
		return nil
	case sent.Code == keys.KeyRune && sent.Rune == 0, k.Mod&(keys.ModSuper|keys.ModHyper|keys.ModMeta) != 0:
		return errors.New("most terminals never send this key; use one such as ctrl+a, ctrl+b or f12")
	}
	return fmt.Errorf("terminals send it as %v, so it would never work as the prefix; use one such as ctrl+a, ctrl+b or f12", sent)
}

// parseAgents turns AGENT arguments into pane specs with unique names.
func parseAgents(args []string) ([]ui.PaneSpec, error) {
	specs := make([]ui.PaneSpec, 0, len(args))
	given := make([]bool, 0, len(args))
	for _, a := range args {
		spec, named, err := parseAgentNamed(a)
		if err != nil {
			return nil, err
		}
		specs, given = append(specs, spec), append(given, named)
	}
	if err := uniqueNames(specs, given); err != nil {
		return nil, err
	}
	return specs, nil
}

// parseAgent parses one AGENT argument: an optional pane name (NAME=, where NAME is not
// an environment variable's name), then a command line split like a POSIX shell's,
// whose leading VAR=value words are environment assignments for the program, as in a
// shell (VAR upper-case: see envName).
func parseAgent(a string) (ui.PaneSpec, error) {
	spec, _, err := parseAgentNamed(a)
	return spec, err
}

// parseAgentNamed is parseAgent, saying whether the pane's name was given (NAME=).
func parseAgentNamed(a string) (ui.PaneSpec, bool, error) {
	name, line := "", a
	if i := strings.IndexByte(a, '='); i > 0 && validName(a[:i]) && !envName(a[:i]) {
		name, line = a[:i], a[i+1:]
	}
	words, err := splitWords(line)
	if err != nil {
		return ui.PaneSpec{}, false, usagef("agent %q: %v", a, err)
	}
	var env []string
	for len(words) > 0 {
		k, _, ok := strings.Cut(words[0], "=")
		if !ok || !envName(k) {
			break
		}
		env, words = append(env, words[0]), words[1:]
	}
	switch {
	case len(words) == 0 && len(env) > 0:
		k, v, _ := strings.Cut(env[len(env)-1], "=")
		return ui.PaneSpec{}, false, usagef("agent %q: %s=… sets an environment variable and no command follows "+
			"(upper-case NAME=VALUE words are assignments, as in a shell; to name a pane, use a name with a lower-case letter: %s=%s)",
			a, k, strings.ToLower(k), v)
	case len(words) == 0 || words[0] == "":
		return ui.PaneSpec{}, false, usagef("agent %q: empty command", a)
	case name == "" && intendedName(words[0]):
		n, _, _ := strings.Cut(words[0], "=")
		return ui.PaneSpec{}, false, usagef("agent %q: %q is not a pane name: %s", a, n, nameRule)
	}
	given := name != ""
	if !given {
		name = filepath.Base(words[0])
	}
	if err := paneName(name, given); err != nil {
		return ui.PaneSpec{}, false, usagef("agent %q: %v", a, err)
	}
	if !given {
		name = proto.DefaultName(words[0]) // "pane" for a base name the rule refuses, as at run time
	}
	return ui.PaneSpec{Name: name, Argv: words, Env: env}, given, nil
}

// paneName reports why name cannot be a pane's (proto.CheckName, the rule of every
// name), saying how to name it otherwise; given says the person wrote it (NAME=), else
// it is the program's base name, and only a number or a form of a reserved name is
// refused: any other base name the rule refuses becomes "pane" (proto.DefaultName).
func paneName(name string, given bool) error {
	err := proto.CheckName(proto.PaneName, name)
	if _, numErr := strconv.Atoi(name); err != nil && (given || numErr == nil || proto.Reserved(name) != "") {
		return fmt.Errorf("a pane cannot be named %s: %w; name it otherwise (NAME=COMMAND)", name, err)
	}
	return nil
}

// envName reports whether s is written like an environment variable in a shell
// assignment: upper-case ASCII letters, digits and _, not starting with a digit
// (FOO, ANTHROPIC_API_KEY, _X). Such a NAME= at the start of an AGENT sets the variable
// for the program rather than naming the pane.
func envName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// nameRule says what a pane name may hold, for errors.
const nameRule = proto.NameRule

// validName reports whether s is written as a pane name in NAME=COMMAND
// (proto.CheckNameShape), so a command with = in its arguments (a flag like --opt=1, a
// path) is not mistaken for a name.
func validName(s string) bool { return proto.CheckNameShape(s) == nil }

// intendedName reports whether a command's first word reads as NAME=… with a NAME that
// is no pane name (ünï=claude): no program is called that, and no flag or path starts so.
func intendedName(w string) bool {
	n, _, ok := strings.Cut(w, "=")
	return ok && n != "" && n[0] != '-' && !strings.ContainsRune(n, '/')
}

// withNameHint adds the pane name rule to a program-not-found error when a word of the
// command holds '=': 'my bot=claude' splits into the program "my" and "bot=claude",
// most likely a pane name with a space.
func withNameHint(err error, argv []string) error {
	for _, w := range argv[1:] {
		if strings.ContainsRune(w, '=') {
			return fmt.Errorf("%w (to name a pane write NAME=COMMAND; %s)", err, nameRule)
		}
	}
	return err
}

// uniqueNames keeps the names given (NAME=, given[i]) as they are, refusing one given
// twice, and gives repeated default names a suffix, in order, past every name given:
// claude, claude-2, claude-3. Names are one name in any case, as the session compares
// them (a pane named Bot could not be told from bot).
func uniqueNames(specs []ui.PaneSpec, given []bool) error {
	used := make(map[string]bool, len(specs))
	for i, s := range specs {
		if !given[i] {
			continue
		}
		k := strings.ToLower(s.Name)
		if used[k] {
			return usagef("pane name %q is given twice (names are compared in any case)", s.Name)
		}
		used[k] = true
	}
	for i := range specs {
		if given[i] {
			continue
		}
		base := specs[i].Name
		name := base
		for n := 2; used[strings.ToLower(name)]; n++ {
			name = base + "-" + strconv.Itoa(n)
		}
		used[strings.ToLower(name)] = true
		specs[i].Name = name
	}
	return nil
}

// checkListen says why addr ("" for the default) is no HOST:PORT a web view could listen
// on: a usage error, told before the session starts rather than on its status line
// after it started without its web view.
func checkListen(addr string) error {
	if addr == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		if _, perr := strconv.ParseUint(port, 10, 16); perr != nil {
			err = fmt.Errorf("port %q is no number from 0 to 65535", port)
		}
	}
	if err != nil {
		return fmt.Errorf("want HOST:PORT, e.g. 127.0.0.1:8080 (%v)", err)
	}
	return nil
}
