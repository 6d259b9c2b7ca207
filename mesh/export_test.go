package mesh

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Drained waits, at most d, until n's outbox is empty: JetStream acknowledged all it
// published. It says whether it is.
func Drained(n *Node, d time.Duration) bool {
	n.out.drain(d)
	return n.out.len() == 0
}

// SignedMsg is subject and data signed with the key of the credentials at credsPath,
// as a session publishes them.
func SignedMsg(credsPath, subject string, data []byte) (*nats.Msg, error) {
	seed, err := loadSeed(Options{CredsFile: credsPath})
	if err != nil {
		return nil, err
	}
	s, err := newSigner(seed)
	if err != nil {
		return nil, err
	}
	return s.msg(subject, "", data)
}

// SessionPassword is the password the hub whose state folder is dir takes from session,
// made whether or not the session's name is allowed.
func SessionPassword(dir, session string) (string, error) {
	secret, err := loadSecret(dir)
	return password(secret, session), err
}

// TeamStream is the stream a team's administrator makes for session
// (docs/mesh-security.md): what a session would make itself.
func TeamStream(session string) jetstream.StreamConfig {
	return streamConfig(session, 10*time.Minute, DefaultInboxBytes)
}

// InboxBytes is how many bytes session's inbox stream on h holds.
func (h *Hub) InboxBytes(session string) (uint64, error) {
	s, err := h.js.Stream(context.Background(), streamName(session))
	if err != nil {
		return 0, err
	}
	info, err := s.Info(context.Background())
	if err != nil {
		return 0, err
	}
	return info.State.Bytes, nil
}

// Learnt is how many names of session n learnt.
func Learnt(n *Node, session string) int {
	n.knownMu.Lock()
	defer n.knownMu.Unlock()
	k := 0
	for addr := range n.known {
		if _, s, ok := SplitAddress(addr); ok && s == session {
			k++
		}
	}
	return k
}
