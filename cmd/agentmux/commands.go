package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentmux/agentmux/action"
	"github.com/agentmux/agentmux/demo"
	"github.com/agentmux/agentmux/docs"
	"github.com/agentmux/agentmux/hooks"
	"github.com/agentmux/agentmux/session"
)

// command is one subcommand of agentmux: its name, what it takes, its help and what
// runs it. Every subcommand is declared once, in commandTable; run dispatches through
// it, and `agentmux --help`, `agentmux help NAME` and NAME --help are made from it.
type command struct {
	name string
	// synopsis is its usage, one line a form (a line starting with spaces goes on the
	// one before): every flag of the command stands in it, so the overview of
	// agentmux --help names them all.
	synopsis string
	// short is its one line in the overview; help is the longer text of help NAME and
	// NAME --help, between the synopsis and the flags (listed from flags).
	short, help string
	// acts are the actions of the vocabulary (package action) the command takes; one
	// that takes none asks no session anything (help, version; sessions reads the
	// socket folder; attach joins a terminal).
	acts []action.Name
	// sameAs names the command whose synopsis and help this one shares (wake is
	// remind's other name); the overview leaves it to that one.
	sameAs string
	// session marks a session command: it takes --session and --json besides its
	// flags, also before its name (agentmux --session NAME ls).
	session bool
	// flags are the flags the command takes (a session command's besides the common
	// ones): the one parser (flags.go) reads them, and its help lists them.
	flags []flagSpec
	// flagsFirst: the first operand ends the flags (the words after it are a program's).
	flagsFirst bool
	// minArgs and maxArgs bound the operands (maxArgs -1: any number).
	minArgs, maxArgs int
	// exec runs a command whose words the parser reads, once they are read.
	exec execFunc
	// run runs a command that reads its own words (demo: agentmux's own flags; help,
	// version, and the hidden ones) with the words after its name.
	run func(ctx context.Context, args []string, sio stdio) (int, error)
	// parts are a command's own commands (mesh serve, worktree rm): the first operand
	// names one, which takes the rest; parent is a part's command.
	parts  []command
	parent string
	// errPrefix is how its errors start, when not "agentmux NAME" (parse's: "parse").
	errPrefix string
	// ownHelp marks a command that reads -h/--help in its own words (or, hidden, takes
	// none): run gets them.
	ownHelp bool
	// hidden commands are agentmux's own (its agents, its server, the programs' hooks):
	// not in help.
	hidden bool
}

// execFunc runs a command with its words parsed: the exit status, and an error to say.
type execFunc func(ctx context.Context, a clientArgs, sio stdio) (int, error)

// stdio is a command's standard streams.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// commandTable declares every subcommand once: the parsers, the help and the dispatch
// in run all read it. It is filled in init, as its run functions read it back.
var commandTable []command

func init() {
	commandTable = append(sessionCommands(), otherCommands()...)
	for i := range commandTable {
		for j := range commandTable[i].parts {
			commandTable[i].parts[j].parent = commandTable[i].name
		}
	}
}

// otherCommands are the subcommands that are not session commands.
func otherCommands() []command {
	return []command{
		{name: "demo", short: "two simulated agents, linked: runs anywhere", run: func(ctx context.Context, args []string, sio stdio) (int, error) {
			return runSession(ctx, append([]string{"demo"}, args...), sio)
		}, synopsis: "agentmux demo [flags]", help: "Two built-in simulated agents, linked: runs anywhere, no agent CLI needed.\nThe flags are agentmux's own (agentmux --help)."},
		{name: "attach", short: "attach this terminal to a running session", maxArgs: -1, flags: []flagSpec{
			switchFlag("read-only", `watch without typing: focus, zoom, scrolling, copy mode, the
relay log and help are this terminal's own view and change
nothing in the session`, func(a *attachArgs) *bool { return &a.readOnly }).alias("r"),
			switchFlag("d", "detach every other terminal first", func(a *attachArgs) *bool { return &a.detachOthers }),
			sessionNameFlag,
		}, exec: func(ctx context.Context, a clientArgs, sio stdio) (int, error) {
			return runAttachCommand(ctx, "attach", a, sio.in, sio.out)
		}, synopsis: `agentmux attach [NAME | --session NAME] [--read-only | -r] [-d]`, help: `Attaches this terminal to session NAME (the only running one when not given; names in
any case): the whole picture as it is now. Prefix d detaches again.`},
		{name: "kill-session", acts: []action.Name{action.Quit}, short: "end a session and every agent in it", maxArgs: -1, flags: []flagSpec{sessionNameFlag,
			switchFlag("keep", "agentmux restore still offers the session afterwards", func(a *killArgs) *bool { return &a.keep }),
		}, exec: func(ctx context.Context, a clientArgs, sio stdio) (int, error) {
			return runAttachCommand(ctx, "kill-session", a, sio.in, sio.out)
		}, synopsis: `agentmux kill-session [NAME | --session NAME] [--keep]`, help: `Ends session NAME (the only running one when not given) and every agent in it; its
attached terminals are restored and told so, and told the worktrees kept with an
agent's work in them. A session ended so is not offered by agentmux restore, unless
--keep.`},
		{name: "restore", short: "bring back a session whose server died", maxArgs: 1, flags: []flagSpec{sessionNameFlag,
			switchFlag("detached", "start it without a terminal: print its name", func(a *restoreArgs) *bool { return &a.detached }).alias("d"),
		}, exec: func(ctx context.Context, a clientArgs, sio stdio) (int, error) {
			return runRestore(ctx, a, sio)
		}, synopsis: `agentmux restore [NAME | --session NAME] [--detached | -d]`, help: `Brings back session NAME (the only restorable one when not given) after its server
died (a reboot, SIGKILL, out of memory): the same panes with their numbers, names,
folders and kept worktrees, each agent CLI on its own conversation where agentmux
learned it (claude, codex, gemini, qwen, opencode, pi), the layout and zoom, links
(with other sessions' members too) with the turns they spent, and the messages not
yet confirmed typed again. agentmux sessions --all lists the restorable sessions. Refused
while the session runs. See agentmux help restore.`},
		meshCommand(),
		mcpCommand(),
		spendCommand(),
		{name: worktreeCommand, short: "the panes' git worktrees of this repository", parts: worktreeParts, synopsis: `agentmux worktree ls | agentmux worktree rm NAME [--force]`, help: `The panes' git worktrees of the repository you are in (every session's): ls lists them
(NAME is SESSION/PANE) with what they hold beyond their start; rm removes one and its
branch, refusing one that holds an agent's work unless --force.`},
		parseCommandSpec(),
		{name: "help", short: "the usage of agentmux or a command, a guide", run: func(_ context.Context, args []string, sio stdio) (int, error) {
			return runHelp(args, sio.out)
		}, synopsis: "agentmux help [COMMAND | TOPIC]", help: "The usage of agentmux, of COMMAND, or a guide: " + strings.Join(docs.Topics(), ", ") + "."},
		{name: "version", short: "agentmux's version (also: agentmux --version)", run: func(ctx context.Context, args []string, sio stdio) (int, error) {
			if len(args) > 0 { // not the subcommand: a program called version
				return runSession(ctx, append([]string{"version"}, args...), sio)
			}
			_, err := fmt.Fprintln(sio.out, versionLine())
			return 0, err
		}, synopsis: "agentmux version", help: "agentmux's version (also: agentmux --version)."},
		{name: agentCommand, hidden: true, ownHelp: true, run: func(_ context.Context, args []string, sio stdio) (int, error) {
			return demo.Main(args, sio.in, sio.out), nil
		}},
		{name: hooks.Command, hidden: true, ownHelp: true, run: func(_ context.Context, args []string, sio stdio) (int, error) {
			return hooks.Run(args, sio.in, sio.err), nil // always 0, at once
		}},
		{name: serverCommand, hidden: true, ownHelp: true, run: func(_ context.Context, args []string, _ stdio) (int, error) {
			return runServer(args)
		}},
	}
}

// sessionNameFlag is attach's and kill-session's --session NAME: the session, as NAME.
var sessionNameFlag = stringFlag("session", "NAME", "the session (as NAME; names in any case)", func(a *clientArgs) *string { return &a.session })

// remindFlags are remind's and wake's.
var remindFlags = []flagSpec{
	stringFlag("to", "TARGET", "the pane to remind (default: this one, $AGENTMUX_NAME)", func(a *remindArgs) *string { return &a.to }),
}

// sessionCommands are the session commands: besides their flags, the common flags
// --session and --json, also before their name.
func sessionCommands() []command {
	cmds := []command{
		{name: "ls", acts: []action.Name{action.List, action.Mesh}, short: "the members, their state, group and waiting", exec: execLs, flags: lsMeshFlags, synopsis: `agentmux ls [--session NAME] [--json]
agentmux ls --mesh[=URL] [--mesh-creds FILE | --mesh-nkey FILE] [--mesh-ca FILE] [--json]`, help: `The session's members: number, name, program, state (with the exit code or signal of
an exited pane), relay group as the status line shows it, held and addressing flags,
profile, and messages waiting.`},
		{name: string(action.Send), acts: []action.Name{action.Send, action.Input}, short: "type a message into a pane once it is idle", exec: execSend, minArgs: 2, maxArgs: -1, flags: []flagSpec{
			stringFlag("from", "NAME", `attribute it to NAME (not a pane's name, "you" or a number)`, func(a *sendArgs) *string { return &a.from }),
			sendMode("important", `ahead of sequential messages, at the pane's first idle moment;
like every message never typed over a person's draft (a draft
untouched for input_stale_timeout, 2m by default, is set aside
for any message and typed back after the answer)`),
			sendMode("urgent", "interrupt the agent (its interrupt key) to deliver it now"),
			durationFlag("timeout", "D", "give up (expired) if not typed within D, e.g. 10m", true, func(a *sendArgs) *time.Duration { return &a.timeout }),
			switchFlag("notify-on-delivery", "say when it was delivered (in agentmux events)", func(a *sendArgs) *bool { return &a.notifyOnDelivery }),
			durationFlag("notify-after", "D", "a reminder D after delivery", true, func(a *sendArgs) *time.Duration { return &a.notifyAfter }),
			switchFlag("wait", "wait until it is confirmed, failed or expired; print the\nphase; exit 0 when confirmed, 1 otherwise", func(a *sendArgs) *bool { return &a.wait }),
			switchFlag("reply", `wait for TARGET's answer: the next turn it finishes after the
message went in, printed as the relay would deliver it; exit 0
with it, 1 when none came within --timeout D (which also
bounds the message's own wait) or the message failed`, func(a *sendArgs) *bool { return &a.reply }),
			switchFlag("raw", `type MESSAGE exactly as given, at once: no "you:" header, no
framing, no waiting for idle (drive a shell or a REPL, like
tmux send-keys); then Enter, unless --no-enter. Yours alone:
refused from inside a pane`, func(a *sendArgs) *bool { return &a.raw }),
			switchFlag("enter", "with --raw: Enter after it (as without --no-enter)", func(a *sendArgs) *bool { return &a.enter }),
			switchFlag("no-enter", "with --raw: no Enter after it", func(a *sendArgs) *bool { return &a.noEnter }),
		}, synopsis: `agentmux send TARGET MESSAGE... [--from NAME] [--important | --urgent] [--timeout D]
  [--notify-on-delivery] [--notify-after D] [--wait | --reply]
agentmux send --raw TARGET TEXT... [--enter | --no-enter]`, help: `Types MESSAGE into TARGET (a pane's name or number, a member's name, or * for every
member) as "you:" and the words, once it is idle and nobody types there; inside a pane it
is attributed to that pane. MESSAGE - reads the text from stdin. Prints the message's id.`},
		{name: string(action.New), acts: []action.Name{action.New}, short: "a new pane running COMMAND", exec: execNew, minArgs: 1, maxArgs: -1, flagsFirst: true, flags: []flagSpec{
			stringFlag("name", "N", "the pane's name (default: the program's, with -2, -3… when taken)", func(a *newArgs) *string { return &a.name }),
			stringFlag("cwd", "DIR", "the folder it starts in (default: the session's)", func(a *newArgs) *string { return &a.cwd }),
			switchFlag("worktree", "start it in a new git worktree (branch agentmux/SESSION/NAME from HEAD)\nof the repository DIR (default: this folder) is in", func(a *newArgs) *bool { return &a.worktree }),
		}, synopsis: `agentmux new [--name N] [--cwd DIR] [--worktree] COMMAND...`, help: `Starts a new pane running COMMAND (as on agentmux's command line: NAME=COMMAND names it,
VAR=value words set its environment) with the next free number; the panes make room for
it. Flags go before COMMAND (the words after it are the command's). Prints its number
and name. Yours alone: refused from inside a pane.`},
		{name: string(action.Respawn), acts: []action.Name{action.Respawn}, short: "start TARGET's program again", exec: onSession(paneAct(action.Respawn)), minArgs: 1, maxArgs: 1, flags: []flagSpec{
			switchFlag("kill", "end a program that still runs first", func(a *respawnArgs) *bool { return &a.kill }),
		}, synopsis: `agentmux respawn TARGET [--kill]`, help: `Starts TARGET's program again, with the command, name, number, folder and links it had.
A program that still runs is refused unless --kill, which ends it first. Yours alone.`},
		{name: string(action.Resize), acts: []action.Name{action.Resize}, short: "a pane's share of the screen", exec: onSession(resize), minArgs: 1, maxArgs: 1, flags: []flagSpec{
			rangeFlag("width", "P", "its width, P percent of an even share (100: even; 20 to 500)", session.MinShare, session.MaxShare, "want a percentage of an even share from 20 to 500, e.g. 150", func(a *resizeArgs) *int { return &a.width }),
			rangeFlag("height", "P", "its height, P percent of an even share", session.MinShare, session.MaxShare, "want a percentage of an even share from 20 to 500, e.g. 150", func(a *resizeArgs) *int { return &a.height }),
		}, synopsis: `agentmux resize TARGET [--width P] [--height P]`, help: `Sets pane TARGET's width and height as P percent of an even share of the screen (100:
even; 20 to 500), as prefix ctrl+arrow does; every attached terminal follows, and a
terminal's resize keeps it. Without flags it prints the share. Yours alone.`},
		{name: string(action.Diff), acts: []action.Name{action.Diff}, short: "what TARGET's agent changed in its worktree", exec: onSession(diff), minArgs: 1, maxArgs: 1, synopsis: `agentmux diff TARGET`, help: `What TARGET's agent changed in its own worktree (--worktree) against the commit it
started from: the commits, the files, untracked files, then the patch (prefix D shows
it inside agentmux). Yours alone.`},
		{name: string(action.Rename), acts: []action.Name{action.Rename}, short: "rename a pane", exec: execRename, minArgs: 2, maxArgs: 2, synopsis: `agentmux rename TARGET NAME`, help: `Renames pane TARGET to NAME (letters, digits, _ . -; not a number, not "you" or
"agentmux", not another member's): its border, ls and the relay's attributions follow.
Yours alone.`},
		{name: "remind", acts: []action.Name{action.Send}, short: "a reminder typed into a pane after D", exec: execRemind("remind"), minArgs: 2, maxArgs: -1, flags: remindFlags, synopsis: `agentmux remind D MESSAGE... [--to TARGET]
agentmux wake D MESSAGE... [--to TARGET]`, help: `Types "[agentmux] reminder: MESSAGE" into this pane ($AGENTMUX_NAME) or TARGET after D
(e.g. 10m, 90s); kept across a restart of the session. Inside a pane, only this pane.`},
		{name: "wake", acts: []action.Name{action.Send}, sameAs: "remind", exec: execRemind("wake"), minArgs: 2, maxArgs: -1, flags: remindFlags},
		{name: string(action.Link), acts: []action.Name{action.Link}, short: "put pane A in pane B's relay group", exec: execLink, minArgs: 0, maxArgs: 2, flags: []flagSpec{
			switchFlag("shell", "link a pane that runs a shell", func(a *linkArgs) *bool { return &a.shell }),
			countFlag("turns", "N", "the link's turn budget (the turns it spent stay)", 1, "want a whole number, 1 or more", func(a *linkArgs) *int { return &a.turns }),
			stringFlag("budget", "B", "the link's spend budget: tokens (300k, 1.5M) or dollars ('$2'),\nas --link-budget", func(a *linkArgs) *string { return &a.budget }),
			switchFlag("accept", "say yes to the link request of NAME@SESSION (or the only one)", func(a *linkArgs) *bool { return &a.accept }),
			switchFlag("refuse", "say no to it", func(a *linkArgs) *bool { return &a.refuse }),
			switchFlag("pending", "list the link requests waiting for your answer", func(a *linkArgs) *bool { return &a.pending }),
		}, synopsis: `agentmux link A B [--shell] [--turns N] [--budget B]
agentmux link --accept [NAME@SESSION] | --refuse [NAME@SESSION] | --pending`, help: `Links pane A with pane B: A joins B's relay group (leaving its own). A pane running a
shell is refused (what the other agent says would run there as commands) unless --shell.
--turns and --budget give the link its turn budget and its spend budget (tokens or
dollars, as --link-budget; a link already linked keeps what it spent and is severed at
once when that is over the new budget); yours alone (a pane links with the session's).
B may be NAME@SESSION, a member of another session of the mesh: that session's person
is asked first (their status line shows the request), and the two are linked on both
sides once they run agentmux link --accept, with one turn budget for the pair (yours,
capped at theirs); unlink on either side ends it. --refuse says no; a request not
answered in 10 minutes expires. Yours alone.`},
		{name: string(action.Unlink), acts: []action.Name{action.Unlink}, short: "take a pane out of its relay group", exec: onSession(act(action.Unlink)), minArgs: 1, maxArgs: 1, synopsis: "agentmux unlink A", help: "Takes pane A out of its relay group."},
		{name: string(action.Hold), acts: []action.Name{action.Hold}, short: "hold deliveries into a pane", exec: onSession(act(action.Hold)), minArgs: 1, maxArgs: 1, synopsis: "agentmux hold A", help: "Holds deliveries into pane A (a person drives it) until released."},
		{name: string(action.Release), acts: []action.Name{action.Release}, short: "release the deliveries held for a pane", exec: onSession(act(action.Release)), minArgs: 1, maxArgs: 1, synopsis: "agentmux release A", help: "Releases deliveries held for pane A."},
		{name: "capture", acts: []action.Name{action.Capture}, short: "print a pane's screen", exec: onSession(capture), minArgs: 1, maxArgs: 1, flags: []flagSpec{
			countFlag("lines", "N", "N lines of its history above the screen", 0, "want a whole number, 0 or more", func(a *captureArgs) *int { return &a.lines }),
			switchFlag("escapes", "in colour: the SGR sequences (without it, control characters\nare shown escaped)", func(a *captureArgs) *bool { return &a.escapes }),
		}, synopsis: `agentmux capture TARGET [--lines N] [--escapes]`, help: `Prints TARGET's screen, with N lines of its history above it (--lines), in colour
(--escapes: the SGR sequences; without it, control characters are shown escaped).`},
		{name: "history", acts: []action.Name{action.History}, short: "the messages and their phases", exec: orFromStore("history", history), flags: []flagSpec{
			stringFlag("member", "X", "messages to or from member X", func(a *historyArgs) *string { return &a.member }),
			durationFlag("since", "D", "of the last D (e.g. 1h)", true, func(a *historyArgs) *time.Duration { return &a.since }),
			countFlag("limit", "N", "the newest N (default 100)", 0, "want a whole number, 0 or more", func(a *historyArgs) *int { return &a.limit }),
		}, synopsis: `agentmux history [--member X] [--since D] [--limit N]`, help: `The messages and their phases, newest last: to or from member X, of the last D (e.g.
1h), the newest N (100 unless --limit says; 0 is that default too). Reads the store
directly when the session no longer runs.`},
		{name: "read", acts: []action.Name{action.Read}, short: "one message whole", exec: orFromStore("read", read), minArgs: 1, maxArgs: 1, synopsis: `agentmux read ID`, help: `One message whole (long ones are cut when typed into a pane). Reads the store directly
when the session no longer runs.`},
		{name: "events", acts: []action.Name{action.Events}, short: "a live NDJSON stream of what happens", exec: execEvents, synopsis: `agentmux events`, help: `A live stream of what happens in the session, one JSON object a line: states,
messages, deliveries and their phases, the panes' finished turns (their words), links,
exits. Ends with the session or Ctrl+C.`},
		{name: "inbox", acts: []action.Name{action.List, action.Mesh}, short: "every pane that needs you, in every session", exec: offSession(inbox), flags: []flagSpec{
			switchFlag("mesh", "also the panes of the mesh's sessions that name one of yours in [mesh] answer_from", func(a *inboxArgs) *bool { return &a.mesh }),
		}, synopsis: `agentmux inbox [--session NAME] [--mesh] [--json]`, help: `Every pane that needs you, in every session running on this machine (--session: that
one): the session, the pane, for how long it has waited, what its prompt asks and the
choices, the longest waiting first. agentmux answer picks one. With --mesh, also the
panes of other sessions of the meshes those sessions joined whose person named one of
them as theirs ([mesh] answer_from): agentmux answer NAME@SESSION picks one there.`},
		{name: string(action.Answer), acts: []action.Name{action.Answer}, short: "pick a choice of the prompt TARGET waits at", exec: onSession(answer), minArgs: 2, maxArgs: 2, flags: []flagSpec{
			stringFlag("question", "Q", "refuse unless the prompt still asks Q (as inbox showed it)", func(a *answerArgs) *string { return &a.question }),
		}, synopsis: `agentmux answer TARGET OPTION [--question Q]`, help: `Answers the prompt pane TARGET waits at (agentmux inbox lists them) by typing OPTION's
key, as you would: OPTION is a choice's number, the start of its label, or yes / no for
the first / last choice. A prompt drawn less than 300 ms ago settles first (programs drop
keys while they draw one); agentmux answer says answered once the key is typed, or why it
was not (the prompt went, or someone typed into the pane, meanwhile). Refused when the
pane waits at no prompt (answered meanwhile), when --question is given and the prompt
asks something else, and while someone answers it at the keyboard. Yours alone: refused
from inside a pane. TARGET NAME@SESSION is a
member of another session of the mesh, which takes it only from the sessions its person
named ([mesh] answer_from).`},
		{name: "sessions", short: "the running sessions (--all: ended ones too)", exec: offSession(sessions), flags: []flagSpec{
			switchFlag("all", "also ended sessions whose messages the store still keeps", func(a *sessionsArgs) *bool { return &a.all }),
		}, synopsis: `agentmux sessions [--all] [--json]`, help: `The running sessions: each attached (its terminals, the one in control) or detached,
and its socket; --all adds ended sessions whose messages the store still keeps.`},
		{name: "web", acts: []action.Name{action.Web}, short: "the session's web view: start it, print its URL", exec: execWeb, maxArgs: 1, flags: []flagSpec{
			stringFlag("listen", "HOST:PORT", "listen there (default 127.0.0.1 on a free port)", func(a *webArgs) *string { return &a.listen }),
			switchFlag("control", "let the page send messages, link, unlink, hold, release and\ntype into panes (a read-only view running is restarted)", func(a *webArgs) *bool { return &a.control }),
			switchFlag("read-only", "a view that only shows (a view with control running is\nrestarted)", func(a *webArgs) *bool { return &a.readOnly }),
			stringFlag("tls-cert", "FILE", "serve HTTPS with this certificate (PEM, with --tls-key)", func(a *webArgs) *string { return &a.tlsCert }),
			stringFlag("tls-key", "FILE", "the certificate's private key (PEM)", func(a *webArgs) *string { return &a.tlsKey }),
			switchFlag("stop", "end the web view and close every page", func(a *webArgs) *bool { return &a.stop }),
		}, synopsis: `agentmux web [NAME] [--control | --read-only] [--listen HOST:PORT]
  [--tls-cert FILE --tls-key FILE]
agentmux web [NAME] --stop`, help: `Starts the session's web view and prints its URL: every pane live in a browser, and
the conversation between the agents. The URL carries a token that opens one page (a
reload keeps working; another browser needs a new link): run agentmux web again for a
new link to the view that runs. Read-only unless --control: then the page may send
messages (as "you(web)"), link, unlink, hold, release and type into panes. Asking for
the other mode, or another --listen, restarts the view: its pages close and its old
links stop working. --stop ends it and closes every page.

It listens on 127.0.0.1 on a free port unless --listen names another address; beyond
loopback the token and every key typed cross the network in clear unless --tls-cert
and --tls-key serve HTTPS (or keep it on loopback and use ssh -L). See docs/web.md.
NAME is the session (as --session).`},
	}
	for i := range cmds {
		cmds[i].session = true
	}
	return cmds
}

// sendMode is send's --important or --urgent: one of them at most.
func sendMode(mode, usage string) flagSpec {
	return ownFlag(mode, "", usage, kindSwitch, func(a *sendArgs, _ string, _ bool) error {
		if a.mode != "" && a.mode != mode {
			return errors.New("--important and --urgent exclude each other")
		}
		a.mode = mode
		return nil
	})
}
