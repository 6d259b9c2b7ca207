package hub

import (
	"errors"

	"github.com/agentmux/agentmux/proto"
)

// errNoMesh answers X_MESH on a hub whose core joined no mesh.
var errNoMesh = errors.New("this session joined no mesh (agentmux --mesh URL --mesh-creds FILE joins one)")

// listMesh answers X_MESH: the sessions of the mesh the session joined, which the
// core's MeshLister asks the mesh for off the loop (offLoop: it waits on the network).
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
	ctx, person := s.h.ctx, cs.person()
	s.offLoop(cs, e, proto.CodeInternal, func() (proto.Result, error) {
		sessions, err := ml.ListMesh(ctx)
		for i := range sessions {
			for j := range sessions[i].Members {
				if m := &sessions[i].Members[j]; !person {
					m.Asks, m.Pane = nil, 0
				}
			}
		}
		if sessions == nil {
			sessions = []proto.MeshSession{}
		}
		return proto.Result{Mesh: sessions}, err
	})
}
