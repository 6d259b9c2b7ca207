package mesh

import (
	"time"

	"github.com/nats-io/nats.go"
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
