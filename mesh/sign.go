package mesh

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Every message a session publishes on the mesh (a message, a delivery phase, a link
// op, an answer to who) is signed with the session's own ed25519 key (an nkey user
// seed: the one its credentials file holds, or --mesh-nkey), and every receiver
// verifies it against the key it knows for the sending session before acting on it,
// as ssh verifies a host's key rather than the route. The signature covers the
// subject, which names the receiving session, the kind and the sending session, and
// the payload: a message signed for one session, replayed into another or with a byte
// changed, does not verify. The server's permissions say who may publish where; the
// signature says who wrote it, so that a hub, or a team's own server misconfigured,
// cannot forge a session either.
//
// A receiver learns a session's key on first sight (the key a verified message
// carries) and pins it in its known-keys file (Options.KnownKeys, one "SESSION KEY"
// line each, as ssh's known_hosts): a message signed by any other key for that session
// is refused and logged. A line added beforehand pins a key before first sight.

// Headers of a signed message: the signer's public key and its signature.
const (
	hdrKey = "Amux-Key"
	hdrSig = "Amux-Sig"
)

// signedBytes is what a signature covers.
func signedBytes(subject string, data []byte) []byte {
	b := make([]byte, 0, len(subject)+len(data)+24)
	b = append(b, "agentmux mesh v1\x00"...)
	b = append(b, subject...)
	b = append(b, 0)
	return append(b, data...)
}

// signer signs what a session publishes.
type signer struct {
	kp  nkeys.KeyPair
	pub string
}

func newSigner(seed []byte) (*signer, error) {
	kp, err := nkeys.FromSeed(seed)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	if !nkeys.IsValidPublicUserKey(pub) {
		return nil, errors.New("signing key: not an nkey user seed (SU…)")
	}
	return &signer{kp: kp, pub: pub}, nil
}

// msg is subject and data as a NATS message with the signature headers.
func (s *signer) msg(subject, reply string, data []byte) (*nats.Msg, error) {
	sig, err := s.kp.Sign(signedBytes(subject, data))
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	m := nats.NewMsg(subject)
	m.Reply, m.Data = reply, data
	m.Header.Set(hdrKey, s.pub)
	m.Header.Set(hdrSig, base64.RawURLEncoding.EncodeToString(sig))
	return m, nil
}

// ErrBadSignature says a message's signature is missing, does not verify, or was made
// with a key other than the one known for its session.
var ErrBadSignature = errors.New("bad signature")

// keyring is the keys known for the sessions of the mesh (pinned on first sight), kept
// in a file when it has a path. Safe from any goroutine.
type keyring struct {
	mu   sync.Mutex
	path string
	pins map[string]string
}

// openKeyring reads the known keys at path ("" keeps them in memory only).
func openKeyring(path string) (*keyring, error) {
	k := &keyring{path: path, pins: map[string]string{}}
	if err := k.reload(); err != nil {
		return nil, err
	}
	return k, nil
}

// reload reads the file's lines: the first key given for a session holds.
func (k *keyring) reload() error {
	if k.path == "" {
		return nil
	}
	f, err := os.Open(k.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mesh known keys: %w", err)
	}
	defer f.Close()
	if err := checkPrivate(k.path); err != nil {
		return fmt.Errorf("mesh known keys: %w", err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		session, key, ok := strings.Cut(line, " ")
		key = strings.TrimSpace(key)
		if !ok || !validName.MatchString(session) || !nkeys.IsValidPublicUserKey(key) {
			return fmt.Errorf("mesh known keys %s: bad line %q (SESSION KEY)", k.path, line)
		}
		if _, ok := k.pins[session]; !ok {
			k.pins[session] = key
		}
	}
	return sc.Err()
}

// pin returns the key known for session, pinning key as its key when none is (first
// sight); first says it was pinned now.
func (k *keyring) pin(session, key string) (known string, first bool, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if p, ok := k.pins[session]; ok {
		return p, false, nil
	}
	if err := k.reload(); err != nil { // another session of this user may have pinned it
		return "", false, err
	}
	if p, ok := k.pins[session]; ok {
		return p, false, nil
	}
	if k.path != "" {
		if err := os.MkdirAll(filepath.Dir(k.path), 0o700); err != nil {
			return "", false, fmt.Errorf("mesh known keys: %w", err)
		}
		f, err := os.OpenFile(k.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return "", false, fmt.Errorf("mesh known keys: %w", err)
		}
		_, err = fmt.Fprintf(f, "%s %s\n", session, key) // one write: appended whole
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", false, fmt.Errorf("mesh known keys: %w", err)
		}
	}
	k.pins[session] = key
	return key, true, nil
}

// verify checks that subject and data were signed by session with the key known for
// it (pinning the one they carry on first sight). first says the key was pinned now.
func (k *keyring) verify(session, subject string, data []byte, h nats.Header) (first bool, err error) {
	key, sig64 := h.Get(hdrKey), h.Get(hdrSig)
	if key == "" || sig64 == "" {
		return false, fmt.Errorf("%w: unsigned", ErrBadSignature)
	}
	if !nkeys.IsValidPublicUserKey(key) {
		return false, fmt.Errorf("%w: %q is no public key", ErrBadSignature, key)
	}
	sig, err := base64.RawURLEncoding.DecodeString(sig64)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	// The signature first: a message that does not verify pins nothing.
	pk, err := nkeys.FromPublicKey(key)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	if err := pk.Verify(signedBytes(subject, data), sig); err != nil {
		return false, fmt.Errorf("%w: does not verify with the key it carries", ErrBadSignature)
	}
	known, first, err := k.pin(session, key)
	if err != nil {
		return false, err
	}
	if known != key {
		return false, fmt.Errorf("%w: signed by %s, but session %s's key is %s (pinned): if it really changed, remove its line from the known keys",
			ErrBadSignature, key, session, known)
	}
	return first, nil
}

// loadSeed reads the signing seed from o's credentials: an nkey seed file, a NATS
// .creds file, or an agentmux credentials file's seed line.
func loadSeed(o Options) ([]byte, error) {
	switch {
	case o.NkeyFile != "":
		b, err := os.ReadFile(o.NkeyFile)
		if err != nil {
			return nil, fmt.Errorf("--mesh-nkey: %w", err)
		}
		return []byte(strings.TrimSpace(string(b))), nil
	case o.CredsFile != "":
		b, err := os.ReadFile(o.CredsFile)
		if err != nil {
			return nil, fmt.Errorf("--mesh-creds: %w", err)
		}
		if strings.Contains(string(b), "BEGIN NATS USER JWT") {
			kp, err := nkeys.ParseDecoratedNKey(b)
			if err != nil {
				return nil, fmt.Errorf("--mesh-creds %s: %w", o.CredsFile, err)
			}
			return kp.Seed()
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "seed "); ok {
				return []byte(strings.TrimSpace(v)), nil
			}
		}
		return nil, fmt.Errorf("--mesh-creds %s: no signing key (a file from before messages were signed): have the hub's owner run `agentmux mesh creds %s` again",
			o.CredsFile, o.Session)
	}
	return nil, errors.New("mesh: no key to sign with: give --mesh-creds or --mesh-nkey")
}
