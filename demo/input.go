package demo

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The decoder turns the raw bytes a terminal sends into events: keys (legacy bytes, xterm
// modifyOtherKeys and kitty keyboard protocol encodings), bracketed pastes, mouse wheel
// reports and the answers to the agent's queries. It keeps incomplete sequences across
// reads, so a paste split over many reads arrives as one event.

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

const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
	// maxPending bounds an unterminated escape sequence kept across reads; past it the
	// bytes are dropped rather than held forever.
	maxPending = 4096
	// maxPaste bounds the text of one paste.
	maxPaste = 1 << 20
)

// decoder is the input state machine. Its zero value is ready; lfSubmits makes a line
// feed submit like Enter (for a stdin that is not a terminal, where lines end in "\n").
type decoder struct {
	lfSubmits bool
	pending   []byte // the start of a sequence not yet complete
	pasting   bool
	paste     []byte
}

// feed decodes p and returns the events completed by it. A lone ESC at the end of p is
// the Escape key: a terminal writes a whole sequence at once, so an escape sequence is
// practically never split right after its ESC.
func (d *decoder) feed(p []byte) []event {
	buf := append(d.pending, p...)
	d.pending = nil
	var evs []event
	for len(buf) > 0 {
		if d.pasting {
			var done bool
			buf, done = d.feedPaste(buf)
			if done {
				evs = append(evs, pasteEvent{text: string(d.paste)})
				d.paste = nil
			}
			continue
		}
		n, ev := d.next(buf)
		if n == 0 { // incomplete: keep for the next read, within bounds
			if len(buf) <= maxPending {
				d.pending = append([]byte(nil), buf...)
			}
			break
		}
		if ev != nil {
			evs = append(evs, ev)
		}
		buf = buf[n:]
	}
	return evs
}

// feedPaste consumes paste text up to the end marker. It returns what follows the marker
// and true, or nil and false when the paste goes on (a possible partial marker at the end
// is kept pending).
func (d *decoder) feedPaste(buf []byte) ([]byte, bool) {
	if i := bytes.Index(buf, []byte(pasteEnd)); i >= 0 {
		d.addPaste(buf[:i])
		d.pasting = false
		return buf[i+len(pasteEnd):], true
	}
	keep := 0
	for k := min(len(buf), len(pasteEnd)-1); k > 0; k-- {
		if bytes.HasSuffix(buf, []byte(pasteEnd[:k])) {
			keep = k
			break
		}
	}
	d.addPaste(buf[:len(buf)-keep])
	if keep > 0 {
		d.pending = append([]byte(nil), buf[len(buf)-keep:]...)
	}
	return nil, false
}

func (d *decoder) addPaste(p []byte) {
	if room := maxPaste - len(d.paste); len(p) > room {
		p = p[:max(room, 0)]
	}
	d.paste = append(d.paste, p...)
}

// next decodes one key or sequence at the start of b. It returns the bytes used (0 when b
// holds only the start of a sequence) and the event, nil for input the agent ignores.
func (d *decoder) next(b []byte) (int, event) {
	switch c := b[0]; {
	case c == 0x1b:
		return d.escape(b)
	case c == '\r':
		return 1, keyEvent{kind: keyEnter}
	case c == '\n':
		if d.lfSubmits {
			return 1, keyEvent{kind: keyEnter}
		}
		return 1, keyEvent{kind: keyNewline}
	case c == 0x7f || c == 0x08:
		return 1, keyEvent{kind: keyBackspace}
	case c == 0x03:
		return 1, keyEvent{kind: keyCtrlC}
	case c == 0x04:
		return 1, keyEvent{kind: keyCtrlD}
	case c == 0x15:
		return 1, keyEvent{kind: keyCtrlU}
	case c < 0x20:
		return 1, nil
	}
	if !utf8.FullRune(b) {
		return 0, nil
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError || !unicode.IsPrint(r) {
		return n, nil
	}
	return n, keyEvent{kind: keyText, text: string(r)}
}

// escape decodes a sequence starting with ESC.
func (d *decoder) escape(b []byte) (int, event) {
	if len(b) == 1 {
		return 1, keyEvent{kind: keyEscape}
	}
	switch b[1] {
	case '[':
		return d.csi(b)
	case ']':
		return osc(b)
	case 'P', '_', '^', 'X': // DCS, APC, PM, SOS strings (an XTVERSION answer): skipped
		n, _ := stringSeq(b)
		return n, nil
	case 'O': // SS3: application-mode arrows and F1-F4, ignored
		if len(b) < 3 {
			return 0, nil
		}
		return 3, nil
	case '\r':
		return 2, keyEvent{kind: keyNewline}
	case 0x1b:
		return 1, keyEvent{kind: keyEscape}
	}
	if !utf8.FullRune(b[1:]) { // Alt+key: ignored
		return 0, nil
	}
	_, n := utf8.DecodeRune(b[1:])
	return 1 + n, nil
}

// csi decodes ESC [ params final.
func (d *decoder) csi(b []byte) (int, event) {
	i := 2
	for i < len(b) && b[i] >= 0x20 && b[i] <= 0x3f {
		i++
	}
	if i == len(b) {
		return 0, nil
	}
	final := b[i]
	if final < 0x40 || final > 0x7e { // malformed: drop it up to the offending byte
		return i, nil
	}
	params := string(b[2:i])
	prefix := ""
	if params != "" && strings.ContainsRune("<=>?", rune(params[0])) {
		prefix, params = params[:1], params[1:]
	}
	n := i + 1
	fields := strings.Split(params, ";")
	switch {
	case final == '~' && prefix == "" && params == "200":
		d.pasting = true
		d.paste = nil
		return n, nil
	case final == '~' && prefix == "" && fields[0] == "27" && len(fields) == 3: // modifyOtherKeys
		return n, keyFromCode(atoi(fields[2]), 0, atoi(fields[1]), 1, "")
	case final == 'u' && prefix == "?":
		return n, replyEvent{kind: replyKitty, text: params}
	case final == 'u' && prefix == "":
		return n, kittyKey(fields)
	case final == 'c' && prefix == "?":
		return n, replyEvent{kind: replyDA1, text: params}
	case final == 'R' && prefix == "":
		return n, replyEvent{kind: replyCPR, text: params}
	case (final == 'M') && prefix == "<": // SGR mouse press: only the wheel matters
		if btn := atoi(fields[0]); btn&64 != 0 {
			if btn&1 == 0 {
				return n, keyEvent{kind: keyWheelUp}
			}
			return n, keyEvent{kind: keyWheelDown}
		}
	}
	return n, nil
}

// kittyKey decodes the fields of a kitty keyboard protocol report,
// CSI code[:shifted[:base]] ; mods[:event] ; text u.
func kittyKey(fields []string) event {
	codes := strings.Split(fields[0], ":")
	code, shifted := atoi(codes[0]), 0
	if len(codes) > 1 {
		shifted = atoi(codes[1])
	}
	mods, kind := 1, 1
	if len(fields) > 1 {
		m := strings.Split(fields[1], ":")
		mods = atoi(m[0])
		if len(m) > 1 {
			kind = atoi(m[1])
		}
	}
	text := ""
	if len(fields) > 2 {
		for _, cp := range strings.Split(fields[2], ":") {
			if r := rune(atoi(cp)); unicode.IsPrint(r) {
				text += string(r)
			}
		}
	}
	return keyFromCode(code, shifted, mods, kind, text)
}

// keyFromCode maps a key code with its modifiers (1 + shift 1, alt 2, ctrl 4, ...) and
// event type (1 press, 2 repeat, 3 release) to the agent's keys.
func keyFromCode(code, shifted, mods, kind int, text string) event {
	if kind == 3 {
		return nil
	}
	m := max(mods-1, 0)
	shift, alt, ctrl := m&1 != 0, m&2 != 0, m&4 != 0
	switch code {
	case 13, 57414: // Enter, keypad Enter
		if m != 0 {
			return keyEvent{kind: keyNewline}
		}
		return keyEvent{kind: keyEnter}
	case 127, 8:
		return keyEvent{kind: keyBackspace}
	case 27:
		return keyEvent{kind: keyEscape}
	}
	if ctrl {
		switch code {
		case 'c':
			return keyEvent{kind: keyCtrlC}
		case 'd':
			return keyEvent{kind: keyCtrlD}
		case 'u':
			return keyEvent{kind: keyCtrlU}
		case 'j':
			return keyEvent{kind: keyNewline}
		}
		return nil
	}
	if alt {
		return nil
	}
	if text != "" {
		return keyEvent{kind: keyText, text: text}
	}
	r := rune(code)
	if shift {
		if shifted > 0 {
			r = rune(shifted)
		} else {
			r = unicode.ToUpper(r)
		}
	}
	if r < 0x20 || (r >= 57344 && r <= 63743) || !unicode.IsPrint(r) { // controls, functional keys
		return nil
	}
	return keyEvent{kind: keyText, text: string(r)}
}

// osc decodes ESC ] payload (BEL | ESC \); only the OSC 11 answer is an event.
func osc(b []byte) (int, event) {
	n, payload := stringSeq(b)
	if n == 0 {
		return 0, nil
	}
	if rest, ok := strings.CutPrefix(payload, "11;"); ok {
		return n, replyEvent{kind: replyOSC11, text: rest}
	}
	return n, nil
}

// stringSeq measures a string sequence (OSC, DCS, APC…) starting at b[0:2], ended by BEL
// or ST. It returns its length and payload, or 0 when the terminator has not arrived.
func stringSeq(b []byte) (int, string) {
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] == 0x07:
			return i + 1, string(b[2:i])
		case b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\':
			return i + 2, string(b[2:i])
		case b[i] == 0x1b && i+1 < len(b): // an ESC that does not end it: broken, stop here
			return i, ""
		}
	}
	return 0, ""
}

// atoi parses a decimal parameter; anything else is 0.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}
