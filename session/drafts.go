package session

import (
	"strings"
	"unicode"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/relay"
)

// drafts tracks what a person has typed into each pane and not sent, from the keys and
// pastes clients forward, so the relay never types a delivery over it and can set a
// stale one aside and type it back exactly. It models line editing (a cursor, the usual
// editing keys); a key it cannot model makes the draft unknown until the input is
// emptied. Owned by the loop: the keys are its source, the relay decides what a draft
// the screen contradicts is (reset).
type drafts map[int]*draft

// draft is one pane's input as the person's keys made it: text with a cursor (an index
// into text), or unknown (a key the tracker cannot follow changed it: a history line
// recalled, a completion, a search).
type draft struct {
	text    []rune
	cur     int
	unknown bool
}

// key records a key forwarded to pane id and returns the relay event it makes (with the
// draft's text, so the relay can set a stale draft aside and type it back):
//   - printable keys insert at the cursor; Shift/Alt+Enter insert a newline, as agent
//     CLIs take them;
//   - Left/Right, Home/End, Ctrl+B/F/A/E move the cursor; Backspace (Ctrl+H) and Delete
//     delete the character before or under it, Ctrl+W the word before it (up to white
//     space), Alt+Backspace the word before it (letters and digits), Ctrl+K to the end;
//   - Ctrl+C empties the input, Ctrl+U too when the cursor is at the end (before it,
//     programs differ: readline keeps what follows the cursor); Esc on a draft makes
//     it unknown: programs differ (one clears its input, Claude Code's and many
//     others keep it, readline takes it as Meta), and the screen tells which (the
//     relay drops a draft the input row shows gone);
//   - Enter submits it (Sent; Text "" when the draft is unknown);
//   - any other key changes the input in ways the tracker cannot follow (Up/Down
//     recall history, Tab completes, Ctrl+R searches, Ctrl+Y yanks): the draft becomes
//     unknown (Draft true, Text ""). On an empty input, only the keys that can bring
//     text into it do; the others (PageUp, function keys, Ctrl+L) leave it empty.
//
// Releases and lone modifier keys change nothing.
func (d drafts) key(id int, k keys.Key) relay.Event {
	cur := d[id]
	if cur == nil {
		cur = &draft{}
	}
	if k.Event != keys.KeyRelease && !modifierKey(k.Code) {
		if submit := cur.key(k); submit {
			delete(d, id)
			if cur.unknown {
				return relay.Sent{Pane: id}
			}
			if text := strings.TrimSpace(string(cur.text)); text != "" {
				return relay.Sent{Pane: id, Text: text}
			}
			return relay.Keystroke{Pane: id}
		}
	}
	d.set(id, cur)
	return d.event(id)
}

// paste records text pasted into pane id: it goes in at the cursor, and returns the
// relay events it makes (none for an empty paste). When the program takes the paste
// unbracketed (submits: it did not ask for bracketed paste, so keys.EncodePaste sends
// each line break as a carriage return), every line break is an Enter that submits
// the input as it then is: a Sent (or an empty input's Keystroke) each, then what
// follows the last line break as the draft. A bracketed paste is all draft: its line
// breaks are text the program inserts.
func (d drafts) paste(id int, text string, submits bool) []relay.Event {
	var evs []relay.Event
	if submits {
		lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\r"), "\n", "\r"), "\r")
		for _, line := range lines[:len(lines)-1] {
			d.insert(id, line)
			evs = append(evs, d.key(id, keys.Key{Code: keys.KeyEnter}))
		}
		text = lines[len(lines)-1]
	}
	if text == "" {
		return evs
	}
	d.insert(id, text)
	return append(evs, d.event(id))
}

// insert puts text into pane id's draft at its cursor.
func (d drafts) insert(id int, text string) {
	cur := d[id]
	if cur == nil {
		cur = &draft{}
	}
	cur.insert([]rune(text)...)
	d.set(id, cur)
}

// reset starts pane id's draft again from text, the cursor at its end: the relay
// cleared the input, typed a draft back, or found the input empty on the screen
// (relay.InputReset).
func (d drafts) reset(id int, text string) {
	d.set(id, &draft{text: []rune(text), cur: len([]rune(text))})
}

// event is the Keystroke that reports pane id's draft.
func (d drafts) event(id int) relay.Event {
	cur := d[id]
	if cur == nil {
		return relay.Keystroke{Pane: id}
	}
	if cur.unknown {
		return relay.Keystroke{Pane: id, Draft: true}
	}
	return relay.Keystroke{Pane: id, Draft: true, Text: string(cur.text), After: len(cur.text) - cur.cur}
}

// set stores pane id's draft, forgetting empty ones.
func (d drafts) set(id int, cur *draft) {
	if cur == nil || !cur.unknown && len(cur.text) == 0 {
		delete(d, id)
		return
	}
	d[id] = cur
}

// key applies k to the draft; true: k submits it.
func (c *draft) key(k keys.Key) bool {
	mods := k.Mod &^ (keys.ModShift | keys.ModCapsLock | keys.ModNumLock)
	ctrl := func(r rune) bool {
		return k.Code == keys.KeyRune && mods == keys.ModCtrl && unicode.ToLower(k.Rune) == r
	}
	plain := mods == 0 && k.Mod&keys.ModShift == 0
	switch {
	case (k.Code == keys.KeyEnter || k.Code == keys.KeyKPEnter) && plain:
		return true
	case k.Code == keys.KeyEnter && (mods == 0 || mods == keys.ModAlt):
		c.insert('\n')
	case k.Code == keys.KeyRune && mods == 0:
		c.insert(k.Rune)
	case ctrl('c'):
		c.empty()
	case k.Code == keys.KeyEscape && mods == 0:
		if c.unknown || len(c.text) > 0 {
			c.lose()
		}
	case ctrl('u'):
		if c.unknown || c.cur != len(c.text) {
			c.lose()
		} else {
			c.empty()
		}
	case c.unknown:
		// Nothing known to edit: it stays unknown until emptied.
	case (k.Code == keys.KeyLeft || k.Code == keys.KeyKPLeft) && plain, ctrl('b'):
		c.cur = max(c.cur-1, 0)
	case (k.Code == keys.KeyRight || k.Code == keys.KeyKPRight) && plain, ctrl('f'):
		c.cur = min(c.cur+1, len(c.text))
	case (k.Code == keys.KeyHome || k.Code == keys.KeyKPHome) && plain, ctrl('a'):
		c.lineEdit(func() { c.cur = 0 })
	case (k.Code == keys.KeyEnd || k.Code == keys.KeyKPEnd) && plain, ctrl('e'):
		c.lineEdit(func() { c.cur = len(c.text) })
	case k.Code == keys.KeyBackspace && mods == 0, ctrl('h'):
		if c.cur > 0 {
			c.cut(c.cur-1, c.cur)
		}
	case (k.Code == keys.KeyDelete || k.Code == keys.KeyKPDelete) && plain:
		if c.cur < len(c.text) {
			c.cut(c.cur, c.cur+1)
		}
	case ctrl('w'):
		c.cut(c.wordStart(unicode.IsSpace), c.cur)
	case k.Code == keys.KeyBackspace && mods == keys.ModAlt:
		c.cut(c.wordStart(func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), c.cur)
	case ctrl('k'):
		c.lineEdit(func() { c.cut(c.cur, len(c.text)) })
	case len(c.text) > 0 || bringsText(k, mods):
		c.lose()
	}
	return false
}

// insert types rs at the cursor.
func (c *draft) insert(rs ...rune) {
	if c.unknown {
		return
	}
	c.text = append(c.text[:c.cur], append(rs, c.text[c.cur:]...)...)
	c.cur += len(rs)
}

// cut deletes text[i:j], the cursor going to i.
func (c *draft) cut(i, j int) {
	c.text = append(c.text[:i], c.text[j:]...)
	c.cur = i
}

// empty empties the input.
func (c *draft) empty() { c.text, c.cur, c.unknown = nil, 0, false }

// lose makes the draft unknown.
func (c *draft) lose() { c.text, c.cur, c.unknown = nil, 0, true }

// lineEdit applies a key that works on the cursor's line (Home, End, Ctrl+K): on a draft
// of one line; on more, programs differ (the line or the whole input), so the draft
// becomes unknown.
func (c *draft) lineEdit(f func()) {
	if strings.ContainsRune(string(c.text), '\n') {
		c.lose()
		return
	}
	f()
}

// wordStart returns where the word before the cursor starts: separators (sep) right
// before the cursor are skipped, then the word's own characters.
func (c *draft) wordStart(sep func(rune) bool) int {
	i := c.cur
	for i > 0 && sep(c.text[i-1]) {
		i--
	}
	for i > 0 && !sep(c.text[i-1]) {
		i--
	}
	return i
}

// bringsText reports whether k can put text into an empty input: history (Up, Down,
// Ctrl+P/N), completion (Tab), searches (Ctrl+R/S), yanks (Ctrl+Y, Alt+Y, Alt+.,
// Alt+_), a quoted or pasted insert (Ctrl+V), an editor (Ctrl+X, Ctrl+G), keypad
// characters, and bytes the decoder could not map.
func bringsText(k keys.Key, mods keys.Mod) bool {
	switch k.Code {
	case keys.KeyUp, keys.KeyDown, keys.KeyKPUp, keys.KeyKPDown, keys.KeyTab, keys.KeyUnknown:
		return true
	case keys.KeyRune:
		r := unicode.ToLower(k.Rune)
		return mods == keys.ModCtrl && strings.ContainsRune("pnrsyvxg", r) ||
			mods == keys.ModAlt && strings.ContainsRune("y._", r)
	}
	return k.Code >= keys.KeyKP0 && k.Code <= keys.KeyKPSeparator
}

// modifierKey reports whether c is a modifier or lock key pressed alone (reported by
// the kitty protocol): no input.
func modifierKey(c keys.Code) bool {
	return c >= keys.KeyCapsLock && c <= keys.KeyNumLock || c >= keys.KeyLeftShift && c <= keys.KeyISOLevel5Shift
}
