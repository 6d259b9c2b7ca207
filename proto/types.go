package proto

import (
	"encoding/json"
	"errors"
	"time"
)

// The relay protocol v1 message types (agent-relay's seed spec).
const (
	TypeHello       = "HELLO"
	TypeWelcome     = "WELCOME"
	TypeSend        = "SEND"
	TypeDeliver     = "DELIVER"
	TypeAck         = "ACK"
	TypeNack        = "NACK"
	TypePing        = "PING"
	TypePong        = "PONG"
	TypeError       = "ERROR"
	TypeBusy        = "BUSY"
	TypeResume      = "RESUME"
	TypeSync        = "SYNC"
	TypeBye         = "BYE"
	TypeSubscribe   = "SUBSCRIBE"
	TypeUnsubscribe = "UNSUBSCRIBE"
)

// Payload kinds of SEND and DELIVER.
const (
	KindMessage  = "message"
	KindThinking = "thinking"
	KindState    = "state"
	KindAction   = "action"
)

// Error codes of ERROR (agent-relay's, plus NAME_TAKEN and TOO_LARGE).
const (
	CodeBadRequest   = "BAD_REQUEST"
	CodeNotFound     = "NOT_FOUND"
	CodeInternal     = "INTERNAL"
	CodeResumeTooOld = "RESUME_TOO_OLD"
	CodeNameTaken    = "NAME_TAKEN"
	CodeTooLarge     = "TOO_LARGE"
	CodeUnknownType  = "UNKNOWN_TYPE"
)

// NACK codes.
const (
	NackBusy    = "BUSY"
	NackInvalid = "INVALID"
	NackStale   = "STALE"
)

// Capabilities is what a client announces in HELLO.
type Capabilities struct {
	Ack            bool `json:"ack"`
	Resume         bool `json:"resume"`
	MaxInflight    int  `json:"max_inflight"`
	SupportsTopics bool `json:"supports_topics"`
}

// HelloSession carries the token of an earlier WELCOME to resume it.
type HelloSession struct {
	ResumeToken string `json:"resume_token,omitempty"`
}

// RoleControl in Hello.Role marks a control client (the agentmux commands): it is not a
// member, and its SEND may name the sender in the envelope's from.
const RoleControl = "control"

// Hello is the payload of HELLO. Agent-relay's descriptive fields (cli, program, model,
// task, workingDirectory) are accepted; Role is an agentmux extension.
type Hello struct {
	Agent            string        `json:"agent"`
	Capabilities     Capabilities  `json:"capabilities"`
	CLI              string        `json:"cli,omitempty"`
	Program          string        `json:"program,omitempty"`
	Model            string        `json:"model,omitempty"`
	Task             string        `json:"task,omitempty"`
	WorkingDirectory string        `json:"workingDirectory,omitempty"`
	Session          *HelloSession `json:"session,omitempty"`
	Role             string        `json:"x_role,omitempty"`
	// Proof is a pane's secret (its $AGENTMUX_PROOF, extension): the connection then
	// speaks for that pane (its X_HOOK, its SENDs). A proof no live pane has is refused.
	Proof string `json:"x_proof,omitempty"`
}

// Validate requires an agent name (any name for control clients).
func (h *Hello) Validate() error {
	if h.Agent == "" && h.Role != RoleControl {
		return errors.New("missing field agent")
	}
	if h.Role != "" && h.Role != RoleControl {
		return errors.New("unknown x_role " + h.Role)
	}
	return nil
}

// ServerInfo is WELCOME's server section. Extensions names the agentmux extension
// families and their versions (docs/protocol.md).
type ServerInfo struct {
	MaxFrameBytes int            `json:"max_frame_bytes"`
	HeartbeatMs   int64          `json:"heartbeat_ms"`
	Extensions    map[string]int `json:"x_extensions,omitempty"`
}

// Welcome is the payload of WELCOME.
type Welcome struct {
	SessionID   string     `json:"session_id"`
	ResumeToken string     `json:"resume_token,omitempty"`
	Server      ServerInfo `json:"server"`
	Session     string     `json:"x_session,omitempty"`
	Member      string     `json:"x_member,omitempty"`
}

// Send is the payload of SEND and DELIVER.
type Send struct {
	Kind   string          `json:"kind"`
	Body   string          `json:"body"`
	Data   json.RawMessage `json:"data,omitempty"`
	Thread string          `json:"thread,omitempty"`
}

// Validate requires a known kind (empty means message).
func (s *Send) Validate() error {
	switch s.Kind {
	case "":
		s.Kind = KindMessage
	case KindMessage, KindThinking, KindState, KindAction:
	default:
		return errors.New("unknown kind " + s.Kind)
	}
	return nil
}

// SendMeta is the envelope's payload_meta beside a SEND's payload.
type SendMeta struct {
	RequiresAck *bool  `json:"requires_ack,omitempty"`
	TTLMs       int64  `json:"ttl_ms,omitempty"`
	Importance  int    `json:"importance,omitempty"`
	ReplyTo     string `json:"replyTo,omitempty"`
	// Mode is how a message to a pane goes: "sequential" (or absent), "important" or
	// "urgent" (the delivery modes; docs/protocol.md).
	Mode string `json:"mode,omitempty"`
	// XNotifyOnDelivery asks for a notice (a DELIVER of kind state to a member sender)
	// when a pane got the message; XNotifyAfterMs for a reminder that long after.
	XNotifyOnDelivery bool  `json:"x_notify_on_delivery,omitempty"`
	XNotifyAfterMs    int64 `json:"x_notify_after_ms,omitempty"`
	// XRemindMs makes the message a reminder, typed into the pane as
	// "[agentmux] reminder: BODY" that long after it was queued (agentmux remind).
	XRemindMs int64 `json:"x_remind_ms,omitempty"`
}

// StoredSendMeta reads the SendMeta a message was stored with ("" is none). The hub
// stores it from a SEND it decoded, so it reads; what does not is taken as none.
func StoredSendMeta(s string) SendMeta {
	var m SendMeta
	if s != "" {
		_ = json.Unmarshal([]byte(s), &m)
	}
	return m
}

// Expiry is when a message queued at queued may no longer be typed or handed on: its
// TTL after queued, the zero time when it has none.
func (m SendMeta) Expiry(queued time.Time) time.Time {
	if m.TTLMs <= 0 {
		return time.Time{}
	}
	return queued.Add(time.Duration(m.TTLMs) * time.Millisecond)
}

// The modes of SendMeta.Mode.
const (
	ModeSequential = "sequential"
	ModeImportant  = "important"
	ModeUrgent     = "urgent"
)

// Delivery is a DELIVER's position in its stream.
type Delivery struct {
	Seq       int64  `json:"seq"`
	SessionID string `json:"session_id"`
}

// Ack is the payload of ACK. A client acknowledges a DELIVER by its id and seq; the
// server acknowledges a SEND by the SEND's id and gives the stored MessageID.
type Ack struct {
	AckID     string `json:"ack_id"`
	Seq       int64  `json:"seq,omitempty"`
	MessageID string `json:"message_id,omitempty"`
	Queued    int    `json:"queued,omitempty"`
	// XNote is what the sender should know of how the message goes, e.g. that the
	// mesh's hub is unreachable and the message waits in the outbox (agentmux's own;
	// empty for most).
	XNote string `json:"x_note,omitempty"`
}

// Validate requires ack_id.
func (a *Ack) Validate() error {
	if a.AckID == "" {
		return errors.New("missing field ack_id")
	}
	return nil
}

// Nack is the payload of NACK.
type Nack struct {
	AckID   string `json:"ack_id"`
	Code    string `json:"code,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// Validate requires ack_id.
func (n *Nack) Validate() error {
	if n.AckID == "" {
		return errors.New("missing field ack_id")
	}
	return nil
}

// Busy is the payload of BUSY.
type Busy struct {
	RetryAfterMs int64  `json:"retry_after_ms"`
	QueueDepth   int    `json:"queue_depth"`
	AckID        string `json:"ack_id,omitempty"`
}

// Ping is the payload of PING and PONG.
type Ping struct {
	Nonce string `json:"nonce"`
}

// Error is the payload of ERROR. Re names the request it answers, when there is one.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Fatal   bool   `json:"fatal"`
	Re      string `json:"re,omitempty"`
}

// StreamPos is a client's position in one topic's stream in RESUME.
type StreamPos struct {
	LastSeq int64 `json:"last_seq"`
}

// Resume is the payload of RESUME: streams by topic ("" is the default topic).
type Resume struct {
	SessionID   string               `json:"session_id"`
	Agent       string               `json:"agent,omitempty"`
	ResumeToken string               `json:"resume_token,omitempty"`
	Streams     map[string]StreamPos `json:"streams,omitempty"`
}

// Validate requires session_id.
func (r *Resume) Validate() error {
	if r.SessionID == "" {
		return errors.New("missing field session_id")
	}
	return nil
}

// SyncStream is one stream in SYNC. Peer is "*": a recipient's seq counts every sender
// in the topic.
type SyncStream struct {
	Topic         string `json:"topic"`
	Peer          string `json:"peer"`
	LastSeq       int64  `json:"last_seq"`
	ServerLastSeq int64  `json:"server_last_seq"`
}

// Sync is the payload of SYNC; Replay counts the DELIVERs that follow it.
type Sync struct {
	SessionID string       `json:"session_id"`
	Streams   []SyncStream `json:"streams"`
	Replay    int          `json:"x_replay"`
}

// Topics is the payload of SUBSCRIBE and UNSUBSCRIBE when more than the envelope's one
// topic is named.
type Topics struct {
	Topics []string `json:"topics,omitempty"`
}

// Bye is the payload of BYE.
type Bye struct {
	Reason string `json:"reason,omitempty"`
}
