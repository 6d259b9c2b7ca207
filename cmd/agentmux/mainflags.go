package main

import (
	"flag"
	"io"
	"time"
)

// mainFlag declares one of agentmux's own flags (a session's, before, between or after
// its AGENT arguments) once: its names, value and help as agentmux --help lists them
// (the flagSpec; its set is unused), and bind, which gives it to the flag.FlagSet that
// parseArgs reads it with.
type mainFlag struct {
	flagSpec
	bind func(fs *flag.FlagSet, name string, o *options, v *mainValues)
}

// mainFlagTable is agentmux's own flags in the order agentmux --help lists them.
var mainFlagTable = []mainFlag{
	mainSwitch("link", "link all panes into one relay group at start", func(o *options) *bool { return &o.sess.Link }),
	mainSwitch("address", "let agents address panes they are not linked with (@relay:NAME)", func(o *options) *bool { return &o.sess.Address }),
	mainSwitch("brief", "tell each agent, once ready, its name, the other panes and how to\naddress them", func(o *options) *bool { return &o.sess.Brief }),
	mainSwitch("no-hooks", "start claude, codex, gemini, qwen (Qwen Code), opencode and pi\nwithout agentmux's hooks (turn ends from the screen)", func(o *options) *bool { return &o.noHooks }),
	mainSwitch("mcp", "start claude, codex, gemini and qwen with agentmux's MCP server\nadded (their tools: members, send, wait, read, history, capture;\ndocs/mcp.md)", func(o *options) *bool { return &o.mcp }),
	{flagSpec{name: "turns", arg: "N", usage: "turn budget per link (default 8)"}, func(fs *flag.FlagSet, name string, o *options, _ *mainValues) {
		fs.IntVar(&o.sess.Turns, name, 8, "")
	}},
	mainText("link-budget", "B", "spend budget per link: tokens (300k, 1.5M) or dollars ('$2');\nthe link is severed after the turn that reaches it (agentmux help\nspend)", "", func(_ *options, v *mainValues) *string { return &v.linkBudget }),
	{flagSpec{name: "idle", arg: "D", usage: "quiet time before a pane counts as idle (default 1.5s)"}, func(fs *flag.FlagSet, name string, o *options, _ *mainValues) {
		fs.DurationVar(&o.sess.Idle, name, 1500*time.Millisecond, "")
	}},
	mainText("prefix", "KEY", "prefix key, e.g. ctrl+a, ctrl+b (default ctrl+a)", "ctrl+a", func(_ *options, v *mainValues) *string { return &v.prefix }),
	mainText("layout", "L", "columns, rows or tiled (default: columns up to 3 panes, tiled\nbeyond)", "", func(_ *options, v *mainValues) *string { return &v.layout }),
	mainText("log-level", "L", "debug, info, warn or error (default info)", "info", func(_ *options, v *mainValues) *string { return &v.level }),
	mainText("session", "NAME", "the session's name: its socket is\n$XDG_RUNTIME_DIR/agentmux/NAME.sock (default: the working folder's\nname; NAME-2… while a live one holds it)", "", func(o *options, _ *mainValues) *string { return &o.session }),
	mainValue("cwd", "NAME=DIR", "start pane NAME in folder DIR (repeatable)", func(_ *options, v *mainValues) flag.Value { return v.cwd }),
	mainValue("worktree", "", "start every pane in a git worktree of its own (--worktree NAME:\npane NAME)", func(o *options, _ *mainValues) flag.Value { return &o.treeFlag }),
	mainSwitch("in-process", "serve the session from this terminal's process: it ends with the\nterminal", func(o *options) *bool { return &o.inProcess }),
	mainSwitch("detached", "start the session without a terminal: print its name and exit\n(agentmux attach NAME)", func(o *options) *bool { return &o.detached }).alias("d"),
	mainSwitch("web", "serve the session's web view too (agentmux web prints its URL)", func(o *options) *bool { return &o.web.on }),
	mainText("web-listen", "A", "where it listens, HOST:PORT (default 127.0.0.1 on a free port)", "", func(o *options, _ *mainValues) *string { return &o.web.listen }),
	mainSwitch("web-control", "let the web page send messages, link panes and type into them", func(o *options) *bool { return &o.web.control }),
	mainText("mesh", "URL", "join the mesh at URL (a NATS server: agentmux mesh serve, or yours)", "", func(o *options, _ *mainValues) *string { return &o.mesh.url }),
	mainText("mesh-creds", "F", "the session's mesh credentials (agentmux mesh creds NAME, or a\nNATS .creds)", "", func(o *options, _ *mainValues) *string { return &o.mesh.creds }),
	mainText("mesh-nkey", "F", "an nkey seed file instead of --mesh-creds", "", func(o *options, _ *mainValues) *string { return &o.mesh.nkey }),
	mainText("mesh-ca", "F", "the certificate authority of the hub's TLS (else the system's)", "", func(o *options, _ *mainValues) *string { return &o.mesh.ca }),
	mainText("notify-terminal", "M", "notifications to the attached terminals: osc9 (default), osc777,\nbell, off", "", func(o *options, _ *mainValues) *string { return &o.notify.terminal }),
	mainText("notify-command", "C", "run C for each notification, its JSON on stdin (e.g. a notify-send\nscript)", "", func(o *options, _ *mainValues) *string { return &o.notify.commandLine }),
	mainText("notify-webhook", "U", "POST each notification's JSON to URL U", "", func(o *options, _ *mainValues) *string { return &o.notify.webhook }),
	mainText("notify-ntfy", "U", "send each notification to the ntfy topic at URL U", "", func(o *options, _ *mainValues) *string { return &o.notify.ntfy }),
	mainText("notify-events", "L", "which: needs-you,budget,exited,expired (default), turn", "", func(o *options, _ *mainValues) *string { return &o.notify.eventList }),
	mainSwitch("version", "print the version and exit", func(o *options) *bool { return &o.version }),
}

// mainSwitch is a flag that takes nothing, or =true / =false.
func mainSwitch(name, usage string, to func(*options) *bool) mainFlag {
	return mainFlag{flagSpec{name: name, kind: kindBool, usage: usage}, func(fs *flag.FlagSet, name string, o *options, _ *mainValues) {
		fs.BoolVar(to(o), name, false, "")
	}}
}

// mainText is a flag whose value is text, def when not given.
func mainText(name, arg, usage, def string, to func(*options, *mainValues) *string) mainFlag {
	return mainFlag{flagSpec{name: name, kind: kindValue, arg: arg, usage: usage}, func(fs *flag.FlagSet, name string, o *options, v *mainValues) {
		fs.StringVar(to(o, v), name, def, "")
	}}
}

// mainValue is a flag whose value a flag.Value reads (a bool flag's may be left out).
func mainValue(name, arg, usage string, to func(*options, *mainValues) flag.Value) mainFlag {
	return mainFlag{flagSpec{name: name, kind: kindValue, arg: arg, usage: usage}, func(fs *flag.FlagSet, name string, o *options, v *mainValues) {
		fs.Var(to(o, v), name, "")
	}}
}

// alias returns f answering also to names.
func (f mainFlag) alias(names ...string) mainFlag {
	f.flagSpec = f.flagSpec.alias(names...)
	return f
}

// mainFlags gives agentmux's own flags, from mainFlagTable, to a FlagSet whose values
// go to o and v.
func mainFlags(o *options, v *mainValues) *flag.FlagSet {
	fs := flag.NewFlagSet("agentmux", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	v.cwd = cwdFlag{}
	for _, f := range mainFlagTable {
		for _, name := range append([]string{f.name}, f.aliases...) {
			f.bind(fs, name, o, v)
		}
	}
	return fs
}

// mainFlagSpecs are agentmux's own flags as help lists them.
func mainFlagSpecs() []flagSpec {
	specs := make([]flagSpec, len(mainFlagTable))
	for i, f := range mainFlagTable {
		specs[i] = f.flagSpec
	}
	return specs
}
