package session

import "github.com/agentmux/agentmux/parser"

// publish compares the members, the relay's summary and its log with what subscribers
// were last told and emits the differences: MemberChanged, StatusChanged, Notice and
// Delivery. With send unset it only records the state (the start-up baseline).
func (s *Session) publish(send bool) {
	for _, p := range s.panes {
		m := s.member(p)
		if old, ok := s.members[p.id]; !ok || !sameMember(old, m) {
			s.members[p.id] = m
			if send {
				s.emit(MemberChanged{Member: m})
			}
		}
	}
	st := s.relayStatus()
	if st.Summary != s.status {
		s.status = st.Summary
		if send {
			s.emit(StatusChanged{Status: st})
		}
	}
	n := s.rl.Logged()
	if n == s.logged && len(s.open) == 0 {
		return
	}
	log := s.rl.Log()
	base := n - len(log) // the absolute number of log[0]
	for i, e := range log {
		fresh := base+i >= s.logged
		if e.Delivery == 0 {
			if fresh && send {
				s.emit(Notice{Entry: e})
			}
			continue
		}
		old, tracked := s.open[e.Delivery]
		if !fresh && !tracked {
			continue
		}
		if fresh || old.Phase != e.Phase || old.Note != e.Note {
			if send {
				s.emit(Delivery{Entry: e, Fresh: fresh})
			}
		}
		s.track(e)
	}
	// A delivery whose entry left the log before it ended (more than the log's limit
	// logged meanwhile: a held pane, a long queue) is followed to its end all the same.
	for _, e := range s.rl.Rolled() {
		if old, tracked := s.open[e.Delivery]; tracked {
			if send && (old.Phase != e.Phase || old.Note != e.Note) {
				s.emit(Delivery{Entry: e})
			}
			s.track(e)
		}
	}
	s.logged = n
}

// track keeps delivery entry e while it is on its way, and forgets it once it ended.
func (s *Session) track(e Entry) {
	if e.Phase.Final() {
		delete(s.open, e.Delivery)
		delete(s.beforeSubmit, e.Delivery) // never submitted: nothing to record
	} else {
		s.open[e.Delivery] = e
	}
}

// member describes pane p.
func (s *Session) member(p *pane) Member {
	m := Member{Pane: p.id, Name: p.name, Argv: p.argv, Program: p.program(), Profile: p.profile.Name, Cols: p.cols, Rows: p.rows,
		Share: p.share, Dir: p.spec.Dir, Tree: p.spec.Tree, Command: p.spec.Argv, Env: p.spec.Env, Spend: p.spent, Metered: p.metered(), Resumes: len(p.spec.Fresh) > 0, Restored: p.spec.Restored}
	if p.exited {
		m.State, m.Code = Exited, p.code
	}
	ps, ok := s.rl.Pane(p.id)
	if !ok {
		return m
	}
	m.Group, m.Held, m.Typing, m.Waiting = ps.Group, ps.Held, ps.Typing, ps.Waiting
	m.Addressing = s.rl.Addressing(p.id)
	if p.exited {
		return m
	}
	switch {
	case ps.State != parser.Busy:
		p.hookAskOut = true
	case p.hookAskOut:
		p.hookAsk = "" // answered: it works again
	}
	needsYou := ps.State == parser.NeedsApproval || p.hookAsk != ""
	m.Asks = s.asksOf(p, needsYou, s.clock.Now())
	switch {
	case needsYou:
		m.State = NeedsYou
	case !ps.Started:
	case ps.State == parser.Busy:
		m.State = Busy
	case ps.State == parser.Idle:
		m.State = Idle
	}
	return m
}

// sameMember reports whether a and b say the same (the argument vector never changes).
func sameMember(a, b Member) bool {
	return a.Pane == b.Pane && a.Name == b.Name && a.State == b.State && a.Code == b.Code &&
		a.Group == b.Group && a.Held == b.Held && a.Typing == b.Typing && a.Waiting == b.Waiting &&
		a.Addressing == b.Addressing &&
		a.Cols == b.Cols && a.Rows == b.Rows && a.External == b.External &&
		a.Share == b.Share && a.Dir == b.Dir && a.Spend == b.Spend && a.Metered == b.Metered && sameAsk(a.Asks, b.Asks)
}

// relayStatus is the relay's summary.
func (s *Session) relayStatus() Status {
	st := s.rl.Status()
	return Status{Summary: st.String(), Groups: st.Groups, Waiting: st.Waiting, InFlight: st.InFlight}
}
