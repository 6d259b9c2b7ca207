package web

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// How a page proves it may see the session. No cookie: browsers send a host's cookies
// to every port of it, so any other local user's page on another port would receive
// one. The secret lives where the browser scopes it by origin, port included, and
// travels only in the WebSocket's first frame:
//
//   - `agentmux web` prints a URL whose fragment (never sent in a request) holds a
//     one-use token. The page moves it into sessionStorage (its tab's) and out of the
//     address bar.
//   - The page's first frame shows the token; the server spends it (a second page, or
//     a second browser, showing it is refused) and answers with a page secret of its
//     own, which the page keeps in localStorage (the browser's, for this origin).
//   - A reload, a reconnect, or another tab of that browser opened at the view's
//     address (a notification's link) shows the page secret. It is valid until the view stops
//     (`agentmux web --stop`, a change of mode, the session's end), which also ends
//     every page.
//
// Secrets are kept as their SHA-256 sums: a lookup's timing says nothing of a secret.

// MaxTokens bounds the URL tokens waiting to be used: past it the oldest is dropped.
const MaxTokens = 16

// AuthTimeout is how long a new WebSocket has to show its secret.
const AuthTimeout = 10 * time.Second

// The page's content security policy: everything from this server, nothing elsewhere
// (connect-src 'self' covers the WebSocket on the same origin), no inline script.
// Inline styles are allowed: the terminal widget writes its measured row heights,
// fonts and colours into a style element of its own.
const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// sum is a secret's key in the server's sets.
type sum [sha256.Size]byte

func sumOf(s string) sum { return sha256.Sum256([]byte(s)) }

// keys are the secrets that open pages: URL tokens not used yet (oldest first) and the
// page secrets they were traded for. Guarded by Server.mu.
type keys struct {
	tokens []sum
	spent  map[sum]bool // tokens traded already: refused with a reason of their own
	pages  map[sum]bool
}

// NewURL mints a fresh one-use token and returns the page's address with it.
func (s *Server) NewURL() string {
	t := secret()
	s.mu.Lock()
	if len(s.keys.tokens) >= MaxTokens {
		s.keys.tokens = s.keys.tokens[1:]
	}
	s.keys.tokens = append(s.keys.tokens, sumOf(t))
	s.mu.Unlock()
	return s.scheme() + "://" + s.host + "/#token=" + t
}

// ErrTokenUsed and ErrUnknown say why a page's secret was refused.
var (
	ErrTokenUsed = errors.New("this link was used already (a link opens one page): run agentmux web for a new one")
	ErrUnknown   = errors.New("this page's key is not valid (the web view was stopped or restarted): run agentmux web for a new link")
)

// spend trades a URL token for a new page secret; it refuses a token used already.
func (s *Server) spend(token string) (string, error) {
	k := sumOf(token)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, t := range s.keys.tokens {
		if t == k {
			s.keys.tokens = append(s.keys.tokens[:i:i], s.keys.tokens[i+1:]...)
			s.keys.spent[k] = true
			p := secret()
			s.keys.pages[sumOf(p)] = true
			return p, nil
		}
	}
	if s.keys.spent[k] {
		return "", ErrTokenUsed
	}
	return "", ErrUnknown
}

// known reports whether page is a page secret this view gave out.
func (s *Server) known(page string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys.pages[sumOf(page)]
}

// authFrame is a page's first frame: the URL's token, or the page secret it was
// traded for.
type authFrame struct {
	T     string `json:"t"` // "auth"
	Token string `json:"token,omitempty"`
	Page  string `json:"page,omitempty"`
}

// deniedFrame tells a page why it was refused; the page stops retrying.
type deniedFrame struct {
	T    string `json:"t"` // "denied"
	Text string `json:"text"`
}

// authenticate reads the page's first frame within AuthTimeout and returns the page
// secret it may keep ("" when it showed one already), or why it is refused.
func (s *Server) authenticate(ctx context.Context, c *websocket.Conn) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.o.authTimeout)
	defer cancel()
	typ, b, err := c.Read(ctx)
	if err != nil {
		return "", err
	}
	var a authFrame
	if typ != websocket.MessageText || json.Unmarshal(b, &a) != nil || a.T != "auth" {
		return "", errors.New("the page's first frame must show its key")
	}
	switch {
	case a.Page != "":
		if s.known(a.Page) {
			return "", nil
		}
		return "", ErrUnknown
	case a.Token != "":
		return s.spend(a.Token)
	}
	return "", errors.New("this page has no key: open the URL agentmux web printed")
}

// hostsFor records the Host headers that name the listen address a: its own, and for
// loopback localhost too. An unspecified address (0.0.0.0, ::) accepts any IP literal
// with its port, never a name (a DNS-rebinding name must not pass).
func (s *Server) hostsFor(a *net.TCPAddr) {
	s.port = strconv.Itoa(a.Port)
	s.hosts = map[string]bool{a.String(): true}
	if a.IP.IsLoopback() {
		s.hosts["localhost:"+s.port] = true
	}
	s.any = a.IP.IsUnspecified()
}

// withPort is host as HOST:PORT. Browsers leave the scheme's default port out of Host
// and Origin (:80 for http, :443 for https), so a host without one names that port:
// this server's own when it listens there. Otherwise host is returned as it is, which
// names no server here.
func (s *Server) withPort(host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	def := "80"
	if s.tls {
		def = "443"
	}
	if s.port != def || host == "" {
		return host
	}
	return net.JoinHostPort(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), def)
}

// hostOK reports whether a request's Host names this server.
func (s *Server) hostOK(host string) bool {
	host = s.withPort(host)
	if s.hosts[host] {
		return true
	}
	if !s.any {
		return false
	}
	h, p, err := net.SplitHostPort(host)
	return err == nil && p == s.port && net.ParseIP(h) != nil
}

// guard refuses a request whose Host is not this server (403) and sets the headers
// every answer carries.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", csp)
		h.Set("Cache-Control", "no-store")
		if !s.hostOK(r.Host) {
			http.Error(w, "agentmux web view: wrong Host", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// originOK reports whether a browser's Origin is this page's own: SCHEME://HOST where
// HOST is the request's (already checked) Host.
func (s *Server) originOK(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == s.scheme() && s.withPort(u.Host) == s.withPort(host) && s.hostOK(u.Host)
}
