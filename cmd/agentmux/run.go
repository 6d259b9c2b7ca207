package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/agentmux/agentmux/demo"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/ui"
)

// version is set at build time (-ldflags "-X main.version=..."); otherwise the module
// version from the build info, or "dev".
var version = ""

// agentCommand is the hidden subcommand that runs one simulated agent (agentmux demo).
const agentCommand = "__agent"

// run is the whole command: it returns the exit status and an error to print on one
// line (nil when there is nothing to say). Usage errors and programs that are not found
// give status 2 before the screen is taken over.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	sio := stdio{in: stdin, out: stdout, err: stderr}
	if c, rest, ok := invocation(args); ok {
		if !c.ownHelp && wantsHelp(rest) {
			_, err := fmt.Fprintln(stdout, commandHelp(c))
			return 0, err
		}
		return runCommand(ctx, c, rest, sio)
	}
	return runSession(ctx, args, sio)
}

// runCommand runs subcommand c with the words after its name: through the one flag
// parser (flags.go) unless it reads its own; a command of parts by the part its first
// word names.
func runCommand(ctx context.Context, c command, args []string, sio stdio) (int, error) {
	switch {
	case c.run != nil:
		return c.run(ctx, args, sio)
	case c.parts != nil:
		if len(args) == 0 || args[0] == "help" {
			_, err := fmt.Fprintln(sio.out, commandHelp(c))
			return 0, err
		}
		var names []string
		for _, p := range c.parts {
			if p.name == args[0] {
				return runCommand(ctx, p, args[1:], sio)
			}
			names = append(names, p.name)
		}
		return 2, usagef("agentmux %s: unknown command %q (%s)", c.name, args[0], strings.Join(names, ", "))
	}
	a, err := c.parseFlags(args)
	if err != nil {
		return 2, err
	}
	return c.exec(ctx, a, sio)
}

// runSession is agentmux without a subcommand: it starts a session of the AGENT
// arguments (args.go), or the demo's, as a server, and attaches this terminal to it. The
// demo and --in-process serve it from this process, so it runs anywhere and ends with
// its terminal; otherwise the server is a process of its own that outlives the terminal.
func runSession(ctx context.Context, args []string, sio stdio) (int, error) {
	o, err := parseArgs(args)
	switch {
	case errors.Is(err, errNoAgents):
		return 2, restorablesNamed(err) // plain agentmux after a reboot
	case err != nil:
		return 2, err
	case o.help:
		_, err := io.WriteString(sio.out, mainHelp())
		return 0, err
	case o.version:
		_, err := fmt.Fprintln(sio.out, versionLine())
		return 0, err
	}
	// Every check that can fail runs here first, so an error is one line before the
	// screen is taken; a server of its own reads the same arguments again.
	conf, status, err := configure(&o)
	if err != nil {
		return status, err
	}
	if sn, ok := restorableNamed(o); ok { // restorecmd.go
		switch restore, err := wantRestore(conf.Restore, sn, sio.in, sio.err, o.detached); {
		case err != nil:
			return 1, err
		case restore:
			return runRestore(ctx, clientArgs{session: sn.Session, own: &restoreArgs{detached: o.detached}}, sio)
		}
	}
	if o.detached {
		return runDetached(args, sio.out)
	}
	in, inOK := sio.in.(*os.File)
	out, outOK := sio.out.(*os.File)
	if !inOK || !outOK {
		return 2, errors.New("agentmux needs a terminal")
	}
	if !o.demo && !o.inProcess {
		return runStarted(ctx, args, in, out)
	}
	return runHere(ctx, &o, conf, in, out)
}

// configure completes the agentmux arguments' options with the files that configure a
// session (agent profiles, config.toml); the demo's panes are its agents'. Every
// program must be found.
func configure(o *options) (conf settings, status int, err error) {
	if o.demo {
		if o.sess.Panes, err = demoPanes(); err != nil {
			return conf, 2, err
		}
		o.sess.Link = true
	}
	for i, p := range o.sess.Panes {
		if _, err := ptyhost.LookPath(p.Argv[0]); err != nil {
			if c, ok := nearCommand(p.Argv[0]); ok && i == 0 {
				return conf, 2, fmt.Errorf("%w; did you mean `agentmux %s`?", err, c)
			}
			return conf, 2, withNameHint(err, p.Argv)
		}
	}
	if o.sess.Profiles, err = loadProfiles(); err != nil {
		return conf, 2, err
	}
	if conf, err = loadConfig(); err != nil {
		return conf, 2, err
	}
	applyPaneConfig(o, conf)
	applySpend(o, conf.Spend)
	o.cfg.NotifyTerminal = o.notify.or(conf.Notify).terminal
	o.sess.Delivery = conf.Delivery
	o.sess.NoPaneNamespaces = conf.NoPaneNamespaces
	o.cfg.AllowClipboard = conf.AllowClipboard
	return conf, 0, nil
}

// claimFailed is the exit status and error for a session that could not be claimed:
// an explicit --session a live session holds is the person's to change (2).
func claimFailed(name string, err error) (int, error) {
	var clash *dirs.CaseClashError
	if errors.As(err, &clash) {
		return 2, fmt.Errorf("--session %s: session %s is running, and names that differ only in case cannot run side by side (agentmux attach finds either); pick another name", name, clash.Live)
	}
	if errors.Is(err, dirs.ErrInUse) {
		return 2, fmt.Errorf("--session %s: a running session has that name (agentmux ls --session %s shows it); pick another name", name, name)
	}
	return 1, fmt.Errorf("session socket: %w", err)
}

// invocation finds the subcommand in args: the first word, or for a session command
// the word after leading session flags (agentmux --session NAME ls); it returns the
// command and its words, those flags included. False: no subcommand, agentmux starts
// a session.
func invocation(args []string) (c command, rest []string, ok bool) {
	if len(args) > 0 {
		if c, ok := lookupCommand(args[0]); ok {
			return c, args[1:], true
		}
	}
	var flags []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case isClientCommand(a):
			c, _ := lookupCommand(a)
			return c, append(flags, args[i+1:]...), true
		case a == "--session" || a == "-session":
			if i+1 == len(args) {
				return command{}, nil, false
			}
			flags = append(flags, a, args[i+1])
			i++
		case strings.HasPrefix(a, "--session=") || strings.HasPrefix(a, "-session=") || a == "--json" || a == "-json":
			flags = append(flags, a)
		default:
			return command{}, nil, false
		}
	}
	return command{}, nil, false
}

// demoPanes are the simulated agents of agentmux demo (demo.Agents: alice opens the
// conversation): this same binary's hidden agent subcommand. Each gets the relay
// profile of the real program its style imitates.
func demoPanes() ([]ui.PaneSpec, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("demo: find agentmux itself: %w", err)
	}
	var specs []ui.PaneSpec
	for _, args := range demo.Agents() {
		specs = append(specs, ui.PaneSpec{
			Name:    flagValue(args, "--name"),
			Argv:    append([]string{exe, agentCommand}, args...),
			Profile: styleProfile(flagValue(args, "--style")),
		})
	}
	return specs, nil
}

// styleProfile is the relay profile for a simulated agent's screen style: inline draws
// like Claude Code, alt like Codex, plain like nothing in particular.
func styleProfile(style string) string {
	switch style {
	case "inline":
		return "claude"
	case "alt":
		return "codex"
	}
	return "generic"
}

// flagValue returns the word after flag in args ("" when absent).
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// versionString is agentmux's version: the one set at build time (-ldflags
// "-X main.version=..."), else what the build info says (see versionOf).
func versionString() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, bi)
}

// versionOf is the version given at build time, else the main module's version from the
// build info (a release tag, or the pseudo-version go build stamps from git, such as
// v0.0.0-20261124213000-3dc3fed1a2b4+dirty), else "devel" followed by the VCS revision
// the build records (devel-3dc3fed1a2b4, "-dirty" with uncommitted changes), else
// "devel".
func versionOf(set string, bi *debug.BuildInfo) string {
	if set != "" {
		return set
	}
	if bi == nil {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
		vcs := map[string]string{}
		for _, s := range bi.Settings {
			vcs[s.Key] = s.Value
		}
		if rev := vcs["vcs.revision"]; rev != "" {
			v += "-" + rev[:min(len(rev), 12)]
			if vcs["vcs.modified"] == "true" {
				v += "-dirty"
			}
		}
	}
	return v
}

// versionLine is what --version prints: the version and the Go toolchain that built it.
func versionLine() string {
	line := "agentmux " + versionString()
	if bi, ok := debug.ReadBuildInfo(); ok && bi.GoVersion != "" {
		line += " (" + bi.GoVersion + ")"
	}
	return line
}
