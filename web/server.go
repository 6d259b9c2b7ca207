package web

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
)

//go:embed assets
var assets embed.FS

// DefaultListen is where the web view listens without Options.Listen: loopback, a
// free port.
const DefaultListen = "127.0.0.1:0"

// MaxPages bounds the pages open at once; more get 503.
const MaxPages = 32

// Options configure a web view.
type Options struct {
	// Listen is HOST:PORT to listen on ("": DefaultListen).
	Listen string
	// Control lets pages send messages, link, unlink, hold, release and type into
	// panes; off, every such frame is refused with an error.
	Control bool
	// Session is the session's name: the page's title, and the store's history.
	Session string
	// Store, when set, gives the conversation's history from before Since (earlier
	// runs of the session, and what the relay's log no longer holds).
	Store *store.Store
	// Since is when the session started: older history comes from Store, newer from
	// the session's log and events (zero: now).
	Since time.Time
	// Send, when set, is how a message from a page goes out (from is YouName), and
	// returns its id: the session socket's path, so it is stored like agentmux send's.
	// Nil sends through the session core directly (Session.Send).
	Send func(from, to, text string) (string, error)
	// Queue is each page's event queue limit (0: session.DefaultQueue).
	Queue int
	// WriteTimeout bounds one write to a page: a browser that does not read for this
	// long is disconnected (0: DefaultWriteTimeout).
	WriteTimeout time.Duration
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Server is a running web view. Its methods are safe from any goroutine.
type Server struct {
	sess  *session.Session
	o     Options
	log   *slog.Logger
	l     net.Listener
	http  *http.Server
	token string // the URL's secret
	auth  string // the cookie's value
	hosts map[string]bool
	any   bool // listening on an unspecified address: any IP literal Host with our port
	port  string
	index []byte

	ctx    context.Context
	cancel context.CancelFunc
	pages  sync.WaitGroup
	open   atomic.Int32
	sent   atomic.Int64
	done   chan struct{}
	once   sync.Once
}

// Start serves sess's web view until ctx ends or Close. It returns once the listener
// is bound; URL says where (with the token).
func Start(ctx context.Context, sess *session.Session, o Options) (*Server, error) {
	if sess == nil {
		return nil, errors.New("web view: no session")
	}
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.Since.IsZero() {
		o.Since = time.Now()
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	l, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return nil, fmt.Errorf("web view: listen on %s: %w", o.Listen, err)
	}
	s := &Server{sess: sess, o: o, log: log, l: l, token: secret(), auth: secret(), done: make(chan struct{})}
	s.hostsFor(l.Addr().(*net.TCPAddr))
	if s.index, err = fs.ReadFile(assets, "assets/index.html"); err != nil {
		l.Close()
		return nil, fmt.Errorf("web view: %w", err)
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	s.http = &http.Server{
		Handler:           s.routes(),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	go func() {
		defer close(s.done)
		if err := s.http.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("web view", "err", err)
		}
	}()
	go func() {
		<-s.ctx.Done()
		s.Close()
	}()
	log.Info("web view", "addr", l.Addr().String(), "control", o.Control)
	return s, nil
}

// secret is 256 random bits in hex.
func secret() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// URL is the page's address with its token: http://HOST:PORT/#token=….
func (s *Server) URL() string { return "http://" + s.Addr() + "/#token=" + s.token }

// Addr is the address the server listens on (HOST:PORT).
func (s *Server) Addr() string { return s.l.Addr().String() }

// Control reports whether pages may act on the session.
func (s *Server) Control() bool { return s.o.Control }

// Warning is what to say loudly when the server listens beyond loopback ("" on
// loopback).
func (s *Server) Warning() string {
	a := s.l.Addr().(*net.TCPAddr)
	if a.IP.IsLoopback() {
		return ""
	}
	return fmt.Sprintf("the web view listens on %s, beyond this machine: anyone who can reach it and has the token can read every pane", s.Addr())
}

// Sent is how many bytes of WebSocket payload went to pages so far.
func (s *Server) Sent() int64 { return s.sent.Load() }

// Pages is how many pages are open now.
func (s *Server) Pages() int { return int(s.open.Load()) }

// Close stops listening, ends every page and waits for them. Safe to call more than
// once.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		s.cancel()
		err = s.http.Close() // hijacked WebSockets end with s.ctx
		<-s.done
		s.pages.Wait()
	})
	return err
}

// routes is the server's handler: every request passes the Host check and the token.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	sub, _ := fs.Sub(assets, "assets")
	files := http.FileServerFS(sub)
	mux.HandleFunc("POST /auth", s.login)
	mux.HandleFunc("GET /ws", s.authed(s.servePage))
	mux.HandleFunc("GET /{$}", s.authed(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(s.index)
	}))
	mux.Handle("GET /", s.authed(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		files.ServeHTTP(w, r)
	}))
	return s.guard(mux)
}
