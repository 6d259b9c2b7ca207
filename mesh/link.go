package mesh

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// Links across sessions: `agentmux link alice bob@buildbox` links a pane of this
// session with a member of another. Each side's relay holds the link as a group of its
// pane and the other side's member (an external member here, learn.go), with one
// budget both sides count (the relay's remote links). The mesh carries what crosses:
//
//	laptop                                   buildbox
//	Link(alice, bob@buildbox) ── ln link ──► LinkRemote(bob, alice@laptop)
//	alice's turn (Mail, Link)  ── msg ─────► Send(bob, Link, Spent): typed by its relay
//	Send(alice, Link, Spent)   ◄── msg ───── bob's turn
//	phases                     ◄── ph ────── (as for any message)
//	unlink, exit, budget (End) ── ln end ──► UnlinkRemote: ends there, says nothing back
//	rename alice carol (Rename)── ln rename► RenameRemote(carol@laptop): the link follows
//
// A side that cannot take a link or one of its turns (no such member, a shell, the link
// ended there or was lost with a restart) answers with an end, so the other side never
// keeps a link that is not in force on both.

// linker is a core that links its panes with members of other sessions and tells
// them news only the mesh hears of (the session core has it).
type linker interface {
	// LinkRemote links pane a with name (NAME@SESSION, an external member) under tag,
	// with budget turns for the pair (0: the session's); it returns the pane's name
	// and the budget in force.
	LinkRemote(a, name, tag string, budget int, shell bool) (pane string, turns int, err error)
	// UnlinkRemote ends link tag, which its other side, session, ended (why).
	UnlinkRemote(tag, session, why string)
	// RenameRemote names the other side's member of link tag anew: name, NAME@SESSION
	// (registered: learn).
	RenameRemote(tag, name string)
	// Tell types text into the pane named to like a delivery notice (hush: its answer
	// is not relayed) after the delay; any other name gets it as mail.
	Tell(to, text string, after time.Duration, hush bool)
	// Note logs text in the relay log about the pane named pane.
	Note(pane, text string)
	// Turns is the session's turn budget for a link.
	Turns() int
}

var _ hub.Linker = (*Core)(nil)

// LinkAcross asks the session of addr, NAME@SESSION, a member of another session, to
// link it with pane a of this session: linked once that session's person said yes.
func (c *Core) LinkAcross(a int, addr string, shell bool) error {
	return c.n.link(strconv.Itoa(a), addr, shell)
}

// UnlinkAcross ends the links of this session's panes with addr (NAME@SESSION).
func (c *Core) UnlinkAcross(addr string) error {
	var panes []int
	for _, m := range c.Core.Panes() {
		for _, g := range strings.Split(m.Group, "⇄") {
			if g == addr {
				panes = append(panes, m.Number)
			}
		}
	}
	if len(panes) == 0 {
		return fmt.Errorf("unlink %s: no pane of this session is linked with it", addr)
	}
	for _, p := range panes {
		if err := c.Core.Unlink(p); err != nil {
			return err
		}
	}
	return nil
}

// link asks addr's session (addr is NAME@SESSION) to link pane of this session with
// it; this side links when the answer is yes (consent.go).
func (n *Node) link(pane, addr string, shell bool) error {
	name, session, _ := SplitAddress(addr)
	if err := CheckName(session); err != nil {
		return err
	}
	if !validName.MatchString(name) {
		return fmt.Errorf("link with %s: %q cannot be a member's name in a mesh", addr, name)
	}
	lk, ok := n.linker()
	if !ok {
		return errors.New("link: this session's core cannot link across sessions")
	}
	local := ""
	if core := n.core.Load(); core != nil {
		for _, m := range (*core).Panes() {
			if strconv.Itoa(m.Number) == pane && !m.Client {
				local = m.Name
			}
		}
	}
	if local == "" {
		return fmt.Errorf("link %s with %s: no such pane", pane, addr)
	}
	n.learn(addr)
	tag := proto.NewToken()
	budget := lk.Turns()
	n.asking(tag, askedLink{pane: local, addr: addr, shell: shell})
	n.sendLink(session, wireLink{Op: "link", Tag: tag, From: local, To: name, Budget: budget})
	text := fmt.Sprintf("asked %s to link with %s (%d turns): linked once its person says yes", addr, local, budget)
	lk.Note(local, text)
	return nil
}

// linker returns the node's core as a linker.
func (n *Node) linker() (linker, bool) {
	core := n.core.Load()
	if core == nil {
		return nil, false
	}
	lk, ok := (*core).(linker)
	return lk, ok
}

// sendLink queues a link or its end for session.
func (n *Node) sendLink(session string, l wireLink) {
	b, _ := json.Marshal(l)
	id := l.Tag + "/" + l.Op
	if l.Op == "rename" { // a link may be renamed again, even back: each is news
		id += "/" + proto.NewToken()
	}
	n.out.push(outItem{subject: "amux." + session + ".ln." + n.o.Session, data: b, id: id})
}

// onLink handles a link or an end from fromSession (on the loop).
func (n *Node) onLink(fromSession string, l *wireLink) {
	lk, ok := n.linker()
	if !ok {
		return
	}
	switch l.Op {
	case "end":
		if a, ok := n.answered(l.Tag, fromSession); ok { // our request, answered no
			text := fmt.Sprintf("link of %s with %s not made: %s", a.pane, a.addr, l.Why)
			lk.Note(a.pane, text)
			n.warn(text)
			return
		}
		lk.UnlinkRemote(l.Tag, fromSession, l.From+"@"+fromSession+" "+l.Why)
	case "accept":
		n.accepted(fromSession, l)
	case "rename":
		addr := l.From + "@" + fromSession // the session is the one the hub checked
		n.learn(addr)
		lk.RenameRemote(l.Tag, addr)
	case "link":
		n.learn(l.From + "@" + fromSession)
		n.requestLink(fromSession, l)
	}
}

// relayMail sends what the relay mails a member of another session: a pane's relay
// command, its turn on a link, or the end of a link. It runs on the session's loop:
// send only queues.
func (n *Node) relayMail(name, session string, m proto.RelayMessage) {
	switch {
	case m.End:
		n.sendLink(session, wireLink{Op: "end", Tag: m.Link, From: m.From, Why: m.Text})
		return
	case m.Rename:
		n.sendLink(session, wireLink{Op: "rename", Tag: m.Link, From: m.From})
		return
	case m.Link != "":
		if _, err := n.send(m.From, m.FromPane, name, session, m.Text, "", proto.SendOptions{Link: m.Link, LinkSpent: m.Spent}); err != nil {
			n.log.Warn("mesh: linked turn", "to", name+"@"+session, "err", err)
		}
		return
	}
	// A relay notice (no sender) and thinking or state, which are never typed, stay
	// here.
	if m.From == "" || m.Kind != "" && m.Kind != "message" && m.Kind != "action" {
		return
	}
	if _, err := n.send(m.From, m.FromPane, name, session, m.Text, m.Kind, proto.SendOptions{}); err != nil {
		n.log.Warn("mesh: relay line", "to", name+"@"+session, "err", err)
	}
}
