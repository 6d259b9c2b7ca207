package hub

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentmux/agentmux/proto"
)

// Who speaks on a connection. Every pane's program can reach the socket (it is the
// user's, and so is every pane), so a client's word about who it is proves nothing. A
// pane's process tree alone has the pane's proof ($AGENTMUX_PROOF): a HELLO showing it
// (x_proof) makes the connection speak for that pane, and only such a connection may
// report the pane's turn (X_HOOK) or send as the pane. A control client outside every
// pane is the person ("you"), who is not loop-limited; a name it picks for a SEND
// (`agentmux send --from`) may not be a pane's, a member's, "you", a number, or hold
// control characters.

// PersonName is the sender name of the person at the keyboard.
const PersonName = proto.PersonName

// WebPersonName is the person too, typing in the web view's page (the session's own
// server sends the page's messages over the socket, as the person, under this name).
// proto.CheckName reserves it with every other form of the person's name.
const WebPersonName = "you(web)"

// isPerson reports whether a stored sender is the person: only the person's own
// connection may send as these names (sender).
func isPerson(from string) bool { return from == PersonName || from == WebPersonName }

// proveProof binds cs to the pane whose proof is proof; an error when none has it. The
// kernel's word about the client's process comes first (Core.Origin): a process that
// is not the person may show its own pane's proof only (one read from another pane's
// processes is refused), and one that shows none is not the person.
func (s *state) proveProof(cs *connState, proof string) error {
	if s.cfg.Core == nil {
		cs.origin = proto.Origin{Person: true}
		if proof != "" {
			return errNoCore
		}
		return nil
	}
	cs.origin = s.cfg.Core.Origin(cs.c.proc.PID)
	if !cs.c.proc.Alive() {
		// Its number may name another process now: one that waited for it to come
		// around would pass for whatever took it (the person's shell, say).
		cs.origin = proto.OriginEnded
	}
	if proof == "" {
		return nil
	}
	_, name, ok := s.cfg.Core.PaneOf(proof)
	if !ok {
		return errors.New("x_proof: no live pane of this session has that proof")
	}
	if !cs.origin.Person && cs.origin.Pane != name {
		return fmt.Errorf("x_proof: the proof of pane %s shown from %s", name, cs.origin.Where())
	}
	cs.pane = name
	return nil
}

// sender is who a SEND on cs is from: a member is itself; a connection that proved a
// pane is the pane (or a name it picks); any other control connection is the person
// (or a name it picks), unless its process runs in a pane: then only a name it picks.
func (s *state) sender(cs *connState, claimed string) (string, error) {
	if cs.member != nil {
		return cs.member.name, nil
	}
	switch {
	case cs.pane != "" && (claimed == "" || strings.EqualFold(claimed, cs.pane)):
		return cs.pane, nil
	case cs.pane == "" && !cs.origin.Person && (claimed == "" || claimed == PersonName):
		return "", fmt.Errorf("sent from %s without a pane's proof ($AGENTMUX_PROOF): neither a pane nor the person", cs.origin.Where())
	case cs.pane == "" && (claimed == "" || claimed == PersonName):
		return PersonName, nil
	case cs.pane == "" && cs.origin.Person && claimed == WebPersonName:
		return WebPersonName, nil
	}
	if err := proto.CheckName(proto.SenderName, claimed); err != nil {
		return "", err
	}
	for _, p := range s.panes() {
		if proto.SameName(p.Name, claimed) {
			return "", fmt.Errorf("sender %q passes for pane %s: only a client inside it (with its $AGENTMUX_PROOF) sends as it", claimed, p.Name)
		}
	}
	for name := range s.members {
		if proto.SameName(name, claimed) {
			return "", fmt.Errorf("sender %q passes for member %s: only its own connection sends as it", claimed, name)
		}
	}
	return claimed, nil
}

// hookPane is the pane an X_HOOK on cs reports for: the pane cs proved, which pane
// (its name or number, as the hook read $AGENTMUX_PANE) must name.
func (s *state) hookPane(cs *connState, pane string) (string, error) {
	if cs.pane == "" {
		return "", errors.New("X_HOOK: this connection proved no pane (HELLO's x_proof, the pane's $AGENTMUX_PROOF)")
	}
	if p, ok := s.resolve(pane); ok && p.Name == cs.pane {
		return cs.pane, nil
	}
	return "", fmt.Errorf("X_HOOK for %q from a connection that speaks for %q", pane, cs.pane)
}
