package session

import (
	"fmt"

	"github.com/agentmux/agentmux/relay"
)

// This file is the write-ahead of typing: a delivery sent with SendOptions.BeforeType
// (the session socket's messages, whose store records their phases) has it called just
// before its text is first written to its pane, so that a crash between the write and
// the phase's record can never hide that the typing had begun. A call that fails is
// said in the log and, once until one succeeds again, on the status line: the text is
// typed anyway, and after a restart it may be typed again.

// journal calls the write-ahead of every delivery t types, once each.
func (s *Session) journal(t relay.Type) {
	ids := t.Parts
	if len(ids) == 0 {
		ids = []int{t.Delivery}
	}
	for _, id := range ids {
		f := s.beforeType[id]
		if f == nil {
			continue
		}
		delete(s.beforeType, id)
		if err := f(); err != nil {
			s.journalFailed(t.Pane, err)
			continue
		}
		s.journalFailing = false
	}
}

// journalFailed reports a write-ahead that failed.
func (s *Session) journalFailed(pane int, err error) {
	s.log.Error("delivery not recorded before typing: after a restart it may be typed again", "pane", pane, "err", err)
	if s.journalFailing {
		return
	}
	s.journalFailing = true
	s.warn(fmt.Sprintf("could not record a delivery to pane %d in the store (%v): after a restart it may be typed again", pane, err))
}

// Warn tells the person about a fault they should know of: their status line, and a
// Notice to every subscriber. Safe from any goroutine; it does not wait.
func (s *Session) Warn(text string) {
	s.post(func() { s.warn(text) })
}

// warn is Warn on the loop.
func (s *Session) warn(text string) {
	s.emit(Notice{Entry: Entry{At: s.clock.Now(), Note: text}})
}
