package relay

import "errors"

// Messages from outside the screen: a client of the session (the socket's `agentmux
// send`, a protocol member) asks for text to be typed into a pane the way an agent's
// @relay command would be. The sender is a name: a pane's own name (or number) sends as
// that pane, with its group's or its direct budget; any other name is an external
// member, framed "NAME:" and limited by a direct budget of --turns into each pane that
// every such name shares (a sender cannot buy turns by renaming itself), renewed when a
// person links the pane. The person (Options.Person) is not limited.

// Errors Message returns.
var (
	// ErrNoAddressee means the addressee is no live pane.
	ErrNoAddressee = errors.New("no such pane")
	// ErrGone means the pane addressed has exited or was closed.
	ErrGone = errors.New("the pane is gone")
	// ErrBudgetSpent means the pair's budget is spent: a person must link to renew it.
	ErrBudgetSpent = errors.New("budget spent")
	// ErrShellGroup means a pane's program asked to link into a group that holds a
	// shell: only a person links panes with a shell.
	ErrShellGroup = errors.New("its group holds a shell: only a person links into it")
	// ErrEmpty means the message has no words.
	ErrEmpty = errors.New("empty message")
)

// externalFrame frames an external member's message.
const externalFrame = "{name}:\n\n{text}"

// extPair is an external member and a pane (a pane's commands to the member); from ""
// counts every external sender's messages into the pane.
type extPair struct {
	from string
	pane int
}

// renewExternal restores the external budgets into pane id (a person linked it).
func (r *Relay) renewExternal(id int) {
	for k := range r.external {
		if k.pane == id {
			delete(r.external, k)
		}
	}
}
