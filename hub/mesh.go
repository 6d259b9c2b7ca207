package hub

import (
	"errors"

	"github.com/agentmux/agentmux/proto"
)

// errNoMesh answers X_MESH on a hub whose core joined no mesh.
var errNoMesh = errors.New("this session joined no mesh (agentmux --mesh URL --mesh-creds FILE joins one)")

// meshListed is the answer to an X_MESH request, back on the loop.
type meshListed struct {
	c        *conn
	re       string
	sessions []proto.MeshSession
	err      error
}

// listMesh answers X_MESH: the sessions of the mesh the session joined, which the
// core's MeshLister asks the mesh for off the loop (it waits on the network); the
// answer comes back to the loop as meshListed.
//
// A pane's program may ask too: the sessions and members it lists are what a pane
// learns anyway (its @relay lines reach other sessions' members by name, and messages
// from them arrive named NAME@SESSION), and the listing neither acts nor reveals a
// credential or an address.
//
// What other sessions' panes ask (Asks, told only to the sessions of their person) is
// the person's: a pane's program gets the listing without it.
func (s *state) listMesh(cs *connState, e *proto.Envelope) {
	ml, ok := s.cfg.Core.(MeshLister)
	if !ok {
		s.fail(cs, proto.CodeBadRequest, errNoMesh.Error(), e.ID)
		return
	}
	h, c, re, person := s.h, cs.c, e.ID, cs.person()
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		sessions, err := ml.ListMesh(h.ctx)
		for i := range sessions {
			for j := range sessions[i].Members {
				if m := &sessions[i].Members[j]; !person {
					m.Asks, m.Pane = nil, 0
				}
			}
		}
		h.post(meshListed{c: c, re: re, sessions: sessions, err: err})
	}()
}

// answerMesh sends the answer of an X_MESH request to its connection, if still open.
func (s *state) answerMesh(ev meshListed) {
	cs := s.open(ev.c)
	if cs == nil {
		return
	}
	if ev.err != nil {
		s.fail(cs, proto.CodeInternal, ev.err.Error(), ev.re)
		return
	}
	if ev.sessions == nil {
		ev.sessions = []proto.MeshSession{}
	}
	s.reply(cs, proto.TypeResult, proto.Result{Re: ev.re, Mesh: ev.sessions})
}
