package mesh

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nats-io/nats.go"
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
		session, pass, err := parseCreds(string(b))
		if err != nil {
			return nil, fmt.Errorf("--mesh-creds %s: %w", o.CredsFile, err)
		}
		if session != o.Session {
			return nil, fmt.Errorf("--mesh-creds %s: the credentials are session %q's; start with --session %s, or have the hub's owner run `agentmux mesh creds %s`",
				o.CredsFile, session, session, o.Session)
		}
		opts = append(opts, nats.UserInfo(session, pass))
	}
	return opts, nil
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
		return fmt.Errorf("refused: wrong or missing credentials (--mesh-creds / --mesh-nkey): %w", err)
	}
	return err
}
