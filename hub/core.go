package hub

import (
	"context"
	"time"

	"github.com/agentmux/agentmux/proto"
)

// Core is what the hub needs of the session core (the panes and the relay):
// *session.Session satisfies it as it is, so the socket is a client of the core like
// the TUI, and the hub never imports package session. The types the methods share live
// in proto. Every method is safe to call from any goroutine and does not block for
// long; the hub calls them from its loop. A hub without a core (nil) serves protocol
// clients only.
type Core interface {
	// Panes lists the panes (Client false), numbered, with state, group and waiting.
	Panes() []proto.Member
	// Resolve returns the number of the pane named (in any case) or numbered ref: the
	// core's one resolver, which every command naming a pane goes through.
	Resolve(ref string) (int, error)
	// Send types text into the pane named or numbered to, attributed to from, like any
	// delivery (idle-gated, never over a person's draft, budget-limited), with the
	// delivery options o. The core's delivery events (and its mail about the message)
	// carry o.ID back in Event.ID.
	Send(from, to, text string, o proto.SendOptions) error
	// Remind types "[agentmux] reminder: TEXT" into the pane named or numbered to
	// after the delay, for from (o.Person: the person); its delivery events carry o.ID.
	Remind(from, to, text string, after time.Duration, o proto.SendOptions) error
	// Hook reports that the program in the pane named or numbered pane ended its turn,
	// as its hook said, with its answer text ("" when none); source names the hook for
	// the relay log.
	Hook(pane, text, source string) error
	// Usage reads what the program in the pane spent from the file its CLI (cli)
	// records usage in (path, as its hook named it): what is new there since the last
	// read. It reads the file on the caller's goroutine: the hub calls it off its loop.
	Usage(pane, cli, path string) error
	// PaneOf returns the live pane whose secret (its $AGENTMUX_PROOF) is proof; ok is
	// false for any other string.
	PaneOf(proof string) (id int, name string, ok bool)
	// Origin says where process pid (a client, as its peer credentials name it)
	// runs: the person, a pane of this session, or neither.
	Origin(pid int) proto.Origin
	// Link, LinkShell (which takes a pane that runs a shell), Unlink, Hold and Release
	// act on panes by number, for the person. LinkByPane is Link for a pane's program:
	// it renews no budget, and refuses a link whose budget was spent since the person
	// linked it.
	Link(a, b int) error
	LinkShell(a, b int) error
	LinkByPane(a, b int) error
	Unlink(a int) error
	Hold(a int) error
	Release(a int) error
	// Capture returns pane id's screen, plus history lines of history above it, as
	// text (with SGR escapes when sgr).
	Capture(id, history int, sgr bool) (string, error)
	// RegisterMember makes name a member that is not a pane, so that a pane's
	// @relay:name or broadcast is handed to sink (which never blocks: the core calls it
	// from its loop). It fails when a pane (or another member) has the name; the func
	// it returns forgets the name.
	RegisterMember(name string, sink func(proto.RelayMessage)) (unregister func(), err error)
	// Events returns a new stream of the core's events (proto.Events says which).
	Events() proto.Events
}

// PaneCore is a Core that also starts, respawns, renames and types into panes: the
// pane commands (X_NEW, X_RESPAWN, X_RENAME, X_TYPE, X_RESIZE, X_DIFF), which the hub
// takes from the person only. A hub whose core lacks them refuses them.
type PaneCore interface {
	// New starts a pane now and returns its number and name.
	New(p proto.NewPane) (number int, name string, err error)
	// Respawn starts pane id's command again; kill ends a program that still runs
	// first (else that is an error).
	Respawn(id int, kill bool) error
	// Rename gives pane id the name name.
	Rename(id int, name string) error
	// TypeText types text into pane id exactly, then a carriage return when enter.
	TypeText(id int, text string, enter bool) error
	// SetShare sets pane id's width and height shares (percent of an even share; 0
	// leaves one) and returns them as now in force.
	SetShare(id, width, height int) ([2]int, error)
	// Diff is what pane id's agent changed in its own worktree (an error when it has
	// none). The hub calls it off its loop: it may take a while.
	Diff(id int) (string, error)
}

// Linker is a Core that also links a pane with a member of another session (the mesh
// in front of the session core): X_LINK and X_UNLINK naming NAME@SESSION of another
// session reach it, from the person only.
type Linker interface {
	// LinkAcross links pane a with addr, NAME@SESSION, a member of another session; a
	// pane running a shell only when shell.
	LinkAcross(a int, addr string, shell bool) error
	// UnlinkAcross ends every link of a pane of this session with addr.
	UnlinkAcross(addr string) error
}

// LinkBudgeter is a Core that links with budgets (X_LINK with Turns or Budget): pane a
// with pane b (one running a shell only when shell), the link then given turns turns
// (0: as it was) and the spend budget budget in the forms --link-budget takes ("": as
// it was); a bad budget links nothing. The hub takes budgets from the person only.
type LinkBudgeter interface {
	LinkWithBudget(a, b int, shell bool, turns int, budget string) error
}

// LinkAnswerer is a Core that joined a mesh: the person answers the requests of other
// sessions' members to link with a pane here (yes or no), and lists those waiting.
type LinkAnswerer interface {
	AnswerLink(addr string, yes bool) error
	PendingLinks() []proto.LinkRequest
}

// MeshLister is a Core that joined a mesh and lists it (X_MESH): the mesh in front of
// the session core, which has the connection. The hub calls ListMesh off its loop, as
// it waits on the network; ctx ends when the hub closes.
type MeshLister interface {
	ListMesh(ctx context.Context) ([]proto.MeshSession, error)
}

// Warner is a Core that can tell the person of a fault (on their status line). The
// hub warns through it when it cannot record a delivery's phases.
type Warner interface {
	Warn(text string)
}

// Answerer is a Core whose panes can be answered at their prompts (X_ANSWER), for the
// person only: AnswerPrompt types the key of option (a key, a label's start, yes or
// no) of the prompt pane id waits at, refused when question is set and is not what it
// asks now, and returns the choice picked once its key is typed (it may wait for the
// prompt to settle: the hub calls it off its loop).
type Answerer interface {
	AnswerPrompt(id int, option, question string) (proto.Option, error)
}

// Asker is a Core told by a program's notification hook that it waits for the
// person's permission (X_HOOK with event proto.HookAsk), with the hook's words.
type Asker interface {
	HookAsk(pane, text, source string) error
}

// RemoteAnswerer is a Core that joined a mesh: X_ANSWER naming NAME@SESSION of another
// session reaches it, from the person only. The hub calls AnswerAcross off its loop, as
// it waits on the network; ctx ends when the hub closes.
type RemoteAnswerer interface {
	AnswerAcross(ctx context.Context, addr, option, question string) (proto.Option, error)
}
