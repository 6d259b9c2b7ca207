package session

import (
	"fmt"

	"github.com/agentmux/agentmux/relay"
)

// This file is the write-ahead of submitting: a delivery sent with
// SendOptions.BeforeSubmit (the session socket's messages, whose store records their
// phases) has it called just before the carriage return that submits it is first
// written to its pane, so that a crash between that write and the record of the phase
// can never hide that the pane's program may have read it. Text typed and never
// submitted dies with the pane's program when agentmux is killed: it was never read.
// A call that fails is said in the log and, once until one succeeds again, on the
// status line: the message is submitted anyway, and after a restart it may be typed
// again without the note that it may repeat.

// typing remembers the deliveries t types into its pane, for the Submit that follows.
func (s *Session) typing(t relay.Type) {
	ids := t.Parts
	if len(ids) == 0 {
		ids = []int{t.Delivery}
	}
	s.typed[t.Pane] = ids
}

// journal calls the write-ahead of every delivery the carriage return into pane is
// about to submit, once each (a second carriage return finds them done).
func (s *Session) journal(pane int) {
	ids := s.typed[pane]
	delete(s.typed, pane)
	for _, id := range ids {
		f := s.beforeSubmit[id]
		if f == nil {
			continue
		}
		delete(s.beforeSubmit, id)
		if err := f(); err != nil {
			s.journalFailed(pane, err)
			continue
		}
		s.journalFailing = false
	}
}

// journalFailed reports a write-ahead that failed.
func (s *Session) journalFailed(pane int, err error) {
	s.log.Error("delivery not recorded before its submit: after a restart it may be typed again unmarked", "pane", pane, "err", err)
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
