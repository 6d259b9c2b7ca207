package mesh

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"

	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// DefaultListen is where `agentmux mesh serve` listens without --listen.
const DefaultListen = "127.0.0.1:4222"

// maxPayload is the largest message the hub takes (a message of 1 MiB as the session
// socket takes it, and its signature).
const maxPayload = 1 << 20

// DefaultInboxBytes is how much of the hub's disk each session's inbox stream may take
// at most: past it the oldest messages go first, so that another session's flood
// fills no disk (a hub keeps messages 7 days). One message is at most MaxPayload.
const DefaultInboxBytes = 1 << 30

// HubConfig configures a hub.
type HubConfig struct {
	// Dir is the hub's state folder ($XDG_STATE_HOME/agentmux/mesh): its secret and
	// JetStream's files. It is made 0700.
	Dir string
	// Listen is HOST:PORT for the sessions (port 0: any free port).
	Listen string
	// Dedupe is how long JetStream remembers a message id (0: 10 minutes).
	Dedupe time.Duration
	// InboxBytes bounds each session's inbox stream (0: DefaultInboxBytes).
	InboxBytes int64
	// TLSCert and TLSKey, when set, are the PEM files of the certificate the hub
	// presents: every session must then speak TLS (and trust it: Options.CAFile).
	TLSCert, TLSKey string
}

// Hub is an embedded NATS server with JetStream that sessions join.
type Hub struct {
	srv    *server.Server
	admin  *nats.Conn
	js     jetstream.JetStream
	dir    string
	secret []byte
	dedupe time.Duration
	inbox  int64 // each stream's MaxBytes

	tls bool

	// ready is closed once js is set: a session logging in before waits for it;
	// closing is closed by Close, which a login waiting for ready does not hold up.
	ready, closing chan struct{}
	closeOnce      sync.Once

	mu      sync.Mutex
	streams map[string]bool
}

// Serve starts a hub.
func Serve(c HubConfig) (*Hub, error) {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("mesh state: %w", err)
	}
	if err := os.Chmod(c.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("mesh state: %w", err)
	}
	secret, err := loadSecret(c.Dir)
	if err != nil {
		return nil, err
	}
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	host, portText, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return nil, fmt.Errorf("--listen %q: %w", c.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("--listen %q: bad port", c.Listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if c.Dedupe <= 0 {
		c.Dedupe = 10 * time.Minute
	}
	if c.InboxBytes <= 0 {
		c.InboxBytes = DefaultInboxBytes
	}
	adminPass := make([]byte, 16)
	if _, err := rand.Read(adminPass); err != nil {
		return nil, err
	}
	h := &Hub{dir: c.Dir, secret: secret, dedupe: c.Dedupe, inbox: c.InboxBytes, streams: map[string]bool{}, ready: make(chan struct{}), closing: make(chan struct{})}
	auth := &authenticator{secret: secret, adminPass: hex.EncodeToString(adminPass), ensure: h.ensureStream,
		keyOf: func(session string) (string, error) { return sessionKey(c.Dir, session) }}
	opts := &server.Options{
		ServerName:                 "agentmux-mesh",
		Host:                       host,
		Port:                       port,
		JetStream:                  true,
		StoreDir:                   filepath.Join(c.Dir, "jetstream"),
		JetStreamMaxMemory:         64 << 20,
		NoLog:                      true,
		NoSigs:                     true,
		MaxPayload:                 maxPayload,
		CustomClientAuthentication: auth,
		AlwaysEnableNonce:          true, // sessions sign it to log in (authenticator.signed)
	}
	if c.TLSCert != "" || c.TLSKey != "" {
		if c.TLSCert == "" || c.TLSKey == "" {
			return nil, errors.New("mesh hub: TLS needs both a certificate and its key")
		}
		tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: c.TLSCert, KeyFile: c.TLSKey, Timeout: 5})
		if err != nil {
			return nil, fmt.Errorf("mesh hub: TLS: %w", err)
		}
		opts.TLS, opts.TLSConfig, opts.TLSTimeout = true, tc, 5
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("mesh hub: %w", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, fmt.Errorf("mesh hub: not listening on %s", c.Listen)
	}
	h.srv, h.tls = srv, opts.TLS
	nc, err := nats.Connect("", nats.InProcessServer(srv), nats.UserInfo(adminUser, auth.adminPass), nats.Name("agentmux mesh hub"))
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("mesh hub: own connection: %w", err)
	}
	h.admin = nc
	if h.js, err = jetstream.New(nc); err != nil {
		h.Close()
		return nil, fmt.Errorf("mesh hub: %w", err)
	}
	close(h.ready)
	return h, nil
}

// ensureStream makes session's stream unless it exists. It runs while the session
// logs in, so that its consumer finds the stream.
func (h *Hub) ensureStream(session string) error {
	select {
	case <-h.ready:
	case <-h.closing:
		return errors.New("hub closing")
	}
	h.mu.Lock()
	done := h.streams[session]
	h.mu.Unlock()
	if done {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := h.js.CreateOrUpdateStream(ctx, streamConfig(session, h.dedupe, h.inbox))
	if err != nil {
		return fmt.Errorf("stream for %s: %w", session, err)
	}
	h.mu.Lock()
	h.streams[session] = true
	h.mu.Unlock()
	return nil
}

// streamConfig is session's inbox stream, of at most maxBytes (the oldest messages
// go first) in messages of at most maxPayload.
func streamConfig(session string, dedupe time.Duration, maxBytes int64) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:       streamName(session),
		Subjects:   []string{"amux." + session + ".>"},
		Storage:    jetstream.FileStorage,
		Retention:  jetstream.LimitsPolicy,
		MaxAge:     7 * 24 * time.Hour,
		Duplicates: dedupe,
		MaxBytes:   maxBytes,
		MaxMsgSize: maxPayload,
		Discard:    jetstream.DiscardOld,
	}
}

// URL is the URL sessions join with (nats://HOST:PORT).
func (h *Hub) URL() string { return h.srv.ClientURL() }

// TLS says whether the hub requires TLS.
func (h *Hub) TLS() bool { return h.tls }

// WriteCreds writes session's credentials for the hub whose state folder is dir (its
// secret made on first use) and returns the file's path. The file holds the session's
// password and its signing key's seed (an nkey user seed): a file written before for
// the session keeps its seed, so the key other sessions pinned stays the session's.
func WriteCreds(dir, session string) (string, error) {
	if err := CheckName(session); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, "creds"), 0o700); err != nil {
		return "", fmt.Errorf("mesh creds: %w", err)
	}
	secret, err := loadSecret(dir)
	if err != nil {
		return "", err
	}
	path := credsPath(dir, session)
	if b, err := os.ReadFile(path); err == nil {
		// On a file system that ignores case, BOB's file is bob's: its seed is not BOB's.
		if other, _, err := parseCreds(string(b)); err == nil && other != session {
			return "", fmt.Errorf("mesh creds %s: %s holds session %s's credentials (this file system ignores case?): pick another name",
				session, path, other)
		}
	}
	seed, err := loadSeed(Options{Session: session, CredsFile: path})
	if err != nil {
		kp, err := nkeys.CreateUser()
		if err != nil {
			return "", fmt.Errorf("mesh creds: %w", err)
		}
		if seed, err = kp.Seed(); err != nil {
			return "", fmt.Errorf("mesh creds: %w", err)
		}
	}
	text := fmt.Sprintf("# agentmux mesh credentials of session %s: keep this file private (0600).\nsession %s\npassword %s\nseed %s\n",
		session, session, password(secret, session), seed)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return "", fmt.Errorf("mesh creds: %w", err)
	}
	return path, nil
}

// credsPath is where the hub whose state folder is dir keeps session's credentials.
func credsPath(dir, session string) string { return filepath.Join(dir, "creds", session+".creds") }

// sessionKey is the public key of the credentials the hub whose state folder is dir
// made for session: those of that session exactly (a file system that ignores case
// would hand BOB bob's file).
func sessionKey(dir, session string) (string, error) {
	path := credsPath(dir, session)
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if s, _, err := parseCreds(string(b)); err != nil || s != session {
		return "", fmt.Errorf("mesh: %s holds no credentials of session %s", path, session)
	}
	return PublicKey(path, false)
}

// PublicKey is the public signing key of the session whose credentials (an agentmux
// credentials file, a NATS .creds or, with nkey, an nkey seed file) are at path: what
// other sessions pin for it (a "SESSION KEY" line of their known keys).
func PublicKey(path string, nkey bool) (string, error) {
	o := Options{CredsFile: path}
	if nkey {
		o = Options{NkeyFile: path}
	}
	seed, err := loadSeed(o)
	if err != nil {
		return "", err
	}
	s, err := newSigner(seed)
	if err != nil {
		return "", err
	}
	return s.pub, nil
}

// Close shuts the server down and waits for it.
func (h *Hub) Close() {
	h.closeOnce.Do(func() { close(h.closing) })
	if h.admin != nil {
		h.admin.Close()
	}
	if h.srv != nil {
		h.srv.Shutdown()
		h.srv.WaitForShutdown()
	}
}
