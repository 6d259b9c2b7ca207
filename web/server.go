package web

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/tls"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strconv"
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
	// Listen is HOST:PORT to listen on ("": DefaultListen). An IPv4 address listens
	// on IPv4 alone (0.0.0.0: every IPv4 address), an IPv6 one on IPv6 alone.
	Listen string
	// TLSCert and TLSKey, both or neither, are PEM files: the view serves HTTPS (and
	// its WebSocket over TLS) with them.
	TLSCert, TLSKey string
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

	// authTimeout and idleTimeout stand in for AuthTimeout and IdleTimeout (tests).
	authTimeout, idleTimeout time.Duration
}

// Server is a running web view. Its methods are safe from any goroutine.
type Server struct {
	sess  *session.Session
	o     Options
	log   *slog.Logger
	l     net.Listener
	gate  *gate
	http  *http.Server
	url   string // the URL of the token minted at Start
	host  string // HOST:PORT as URLs name it
	tls   bool
	hosts map[string]bool
	any   bool // listening on an unspecified address: any IP literal Host with our port
	port  string
	index []byte

	mu   sync.Mutex
	keys keys

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
	o.authTimeout = cmp.Or(o.authTimeout, AuthTimeout)
	o.idleTimeout = cmp.Or(o.idleTimeout, IdleTimeout)
	if o.Since.IsZero() {
		o.Since = time.Now()
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var cert tls.Certificate
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return nil, errors.New("web view: TLS needs both a certificate and its key (--tls-cert and --tls-key)")
	}
	if o.TLSCert != "" {
		var err error
		if cert, err = tls.LoadX509KeyPair(o.TLSCert, o.TLSKey); err != nil {
			return nil, fmt.Errorf("web view: TLS certificate %s and key %s: %w", o.TLSCert, o.TLSKey, err)
		}
	}
	l, err := net.Listen(network(o.Listen), o.Listen)
	if err != nil {
		return nil, fmt.Errorf("web view: listen on %s: %w", o.Listen, err)
	}
	s := &Server{sess: sess, o: o, log: log, l: l, tls: o.TLSCert != "", done: make(chan struct{}),
		keys: keys{spent: map[sum]bool{}, pages: map[sum]bool{}}}
	s.gate = &gate{Listener: l, limit: MaxUnauthenticated, warn: func(n int64) {
		log.Warn("web view: connections that showed no key are at their limit: new ones are closed", "limit", MaxUnauthenticated, "closed", n)
	}}
	a := l.Addr().(*net.TCPAddr)
	s.hostsFor(a)
	s.host = urlHost(a)
	if s.index, err = fs.ReadFile(assets, "assets/index.html"); err != nil {
		l.Close()
		return nil, fmt.Errorf("web view: %w", err)
	}
	s.url = s.NewURL()
	s.ctx, s.cancel = context.WithCancel(ctx)
	s.http = &http.Server{
		Handler:           s.routes(),
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       o.idleTimeout,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
		ConnContext:       withConn,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	var ln net.Listener = s.gate
	if s.tls {
		ln = tls.NewListener(s.gate, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	go func() {
		defer close(s.done)
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
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

// network is the network to listen on for addr: an IP literal's own family, so that
// 0.0.0.0 means IPv4 (Go would otherwise listen on both and name it [::]).
func network(addr string) string {
	h, _, err := net.SplitHostPort(addr)
	ip := net.ParseIP(h)
	switch {
	case err != nil || ip == nil:
		return "tcp"
	case ip.To4() != nil:
		return "tcp4"
	}
	return "tcp6"
}

// urlHost is HOST:PORT as a browser elsewhere can use it: the listen address, or for
// an unspecified one (0.0.0.0, ::) this machine's first address beyond loopback of
// that family (127.0.0.1 when it has none).
func urlHost(a *net.TCPAddr) string {
	if !a.IP.IsUnspecified() {
		return a.String()
	}
	port := strconv.Itoa(a.Port)
	if ip := outsideIP(a.IP.To4() != nil); ip != nil {
		return net.JoinHostPort(ip.String(), port)
	}
	if a.IP.To4() != nil {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return net.JoinHostPort("::1", port)
}

// outsideIP is this machine's first global unicast address of the family (IPv4 when
// v4), nil when it has none.
func outsideIP(v4 bool) net.IP {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if ok && n.IP.IsGlobalUnicast() && (n.IP.To4() != nil) == v4 {
			return n.IP
		}
	}
	return nil
}

// scheme is http, or https when the view serves TLS.
func (s *Server) scheme() string {
	if s.tls {
		return "https"
	}
	return "http"
}

// URL is the page's address with the token minted at Start: SCHEME://HOST:PORT/#token=….
// The token opens one page; NewURL mints another.
func (s *Server) URL() string { return s.url }

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
	where := s.Addr()
	if a.IP.IsUnspecified() {
		where = "every address of this machine (" + where + ")"
	}
	if s.tls {
		return fmt.Sprintf("the web view listens on %s, beyond this machine (over TLS): anyone who can reach it and has a link can read every pane", where)
	}
	return fmt.Sprintf("the web view listens on %s, beyond this machine, without TLS: the link's token, every pane and every key typed cross the network in clear. "+
		"Give --tls-cert FILE --tls-key FILE to serve HTTPS, or keep it on loopback and tunnel: ssh -L %s:127.0.0.1:%s HOST", where, s.port, s.port)
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

// routes is the server's handler: every request passes the Host check. The page and
// its scripts are the same in every agentmux and carry nothing of the session: they
// are served to anyone; the session itself only goes over the WebSocket, to a page
// that shows a key.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	sub, _ := fs.Sub(assets, "assets")
	files := http.FileServerFS(sub)
	mux.HandleFunc("GET /ws", s.servePage)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(s.index)
	})
	mux.Handle("GET /", files)
	return s.guard(mux)
}
