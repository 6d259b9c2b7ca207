package session

import (
	"strings"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/relay"
)

// drafts tracks what a person has typed into each pane and not sent, from the keys and
// pastes clients forward, so the relay never types a delivery over it. Owned by the
// loop.
type drafts map[int][]rune

// key records a key forwarded to pane id and returns the relay event it makes (with the
// draft's text, so the relay can set a stale draft aside and type it back):
// printable keys add to the draft, Backspace takes one character off, Ctrl+C, Ctrl+U
// and Esc clear it, and Enter on a draft submits it (Sent); Shift/Alt+Enter add a
// newline, as agent CLIs take them.
func (d drafts) key(id int, k keys.Key) relay.Event {
	cur := d[id]
	mods := k.Mod &^ keys.ModShift
	switch {
	case k.Code == keys.KeyEnter && k.Mod == 0:
		delete(d, id)
		if text := strings.TrimSpace(string(cur)); text != "" {
			return relay.Sent{Pane: id, Text: text}
		}
		return relay.Keystroke{Pane: id}
	case k.Code == keys.KeyEnter:
		cur = append(cur, '\n')
	case k.Code == keys.KeyRune && mods == 0:
		cur = append(cur, k.Rune)
	case k.Code == keys.KeyBackspace && len(cur) > 0:
		cur = cur[:len(cur)-1]
	case k.Code == keys.KeyEscape,
		k.Code == keys.KeyRune && mods == keys.ModCtrl && (k.Rune == 'c' || k.Rune == 'u'):
		cur = nil
	}
	d.set(id, cur)
	return relay.Keystroke{Pane: id, Draft: len(cur) > 0, Text: string(cur)}
}

// paste records text pasted into pane id: it joins the draft. Nil for an empty paste.
func (d drafts) paste(id int, text string) relay.Event {
	if text == "" {
		return nil
	}
	d.set(id, append(d[id], []rune(text)...))
	return relay.Keystroke{Pane: id, Draft: true, Text: string(d[id])}
}

// set stores pane id's draft, forgetting empty ones.
func (d drafts) set(id int, cur []rune) {
	if len(cur) == 0 {
		delete(d, id)
		return
	}
	d[id] = cur
}
