// Package mesh joins sessions on one or many machines through NATS, so that any member
// of any session is NAME@SESSION.
//
// A mesh is one NATS server (or cluster) with JetStream: `agentmux mesh serve` runs one
// embedded here (Hub), or a team points every session at theirs. Each session is a
// direct NATS client of it (Node) and owns one stream, AMUX_<session>, holding the
// messages for its members (subject amux.<to>.msg.<from>) and the delivery phases of
// the messages its members sent (amux.<to>.ph.<from>); a durable consumer of the same
// name reads it. A message sent while the recipient's session is down waits in its
// stream; one sent while the hub is unreachable waits in the sender's outbox (in
// order) and is published when the connection is back. Every message carries its id
// as Nats-Msg-Id (JetStream drops a second publish) and the receiving side records it
// in its store before typing it, so a message crossing twice is typed once.
//
// Identity: the hub's sessions log in as user NAME with a password derived from the
// hub's secret (Creds), and may publish only on amux.*.msg.NAME, amux.*.ph.NAME and
// amux.*.ln.NAME, answer who-questions only on amux.whois.*.NAME.* (no reply
// permission), and use only their own stream and consumer: the sending session's name
// is the subject's last token, enforced by the server. Every message is also signed
// with the session's ed25519 key over its subject and payload, and the receiving side
// verifies it against the key pinned for that session (sign.go), so that neither a
// session nor the server can pass as another. The receiving side attributes the
// message to MEMBER@thatname; a member name is the sending session's word, as within
// one session. Links across sessions wait for the receiving person's yes (consent.go).
// docs/mesh-security.md is the user's account of all this.
//
// The mesh is a client of the session core through hub.Core: Wrap puts it in front of
// the core the session socket (hub) uses, so SEND to NAME@SESSION (agentmux send, a
// protocol client, a relayed @relay line) crosses, and the receiving side types it
// with its own core (the relay's idle gate, drafts, modes). Links across sessions
// (link.go) and the phases that come back to a sender (notify.go) go through the same
// core. The TUI never imports it.
package mesh
