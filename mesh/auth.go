package mesh

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"github.com/agentmux/agentmux/proto"
)

// validName matches a session or member name that can be a subject token: letters,
// digits, '-' and '_', 1 to 64 of them.
var validName nameForm

// nameForm is the form of a name that can be a subject token. A loop, not a regexp:
// compiling `^[A-Za-z0-9_-]{1,64}$` at package init cost every agentmux process ~1 ms
// and 860 allocations.
type nameForm struct{}

// MatchString reports whether s is 1 to 64 ASCII letters, digits, '-' or '_'.
func (nameForm) MatchString(s string) bool { return proto.IsWord(s, 64) }

// CheckName returns an error when name cannot be a session's name in a mesh.
func CheckName(name string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("session name %q: a mesh needs 1-64 letters, digits, '-' or '_' (pick one with --session)", name)
	}
	if strings.EqualFold(name, "who") || strings.EqualFold(name, "whois") {
		// amux.SESSION.> is a session's stream: amux.who.> and amux.whois.> carry every
		// question and answer of the mesh (what panes ask, for the asker alone).
		return fmt.Errorf("session name %q is the mesh's own (pick another with --session)", name)
	}
	return nil
}

// streamName is the JetStream stream holding session's inbox.
func streamName(session string) string { return "AMUX_" + session }

// password is the password of session on a hub whose secret is secret.
func password(secret []byte, session string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("agentmux mesh session\x00" + session))
	return hex.EncodeToString(m.Sum(nil))
}

// permissions are what session may do on the hub: publish messages, phases and links
// as itself (the subject's last token), ask who is in the mesh and answer as itself
// (amux.whois.ASKER.ITSELF.NONCE: the responder is in the subject too), and use only
// its own stream and its own durable consumer of it. No reply permission: a session
// that may answer a request once may publish once wherever the request's reply
// subject says, which is anywhere, as the asker chose it; so answers go to subjects
// the responder may publish to.
func permissions(session string) *server.Permissions {
	st := streamName(session)
	own := st + "." + session // the stream and its one consumer, named for the session
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			"amux.*.msg." + session, "amux.*.ph." + session, "amux.*.ln." + session,
			"amux.who.*", "amux.whois.*." + session + ".*",
			"$JS.API.INFO", "$JS.API.STREAM.NAMES", "$JS.API.STREAM.INFO." + st,
			"$JS.API.CONSUMER.CREATE." + own, "$JS.API.CONSUMER.CREATE." + own + ".>",
			"$JS.API.CONSUMER.DURABLE.CREATE." + own,
			"$JS.API.CONSUMER.INFO." + own, "$JS.API.CONSUMER.MSG.NEXT." + own,
			"$JS.API.CONSUMER.DELETE." + own,
			"$JS.ACK." + own + ".>",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{
			inboxPrefix(session) + ".>", "amux.who." + session, "amux.whois." + session + ".>",
		}},
	}
}

// inboxPrefix is session's reply subjects' prefix, so that no other session may read
// its replies.
func inboxPrefix(session string) string { return "_INBOX_" + session }

// loadSecret reads the hub's secret from dir/secret, making it (0600, 32 random bytes)
// on first use.
func loadSecret(dir string) ([]byte, error) {
	path := filepath.Join(dir, "secret")
	b, err := os.ReadFile(path)
	if err == nil {
		if err := checkPrivate(path); err != nil {
			return nil, err
		}
		s, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(s) < 16 {
			return nil, fmt.Errorf("mesh secret %s: not the hex secret agentmux writes", path)
		}
		return s, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("mesh secret: %w", err)
	}
	s := make([]byte, 32)
	if _, err := rand.Read(s); err != nil {
		return nil, fmt.Errorf("mesh secret: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("mesh secret: %w", err)
	}
	if _, err := fmt.Fprintln(f, hex.EncodeToString(s)); err != nil {
		f.Close()
		return nil, fmt.Errorf("mesh secret: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("mesh secret: %w", err)
	}
	return s, nil
}

// checkPrivate refuses a file other users may read or that another user owns.
func checkPrivate(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s: readable by others (mode %v): chmod 600 it", path, fi.Mode().Perm())
	}
	if !ownedByMe(fi) {
		return fmt.Errorf("%s: owned by another user", path)
	}
	return nil
}

// authenticator lets in the hub's own connection (admin, in memory) and the sessions
// whose password matches the secret, each with its permissions; before a session's
// login succeeds its stream is made (ensure).
type authenticator struct {
	secret    []byte
	adminPass string
	ensure    func(session string) error
	// keyOf returns a session's public key, from the credentials the hub made for it.
	keyOf func(session string) (string, error)
}

func (a *authenticator) Check(c server.ClientAuthentication) bool {
	if c.Kind() != server.CLIENT {
		return false
	}
	o := c.GetOpts()
	if o.Username == "" || o.Password == "" && o.Nkey == "" {
		return false
	}
	if o.Username == adminUser {
		if subtle.ConstantTimeCompare([]byte(o.Password), []byte(a.adminPass)) != 1 {
			return false
		}
		c.RegisterUser(&server.User{Username: adminUser})
		return true
	}
	if CheckName(o.Username) != nil {
		return false
	}
	if o.Nkey != "" {
		if !a.signed(o.Username, o.Nkey, o.Sig, c.GetNonce()) {
			return false
		}
	} else if subtle.ConstantTimeCompare([]byte(o.Password), []byte(password(a.secret, o.Username))) != 1 {
		return false // (a session of an agentmux from before it signed its login)
	}
	if a.ensure != nil && a.ensure(o.Username) != nil {
		return false
	}
	c.RegisterUser(&server.User{Username: o.Username, Permissions: permissions(o.Username)})
	return true
}

// signed reports whether sig is session's signature of nonce (this connection's, which
// the hub made): by the key of the credentials the hub made for session, pub.
func (a *authenticator) signed(session, pub, sig string, nonce []byte) bool {
	if a.keyOf == nil || len(nonce) == 0 {
		return false
	}
	want, err := a.keyOf(session)
	if err != nil || subtle.ConstantTimeCompare([]byte(pub), []byte(want)) != 1 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		if raw, err = base64.StdEncoding.DecodeString(sig); err != nil {
			return false
		}
	}
	kp, err := nkeys.FromPublicKey(pub)
	return err == nil && kp.Verify(nonce, raw) == nil
}

// adminUser is the hub's own connection (it makes the streams); its password is
// random per start and never leaves the process.
const adminUser = "$agentmux"
