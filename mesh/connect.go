package mesh

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// connectOptions are the NATS options for o's credentials.
func connectOptions(o Options) ([]nats.Option, error) {
	opts := []nats.Option{
		nats.Name("agentmux " + o.Session),
		nats.CustomInboxPrefix(inboxPrefix(o.Session)),
		nats.MaxReconnects(-1),
		// No reconnect buffer: a publish while the hub is away fails at once and stays
		// in the outbox, which publishes again from its head, in order, once the
		// connection is back. Buffered publishes would reach the hub after the retry
		// began, behind it or ahead of what failed before them.
		nats.ReconnectBufSize(-1),
		nats.ReconnectWait(o.ReconnectWait),
		nats.RetryOnFailedConnect(false),
		nats.Timeout(o.Timeout),
	}
	if o.CAFile != "" {
		opts = append(opts, nats.RootCAs(o.CAFile))
	}
	switch {
	case o.CredsFile != "" && o.NkeyFile != "":
		return nil, errors.New("mesh: give --mesh-creds or --mesh-nkey, not both")
	case o.NkeyFile != "":
		if err := checkPrivate(o.NkeyFile); err != nil {
			return nil, fmt.Errorf("--mesh-nkey: %w", err)
		}
		opt, err := nats.NkeyOptionFromSeed(o.NkeyFile)
		if err != nil {
			return nil, fmt.Errorf("--mesh-nkey: %w", err)
		}
		opts = append(opts, opt)
	case o.CredsFile != "":
		if err := checkPrivate(o.CredsFile); err != nil {
			return nil, fmt.Errorf("--mesh-creds: %w", err)
		}
		b, err := os.ReadFile(o.CredsFile)
		if err != nil {
			return nil, fmt.Errorf("--mesh-creds: %w", err)
		}
		if strings.Contains(string(b), "BEGIN NATS USER JWT") {
			opts = append(opts, nats.UserCredentials(o.CredsFile))
			break
		}
		session, _, err := parseCreds(string(b)) // its password: only for sessions of an older agentmux
		if err != nil {
			return nil, fmt.Errorf("--mesh-creds %s: %w", o.CredsFile, err)
		}
		if session != o.Session {
			return nil, fmt.Errorf("--mesh-creds %s: the credentials are session %q's; start with --session %s, or have the hub's owner run `agentmux mesh creds %s`",
				o.CredsFile, session, session, o.Session)
		}
		// The login is a signature of the hub's nonce by the session's key: whatever
		// holds the hub's address (another user on the loopback port while the hub is
		// down) reads nothing it could log in with. The hub checks the key against the
		// credentials it made.
		seed, err := loadSeed(o)
		if err != nil {
			return nil, err
		}
		kp, err := nkeys.FromSeed(seed)
		if err != nil {
			return nil, fmt.Errorf("--mesh-creds %s: its signing key: %w", o.CredsFile, err)
		}
		pub, err := kp.PublicKey()
		if err != nil {
			return nil, fmt.Errorf("--mesh-creds %s: its signing key: %w", o.CredsFile, err)
		}
		opts = append(opts, nats.UserInfo(session, ""), nats.Nkey(pub, kp.Sign))
	}
	return opts, nil
}

// connect connects to o's hub with opts (connectOptions' and more). A server that
// offers no nonce to sign (a NATS server without authentication; a hub of an agentmux
// from before sessions signed their login, which then refuses) is logged in to with
// the session's name alone: nothing secret is ever sent in place of the signature.
func connect(o Options, opts []nats.Option) (*nats.Conn, error) {
	nc, err := nats.Connect(o.URL, opts...)
	if errors.Is(err, nats.ErrNkeysNotSupported) && o.CredsFile != "" {
		unsigned := func(no *nats.Options) error {
			no.Nkey, no.SignatureCB = "", nil
			return nil
		}
		nc, err = nats.Connect(o.URL, append(opts, unsigned)...)
	}
	return nc, err
}

// parseCreds reads the file WriteCreds writes.
func parseCreds(text string) (session, pass string, err error) {
	for _, line := range strings.Split(text, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch k {
		case "session":
			session = strings.TrimSpace(v)
		case "password":
			pass = strings.TrimSpace(v)
		}
	}
	if session == "" || pass == "" {
		return "", "", errors.New("not an agentmux mesh credentials file (session and password lines)")
	}
	return session, pass, nil
}

// explainConnect says what a refused login means.
func explainConnect(err error) error {
	if errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization") {
		return fmt.Errorf("refused: wrong or missing credentials (--mesh-creds / --mesh-nkey), or a hub of an agentmux older than this session's, which takes passwords only: %w", err)
	}
	return err
}
