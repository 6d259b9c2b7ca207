package proto

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// ExtFamily names the agentmux extension family in WELCOME's server.x_extensions; its
// value is ExtVersion. A change that breaks a client bumps the version.
const (
	ExtFamily  = "agentmux"
	ExtVersion = 1
)

// HookFamily names the hook extension (X_HOOK) in WELCOME's server.x_extensions; its
// value is HookVersion.
const (
	HookFamily  = "agentmux.hook"
	HookVersion = 1
)

// PanesFamily names the pane commands' extension (X_NEW, X_RESPAWN, X_RENAME, X_TYPE)
// in WELCOME's server.x_extensions; its value is PanesVersion.
const (
	PanesFamily  = "agentmux.panes"
	PanesVersion = 1
)

// The agentmux extension types (docs/protocol.md). Requests are answered by X_RESULT
// with Result.Re set to the request's id, or ERROR with Error.Re set.
const (
	TypeList    = "X_LIST"
	TypeCapture = "X_CAPTURE"
	TypeHistory = "X_HISTORY"
	TypeRead    = "X_READ"
	TypeLink    = "X_LINK"
	TypeUnlink  = "X_UNLINK"
	TypeHold    = "X_HOLD"
	TypeRelease = "X_RELEASE"
	TypeEvents  = "X_EVENTS"
	TypeResult  = "X_RESULT"
	TypeEvent   = "X_EVENT"
	TypeHook    = "X_HOOK"
	// The pane commands (agentmux.panes): the person's alone, never a pane's program's.
	TypeNew     = "X_NEW"
	TypeRespawn = "X_RESPAWN"
	TypeRename  = "X_RENAME"
	TypeType    = "X_TYPE"
	TypeResize  = "X_RESIZE"
	// TypeDiff (payload Target, a) answers with screen: what pane a's agent changed in
	// its own worktree against the starting commit.
	TypeDiff = "X_DIFF"
	TypeWeb  = "X_WEB"
	// TypeMesh (payload {}) answers with x_mesh: the sessions of the mesh the session
	// joined, as `agentmux ls --mesh` lists them.
	TypeMesh = "X_MESH"
	// TypeAnswer (payload Answer) picks a choice of the prompt a pane waits at, as the
	// person: answered with x_answer, the choice picked. The person's alone.
	TypeAnswer = "X_ANSWER"
)

// Answer is the payload of X_ANSWER: pick Option (a choice's key, the start of its
// label, or yes / no) of the prompt pane A waits at; Question, when set, must be what
// it asks now, so that an answer for a prompt that is gone is refused.
type Answer struct {
	A        string `json:"a"`
	Option   string `json:"option"`
	Question string `json:"question,omitempty"`
}

// Validate requires a and option.
func (a *Answer) Validate() error {
	switch {
	case a.A == "":
		return errors.New("missing field a")
	case a.Option == "":
		return errors.New("missing field option")
	}
	return nil
}

// MeshSession is a session of a mesh as `agentmux ls --mesh` shows it: live (its
// members answered) or away (its stream keeps its messages until it is back).
type MeshSession struct {
	Name    string       `json:"session"`
	Live    bool         `json:"live"`
	Members []MeshMember `json:"members"`
	// Untrusted, when set, says why the session's answer was refused (not signed
	// with the key known for it): it is shown away.
	Untrusted string `json:"x_untrusted,omitempty"`
	// Silent, when set, says the session has a subscriber that did not answer in time
	// (its server stopped or stuck): it is shown away.
	Silent string `json:"x_silent,omitempty"`
}

// MeshMember is a member of a session in a mesh.
type MeshMember struct {
	Name    string `json:"name"`
	Program string `json:"program,omitempty"`
	State   string `json:"state"`
	// Pane and Asks are the pane's number and what it asks the person while its state
	// is "needs you": told only to the sessions of that session's person.
	Pane int   `json:"pane,omitempty"`
	Asks *Asks `json:"asks,omitempty"`
}

// Resize is the payload of X_RESIZE: pane A's width and height as percentages of an
// even share of the screen (0 leaves one as it is), kept by every terminal's layout.
// X_RESULT's x_share is the share now in force.
type Resize struct {
	A      string `json:"a"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
}

// Validate requires a, and shares of 0 or more.
func (r *Resize) Validate() error {
	switch {
	case r.A == "":
		return errors.New("missing field a")
	case r.Width < 0 || r.Height < 0:
		return errors.New("width and height are percentages, 0 or more")
	}
	return nil
}

// NewPane is the payload of X_NEW: a pane to start now. Argv is its command; Name its
// name ("": its program's, made unique); Dir the folder it starts in ("": the
// session's); Env KEY=VALUE words added to its environment. X_RESULT's x_number is the
// new pane's number.
type NewPane struct {
	Argv []string `json:"argv"`
	Name string   `json:"name,omitempty"`
	Dir  string   `json:"dir,omitempty"`
	Env  []string `json:"env,omitempty"`
	// Worktree starts it in a new git worktree of the repository Dir is in.
	Worktree bool `json:"worktree,omitempty"`
}

// Validate requires a command.
func (n *NewPane) Validate() error {
	if len(n.Argv) == 0 || n.Argv[0] == "" {
		return errors.New("missing field argv")
	}
	return nil
}

// Respawn is the payload of X_RESPAWN: start pane A's command again; Kill ends its
// program first when it still runs (else that is an error).
type Respawn struct {
	A    string `json:"a"`
	Kill bool   `json:"kill,omitempty"`
}

// Validate requires a.
func (r *Respawn) Validate() error {
	if r.A == "" {
		return errors.New("missing field a")
	}
	return nil
}

// Rename is the payload of X_RENAME: pane A is called Name from now on.
type Rename struct {
	A    string `json:"a"`
	Name string `json:"name"`
}

// Validate requires a and name.
func (r *Rename) Validate() error {
	switch {
	case r.A == "":
		return errors.New("missing field a")
	case r.Name == "":
		return errors.New("missing field name")
	}
	return nil
}

// TypeText is the payload of X_TYPE: Text typed into pane A exactly as given (no
// header, no framing, not gated on the program being idle), then a carriage return
// when Enter.
type TypeText struct {
	A     string `json:"a"`
	Text  string `json:"text"`
	Enter bool   `json:"enter,omitempty"`
}

// Validate requires a.
func (t *TypeText) Validate() error {
	if t.A == "" {
		return errors.New("missing field a")
	}
	return nil
}

// Web is the payload of X_WEB: start the session's web view (or say where it runs,
// with a fresh link). Listen is HOST:PORT ("": loopback, a free port); Control lets
// its pages act, ReadOnly asks for a view that does not (a running view of the other
// mode is restarted); TLSCert and TLSKey (absolute paths) serve HTTPS. Stop ends the
// view and every page.
type Web struct {
	Listen   string `json:"listen,omitempty"`
	Control  bool   `json:"control,omitempty"`
	ReadOnly bool   `json:"read_only,omitempty"`
	TLSCert  string `json:"tls_cert,omitempty"`
	TLSKey   string `json:"tls_key,omitempty"`
	Stop     bool   `json:"stop,omitempty"`
}

// WebView is X_WEB's result: the page's URL (with its token), whether its pages may
// act, and a warning to show when it listens beyond loopback.
type WebView struct {
	URL     string `json:"url"`
	Control bool   `json:"control,omitempty"`
	Warning string `json:"warning,omitempty"`
	// Running is true when the view was running already (listen and control as it
	// was started); with Stopped, that there was a view to stop.
	Running bool `json:"running,omitempty"`
	// Restarted says why a running view was stopped and started anew (its pages
	// closed, its links void), e.g. "it was read-only".
	Restarted string `json:"restarted,omitempty"`
	// Stopped is true when the request stopped the view (URL is then empty); Pages is
	// how many pages it closed.
	Stopped bool `json:"stopped,omitempty"`
	Pages   int  `json:"pages,omitempty"`
}

// Hook is the payload of X_HOOK (extension agentmux.hook, version 1): a program's hook
// (`agentmux hook EVENT`) reports that its turn in Pane (a name or number; the
// hook's $AGENTMUX_PANE) ended. Text is the answer as the model wrote it ("" when the
// hook had none); Event the hook's event as agentmux names it (stop, notification,
// codex-notify, after-agent); CLI the program (claude, codex, gemini). Usage is the
// file the program records its token usage in (its transcript), "" when the hook did
// not name one: the session reads the turn's usage from it.
type Hook struct {
	Pane  string `json:"pane"`
	Event string `json:"event"`
	CLI   string `json:"cli,omitempty"`
	Text  string `json:"text,omitempty"`
	// Conversation is the CLI's own id of the conversation the pane holds, as its hook
	// payload says it (Claude Code's, Gemini CLI's and Qwen Code's session_id, Codex's
	// thread-id): agentmux restore resumes it.
	Conversation string `json:"conversation,omitempty"`
	Usage        string `json:"usage,omitempty"`
}

// CheckConversation reports whether id may be a CLI's conversation id: agentmux
// restore passes it to the CLI as an argument word, so a pane's program (perhaps
// prompt-injected) that reports one must not be able to smuggle an option in. An id
// is 1 to 128 letters, digits, '-', '_', '.' or ':' and does not start with '-'.
func CheckConversation(id string) error {
	if id == "" || len(id) > 128 {
		return fmt.Errorf("conversation id of %d bytes (1 to 128)", len(id))
	}
	if id[0] == '-' {
		return fmt.Errorf("conversation id %q starts with '-'", id)
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == ':'
		if !ok {
			return fmt.Errorf("conversation id %q holds %q", id, r)
		}
	}
	return nil
}

// HookAsk is Hook's Event when the program's notification hook says it waits for the
// person's permission (Text its words): no turn end; the pane needs the person until
// they answer, its screen says it works again, or its turn ends.
const HookAsk = "ask"

// HookConversation is Hook's Event when the program only says which conversation it
// holds (pi's and opencode's extensions, at the end of each turn): the id is kept for
// agentmux restore, and nothing else happens (no turn end: those programs' turns end
// by their screens).
const HookConversation = "conversation"

// Validate requires pane and event.
func (h *Hook) Validate() error {
	switch {
	case h.Pane == "":
		return errors.New("missing field pane")
	case h.Event == "":
		return errors.New("missing field event")
	}
	return nil
}

// Member is one member in an X_LIST result: a pane or a protocol client.
type Member struct {
	Number  int    `json:"number,omitempty"`
	Name    string `json:"name"`
	Program string `json:"program"`
	// State is as the pane's border says it: running, idle, busy, needs you, or how it
	// ended (exited (1), killed (SIGSEGV)).
	State string `json:"state"`
	// Group is the pane's relay group as the status line shows it ("2⇄3⇄4", or
	// "1⇄bob@buildbox" for a link with another session's member); Turns its budget.
	Group   string `json:"group,omitempty"`
	Turns   *Turns `json:"x_turns,omitempty"`
	Waiting int    `json:"waiting"`
	Client  bool   `json:"client,omitempty"`
	// Held: deliveries into the pane are held; Addressing: its relay commands may reach
	// panes it is not linked with. Profile is the relay profile its program is read with.
	Held       bool   `json:"held,omitempty"`
	Addressing bool   `json:"addressing,omitempty"`
	Profile    string `json:"profile,omitempty"`
	// Folder is the folder the pane's program started in when it is not the session's;
	// Branch its git worktree's branch when it has one of its own (--worktree).
	Folder string `json:"x_folder,omitempty"`
	Branch string `json:"x_branch,omitempty"`
	// Tokens is what the pane's program spent, as its CLI recorded it (nil: nothing
	// read); CostUSD what the priced part cost (nil: none had a price), CostPartial set
	// when some had none (the cost is then a floor).
	Tokens      *Tokens  `json:"tokens,omitempty"`
	CostUSD     *float64 `json:"cost_usd,omitempty"`
	CostPartial bool     `json:"cost_partial,omitempty"`
	// CostOwn: some of the cost is the one the pane's CLI computed itself (opencode,
	// pi), not the price table's.
	CostOwn bool `json:"x_cost_own,omitempty"`
	// Metered: the pane's CLI records usage agentmux reads (false: not known, "?").
	Metered bool `json:"x_metered,omitempty"`
	// Asks is what the pane asks the person while its state is "needs you": the
	// question and choices its program shows (absent otherwise).
	Asks *Asks `json:"asks,omitempty"`
}

// Asks is what a pane waiting for the person asks, as its program's screen shows it.
type Asks struct {
	// Question is the row that asks ("Do you want to proceed?"); "" when none was read.
	Question string `json:"question"`
	// Options are the choices in order: Key is what `agentmux answer` types to pick
	// one, Label its words.
	Options []Option `json:"options"`
	// Since is when the pane began to wait (Unix ms).
	Since int64 `json:"since"`
	// Context is the prompt's rows around the question: what it is about.
	Context []string `json:"context,omitempty"`
}

// Option is one choice of an Asks.
type Option struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Turns is a relay group's budget as the status line counts it ("3/8"): the turns
// Used of Budget (for a link with another session, by both sides together).
type Turns struct {
	Used   int `json:"used"`
	Budget int `json:"budget"`
}

// String is the count as the status line shows it, "3/8".
func (t Turns) String() string { return strconv.Itoa(t.Used) + "/" + strconv.Itoa(t.Budget) }

// Target is the payload of X_LINK (A and B), X_UNLINK, X_HOLD and X_RELEASE (A).
type Target struct {
	A string `json:"a"`
	B string `json:"b,omitempty"`
	// Shell (X_LINK) links a pane that runs a shell too: the person asked for it.
	Shell bool `json:"x_shell,omitempty"`
	// Turns and Budget (X_LINK), when set, are the link's turn budget and its spend
	// budget (tokens or dollars, as --link-budget reads them: "300k", "$2"): the
	// person's alone to give.
	Turns  int    `json:"x_turns,omitempty"`
	Budget string `json:"x_budget,omitempty"`
	// Accept or Refuse (X_LINK) answers the link request of another session's
	// member A (NAME@SESSION; "" when only one waits); Pending lists the requests
	// waiting (Result.LinkRequests).
	Accept  bool `json:"x_accept,omitempty"`
	Refuse  bool `json:"x_refuse,omitempty"`
	Pending bool `json:"x_pending,omitempty"`
}

// LinkRequest is a request from a member of another session to link with a pane of
// this one, waiting for the person's answer.
type LinkRequest struct {
	From  string `json:"from"` // NAME@SESSION
	To    string `json:"to"`   // the pane asked for
	Turns int    `json:"turns"`
	At    int64  `json:"at"` // Unix ms it came
}

// Validate requires a, except to answer or list link requests.
func (t *Target) Validate() error {
	if t.A == "" && !t.Accept && !t.Refuse && !t.Pending {
		return errors.New("missing field a")
	}
	return nil
}

// Capture is the payload of X_CAPTURE.
type Capture struct {
	Target string `json:"target"`
	Lines  int    `json:"lines,omitempty"`
	SGR    bool   `json:"escapes,omitempty"`
}

// Validate requires target and lines ≥ 0.
func (c *Capture) Validate() error {
	if c.Target == "" {
		return errors.New("missing field target")
	}
	if c.Lines < 0 {
		return errors.New("lines below 0")
	}
	return nil
}

// History is the payload of X_HISTORY: SinceMs is a time in ms since the epoch. Before
// asks for the page of messages older than a previous answer's Next.
type History struct {
	Member  string `json:"member,omitempty"`
	SinceMs int64  `json:"since_ms,omitempty"`
	Limit   int    `json:"limit,omitempty"`
	Before  int64  `json:"before,omitempty"`
}

// Read is the payload of X_READ: Offset asks for the body from that byte on (a
// previous answer's NextOffset).
type Read struct {
	ID     string `json:"message_id"`
	Offset int    `json:"offset,omitempty"`
}

// Validate requires message_id.
func (r *Read) Validate() error {
	if r.ID == "" {
		return errors.New("missing field message_id")
	}
	return nil
}

// Message is one stored message (one recipient) in X_HISTORY and X_READ results.
// Times are ms since the epoch, 0 when the phase has not happened.
type Message struct {
	ID        string          `json:"id"`
	Session   string          `json:"session"`
	From      string          `json:"from"`
	To        string          `json:"to"`
	Topic     string          `json:"topic,omitempty"`
	Kind      string          `json:"kind"`
	Body      string          `json:"body"`
	Data      json.RawMessage `json:"data,omitempty"`
	Seq       int64           `json:"seq"`
	Queued    int64           `json:"queued"`
	Typed     int64           `json:"typed,omitempty"`
	Submitted int64           `json:"submitted,omitempty"`
	Confirmed int64           `json:"confirmed,omitempty"`
	Failed    int64           `json:"failed,omitempty"`
	Dropped   int64           `json:"dropped,omitempty"`
	Expired   int64           `json:"expired,omitempty"`
	// Cut says Body (and Data, dropped) is not whole: the answer had to fit one frame;
	// BodyBytes is the whole body's length in bytes.
	Cut       bool `json:"x_cut,omitempty"`
	BodyBytes int  `json:"x_body_bytes,omitempty"`
}

// Phase is the furthest phase the message reached, by the times the store kept.
func (m Message) Phase() Phase {
	switch {
	case m.Failed > 0:
		return PhaseFailed
	case m.Expired > 0:
		return PhaseExpired
	case m.Dropped > 0:
		return PhaseDropped
	case m.Confirmed > 0:
		return PhaseConfirmed
	case m.Submitted > 0:
		return PhaseSubmitted
	case m.Typed > 0:
		return PhaseTyped
	}
	return PhaseQueued
}

// Event is the payload of X_EVENT: Kind names what happened (event.go, and
// docs/protocol.md), Member whom it is about; From and To say who sent a message and
// to whom, MsgKind its payload's kind. On the wire it carries "peer" too, for clients
// of version 1 (MarshalJSON).
type Event struct {
	TS      int64     `json:"ts"`
	Kind    EventKind `json:"kind"`
	Member  string    `json:"member,omitempty"`
	From    string    `json:"from,omitempty"`
	To      string    `json:"to,omitempty"`
	MsgKind string    `json:"msg_kind,omitempty"`
	ID      string    `json:"id,omitempty"`
	State   string    `json:"state,omitempty"`
	Phase   Phase     `json:"phase,omitempty"`
	Text    string    `json:"text,omitempty"`
	Code    *int      `json:"code,omitempty"`
	Session string    `json:"session,omitempty"`
	// Spend is a spend event's: what Member spent (To: the link it counts to).
	Spend *Spend `json:"x_spend,omitempty"`
	// Asks (kind member, state "needs you") is what the pane asks.
	Asks *Asks `json:"asks,omitempty"`
}

// Result is the payload of X_RESULT: Re is the request's id; the field that matches
// the request is set.
type Result struct {
	Re       string    `json:"re"`
	Members  []Member  `json:"members,omitempty"`
	Screen   *string   `json:"screen,omitempty"`
	Messages []Message `json:"messages,omitempty"`
	Message  *Message  `json:"message,omitempty"`
	Web      *WebView  `json:"web,omitempty"`
	// LinkRequests (X_LINK with Pending) are the link requests waiting.
	LinkRequests []LinkRequest `json:"x_link_requests,omitempty"`
	// Next (X_HISTORY) is set when older messages asked for did not fit this answer:
	// send Before: Next for them.
	Next int64 `json:"x_next,omitempty"`
	// NextOffset (X_READ) is set when the body goes on past this answer: send Offset:
	// NextOffset for the rest.
	NextOffset int `json:"x_next_offset,omitempty"`
	// Number (X_NEW) is the new pane's number; Name its name.
	Number int    `json:"x_number,omitempty"`
	Name   string `json:"x_name,omitempty"`
	// Share (X_RESIZE) is the pane's width and height share now, in percent.
	Share []int `json:"x_share,omitempty"`
	// Mesh (X_MESH) is every session of the mesh the session joined, by name.
	Mesh []MeshSession `json:"x_mesh,omitempty"`
	// Answer (X_ANSWER) is the choice picked and typed.
	Answer *Option `json:"x_answer,omitempty"`
}
