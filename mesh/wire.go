package mesh

import (
	"strings"

	"github.com/agentmux/agentmux/proto"
)

// wireMsg is a message crossing to another session (subject amux.TO.msg.FROM).
type wireMsg struct {
	// ID is the message's id: the sender's store id, kept across retries.
	ID string `json:"id"`
	// From is the sending member's name in its session; To the member's name in the
	// receiving one.
	From string `json:"from"`
	To   string `json:"to"`
	// FromPane is the sending pane's number, 0 for a sender that is no pane: the
	// attribution reads "alice@laptop (1):".
	FromPane int    `json:"from_pane,omitempty"`
	Text     string `json:"text"`
	Kind     string `json:"kind,omitempty"`
	// Mode is sequential (""), important or urgent.
	Mode string `json:"mode,omitempty"`
	// DeadlineMs, when set, is the Unix time in ms after which the message is dropped
	// rather than typed (its ttl).
	DeadlineMs int64 `json:"deadline_ms,omitempty"`
	// Link, when set, says the message is a turn of the link of that tag between From
	// and To (link.go), and Spent the turns the sending side has spent on the link,
	// this one included.
	Link  string `json:"link,omitempty"`
	Spent int    `json:"spent,omitempty"`
}

// wireLink makes or ends a link between a member of the sending session and one of the
// receiving session (subject amux.TO.ln.FROM).
type wireLink struct {
	// Op is "link", "end" or "rename" (From is the member's name now).
	Op string `json:"op"`
	// Tag names the link on both sides.
	Tag string `json:"tag"`
	// From is the sending session's member, To the receiving session's (for "link").
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Budget is the pair's turns (for "link").
	Budget int `json:"budget,omitempty"`
	// Why says why a link ended (for "end").
	Why string `json:"why,omitempty"`
}

// wirePhase is a delivery phase going back to the sending session (amux.TO.ph.FROM).
type wirePhase struct {
	ID    string      `json:"id"`
	To    string      `json:"to"`
	Phase proto.Phase `json:"phase"`
	Text  string      `json:"text,omitempty"`
}

// who is a session's answer on amux.who.NAME: its members.
type who struct {
	Session string      `json:"session"`
	Members []WhoMember `json:"members"`
}

// WhoMember is a member of a session in the mesh, as `agentmux ls --mesh` shows it
// (the socket's X_MESH carries it as it is).
type WhoMember = proto.MeshMember

// SplitAddress splits NAME@SESSION; ok is false for a name without a session.
func SplitAddress(to string) (name, session string, ok bool) {
	i := strings.LastIndexByte(to, '@')
	if i <= 0 || i == len(to)-1 {
		return "", "", false
	}
	return to[:i], to[i+1:], true
}
