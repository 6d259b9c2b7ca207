package session

import "github.com/agentmux/agentmux/proto"

// Action names one thing a person (or, where the socket allows it, an agent) does to a
// session, the same on every road: the keys' bindings (ui, config.toml [ui.keys]),
// the web page's control frames (web), the command line (its command of that name)
// and the socket (the request Request names). A road that offers an action names it
// with these constants, so a command is named once. It lives here, in the core, as
// every road but the socket's reaches the session through this package.
type Action string

// The actions more than one road offers.
const (
	ActSend    Action = "send"    // a message typed into a pane once it is idle
	ActLink    Action = "link"    // a pane into another's relay group
	ActUnlink  Action = "unlink"  // a pane out of its relay group
	ActHold    Action = "hold"    // deliveries into a pane held
	ActRelease Action = "release" // held deliveries let go
	ActAnswer  Action = "answer"  // a choice of the prompt a pane waits at
	ActNew     Action = "new"     // a new pane
	ActRespawn Action = "respawn" // a pane's program started again
	ActRename  Action = "rename"  // a pane renamed
	ActResize  Action = "resize"  // a pane's share of the screen
	ActDiff    Action = "diff"    // what a pane's agent changed in its worktree
)

// Actions are every Action, in the order above.
var Actions = []Action{ActSend, ActLink, ActUnlink, ActHold, ActRelease, ActAnswer, ActNew, ActRespawn, ActRename, ActResize, ActDiff}

// requests is the frame type each action is asked of the session socket with.
var requests = map[Action]string{
	ActSend: proto.TypeSend, ActLink: proto.TypeLink, ActUnlink: proto.TypeUnlink, ActHold: proto.TypeHold,
	ActRelease: proto.TypeRelease, ActAnswer: proto.TypeAnswer, ActNew: proto.TypeNew, ActRespawn: proto.TypeRespawn,
	ActRename: proto.TypeRename, ActResize: proto.TypeResize, ActDiff: proto.TypeDiff,
}

// Request is the frame type a asks the session socket with ("" for no action).
func (a Action) Request() string { return requests[a] }
