// Package action is the one vocabulary of what a person (or, where the socket allows it,
// an agent) does to a session or to the terminal that shows it. Every road names its
// actions with these names: the keys after the prefix (ui, and config.toml's [ui.keys]
// binds its own words to them), the web page's control frames (web), the command line
// (cmd/agentmux's command table), the MCP tools (mcp) and the session socket (the frame
// Request names). A road that offers an action names it here, so an action is named
// once, whatever a road calls it in its own words.
//
// It imports nothing of the project but proto, for the frame types the actions are
// asked with.
package action

import "github.com/agentmux/agentmux/proto"

// Name names one action.
type Name string

// Kind says what an action touches, and so whether it crosses the session socket.
type Kind uint8

const (
	// KindSession changes the session: every terminal, page and agent of it sees it.
	// Those the socket offers are asked with their Request frame; the others (close,
	// quit, address, brief) are the keys' alone, run by the terminal's own server.
	KindSession Kind = iota + 1
	// KindQuery reads the session and changes nothing; each is asked with its Request
	// frame.
	KindQuery
	// KindView changes one terminal's own view (its focus, zoom, layout, scrolling, the
	// overlays it shows, whether it stays attached): nothing of it crosses the socket.
	KindView
)

// The actions that change the session.
const (
	Send    Name = "send"    // a message typed into a pane once it is idle
	Input   Name = "input"   // keys typed into a pane as they are, at once
	Link    Name = "link"    // a pane into another's relay group
	Unlink  Name = "unlink"  // a pane out of its relay group
	Hold    Name = "hold"    // deliveries into a pane held
	Release Name = "release" // held deliveries let go
	Answer  Name = "answer"  // a choice of the prompt a pane waits at
	New     Name = "new"     // a new pane
	Respawn Name = "respawn" // a pane's program started again
	Rename  Name = "rename"  // a pane renamed
	Resize  Name = "resize"  // a pane's share of the screen
	Web     Name = "web"     // the session's web view started or stopped
	Close   Name = "close"   // a pane closed, its program ended
	Quit    Name = "quit"    // the session ended, every agent in it
	Address Name = "address" // a pane's @relay lines reach any pane, or no longer
	Brief   Name = "brief"   // a pane told again who the others are
)

// The actions that read the session.
const (
	List    Name = "list"    // the members and their state
	Mesh    Name = "mesh"    // the other sessions of the mesh and their members
	Capture Name = "capture" // a pane's screen as text
	History Name = "history" // the messages and their phases
	Read    Name = "read"    // one message whole
	Events  Name = "events"  // what happens, as it happens
	Diff    Name = "diff"    // what a pane's agent changed in its worktree
)

// The actions on one terminal's own view.
const (
	Focus    Name = "focus"     // another pane focused
	Zoom     Name = "zoom"      // the focused pane alone on the screen, or not
	Layout   Name = "layout"    // the next layout
	Swap     Name = "swap"      // the focused pane's place swapped with a neighbour's
	Scroll   Name = "scroll"    // scroll and copy mode in the focused pane
	RelayLog Name = "relay-log" // the relay log shown or hidden
	Help     Name = "help"      // the keys' help shown
	Sync     Name = "sync"      // synchronized typing: keys to every pane, or not
	Detach   Name = "detach"    // the terminal leaves; the session runs on
)

// spec is what the vocabulary knows of one action.
type spec struct {
	name    Name
	kind    Kind
	request string // the frame type it is asked with; "" for none
}

// vocabulary is every action, once: its kind and its frame.
var vocabulary = []spec{
	{Send, KindSession, proto.TypeSend},
	{Input, KindSession, proto.TypeType},
	{Link, KindSession, proto.TypeLink},
	{Unlink, KindSession, proto.TypeUnlink},
	{Hold, KindSession, proto.TypeHold},
	{Release, KindSession, proto.TypeRelease},
	{Answer, KindSession, proto.TypeAnswer},
	{New, KindSession, proto.TypeNew},
	{Respawn, KindSession, proto.TypeRespawn},
	{Rename, KindSession, proto.TypeRename},
	{Resize, KindSession, proto.TypeResize},
	{Web, KindSession, proto.TypeWeb},
	{Close, KindSession, ""},
	{Quit, KindSession, ""},
	{Address, KindSession, ""},
	{Brief, KindSession, ""},

	{List, KindQuery, proto.TypeList},
	{Mesh, KindQuery, proto.TypeMesh},
	{Capture, KindQuery, proto.TypeCapture},
	{History, KindQuery, proto.TypeHistory},
	{Read, KindQuery, proto.TypeRead},
	{Events, KindQuery, proto.TypeEvents},
	{Diff, KindQuery, proto.TypeDiff},

	{Focus, KindView, ""},
	{Zoom, KindView, ""},
	{Layout, KindView, ""},
	{Swap, KindView, ""},
	{Scroll, KindView, ""},
	{RelayLog, KindView, ""},
	{Help, KindView, ""},
	{Sync, KindView, ""},
	{Detach, KindView, ""},
}

// All returns every action, in the vocabulary's order.
func All() []Name {
	out := make([]Name, len(vocabulary))
	for i, s := range vocabulary {
		out[i] = s.name
	}
	return out
}

// lookup returns what the vocabulary knows of n.
func lookup(n Name) (spec, bool) {
	for _, s := range vocabulary {
		if s.name == n {
			return s, true
		}
	}
	return spec{}, false
}

// Known reports whether n is an action of the vocabulary.
func (n Name) Known() bool {
	_, ok := lookup(n)
	return ok
}

// Kind is what n touches (0 for no action).
func (n Name) Kind() Kind {
	s, _ := lookup(n)
	return s.kind
}

// Request is the frame type n is asked of the session socket with ("" for an action
// the socket does not offer, and for no action).
func (n Name) Request() string {
	s, _ := lookup(n)
	return s.request
}
