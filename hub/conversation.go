package hub

import (
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// recordConversation keeps the conversation id a pane's hook reported (its own pane:
// hookPane checked the proof), for agentmux restore to resume. An id that is no word
// (proto.CheckConversation) is logged and not kept; a failure to keep it is logged,
// and the hook goes on.
func (s *state) recordConversation(core Core, pane string, h proto.Hook) {
	if h.Conversation == "" || h.CLI == "" {
		return
	}
	if err := proto.CheckConversation(h.Conversation); err != nil {
		s.cfg.Logger.Warn("hook: conversation id not kept", "pane", pane, "cli", h.CLI, "err", err)
		return
	}
	id, err := core.Resolve(pane)
	if err != nil {
		return
	}
	c := store.Conversation{CLI: h.CLI, ID: h.Conversation}
	if err := s.cfg.Store.SetConversation(s.cfg.Session, id, c, s.now().UnixMilli()); err != nil {
		s.cfg.Logger.Error("hook: keep conversation id", "pane", pane, "err", err)
		return
	}
	s.cfg.Logger.Debug("hook: conversation kept", "pane", id, "cli", c.CLI, "conversation", c.ID)
}
