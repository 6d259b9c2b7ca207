package mesh

import "fmt"

// A session restored after its server died (agentmux restore) had links with members
// of other sessions. Each side holds its half of a link under the link's tag (link.go),
// and nothing told the other side that this one died: its half is still in force, and
// the turns it sent meanwhile wait in this session's stream. So the restored session
// makes its half again, under the same tag with the turns both sides had spent, before
// the node types anything that crossed: the other side's next turn is then taken as a
// turn of the link, and this side's next turn goes to it as before. The other side's
// person said yes when the link was first made; nothing is asked again. A side that
// lost its half meanwhile (ended, or restarted anew) answers this side's next turn with
// an end, as for any link it does not hold, and the link ends here too.

// RestoredLink is one link a restored session makes again: its pane (a name or
// number) with Addr (NAME@SESSION), under Tag, with the turns this side (Used) and
// the other (Peer) had spent of Budget.
type RestoredLink struct {
	Pane, Addr, Tag    string
	Used, Peer, Budget int
}

// relinker is a core that can make a link with another session's member again.
type relinker interface {
	LinkRemoteRestored(a, name, tag string, used, peer, budget int) error
	Note(pane, text string)
}

// relink makes the links of Options.Restored again (Start, before the loop runs).
func (n *Node) relink() {
	if len(n.o.Restored) == 0 {
		return
	}
	core := n.core.Load()
	rl, ok := (*core).(relinker)
	if !ok {
		n.log.Warn("mesh: this session's core cannot make links again", "links", len(n.o.Restored))
		return
	}
	for _, l := range n.o.Restored {
		n.learn(l.Addr)
		if err := rl.LinkRemoteRestored(l.Pane, l.Addr, l.Tag, l.Used, l.Peer, l.Budget); err != nil {
			n.log.Warn("mesh: restore a link", "pane", l.Pane, "with", l.Addr, "err", err)
			rl.Note(l.Pane, fmt.Sprintf("link with %s not made again: %v", l.Addr, err))
			continue
		}
		n.log.Info("mesh: link made again", "pane", l.Pane, "with", l.Addr, "tag", l.Tag, "turns", fmt.Sprintf("%d/%d", l.Used+l.Peer, l.Budget))
	}
}
