package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/vterm"
)

// This file is the relay's place next to the Host: the relay state machine, the
// per-pane drafts a person is typing, and the writes its actions turn into. It has no
// bubbletea dependency (the timer that calls tick lives in the model), so it can move
// behind a socket with the Host.

// termScreen adapts a pane's emulator to relay.Screen.
type termScreen struct{ t *vterm.Terminal }

var _ relay.Screen = termScreen{}

// Info reads the title, the modes and the cursor's row the relay needs from a snapshot.
func (s termScreen) Info() relay.Info {
	snap := s.t.Snapshot()
	return relay.Info{
		Title:          snap.Title,
		AltScreen:      snap.AltScreen,
		BracketedPaste: snap.Modes.BracketedPaste,
		MidFrame:       snap.Modes.SyncOutput,
		HasCursor:      true,
		CursorRow:      snap.Cursor.Y,
	}
}

// ScreenTop is the emulator's absolute number of the main screen's first row.
func (s termScreen) ScreenTop() int64 { return s.t.ScreenTop() }

// ScreenText is the active screen as plain text rows.
func (s termScreen) ScreenText() []string { return s.t.ScreenText() }

// TextFrom copies the emulator's logical lines from absolute row n.
func (s termScreen) TextFrom(n int64) []relay.Line {
	tl := s.t.TextFrom(n)
	out := make([]relay.Line, len(tl))
	for i, l := range tl {
		out[i] = relay.Line{N: l.N, Text: l.Text}
	}
	return out
}

// relayWire owns the relay and what it needs from the ui: the drafts a person has typed
// into each pane and not sent, each pane's input gate, and the Host its actions are
// written through.
//
// The input gate: between a delivery's Type and its Submit (about 200 ms) whatever the
// ui writes to that pane for the person (keys, pastes, mouse and focus reports: all of it
// goes through input, via model.toPane) is held in order and written right after the
// submitting carriage return, so none of it joins the delivery's text or is submitted
// with it. The relay's own writes and the emulator's query replies go to the program
// directly.
//
// Lock rule: owned by the ui's event loop, like the Host.
type relayWire struct {
	r        *relay.Relay
	host     *Host
	profiles parser.Profiles
	drafts   map[int][]rune   // unsent input per pane
	held     map[int][][]byte // panes whose gate is closed: the person's writes held, in order
	logged   int              // relay log entries already announced
}

// newRelayWire makes the relay for cfg and opens every pane of host in it; with
// cfg.Link the panes start linked in one group.
func newRelayWire(cfg Config, host *Host, now time.Time) *relayWire {
	w := &relayWire{
		r:        relay.New(relay.Config{Turns: cfg.Turns, Idle: cfg.Idle}),
		host:     host,
		profiles: cfg.Profiles,
		drafts:   map[int][]rune{},
		held:     map[int][][]byte{},
	}
	if w.profiles == nil {
		w.profiles = parser.Builtins()
	}
	var ids []int
	for i, p := range host.Panes() {
		prof := w.profiles.For(p.Argv[0])
		if i < len(cfg.Panes) && cfg.Panes[i].Profile != "" {
			if named, ok := w.profiles[cfg.Panes[i].Profile]; ok {
				prof = named
			}
		}
		w.handle(relay.Open{Pane: p.ID, Name: p.Name, Profile: prof, Screen: termScreen{p.Term}}, now)
		ids = append(ids, p.ID)
	}
	if cfg.Link {
		w.handle(relay.LinkAll{Panes: ids}, now)
	}
	w.logged = w.r.Logged() // the start-up links are on the status line already
	return w
}

// handle gives the relay an event and writes what it decides.
func (w *relayWire) handle(ev relay.Event, now time.Time) {
	w.run(w.r.Handle(ev, now))
}

// tick advances the relay's clock and writes what it decides.
func (w *relayWire) tick(now time.Time) { w.run(w.r.Tick(now)) }

// run writes each action to its pane through the pane's ordered writer. A Type closes
// the pane's input gate and its Submit opens it again, writing what the person typed
// meanwhile right after the carriage return. A gate whose delivery the relay no longer
// has waiting for its submit (none today but an exited pane's) opens as well.
func (w *relayWire) run(acts []relay.Action) {
	for _, a := range acts {
		id := a.Target()
		if p := w.host.Pane(id); p == nil || p.Exited {
			continue
		}
		w.host.Write(id, a.Bytes())
		switch a.(type) {
		case relay.Type:
			if _, ok := w.held[id]; !ok {
				w.held[id] = nil
			}
		case relay.Submit:
			w.release(id)
		}
	}
	for id := range w.held {
		if ps, ok := w.r.Pane(id); !ok || !ps.Typed {
			w.release(id)
		}
	}
}

// input writes b, which the ui sends to pane id for the person, or holds it while the
// pane's gate is closed.
func (w *relayWire) input(id int, b []byte) {
	if q, closed := w.held[id]; closed {
		w.held[id] = append(q, append([]byte(nil), b...))
		return
	}
	w.host.Write(id, b)
}

// release opens pane id's gate, writing what it held in order.
func (w *relayWire) release(id int) {
	q, closed := w.held[id]
	if !closed {
		return
	}
	delete(w.held, id)
	if p := w.host.Pane(id); p == nil || p.Exited {
		return
	}
	for _, b := range q {
		w.host.Write(id, b)
	}
}

// key records a key a person forwarded to pane id: printable keys add to the draft,
// Backspace takes one character off, Ctrl+C, Ctrl+U and Esc clear it, and Enter on a
// draft submits it (Shift/Alt+Enter add a newline, as agent CLIs take them).
func (w *relayWire) key(id int, k keys.Key, now time.Time) {
	d := w.drafts[id]
	mods := k.Mod &^ keys.ModShift
	switch {
	case k.Code == keys.KeyEnter && k.Mod == 0:
		delete(w.drafts, id)
		if text := strings.TrimSpace(string(d)); text != "" {
			w.handle(relay.Sent{Pane: id, Text: text}, now)
			return
		}
		w.handle(relay.Keystroke{Pane: id}, now)
		return
	case k.Code == keys.KeyEnter:
		d = append(d, '\n')
	case k.Code == keys.KeyRune && mods == 0:
		d = append(d, k.Rune)
	case k.Code == keys.KeyBackspace && len(d) > 0:
		d = d[:len(d)-1]
	case k.Code == keys.KeyEscape,
		k.Code == keys.KeyRune && mods == keys.ModCtrl && (k.Rune == 'c' || k.Rune == 'u'):
		d = nil
	}
	w.setDraft(id, d)
	w.handle(relay.Keystroke{Pane: id, Draft: len(d) > 0}, now)
}

// paste records text a person pasted into pane id: it joins the draft.
func (w *relayWire) paste(id int, text string, now time.Time) {
	if text == "" {
		return
	}
	d := append(w.drafts[id], []rune(text)...)
	w.setDraft(id, d)
	w.handle(relay.Keystroke{Pane: id, Draft: true}, now)
}

// setDraft stores pane id's draft, forgetting empty ones.
func (w *relayWire) setDraft(id int, d []rune) {
	if len(d) == 0 {
		delete(w.drafts, id)
		return
	}
	w.drafts[id] = d
}

// exit tells the relay pane id is gone.
func (w *relayWire) exit(id int, now time.Time) {
	delete(w.drafts, id)
	delete(w.held, id) // nothing more reaches a program that is gone
	w.handle(relay.Exit{Pane: id}, now)
}

// news returns the newest notice logged since the last call ("" if none): a link made,
// a budget spent, a group ended, deliveries held.
func (w *relayWire) news() string {
	n := w.r.Logged()
	fresh := n - w.logged
	w.logged = n
	if fresh <= 0 {
		return ""
	}
	log := w.r.Log()
	for i := len(log) - 1; i >= 0 && i >= len(log)-fresh; i-- {
		if e := log[i]; e.Delivery == 0 {
			return e.Note
		}
	}
	return ""
}

// borderState is what pane p's border says about it: running, idle, busy or needs you,
// and whether it is linked, held or has deliveries waiting.
func (w *relayWire) borderState(p *Pane) (string, stateKind) {
	if p.Exited {
		if p.Code != 0 {
			return fmt.Sprintf("exited (%d)", p.Code), kindExitedBad
		}
		return fmt.Sprintf("exited (%d)", p.Code), kindExited
	}
	ps, ok := w.r.Pane(p.ID)
	if !ok {
		return "running", kindRunning
	}
	word, kind := "running", kindRunning
	switch {
	case ps.State == parser.NeedsApproval:
		word, kind = "needs you", kindNeedsYou
	case !ps.Started:
	case ps.State == parser.Busy:
		word, kind = "busy", kindBusy
	case ps.State == parser.Idle:
		word, kind = "idle", kindIdle
	}
	parts := []string{word}
	if ps.Group != 0 {
		parts = append(parts, "linked")
	}
	if ps.Held {
		parts = append(parts, "held")
	}
	if ps.Waiting > 0 {
		parts = append(parts, fmt.Sprintf("%d waiting", ps.Waiting))
	}
	return strings.Join(parts, " · "), kind
}
