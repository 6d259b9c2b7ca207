package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
	"github.com/agentmux/agentmux/web"
)

// webFlags are the web view's settings for a session: --web, --web-listen,
// --web-control, or config.toml's [web] table.
type webFlags struct {
	on      bool
	listen  string
	control bool
}

// webView is the session's web view in the process that owns the session: started
// with it (--web, [web] web = true) or later over the socket (agentmux web, X_WEB).
// Its methods are safe from any goroutine.
type webView struct {
	name   string
	socket string // the session socket, where the page's messages are sent as agentmux send's
	store  *store.Store
	since  time.Time
	logger *slog.Logger

	mu     sync.Mutex
	sess   *session.Session
	srv    *web.Server
	req    proto.Web // what srv was started with
	failed bool      // the start with the session failed (the log says why)
}

// newWebView returns the web view of session name (not started).
func newWebView(name, socket string, st *store.Store, logger *slog.Logger) *webView {
	return &webView{name: name, socket: socket, store: st, since: time.Now(), logger: logger}
}

// send sends a page's message as agentmux send does, over the session socket, so the
// store keeps it with its phases.
func (w *webView) send(from, to, text string) (string, error) {
	c, err := client.DialControl(w.socket)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c.SendMeta(from, to, text, nil)
}

// attach gives the view its session once the session has started.
func (w *webView) attach(s *session.Session) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sess = s
}

// Start starts the web view, or, when it runs already, mints a fresh link to it; a
// request for the other mode (control, read-only), another address or other TLS files
// restarts it, and a stop ends it with every page.
func (w *webView) Start(req proto.Web) (proto.WebView, error) {
	if req.Control && req.ReadOnly {
		return proto.WebView{}, errors.New("web view: --control and --read-only exclude each other")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if req.Stop {
		if w.srv == nil {
			return proto.WebView{Stopped: true}, nil
		}
		pages := w.srv.Pages()
		w.srv.Close()
		w.srv = nil
		w.logger.Info("web view stopped", "pages", pages)
		return proto.WebView{Stopped: true, Running: true, Pages: pages}, nil
	}
	restarted := ""
	if w.srv != nil {
		why := w.differs(req)
		if why == "" {
			return proto.WebView{URL: w.srv.NewURL(), Control: w.srv.Control(), Warning: w.srv.Warning(), Running: true}, nil
		}
		w.srv.Close()
		w.srv = nil
		restarted = why
		w.logger.Info("web view restarted: " + why)
	}
	if w.sess == nil {
		return proto.WebView{}, errors.New("web view: the session has not started")
	}
	srv, err := web.Start(context.Background(), w.sess, web.Options{
		Listen: req.Listen, Control: req.Control, TLSCert: req.TLSCert, TLSKey: req.TLSKey,
		Session: w.name, Store: w.store, Since: w.since, Logger: w.logger, Send: w.send,
	})
	if err != nil {
		return proto.WebView{}, err
	}
	w.srv, w.req = srv, req
	if warn := srv.Warning(); warn != "" {
		w.logger.Warn("web view: " + warn)
	}
	return proto.WebView{URL: srv.URL(), Control: srv.Control(), Warning: srv.Warning(), Restarted: restarted}, nil
}

// differs says why req asks for another view than the one running ("" when it does
// not: no mode asked, or the same one; no address, or the same).
func (w *webView) differs(req proto.Web) string {
	switch {
	case req.Control && !w.srv.Control():
		return "it was read-only and --control was asked for"
	case req.ReadOnly && w.srv.Control():
		return "it was with control and --read-only was asked for"
	case req.Listen != "" && req.Listen != w.req.Listen:
		return "it listened on " + w.srv.Addr() + " and --listen " + req.Listen + " was asked for"
	case req.TLSCert != "" && (req.TLSCert != w.req.TLSCert || req.TLSKey != w.req.TLSKey):
		return "other TLS files were given"
	}
	return ""
}

// Label is what the status line shows while the view runs ("" when it does not).
func (w *webView) Label() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.srv == nil && w.failed:
		return "web view failed (see the log)"
	case w.srv == nil:
		return ""
	}
	label := "web"
	if w.srv.Control() {
		label = "web (control)"
	}
	if w.srv.Warning() != "" {
		label += " on " + w.srv.Addr() + ": beyond this machine"
	}
	return label
}

// Address is the view's address while it runs, without its secret ("" when it does
// not): what a notification may carry off this machine, as a page opened before (or a
// link from agentmux web) opens it.
func (w *webView) Address() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.srv == nil {
		return ""
	}
	u, _, _ := strings.Cut(w.srv.URL(), "#")
	return u
}

// Close stops the view, if it runs.
func (w *webView) Close() {
	w.mu.Lock()
	srv := w.srv
	w.srv = nil
	w.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// startWith starts the view with the session as its flags say; a failure is logged
// and shown on the status line (the session runs on without it).
func (w *webView) startWith(f webFlags) error {
	if !f.on {
		return nil
	}
	v, err := w.Start(proto.Web{Listen: f.listen, Control: f.control})
	if err != nil {
		w.logger.Error("web view", "err", err)
		w.mu.Lock()
		w.failed = true
		w.mu.Unlock()
		return fmt.Errorf("web view: %w", err)
	}
	w.logger.Info("web view started with the session (agentmux web prints its URL)", "control", v.Control)
	return nil
}
