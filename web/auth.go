package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// cookieName is the web view's cookie, named for its port: browsers keep cookies per
// host, not per port, so two sessions' views on one machine would otherwise sign each
// other's pages out. Its value is a secret of its own, not the URL's token.
func (s *Server) cookieName() string { return "agentmux_web_" + s.port }

// The page's content security policy: everything from this server, nothing elsewhere
// (connect-src 'self' covers the WebSocket on the same origin), no inline script.
// Inline styles are allowed: the terminal widget writes its measured row heights,
// fonts and colours into a style element of its own.
const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// loginScript trades the URL's #token for the cookie, then loads the page without the
// token in its address. It is the only thing a request without the cookie gets, with
// 401: it carries nothing of the session.
const loginScript = `(function(){var m=/[#&]token=([0-9a-f]+)/.exec(location.hash);` +
	`if(!m){document.getElementById('m').textContent='This page needs the URL agentmux printed (it carries a token).';return}` +
	`fetch('/auth',{method:'POST',body:m[1],credentials:'same-origin'}).then(function(r){` +
	`if(r.ok){location.replace('/')}else{document.getElementById('m').textContent='The token was refused: ask agentmux for a new URL (agentmux web).'}})})()`

var loginPage = []byte(`<!doctype html><meta charset="utf-8"><title>agentmux</title>` +
	`<p id="m">agentmux: signing in…</p><script>` + loginScript + `</script>`)

// loginCSP lets the login page run its one inline script, by its hash.
var loginCSP = func() string {
	h := sha256.Sum256([]byte(loginScript))
	return "default-src 'none'; script-src 'sha256-" + base64.StdEncoding.EncodeToString(h[:]) +
		"'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}()

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

// hostOK reports whether a request's Host names this server.
func (s *Server) hostOK(host string) bool {
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
		if !s.hostOK(r.Host) {
			http.Error(w, "agentmux web view: wrong Host", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authed passes requests that carry the cookie; others get 401 (the page's address
// gets the login script with it).
func (s *Server) authed(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie(s.cookieName()); err == nil && equal(c.Value, s.auth) {
			next(w, r)
			return
		}
		if r.URL.Path == "/" {
			w.Header().Set("Content-Security-Policy", loginCSP)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusUnauthorized)
			w.Write(loginPage)
			return
		}
		http.Error(w, "agentmux web view: unauthorized", http.StatusUnauthorized)
	}
}

// login trades the URL's token (the request's body) for the cookie.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" && !s.originOK(o, r.Host) {
		http.Error(w, "agentmux web view: wrong Origin", http.StatusForbidden)
		return
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, 256))
	if err != nil || !equal(strings.TrimSpace(string(b)), s.token) {
		http.Error(w, "agentmux web view: unauthorized", http.StatusUnauthorized)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: s.auth, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	w.WriteHeader(http.StatusNoContent)
}

// originOK reports whether a browser's Origin is this page's own: http://HOST where
// HOST is the request's (already checked) Host.
func (s *Server) originOK(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == "http" && u.Host == host && s.hostOK(u.Host)
}

// equal compares secrets in constant time.
func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
