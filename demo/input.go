package demo

import (
	"bytes"

	"github.com/agentmux/agentmux/keys"
)

// The decoder turns the raw bytes a terminal sends into the agent's events: keys (legacy
// bytes, xterm modifyOtherKeys and kitty keyboard protocol encodings), bracketed pastes,
// mouse wheel reports and the answers to the agent's queries. The decoding is keys'
// (keys.Decoder, the same one agentmux reads its own terminal with); this file only maps
// its events to the few the agent reacts to.

// event is one decoded input: keyEvent, pasteEvent or replyEvent.
type event interface{ isEvent() }

// keyKind names the keys the agent reacts to.
type keyKind int

const (
	keyText      keyKind = iota // printable text
	keyEnter                    // submit
	keyNewline                  // Shift+Enter, Alt+Enter, Ctrl+J: a newline in the draft
	keyBackspace                // delete the last character
	keyEscape                   // interrupt a busy turn
	keyCtrlC                    // interrupt, clear, or (twice) exit
	keyCtrlD                    // exit on an empty draft
	keyCtrlU                    // clear the draft
	keyWheelUp                  // mouse wheel: scroll the transcript back
	keyWheelDown                // mouse wheel: scroll the transcript forward
)

// keyEvent is a key press; text holds the characters of a keyText.
type keyEvent struct {
	kind keyKind
	text string
}

// pasteEvent is the text of one bracketed paste.
type pasteEvent struct{ text string }

// replyKind names the terminal reports the agent understands.
type replyKind int

const (
	replyDA1   replyKind = iota // CSI ? … c
	replyCPR                    // CSI row ; col R
	replyOSC11                  // OSC 11 ; rgb:… (the background colour)
	replyKitty                  // CSI ? flags u
)

// replyEvent is a terminal's answer to a query; text is its payload.
type replyEvent struct {
	kind replyKind
	text string
}

func (keyEvent) isEvent()   {}
func (pasteEvent) isEvent() {}
func (replyEvent) isEvent() {}

// maxPaste bounds the text of one paste event (longer pastes arrive in pieces).
const maxPaste = 1 << 20

// decoder is the input state machine. Its zero value is ready; lfSubmits makes a line
// feed submit like Enter (for a stdin that is not a terminal, where lines end in "\n").
type decoder struct {
	lfSubmits bool
	d         keys.Decoder
}

// feed decodes p and returns the events completed by it. A lone ESC at the end of p is
// the Escape key: a terminal writes a whole sequence at once, so an escape sequence is
// practically never split right after its ESC (the agent has no escape timer).
func (d *decoder) feed(p []byte) []event {
	d.d.MaxPaste = maxPaste
	in := d.d.Feed(p)
	if len(p) > 0 && p[len(p)-1] == 0x1b && d.d.Pending() {
		in = append(in, d.d.Flush()...)
	}
	var evs []event
	for _, ev := range in {
		if e := d.convert(ev); e != nil {
			evs = append(evs, e)
		}
	}
	return evs
}

// convert maps one keys event to the agent's, or nil for what the agent ignores.
func (d *decoder) convert(ev keys.Event) event {
	switch ev := ev.(type) {
	case keys.Key:
		return d.key(ev)
	case keys.Paste:
		return pasteEvent{text: ev.Text}
	case keys.Mouse:
		switch {
		case ev.Action != keys.MousePress:
		case ev.Button == keys.WheelUp:
			return keyEvent{kind: keyWheelUp}
		case ev.Button == keys.WheelDown:
			return keyEvent{kind: keyWheelDown}
		}
	case keys.Reply:
		return reply(ev)
	}
	return nil
}

// key maps a key press.
func (d *decoder) key(k keys.Key) event {
	if k.Event == keys.KeyRelease {
		return nil
	}
	mods := k.Mod &^ (keys.ModCapsLock | keys.ModNumLock)
	switch {
	case k.Code == keys.KeyEnter && mods == 0:
		return keyEvent{kind: keyEnter}
	case k.Code == keys.KeyEnter && mods&(keys.ModShift|keys.ModAlt) != 0:
		return keyEvent{kind: keyNewline}
	case k.Code == keys.KeyBackspace && mods == 0:
		return keyEvent{kind: keyBackspace}
	case k.Code == keys.KeyEscape && mods == 0:
		return keyEvent{kind: keyEscape}
	case k.Code != keys.KeyRune:
		return nil
	case mods == keys.ModCtrl:
		switch k.Rune {
		case 'c':
			return keyEvent{kind: keyCtrlC}
		case 'd':
			return keyEvent{kind: keyCtrlD}
		case 'u':
			return keyEvent{kind: keyCtrlU}
		case 'h': // BS, as many terminals send Backspace
			return keyEvent{kind: keyBackspace}
		case 'j':
			if d.lfSubmits {
				return keyEvent{kind: keyEnter}
			}
			return keyEvent{kind: keyNewline}
		}
		return nil
	case mods&^keys.ModShift != 0 || k.Rune < 0x20:
		return nil
	}
	if k.Text != "" {
		return keyEvent{kind: keyText, text: k.Text}
	}
	return keyEvent{kind: keyText, text: string(k.Rune)}
}

// reply maps a terminal's answer, with its payload.
func reply(r keys.Reply) event {
	raw := r.Raw
	switch {
	case r.PrimaryDA():
		return replyEvent{kind: replyDA1, text: string(raw[3 : len(raw)-1])}
	case bytes.HasPrefix(raw, []byte("\x1b[?")) && bytes.HasSuffix(raw, []byte("u")):
		if _, ok := r.KittyFlags(); ok {
			return replyEvent{kind: replyKitty, text: string(raw[3 : len(raw)-1])}
		}
	case bytes.HasPrefix(raw, []byte("\x1b[")) && bytes.HasSuffix(raw, []byte("R")):
		return replyEvent{kind: replyCPR, text: string(raw[2 : len(raw)-1])}
	}
	if n, _, _, _, ok := r.Color(); ok && n == 11 {
		body := bytes.TrimSuffix(bytes.TrimSuffix(raw, []byte("\x1b\\")), []byte("\a"))
		_, spec, _ := bytes.Cut(body, []byte(";"))
		return replyEvent{kind: replyOSC11, text: string(spec)}
	}
	return nil
}
