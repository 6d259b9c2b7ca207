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

import (
	"slices"

	"github.com/agentmux/agentmux/proto"
)

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

// kinds lists every action once, by its kind, in the vocabulary's order.
var kinds = [...][]Name{
	KindSession: {Send, Input, Link, Unlink, Hold, Release, Answer, New, Respawn, Rename, Resize, Web, Close, Quit, Address, Brief},
	KindQuery:   {List, Mesh, Capture, History, Read, Events, Diff},
	KindView:    {Focus, Zoom, Layout, Swap, Scroll, RelayLog, Help, Sync, Detach},
}

// requests are the frame types the socket asks actions with; the socket does not
// offer an action missing here.
var requests = map[Name]string{
	Send: proto.TypeSend, Input: proto.TypeType, Link: proto.TypeLink, Unlink: proto.TypeUnlink,
	Hold: proto.TypeHold, Release: proto.TypeRelease, Answer: proto.TypeAnswer, New: proto.TypeNew,
	Respawn: proto.TypeRespawn, Rename: proto.TypeRename, Resize: proto.TypeResize, Web: proto.TypeWeb,
	List: proto.TypeList, Mesh: proto.TypeMesh, Capture: proto.TypeCapture, History: proto.TypeHistory,
	Read: proto.TypeRead, Events: proto.TypeEvents, Diff: proto.TypeDiff,
}

// All returns every action, in the vocabulary's order.
func All() []Name {
	var out []Name
	for _, names := range kinds {
		out = append(out, names...)
	}
	return out
}

// Known reports whether n is an action of the vocabulary.
func (n Name) Known() bool { return n.Kind() != 0 }

// Kind is what n touches (0 for no action).
func (n Name) Kind() Kind {
	for k, names := range kinds {
		if slices.Contains(names, n) {
			return Kind(k)
		}
	}
	return 0
}

// Request is the frame type n is asked of the session socket with ("" for an action
// the socket does not offer, and for no action).
func (n Name) Request() string { return requests[n] }
