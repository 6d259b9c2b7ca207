package session

import (
	"errors"
	"os"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
)

// Who is at the other end of a socket connection is what the kernel says of its
// process, never what it sends. Where user namespaces can be made (Linux, unless a
// container or a security module forbids them) every pane's program starts in one of
// its own (ptyhost.Spec.UserNS), and no process started in the pane can leave it:
// a client in this server's own namespace is the person; one in a pane's namespace
// (or one nested in it) is that pane; any other (another session's pane, a namespace
// this server cannot read) is neither, and so is one this server started itself
// outside its panes (what it runs for them: a program a repository's config names, which
// an agent may have written). Elsewhere a process is told by its parents
// alone (lineage), which a process whose parent exited escapes unless the server is
// the reaper of its panes' orphans (Options.Subreaper), and a process with another
// session's server (ptyhost.ServerComm) among its parents is not the person either:
// best effort, as long as those servers live.

// nsID names a user namespace: its nsfs device and inode.
type nsID struct{ dev, ino uint64 }

// errNoUserNS is userNSChain's answer where user namespaces are not.
var errNoUserNS = errors.New("no user namespaces on this system")

// isolation picks how the panes of a session started with o are told apart from the
// person (proto.IsolationUserNS or proto.IsolationLineage), and this process's own
// user namespace (the zero nsID when unknown). It hopes for user namespaces where
// they may be: the first pane's start tells whether the system makes them
// (Session.launchFirst), and a system that refuses them costs that start a retry
// while one that makes them costs no probe.
func isolation(o Options) (string, nsID) {
	var self nsID
	if chain, err := userNSChain(os.Getpid()); err == nil && len(chain) > 0 {
		self = chain[0]
	}
	if o.NoPaneNamespaces || self == (nsID{}) {
		return proto.IsolationLineage, self
	}
	return proto.IsolationUserNS, self
}

// toLineage makes the session tell its panes by their parents (proto.IsolationLineage)
// and this process the reaper of their orphans (Options.Subreap), which narrows what
// escapes that: before the loop starts, as isolation is read-only after.
func (s *Session) toLineage() {
	s.isolation = proto.IsolationLineage
	if s.opts.Subreaper || s.opts.Subreap == nil {
		return
	}
	if err := s.opts.Subreap(); err != nil {
		s.log.Warn("reap the panes' orphans", "err", err)
		return
	}
	s.opts.Subreaper = true
}

// Isolation says how this session tells its panes' processes from the person's:
// proto.IsolationUserNS or proto.IsolationLineage (best effort).
func (s *Session) Isolation() string { return s.isolation }

// Origin says where process pid (a socket client, as its peer credentials name it)
// runs: the person, a pane of this session, or neither (fail closed: a process that
// cannot be read is not the person).
func (s *Session) Origin(pid int) proto.Origin {
	if pid <= 0 {
		if peersKnown {
			return proto.Origin{Why: "a process the kernel did not name"}
		}
		return proto.Origin{Person: true}
	}
	if pid == os.Getpid() {
		return proto.Origin{Person: true} // the server itself (its web view)
	}
	leads := map[int]string{}
	spaces := map[nsID]string{}
	s.call(func() {
		for _, p := range s.panes {
			if p.exited {
				continue
			}
			if pp, ok := p.proc.(interface{ Pid() int }); ok && pp.Pid() > 1 {
				leads[pp.Pid()] = p.name
			}
			if p.userNS != (nsID{}) {
				spaces[p.userNS] = p.name
			}
		}
	})
	chain, err := userNSChain(pid)
	switch {
	case err != nil && !errors.Is(err, errNoUserNS):
		return proto.Origin{Why: "a process whose user namespace cannot be read"}
	case err == nil && s.selfNS != (nsID{}) && chain[0] != s.selfNS:
		for _, ns := range chain {
			if ns == s.selfNS {
				break
			}
			if name, ok := spaces[ns]; ok {
				return proto.Origin{Pane: name}
			}
		}
		return proto.Origin{Why: "a process of another session's pane (or of a user namespace not the person's)"}
	}
	// In this server's own namespace: told by its parents.
	line := lineage(pid)
	for _, q := range line {
		if name, ok := leads[q]; ok {
			return proto.Origin{Pane: name}
		}
	}
	for _, q := range line[1:] {
		switch {
		case q == os.Getpid():
			// Started by this server outside its panes (the git it runs for a pane's
			// worktree, a notification command) or an orphan of a pane it reaped.
			return proto.Origin{Why: "a process started inside this session (its pane unknown)"}
		case q != os.Getpid() && commOf(q) == ptyhost.ServerComm:
			return proto.Origin{Why: "a process started inside another session"}
		}
	}
	return proto.Origin{Person: true}
}
