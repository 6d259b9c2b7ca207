package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"golang.org/x/sys/unix"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/hooks"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/server"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/ui"
)

// This file runs a session as a server that outlives its terminal, and the terminal as
// its first client:
//
//	agentmux claude codex ──spawn (setsid, stdio closed)──▶ agentmux __server COLS ROWS claude codex
//	        │  ◀── "ok NAME SOCKET" or "error STATUS MESSAGE" on the ready pipe (fd 3) ──┘
//	        └── attach over the session socket (raw-mode pipe) ──▶ the server draws for it
//
// Every check that can fail (flags, programs, profiles, config) runs in the starting
// command first, and the server reports its own failures (socket, store, start-up) on the
// ready pipe, so an error is one line on stderr before the screen is taken.

// serverCommand is the hidden subcommand that runs a session server.
const serverCommand = "__server"

// readyFD is the server's end of the ready pipe (the first of cmd.ExtraFiles).
const readyFD = 3

// startServer starts the session server for args (already checked) at the terminal's
// size and returns the session's name and socket once it answers.
func startServer(args []string, cols, rows int, term ui.TerminalInfo) (name, socket string, status int, err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", "", 1, fmt.Errorf("find agentmux itself: %w", err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return "", "", 1, fmt.Errorf("start the session server: %w", err)
	}
	defer pr.Close()
	cmd := exec.Command(exe, append([]string{serverCommand, strconv.Itoa(cols), strconv.Itoa(rows), term.String()}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.ExtraFiles = []*os.File{pw}
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return "", "", 1, fmt.Errorf("start the session server: %w", err)
	}
	go cmd.Wait() //nolint:errcheck // reaps the server if it ends while we run
	line, _ := bufio.NewReader(io.LimitReader(pr, 64<<10)).ReadString('\n')
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch word {
	case "ok":
		name, socket, _ = strings.Cut(rest, " ")
		return name, socket, 0, nil
	case "error":
		code, msg, _ := strings.Cut(rest, " ")
		status, _ := strconv.Atoi(code)
		return "", "", max(status, 1), errors.New(msg)
	}
	return "", "", 1, errors.New("the session server ended before it answered (see the log)")
}

// runStarted starts a server for the agents in args and attaches this terminal to it.
func runStarted(ctx context.Context, args []string, in, out *os.File) (int, error) {
	size, info, typed, status, err := probe(ctx, in, out)
	if err != nil {
		return status, err
	}
	name, socket, status, err := startServer(args, size.Cols, size.Rows, info)
	if err != nil {
		return status, err
	}
	status, err = attachTo(ctx, name, socket, attach.Options{Terminal: probedWord(info), Typed: typed}, in, out)
	return status, stillRuns(err, name, socket)
}

// stillRuns is err, the failure of the first attach to a session just started, saying
// that the session runs on when its server still answers on socket: no terminal shows
// it, and the next start with its name is refused.
func stillRuns(err error, name, socket string) error {
	if err == nil {
		return nil
	}
	nc, derr := net.DialTimeout("unix", socket, time.Second)
	if derr != nil {
		return err
	}
	nc.Close()
	return fmt.Errorf("%w\nsession %s runs on without a terminal: agentmux attach %s shows it, agentmux kill-session %s ends it", err, name, name, name)
}

// runHere serves the session o describes from this process and attaches this terminal
// to it over a connection within the process: the demo and --in-process. The terminal
// cannot detach; the session ends when it quits or goes away, or on a signal (the
// status is then 128 + the signal's number).
func runHere(ctx context.Context, o *options, conf settings, in, out *os.File) (int, error) {
	size, info, typed, status, err := probe(ctx, in, out)
	if err != nil {
		return status, err
	}
	logger, logFile := openLog(o.logLevel)
	defer logFile.Close()
	// A signal ends the session (the attach client leaves them to this process).
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer signal.Stop(sigs)
	r, status, err := serve(o, conf, size, info, logger, nil)
	if err != nil {
		return status, err
	}
	go r.wait(sigs)
	nc, err := r.srv.Local()
	if err != nil {
		r.srv.End("no terminal")
		<-r.ended
		return 1, err
	}
	code, err := attachOver(ctx, r.name, nc, attach.Options{Serving: true, Terminal: probedWord(info), Typed: typed}, in, out)
	r.srv.End("its terminal ended")
	<-r.ended
	if s, ok := r.signal.(syscall.Signal); ok {
		return 128 + int(s), nil
	}
	return code, err
}

// probe reads the terminal's size and asks it for its colours and keyboard, leaving it
// as it was: what a session's panes start with. typed is what the person typed
// meanwhile, for the attach to pass on.
func probe(ctx context.Context, in, out *os.File) (size ui.Size, info ui.TerminalInfo, typed []byte, status int, err error) {
	cols, rows, err := attach.TerminalSize(out)
	if err != nil || !term.IsTerminal(in.Fd()) {
		return ui.Size{}, ui.TerminalInfo{}, nil, 2, errors.New("agentmux needs a terminal")
	}
	info, typed, err = ui.ProbeTerminal(ctx, in, out)
	if err != nil {
		return ui.Size{}, ui.TerminalInfo{}, nil, 1, err
	}
	return ui.Size{Cols: cols, Rows: rows}, info, typed, 0, nil
}

// probedWord is what a terminal answered to probe, as an attach request carries it: ""
// when it answered nothing (the server then asks it again, through the stream).
func probedWord(info ui.TerminalInfo) string {
	if !info.Known {
		return ""
	}
	return info.String()
}

// detachedSize is the size a session started without a terminal draws at until one
// attaches and sets its own (tmux's default for new-session -d).
var detachedSize = ui.Size{Cols: attach.UnknownCols, Rows: attach.UnknownRows}

// runDetached starts a server for the agents in args without attaching a terminal
// (--detached) and prints the session's name: the size is the terminal's when stdout
// is one, else detachedSize; the colours are unknown until a terminal attaches.
func runDetached(args []string, stdout io.Writer) (int, error) {
	size := detachedSize
	if f, ok := stdout.(*os.File); ok {
		if c, r, err := attach.TerminalSize(f); err == nil {
			size = ui.Size{Cols: c, Rows: r}
		}
	}
	name, _, status, err := startServer(args, size.Cols, size.Rows, ui.TerminalInfo{})
	if err != nil {
		return status, err
	}
	_, err = fmt.Fprintln(stdout, name)
	return 0, err
}

// attachTo attaches the terminal to the session on socket and says how it ended.
func attachTo(ctx context.Context, name, socket string, o attach.Options, in, out *os.File) (int, error) {
	nc, err := net.Dial("unix", socket)
	if err != nil {
		return 1, fmt.Errorf("session %s: %w", name, err)
	}
	return attachOver(ctx, name, nc, o, in, out)
}

// attachOver attaches the terminal to session name over nc and says how it ended.
func attachOver(ctx context.Context, name string, nc net.Conn, o attach.Options, in, out *os.File) (int, error) {
	res, err := attach.Run(ctx, nc, in, out, o)
	if err != nil {
		return 1, err
	}
	if res.Session != "" {
		name = res.Session
	}
	switch res.Reason {
	case attach.ReasonDetached:
		why := ""
		if m := strings.TrimSpace(res.Message); m != "" {
			why = ": " + line(m) // the server detached it (its ui failed, it stopped reading)
		}
		fmt.Fprintf(out, "detached from session %s%s (agentmux attach %s to return)\r\n", name, why, name)
	case attach.ReasonReplaced:
		fmt.Fprintf(out, "detached from session %s: another terminal attached with -d (agentmux attach %s to return)\r\n", name, name)
	case attach.ReasonEnded:
		sayEnded(out, name, res.Message)
	case attach.ReasonError:
		return 1, fmt.Errorf("session %s refused this terminal: %s", name, res.Message)
	default:
		return 1, fmt.Errorf("session %s ended: its server is gone", name)
	}
	return 0, nil
}

// sayEnded tells the restored terminal that session name ended, and why, from the end
// frame's message (a server that predates it says no reason), then the worktrees
// kept with an agent's work in them, one a line, and how to see them.
func sayEnded(out io.Writer, name, msg string) {
	why, kept, _ := strings.Cut(msg, "\n")
	if why = strings.TrimSpace(why); why != "" {
		why = " (" + line(why) + ")"
	}
	fmt.Fprintf(out, "session %s ended%s\r\n", name, why)
	if kept == "" {
		return
	}
	for _, k := range strings.Split(kept, "\n") {
		fmt.Fprintf(out, "%s\r\n", line(k))
	}
	fmt.Fprintf(out, "the kept worktrees hold the agents' work: agentmux worktree ls lists them, agentmux worktree rm NAME removes one\r\n")
}

// runServer is the hidden server subcommand: COLS ROWS TERMINFO (ui.TerminalInfo) then
// the agentmux arguments. It reports ready or its failure on the ready pipe, then serves
// until the session ends.
func runServer(args []string) (int, error) {
	ready := os.NewFile(readyFD, "ready")
	say := func(format string, a ...any) {
		if ready != nil {
			fmt.Fprintf(ready, format+"\n", a...)
			ready.Close()
			ready = nil
		}
	}
	fail := func(status int, err error) (int, error) {
		say("error %d %s", status, strings.ReplaceAll(err.Error(), "\n", " "))
		return status, err
	}
	if len(args) < 3 {
		return fail(2, errors.New("session server: no terminal size"))
	}
	info, err := ui.ParseTerminalInfo(args[2])
	if err != nil {
		return fail(2, err)
	}
	cols, err1 := strconv.Atoi(args[0])
	rows, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		return fail(2, errors.New("session server: bad terminal size"))
	}
	var o options
	var plan *restorePlan
	saveArgs := args[3:]
	if len(args) == 5 && args[3] == restoreWord {
		o, plan, err = restoredOptions(args[4])
		if err != nil {
			return fail(1, err)
		}
		saveArgs = plan.saved.Args
	} else if o, err = parseArgs(args[3:]); err != nil {
		return fail(2, err)
	}
	conf, status, err := configure(&o)
	if err != nil {
		return fail(status, err)
	}
	logger, logFile := openLog(o.logLevel)
	defer logFile.Close()
	if f, ok := logFile.(*os.File); ok {
		// A panic's trace goes where the log goes: the server has no terminal.
		_ = unix.Dup2(int(f.Fd()), 2) // Dup3 where the platform has no dup2 (linux/arm64)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	// The server's processors step back while a person types (processors.go); the
	// in-process session (runHere) shares its process with the terminal and keeps them.
	o.sess.Typing = newProcessors().hook()
	r, status, err := serve(&o, conf, ui.Size{Cols: cols, Rows: rows}, info, logger, &recording{args: saveArgs, plan: plan})
	if err != nil {
		return fail(status, err)
	}
	say("ok %s %s", r.name, r.socket)
	r.wait(sigs)
	return 0, nil
}

// panesGetDefaultSignals makes the panes' programs start with every signal at its
// default action, as a terminal's shell would. A signal this process ignores stays
// ignored across fork and exec (SIGPIPE ignored turns `yes | head -1` into "Broken
// pipe" errors and endless loops, SIGHUP ignored keeps a pane's program running after
// its server died, and job-control signals ignored by whatever started agentmux would
// reach every pane), while one the Go runtime handles is reset to its default in the
// child. The runtime leaves alone SIGHUP and SIGINT when they came in ignored, and the
// job-control signals; handling them here makes them default in the panes, and this
// process still shrugs them off: SIGHUP (the server outlives its terminal), SIGPIPE (a
// write to a closed pipe or socket returns EPIPE), job control. SIGINT and SIGTERM end
// the session (running.wait), which handles them before any pane starts.
func panesGetDefaultSignals() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP, syscall.SIGPIPE,
		syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGCONT)
}

// recording is what a session server records its session from, for a restore: the
// words it was started with, and the plan it was restored by (nil: none).
type recording struct {
	args []string
	plan *restorePlan
}

// meshLinks are the links with other sessions' members a restored session makes
// again as it joins its mesh (none for a session started anew, or not recorded).
func (recd *recording) meshLinks() []mesh.RestoredLink {
	if recd == nil || recd.plan == nil {
		return nil
	}
	return recd.plan.remote
}

// running is a session served from this process: by the server subcommand, or by the
// terminal it runs in (agentmux demo, --in-process).
type running struct {
	name, socket string
	srv          *server.Server
	log          *slog.Logger
	// undo is what serve set up, undone last first by close.
	undo []func()
	// ended is closed once wait has closed everything; signal is then the signal that
	// ended the session (nil: none did).
	ended  chan struct{}
	signal os.Signal
}

// serve starts the session o describes (configure's, with conf its settings) as a
// server in this process, its panes sized for a terminal of the given size whose answers
// were term: the one start-up of every session. The session's name and socket are
// claimed before the panes start (their environment names them, so agentmux send from
// a pane reaches this session); clients that connect before the hub serves wait in the
// socket's backlog. On an error everything set up is undone. A session server records
// its session for a restore (recd; nil: not recorded).
func serve(o *options, conf settings, size ui.Size, term ui.TerminalInfo, logger *slog.Logger, recd *recording) (_ *running, status int, err error) {
	panesGetDefaultSignals()
	r := &running{log: logger, ended: make(chan struct{})}
	defer func() {
		if err != nil {
			r.close()
		}
	}()
	sock, err := claimSession(o.session)
	if err != nil {
		status, err := claimFailed(o.session, err)
		return nil, status, err
	}
	r.name, r.socket = sock.Name, sock.Socket
	r.onClose(func() { sock.Close() })
	sock.Retention = conf.Retention
	node, err := dialMesh(o.mesh, conf, sock, logger, recd.meshLinks()) // meshcmd.go
	if err != nil {
		return nil, 1, err
	}
	if node != nil {
		r.onClose(func() { node.Close() })
	}
	for i := range o.sess.Panes {
		p := &o.sess.Panes[i]
		p.Env = append(sock.Env(), p.Env...)
	}
	// The panes' worktrees are made here, in the session's process; the kept ones are
	// named in the log, by agentmux worktree ls, and to the terminal as the session ends.
	ts, status, err := setupPanes(o, conf, sock.Name, sock.Env(), logger)
	if err != nil {
		return nil, status, err
	}
	if recd != nil && recd.plan != nil {
		recd.plan.takeTrees(o, ts)
	}
	wv := newWebView(sock.Name, sock.Socket, sock.store, logger) // webwire.go
	r.onClose(wv.Close)
	sock.Web = wv.Start
	o.cfg.Web = wv.Label
	o.cfg.Session = sock.Name
	o.cfg.Logger = logger
	o.sess.Version = versionString()
	o.sess.Logger = logger
	// No pane's program may trace this process or read its memory; where panes cannot
	// have user namespaces of their own, their orphans stay under it (session.Origin).
	if err := ptyhost.Harden(); err != nil {
		logger.Warn("harden the server", "err", err)
	} else {
		o.sess.Subreap = ptyhost.Subreap
	}
	hooked := (!o.noHooks || o.mcp) && !o.demo // the demo's simulated agents take no hooks
	logger.Info("server start", "version", o.sess.Version, "session", sock.Name, "panes", len(o.sess.Panes), "pid", os.Getpid(), "layout", o.cfg.Layout.String())
	d := o.sess.Delivery.WithDefaults() // the rules in force, not config.toml's zeros
	logger.Info("delivery", "input_stale_timeout", d.InputStale, "max_batch", d.MaxBatch,
		"urgent_delay", d.UrgentDelay, "default_timeout", d.DefaultTimeout, "hook_wait", d.HookWait, "hooks", hooked && !o.noHooks, "mcp", o.mcp)
	if hooked {
		hs, err := newHooks(logger, hooks.Options{NoHooks: o.noHooks, MCP: o.mcp})
		if err != nil {
			return nil, 1, err
		}
		r.onClose(func() {
			if err := hs.Close(); err != nil {
				logger.Warn("hooks: closing the run's folder", "err", err)
			}
		})
		o.sess.Hooks = hs.Spec
	}
	if len(o.sess.Panes) == 0 {
		return nil, 1, errors.New("no panes to start")
	}
	ui.Fit(&o.sess, o.cfg.Layout, size, term)
	s, err := session.Start(o.sess)
	if err != nil {
		return nil, 1, err
	}
	r.onClose(func() { stopSession(s.Stop, logger) })
	var rec *recorder
	if recd != nil {
		var given map[int][]string
		if recd.plan != nil {
			recd.plan.apply(s, sock.store, sock.Name, logger)
			given = recd.plan.given
		} else if err := sock.store.ReplaceConversations(sock.Name, nil, time.Now().UnixMilli()); err != nil {
			logger.Warn("restore: forget an earlier session's conversations", "err", err)
		}
		rec = startRecorder(sock.store, sock.Name, recd.args, s, given, logger)
		r.onClose(func() { rec.stop("the server did not start", true) }) // once: a started one stopped first
	}
	wv.attach(s)
	r.onClose(startNotify(o.notify.or(conf.Notify), sock.Name, s, wv.Address, logger)) // notifycfg.go: stopped before the session
	r.srv, err = server.Start(server.Config{
		Name: sock.Name, Session: s, UI: o.cfg, Listener: sock.l, Logger: logger,
		ServeHub: func(l net.Listener) error { return sock.ServeOn(l, sessionCore(node, s, logger), logger) },
		// The end is recorded before kill-session is answered: a restore right after it
		// sees a session the person ended.
		OnEnd: func(why string) {
			if rec != nil {
				rec.stop(why, endOffered(why))
			}
		},
	})
	if err != nil {
		return nil, 1, err
	}
	srv := r.srv
	r.onClose(func() {
		if rec != nil {
			rec.stop(srv.Why(), endOffered(srv.Why())) // before the panes close: they are what it keeps
		}
		if node != nil {
			node.Close() // the mesh before the store it writes to
		}
		sock.Close() // the hub first: BYE to protocol clients, the store flushed after
		srv.Close()
	})
	wv.startWith(conf.webWith(*o)) // --web or [web] web = true; a failure shows on the status line
	return r, 0, nil
}

// onClose adds f to what close undoes.
func (r *running) onClose(f func()) { r.undo = append(r.undo, f) }

// close undoes what serve set up, last first.
func (r *running) close() {
	for i := len(r.undo) - 1; i >= 0; i-- {
		r.undo[i]()
	}
	r.undo = nil
}

// wait serves until the session ends, or a signal on sigs ends it, then closes it: its
// terminals are told it ended, the hub says BYE, the panes stop.
func (r *running) wait(sigs <-chan os.Signal) {
	defer close(r.ended)
	select {
	case <-r.srv.Done():
	case r.signal = <-sigs:
		r.log.Info("signal", "signal", r.signal.String())
		r.srv.End("signal " + r.signal.String())
	}
	r.close()
	r.log.Info("server end", "why", r.srv.Why())
	r.srv.Finished() // kill-session returns now: nothing of the session is left to end
}

// stopSession stops the session's panes, logging a failure.
func stopSession(stop func() error, logger *slog.Logger) {
	if err := stop(); err != nil {
		logger.Warn("close panes", "err", err)
	}
}
