// Package hub owns the session socket: it listens on NAME.sock in RuntimeDir
// ($XDG_RUNTIME_DIR/agentmux on Linux; rundir.go), speaks relay protocol v1 (package
// proto) with every client, keeps the protocol
// clients that are members, routes messages between them and the panes of the session
// core, writes every message to the store before it is queued, and serves the agentmux
// extensions (list, capture, history, read, link, events) and agentmux.hook (X_HOOK:
// a program's hook reports its turn end and answer; Core.Hook). SEND's payload_meta
// (mode, ttl_ms, x_notify_*, x_remind_ms) becomes the core's SendOptions or Remind,
// with the message's id, which the core's delivery events and mail carry back; the
// core's mail reaches a member sender as a DELIVER of kind state.
//
// The core is *session.Session as it is: the hub declares the Core it needs (core.go),
// with the types both sides name in proto, and never imports package session.
//
// Event flow (one goroutine, the loop, owns every piece of mutable state):
//
//	accept ──► connOpened ─┐
//	reader per conn: ReadFrame (deadline 2×heartbeat) → Decode ─► frameIn / connEnded ─┐
//	core sink (Hub.Relay, never blocks) ─► inbox ─┐                                   │
//	core events (Core.Events) ────────────────────┤                                   │
//	                                              ▼                                   ▼
//	      ┌──────────────────────────── loop (state) ──────────────────────────────┐
//	      │ HELLO/RESUME → members; SEND → store.Insert → member queues / Core.Send │
//	      │ ACK → store.Mark; window (max_inflight) → pump; X_* → core / store       │
//	      └──────────────────────────────────────────────────────────────────────────┘
//	                                              │ framed bytes, non-blocking
//	                                              ▼
//	writer per conn: out (bounded: full = the peer does not read → dropped) → socket;
//	PING when nothing was written for a heartbeat; write deadline 2×heartbeat
//
// Bad input (garbage, oversize frames, non-object JSON, wrong v, missing fields) gets
// ERROR on that connection, which then closes; nothing is shared between connections
// but the loop, which never blocks on one. The hub imports proto, store and peer; it
// must not import session, ui, bubbletea or lipgloss, and reaches the panes only
// through Core.
package hub
