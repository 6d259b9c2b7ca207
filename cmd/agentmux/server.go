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

	"github.com/charmbracelet/x/term"
	"golang.org/x/sys/unix"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/server"
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
	cols, rows, err := term.GetSize(out.Fd())
	if err != nil || !term.IsTerminal(in.Fd()) {
		return 2, errors.New("agentmux needs a terminal")
	}
	info, err := ui.ProbeTerminal(ctx, in, out)
	if err != nil {
		return 1, err
	}
	name, socket, status, err := startServer(args, cols, rows, info)
	if err != nil {
		return status, err
	}
	return attachTo(ctx, name, socket, attach.Options{}, in, out)
}

// detachedSize is the size a session started without a terminal draws at until one
// attaches and sets its own (tmux's default for new-session -d).
var detachedSize = ui.Size{Cols: 80, Rows: 24}

// runDetached starts a server for the agents in args without attaching a terminal
// (--detached) and prints the session's name: the size is the terminal's when stdout
// is one, else detachedSize; the colours are unknown until a terminal attaches.
func runDetached(args []string, stdout io.Writer) (int, error) {
	size := detachedSize
	if f, ok := stdout.(*os.File); ok {
		if c, r, err := term.GetSize(f.Fd()); err == nil && c > 0 && r > 0 {
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
	res, err := attach.Run(ctx, nc, in, out, o)
	if err != nil {
		return 1, err
	}
	if res.Session != "" {
		name = res.Session
	}
	switch res.Reason {
	case attach.ReasonDetached:
		fmt.Fprintf(out, "detached from session %s (agentmux attach %s to return)\r\n", name, name)
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
// the agentmux arguments. It
// reports ready or its failure on the ready pipe, then serves until the session ends.
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
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
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
	o, err := parseArgs(args[3:])
	if err != nil {
		return fail(2, err)
	}
	if o.cfg.Profiles, err = loadProfiles(); err != nil {
		return fail(2, err)
	}
	conf, err := loadConfig()
	if err != nil {
		return fail(2, err)
	}
	applyPaneConfig(&o, conf)
	o.cfg.Delivery = conf.Delivery
	o.cfg.AllowClipboard = conf.AllowClipboard
	notes := o.notify.or(conf.Notify)
	o.cfg.NotifyTerminal = notes.terminal
	logger, logFile := openLog(o.logLevel)
	defer logFile.Close()
	if f, ok := logFile.(*os.File); ok {
		// A panic's trace goes where the log goes: the server has no terminal.
		_ = unix.Dup2(int(f.Fd()), 2) // Dup3 where the platform has no dup2 (linux/arm64)
	}
	sock, err := claimSession(o.session)
	if err != nil {
		return fail(claimFailed(o.session, err))
	}
	defer sock.Close()
	sock.Retention = conf.Retention
	node, err := dialMesh(o.mesh, conf, sock, logger) // meshcmd.go
	if err != nil {
		return fail(1, err)
	}
	if node != nil {
		defer node.Close()
	}
	for i := range o.cfg.Panes {
		p := &o.cfg.Panes[i]
		p.Env = append(sock.Env(), p.Env...)
	}
	// The panes' worktrees are made here, in the session's process; the kept ones are
	// named in the log (and by agentmux worktree ls), this process has no terminal.
	_, code, err := setupPanes(&o, conf, sock.Name, sock.Env(), logger)
	if err != nil {
		return fail(code, err)
	}
	wv := newWebView(sock.Name, sock.Socket, sock.store, logger) // webwire.go
	defer wv.Close()
	sock.Web = wv.Start
	o.cfg.Web = wv.Label
	webFlags := conf.webWith(o)
	o.cfg.Version = versionString()
	o.cfg.Session = sock.Name
	o.cfg.Logger = logger
	// No pane's program may trace this process or read its memory; where panes cannot
	// have user namespaces of their own, their orphans stay under it (session.Origin).
	o.cfg.NoPaneNamespaces = conf.NoPaneNamespaces
	subreaper := conf.NoPaneNamespaces || !ptyhost.UserNSAllowed()
	if err := ptyhost.Harden(subreaper); err != nil {
		logger.Warn("harden the server", "err", err)
	} else {
		o.cfg.Subreaper = subreaper
	}
	logger.Info("server start", "version", o.cfg.Version, "session", sock.Name, "panes", len(o.cfg.Panes), "pid", os.Getpid())
	d := o.cfg.Delivery.WithDefaults() // the rules in force, not config.toml's zeros
	logger.Info("delivery", "input_stale_timeout", d.InputStale, "max_batch", d.MaxBatch,
		"urgent_delay", d.UrgentDelay, "default_timeout", d.DefaultTimeout, "hook_wait", d.HookWait, "hooks", !o.noHooks)
	if !o.noHooks {
		hs, err := newHooks(logger)
		if err != nil {
			return fail(1, err)
		}
		defer func() {
			if err := hs.Close(); err != nil {
				logger.Warn("hooks: closing the run's folder", "err", err)
			}
		}()
		o.cfg.Hooks = hs.Spec
	}
	s, err := ui.StartSession(o.cfg, ui.Size{Cols: cols, Rows: rows}, info)
	if err != nil {
		return fail(1, err)
	}
	defer stopSession(s.Stop, logger)
	wv.attach(s)
	defer startNotify(notes, sock.Name, s, wv.Address, logger)() // notifycfg.go: stopped before the session
	srv, err := server.Start(server.Config{
		Name: sock.Name, Session: s, UI: o.cfg, Listener: sock.l, Logger: logger,
		ServeHub: func(l net.Listener) error { return sock.ServeOn(l, sessionCore(node, s, logger), logger) },
	})
	if err != nil {
		return fail(1, err)
	}
	wv.startWith(webFlags) // --web or [web] web = true; a failure shows on the status line
	say("ok %s %s", sock.Name, sock.Socket)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	select {
	case <-srv.Done():
	case sig := <-sigs:
		logger.Info("signal", "signal", sig.String())
		srv.End("signal " + sig.String())
	}
	if node != nil {
		node.Close() // the mesh before the store it writes to
	}
	sock.Close() // the hub first: BYE to protocol clients, the store flushed after
	srv.Close()
	logger.Info("server end", "why", srv.Why())
	return 0, nil
}

// stopSession stops the session's panes, logging a failure.
func stopSession(stop func() error, logger *slog.Logger) {
	if err := stop(); err != nil {
		logger.Warn("close panes", "err", err)
	}
}
