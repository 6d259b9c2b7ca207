package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// The store keeps every session's messages for its retention (30 days), also after the
// session ended: history and read fall back to it when no session answers.

// openStoreIfAny opens the message store, or says there is none yet (it is never
// created just to be read).
func openStoreIfAny() (*store.Store, error) {
	path, err := statePath("agentmux.db")
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no message store yet (%s): no session has run here", path)
	}
	return store.Open(path)
}

// fromStore runs history or read on the store, for a session that no longer runs.
// live is why no session answered; it is returned when the store cannot stand in.
func fromStore(cmd string, a clientArgs, w io.Writer, live error) (int, error) {
	if cmd == "history" && a.session == "" {
		if errors.Is(live, client.ErrNoSession) {
			return 1, errors.New("no session is running: agentmux history --session NAME shows an ended one's (agentmux sessions --all lists them)")
		}
		return 1, live
	}
	st, err := openStoreIfAny()
	if err != nil {
		return 1, fmt.Errorf("%v; %v", live, err)
	}
	defer st.Close()
	switch cmd {
	case "read":
		rows, err := st.Get(a.operands[0])
		if errors.Is(err, store.ErrNotFound) {
			return 1, fmt.Errorf("read %s: no such message in the store (%v)", a.operands[0], live)
		}
		if err != nil {
			return 1, err
		}
		return exit(printStored(w, a, rows))
	default:
		o := own[historyArgs](a)
		q := store.Query{Session: a.session, Member: o.member, Limit: o.limit}
		if o.since > 0 {
			q.SinceMs = time.Now().Add(-o.since).UnixMilli()
		}
		ms, err := st.History(q)
		if err != nil {
			return 1, err
		}
		if len(ms) == 0 {
			if ss, _ := st.Sessions(); !hasSession(ss, a.session) {
				return 1, fmt.Errorf("no session %q runs, and the store has no messages of one by that name (agentmux sessions --all lists them)", a.session)
			}
			// As a running session's history says it: a member mistyped (or a pane's
			// number, which names a pane only while the session runs) is told, not
			// answered with an empty history.
			if o.member != "" {
				found, err := st.HasMember(a.session, o.member)
				if err != nil {
					return 1, err
				}
				if !found && !recordedPane(st, a.session, o.member) {
					return 1, fmt.Errorf("history: no member %q in the stored messages of session %s, which no longer runs (name a member: pane numbers name panes of a running session)", o.member, a.session)
				}
			}
		}
		out := make([]proto.Message, len(ms))
		for i, m := range ms {
			out[i] = hub.WireMessage(m)
		}
		return exit(printHistory(w, a, out))
	}
}

// recordedPane reports whether the store's record of session (the one a restore reads)
// names a pane name: a member although no message names it, as a running session's
// history takes one of its panes.
func recordedPane(st *store.Store, session, name string) bool {
	sn, err := st.Snapshot(session)
	if err != nil {
		return false
	}
	var sv savedSession
	if json.Unmarshal(sn.Spec, &sv) != nil {
		return false
	}
	for _, p := range sv.Panes {
		if proto.SameName(p.Name, name) {
			return true
		}
	}
	return false
}

// printStored prints one stored message as read does.
func printStored(w io.Writer, a clientArgs, rows []store.Message) error {
	wire := make([]proto.Message, len(rows))
	for i, r := range rows {
		wire[i] = hub.WireMessage(r)
	}
	if a.json {
		return printJSON(w, wire)
	}
	writeReadHeader(w, wire[0], wire)
	_, err := fmt.Fprintf(w, "\n%s\n", visible(wire[0].Body, true))
	return err
}

func hasSession(ss []store.SessionSummary, name string) bool {
	for _, s := range ss {
		if s.Name == name {
			return true
		}
	}
	return false
}
