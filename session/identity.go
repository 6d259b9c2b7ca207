package session

import (
	"crypto/subtle"
)

// A pane's identity on the session socket is a secret only its process tree gets: a
// random proof in its environment (AGENTMUX_PROOF, ptyhost.Spec.Proof), made afresh
// for every pane of every run. A client that claims to speak for a pane (its hook, an
// `agentmux send` run inside it) shows the proof; a pane's number or name alone proves
// nothing, since every pane's program can reach the socket. The proof is never shown:
// not in Members, events, logs or captures.

// PaneOf returns the live pane whose proof is proof (its number and name); ok is false
// for any other string, the empty one included.
func (s *Session) PaneOf(proof string) (id int, name string, ok bool) {
	if proof == "" {
		return 0, "", false
	}
	s.call(func() {
		for _, p := range s.panes {
			if !p.exited && subtle.ConstantTimeCompare([]byte(p.proof), []byte(proof)) == 1 {
				id, name, ok = p.id, p.name, true
			}
		}
	})
	return id, name, ok
}

// agentIDs returns the live panes whose program is no shell, the ones linking every
// pane (--link, LinkAll without ids) takes, and those it leaves out.
func (s *Session) agentIDs() (ids, shells []int) {
	for _, p := range s.panes {
		switch {
		case p.exited:
		case runsShell(p):
			shells = append(shells, p.id)
		default:
			ids = append(ids, p.id)
		}
	}
	return ids, shells
}
