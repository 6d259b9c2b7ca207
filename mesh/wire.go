package mesh

import "strings"

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
}

// wirePhase is a delivery phase going back to the sending session (amux.TO.ph.FROM).
type wirePhase struct {
	ID    string `json:"id"`
	To    string `json:"to"`
	Phase string `json:"phase"`
	Text  string `json:"text,omitempty"`
}

// who is a session's answer on amux.who.NAME: its members.
type who struct {
	Session string      `json:"session"`
	Members []WhoMember `json:"members"`
}

// WhoMember is a member of a session in the mesh, as `agentmux ls --mesh` shows it.
type WhoMember struct {
	Name    string `json:"name"`
	Program string `json:"program,omitempty"`
	State   string `json:"state"`
}

// SplitAddress splits NAME@SESSION; ok is false for a name without a session.
func SplitAddress(to string) (name, session string, ok bool) {
	i := strings.LastIndexByte(to, '@')
	if i <= 0 || i == len(to)-1 {
		return "", "", false
	}
	return to[:i], to[i+1:], true
}
