// Package server makes a session a server that outlives its terminals: it owns the
// session socket's listener, sorts connections between the hub (relay protocol v1) and
// the attach stream, runs the ui for each attached terminal (as tmux's server draws for
// each client), decides which terminal sets the panes' sizes (the most recently active
// one), and says when the session ends: the person ended it, kill-session asked, or every
// pane's program exited while no terminal was attached.
//
// server imports ui, session, attach and proto; hub is given to it as a func, so the
// socket and the terminals stay peers over the one session.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/peer"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/ui"
)

// firstAttachWait is how long a session whose programs all exited waits for its first
// terminal before it ends by itself.
const firstAttachWait = 30 * time.Second

// Config is a session server's parts.
type Config struct {
	// Name is the session's name.
	Name string
	// Session is the running session; UI the ui's configuration for each terminal.
	Session *session.Session
	UI      ui.Config
	// Listener is the session socket; ServeHub starts the hub on the listener it is
	// given (every connection that is not an attach).
	Listener net.Listener
	ServeHub func(net.Listener) error
	// Logger gets connections and failures (discarded when nil).
	Logger *slog.Logger
	// OnEnd, when set, is called once with why as the session is to end, before any
	// terminal is told and before kill-session is answered: what it records is there
	// when they hear of the end.
	OnEnd func(why string)

	// runUI runs a terminal's ui: ui.Attach, or a failing stand-in in tests.
	runUI func(context.Context, *session.Session, ui.Config, ui.Remote) (ui.Ending, error)
}

// Server serves one session's terminals.
type Server struct {
	cfg   Config
	log   *slog.Logger
	dm    *demux
	ctx   context.Context
	stop  context.CancelFunc
	done  chan struct{} // closed when the session should end
	ended sync.Once
	wg    sync.WaitGroup
	// farewell is what every terminal is told as the session ends (Farewell), made
	// once, by the first terminal to ask.
	farewell func() string

	mu         sync.Mutex // guards the client registry below
	clients    map[int]*client
	locals     map[net.Conn]bool // the server's ends of Local's connections
	nextID     int
	controller int    // the client whose size the panes follow (0: none)
	waiting    bool   // no terminal has attached yet and the first may still come
	activity   uint64 // counts clients' activity: the latest is the highest
	why        string
	// enders are the connections of the kill-session commands that ended the session,
	// answered and held open until Finished: the command returns once the session has
	// wholly ended, not as it begins to.
	enders   []net.Conn
	finished bool
}

// Start serves cfg's session: the hub gets its connections and terminals may attach.
func Start(cfg Config) (*Server, error) {
	if cfg.Session == nil || cfg.Listener == nil || cfg.ServeHub == nil {
		return nil, errors.New("server: session, listener and hub needed")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, log: log, ctx: ctx, stop: stop, done: make(chan struct{}), clients: map[int]*client{}, locals: map[net.Conn]bool{}, waiting: true}
	s.farewell = sync.OnceValue(s.makeFarewell)
	if s.cfg.runUI == nil {
		s.cfg.runUI = ui.Attach
	}
	s.dm = newDemux(cfg.Listener, s.handle, log)
	if err := cfg.ServeHub(s.dm); err != nil {
		s.dm.Close()
		stop()
		return nil, fmt.Errorf("session socket: %w", err)
	}
	sub := cfg.Session.Subscribe(1 << 12)
	s.wg.Go(func() { s.watch(sub) })
	// Programs that exit at once must not end the session before the terminal that
	// started it attaches and shows their exit: the idle rule waits for the first attach,
	// or for firstAttachWait.
	grace := time.AfterFunc(firstAttachWait, func() {
		s.mu.Lock()
		s.waiting = false
		s.mu.Unlock()
		s.checkIdle()
	})
	context.AfterFunc(ctx, func() { grace.Stop() })
	return s, nil
}

// Why a session ended, as Why says it, for the ends the person chose. KillKeep is a
// session that kill-session --keep ended: restore still offers it. The others
// restore does not offer.
const (
	KillKeep    = "kill-session --keep"
	Killed      = "kill-session"
	QuitKey     = "prefix q"
	EndLastPane = "its last pane closed"
)

// Done is closed when the session should end; Why then says why.
func (s *Server) Done() <-chan struct{} { return s.done }

// Why says why the session ended ("" while it runs).
func (s *Server) Why() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.why
}

// End asks the session to end (the attached terminals are told it ended).
func (s *Server) End(why string) {
	s.ended.Do(func() {
		s.mu.Lock()
		s.why = why
		s.mu.Unlock()
		s.log.Info("session ends", "why", why)
		if s.cfg.OnEnd != nil {
			s.cfg.OnEnd(why)
		}
		close(s.done)
	})
}

// Close ends every attached terminal's stream (they are told the session ended) and
// stops accepting; it waits for the server's goroutines. The caller then stops the hub
// and the session.
func (s *Server) Close() {
	s.End("closed")
	s.stop()
	s.dm.Close()
	s.wg.Wait()
}

// Finished says the session has wholly ended (its panes stopped, their worktrees
// kept or removed, the store closed): the kill-session commands waiting for that are
// let go. A process that never calls it lets them go as it exits.
func (s *Server) Finished() {
	s.mu.Lock()
	s.finished = true
	enders := s.enders
	s.enders = nil
	s.mu.Unlock()
	for _, nc := range enders {
		nc.Close()
	}
}

// holdEnder keeps nc, a kill-session command's answered connection, open until
// Finished.
func (s *Server) holdEnder(nc net.Conn) {
	s.mu.Lock()
	if !s.finished {
		s.enders = append(s.enders, nc)
		nc = nil
	}
	s.mu.Unlock()
	if nc != nil {
		nc.Close()
	}
}

// Local returns a connection to the server from this process, for the terminal a
// session runs in (agentmux demo, --in-process): it is sorted as a socket connection
// is, and a terminal attached over it cannot detach, nor be detached by another's
// attach -d, since the session ends with it. The caller closes it.
func (s *Server) Local() (net.Conn, error) {
	fds, err := socketPair()
	if err != nil {
		return nil, fmt.Errorf("local attach: %w", err)
	}
	ours, err := fileConn(fds[0], "local-server")
	if err != nil {
		unix.Close(fds[1])
		return nil, err
	}
	theirs, err := fileConn(fds[1], "local-client")
	if err != nil {
		ours.Close()
		return nil, err
	}
	s.mu.Lock()
	s.locals[ours] = true
	s.mu.Unlock()
	if !s.dm.serve(ours) {
		ours.Close()
		theirs.Close()
		return nil, errors.New("local attach: the server is closed")
	}
	return theirs, nil
}

// socketPair returns a connected pair of Unix stream sockets, closed on exec. macOS has
// no SOCK_CLOEXEC: the flag is set after, under the fork lock, so that no pane's
// program started meanwhile inherits either end.
func socketPair() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return fds, err
	}
	unix.CloseOnExec(fds[0])
	unix.CloseOnExec(fds[1])
	return fds, nil
}

// fileConn is the net.Conn of socket fd, which it takes.
func fileConn(fd int, name string) (net.Conn, error) {
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	nc, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("local attach: %w", err)
	}
	return nc, nil
}

// local reports whether nc is the server's end of a Local connection, and forgets it.
func (s *Server) local(nc net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ok := s.locals[nc]
	delete(s.locals, nc)
	return ok
}

// handle takes a connection whose first frame is one of the server's, and proc, its
// client's process, which it lets go.
func (s *Server) handle(nc net.Conn, e *proto.Envelope, proc *peer.Process) {
	defer proc.Close()
	select {
	case <-s.ctx.Done():
		refuse(nc, e, "the session is ending")
		return
	default:
	}
	if e.Type == attach.TypeAttach || e.Type == attach.TypeKill {
		// A pane's program (maybe prompt-injected) must not type as the person or end
		// the session: a process running in one of the panes is refused, by what the
		// kernel says of the connecting process, not by anything it sends.
		o := s.cfg.Session.Origin(proc.PID)
		if !proc.Alive() {
			// Its number may name another process now (the person's shell, say).
			o = proto.OriginEnded
		}
		switch {
		case o.Pane != "":
			refuse(nc, e, fmt.Sprintf("a process of pane %s cannot attach to or end its own session", o.Pane))
			return
		case !o.Person:
			refuse(nc, e, fmt.Sprintf("only the person attaches to or ends a session, from outside every pane: this is %s", o.Where()))
			return
		}
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		switch e.Type {
		case attach.TypeKill:
			k, _ := proto.DecodePayload[attach.Kill](e) // {} from an older agentmux: no keep
			if k.Keep {
				s.End(KillKeep)
			} else {
				s.End(Killed)
			}
			reply(nc, attach.TypeAttached, attach.Accepted{Version: attach.Version, Session: s.cfg.Name})
			s.holdEnder(nc)
		case attach.TypeClients:
			reply(nc, attach.TypeClients, s.list())
			nc.Close()
		case attach.TypeAttach:
			s.attach(nc, e)
		}
	}()
}

// list describes the attached clients.
func (s *Server) list() attach.ClientList {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := attach.ClientList{Clients: []attach.Client{}, Pid: os.Getpid(), Isolation: s.cfg.Session.Isolation()}
	for id := 1; id <= s.nextID; id++ {
		c := s.clients[id]
		if c == nil {
			continue
		}
		sz := c.size()
		out.Clients = append(out.Clients, attach.Client{ID: id, Cols: sz.Cols, Rows: sz.Rows, ReadOnly: c.readOnly,
			Control: id == s.controller, Since: c.since.UTC().Format(time.RFC3339)})
	}
	return out
}

// watch ends the session when every pane's program has exited and no terminal is
// attached; it follows the session's events until the server stops.
func (s *Server) watch(sub *session.Subscription) {
	defer sub.Close()
	s.checkIdle()
	for {
		select {
		case <-s.ctx.Done():
			return
		case _, ok := <-sub.Ready():
			if !ok {
				return
			}
			for _, ev := range sub.Next() {
				switch ev.(type) {
				case session.Exit, session.Closed:
					s.checkIdle()
				}
			}
		}
	}
}

// checkIdle ends the session when no terminal is attached and no pane runs.
func (s *Server) checkIdle() {
	s.mu.Lock()
	attached, waiting := len(s.clients), s.waiting
	s.mu.Unlock()
	if attached > 0 || waiting {
		return
	}
	for _, m := range s.cfg.Session.Members() {
		if !m.External && m.State != session.Exited {
			return
		}
	}
	s.End("every pane exited and no terminal is attached")
}

// makeFarewell is the end frame's message for a session that ended: why on the first
// line (Why), then one line for each pane's worktree that holds an agent's work and is
// kept as the panes close: "kept BRANCH (STATE) in FOLDER". Its git runs here, on a
// terminal's goroutine, before the panes close.
func (s *Server) makeFarewell() string {
	msg := s.Why()
	for _, m := range s.cfg.Session.Members() {
		if m.Tree == nil {
			continue
		}
		st, err := m.Tree.Status()
		if err != nil || st == "clean" {
			continue // an unchanged tree is removed with its pane
		}
		msg += fmt.Sprintf("\nkept %s (%s) in %s", m.Tree.Branch(), st, m.Tree.Folder())
	}
	return msg
}

// reply writes one handshake envelope.
func reply(nc net.Conn, typ string, payload any) {
	body, err := attach.Handshake(typ, payload)
	if err != nil {
		return
	}
	_ = nc.SetWriteDeadline(time.Now().Add(writeWait))
	_ = proto.WriteFrame(nc, body)
	_ = nc.SetWriteDeadline(time.Time{})
}

// refuse answers a handshake with a fatal ERROR and closes the connection.
func refuse(nc net.Conn, e *proto.Envelope, msg string) {
	reply(nc, proto.TypeError, proto.Error{Code: proto.CodeBadRequest, Message: msg, Fatal: true, Re: e.ID})
	nc.Close()
}
