package keys

import "bytes"

// Limits that keep a Decoder's memory bounded whatever it is fed.
const (
	// DefaultMaxPaste is the largest bracketed paste delivered as one Paste event; a
	// longer one arrives as several (see Decoder.MaxPaste).
	DefaultMaxPaste = 32 << 20
	// maxCSI bounds an unterminated CSI sequence: real ones are a few dozen bytes.
	maxCSI = 256
	// maxString bounds an unterminated OSC/DCS/APC/SOS/PM string (replies to queries
	// are short); past it the string is passed on as Reply chunks.
	maxString = 4096
)

// pasteEnd ends a bracketed paste.
var pasteEnd = []byte("\x1b[201~")

// skipKind says what an over-long sequence being discarded is waiting for.
type skipKind uint8

const (
	skipNone   skipKind = iota
	skipCSI             // until a CSI final byte
	skipString          // until ST (ESC \)
	skipOSC             // until ST or BEL
)

// Decoder turns the byte stream from the outer terminal into events: Key, Paste,
// Mouse, Focus and Reply values. Feed it every read; when Pending reports an incomplete
// escape sequence and no more bytes arrive within the caller's escape timeout (a few
// tens of milliseconds), call Flush: a lone ESC then becomes the Escape key and ESC
// followed by a character becomes Alt+character.
//
// Every input byte ends up in exactly one event's Raw, or is still held by the Decoder.
// A Decoder holds at most a few KiB besides a bracketed paste in progress (at most
// MaxPaste). It is not safe for concurrent use: one goroutine reads stdin and feeds it.
type Decoder struct {
	// MaxPaste is the largest Paste event; 0 means DefaultMaxPaste.
	MaxPaste int

	buf   []byte   // undecoded bytes, always a bounded tail
	skip  skipKind // discarding an over-long sequence
	paste *pasting // non-nil inside a bracketed paste
}

// pasting is a bracketed paste in progress.
type pasting struct {
	raw       []byte // the bytes of the current Paste event so far
	textStart int    // where the text starts in raw (after the start marker, if any)
}

// Feed decodes p (appended to whatever was pending) and returns the complete events
// in order. An incomplete sequence at the end stays pending.
func (d *Decoder) Feed(p []byte) []Event {
	d.buf = append(d.buf, p...)
	return d.decode(false)
}

// Pending reports whether the Decoder holds the start of an escape sequence (or of a
// UTF-8 character) that more bytes could complete. The caller should call Flush if no
// more input arrives within its escape timeout. It is false inside a bracketed paste,
// which only its end marker completes.
func (d *Decoder) Pending() bool {
	return len(d.buf) > 0 && d.paste == nil
}

// Flush decodes the pending bytes as if no more were coming: a lone ESC is the Escape
// key, ESC plus a character is Alt+character, an unfinished CSI is Alt+[ followed by
// its bytes as keys, a cut UTF-8 character is a KeyUnknown. A bracketed paste in
// progress is left alone.
func (d *Decoder) Flush() []Event {
	if d.paste != nil {
		return nil
	}
	return d.decode(true)
}

// decode consumes as much of d.buf as it can. With final set, nothing stays pending
// except a paste in progress.
func (d *Decoder) decode(final bool) []Event {
	var evs []Event
	b := d.buf
	i := 0
	for i < len(b) {
		var ev any
		var n int
		switch {
		case d.paste != nil:
			ev, n = d.pasteStep(b[i:])
		case d.skip != skipNone:
			ev, n = d.skipStep(b[i:], final)
			if n == 0 && d.skip == skipNone {
				continue // the sequence ended right here; decode on normally
			}
		default:
			ev, n = d.next(b[i:], final)
		}
		if n == 0 {
			break
		}
		switch e := ev.(type) {
		case nil:
		case beginPaste:
			d.paste = &pasting{raw: e.raw, textStart: len(e.raw)}
		case beginSkip:
			d.skip = e.kind
			evs = append(evs, Reply{Raw: e.raw})
		case Event:
			evs = append(evs, e)
		}
		i += n
	}
	// Keep the unconsumed tail; drop the backing array when it grew large.
	rest := len(b) - i
	if cap(b) > 4*maxString && rest <= maxString {
		d.buf = append([]byte(nil), b[i:]...)
	} else {
		d.buf = append(b[:0], b[i:]...)
	}
	return evs
}

// next decodes one event at the start of b (not inside a paste or skip). It returns
// n == 0 when b holds only the start of an event and more bytes are needed; never
// when final.
func (d *Decoder) next(b []byte, final bool) (any, int) {
	c := b[0]
	switch {
	case c == 0x1b:
		return d.escape(b, final)
	case c < 0x20 || c == 0x7f:
		return controlKey(c, b[:1]), 1
	case c < 0x80:
		return Key{Code: KeyRune, Rune: rune(c), Raw: clone(b[:1])}, 1
	}
	return utf8Key(b, final)
}

// controlKey decodes a C0 control or DEL as xterm produces them: CR is Enter, HT Tab,
// DEL Backspace, NUL ctrl+space, BS ctrl+h, and the rest ctrl+letter or ctrl+symbol.
func controlKey(c byte, raw []byte) Key {
	k := Key{Raw: clone(raw)}
	switch c {
	case '\r':
		k.Code = KeyEnter
	case '\t':
		k.Code = KeyTab
	case 0x7f:
		k.Code = KeyBackspace
	case 0x1b:
		k.Code = KeyEscape
	case 0:
		k.Code, k.Rune, k.Mod = KeyRune, ' ', ModCtrl
	default:
		// 0x01-0x1a are ctrl+a..ctrl+z; 0x1c-0x1f are ctrl+\ ctrl+] ctrl+^ ctrl+_.
		k.Code, k.Rune, k.Mod = KeyRune, rune(c)+0x60, ModCtrl
		if c >= 0x1c {
			k.Rune = rune(c) + 0x40
		}
	}
	return k
}

// pasteStep consumes paste text from b up to and including the end marker. A tail
// that could be the start of the end marker stays pending.
func (d *Decoder) pasteStep(b []byte) (any, int) {
	limit := d.MaxPaste
	if limit <= 0 {
		limit = DefaultMaxPaste
	}
	if j := bytes.Index(b, pasteEnd); j >= 0 {
		d.paste.raw = append(d.paste.raw, b[:j+len(pasteEnd)]...)
		p := d.paste
		d.paste = nil
		return Paste{Text: string(p.raw[p.textStart : len(p.raw)-len(pasteEnd)]), Raw: p.raw}, j + len(pasteEnd)
	}
	keep := partialSuffix(b, pasteEnd)
	n := len(b) - keep
	if n == 0 {
		return nil, 0
	}
	room := limit - (len(d.paste.raw) - d.paste.textStart)
	if n >= room {
		// Deliver what fills this Paste; the rest continues in the next one.
		d.paste.raw = append(d.paste.raw, b[:room]...)
		p := d.paste
		d.paste = &pasting{}
		return Paste{Text: string(p.raw[p.textStart:]), Raw: p.raw}, room
	}
	d.paste.raw = append(d.paste.raw, b[:n]...)
	return nil, n
}

// partialSuffix returns the length of the longest suffix of b that is a proper prefix
// of marker.
func partialSuffix(b, marker []byte) int {
	for k := min(len(marker)-1, len(b)); k > 0; k-- {
		if bytes.Equal(b[len(b)-k:], marker[:k]) {
			return k
		}
	}
	return 0
}

// skipStep discards the rest of an over-long sequence as Reply chunks. It ends skip
// mode at the sequence's end, or at once when final.
func (d *Decoder) skipStep(b []byte, final bool) (any, int) {
	i, done := 0, false
	if d.skip == skipCSI {
		for i < len(b) && b[i] >= 0x20 && b[i] <= 0x3f {
			i++
		}
		if i < len(b) {
			done = true
			if b[i] >= 0x40 && b[i] <= 0x7e {
				i++ // the final byte belongs to the sequence
			}
		}
	} else {
	scan:
		for ; i < len(b); i++ {
			switch b[i] {
			case 0x07:
				if d.skip == skipOSC {
					i++
					done = true
					break scan
				}
			case 0x1b:
				if i+1 == len(b) {
					done = final // maybe the start of ST: wait, unless nothing more comes
					break scan
				}
				if b[i+1] == '\\' {
					i += 2
				}
				done = true // ST, or an ESC that cuts the string off
				break scan
			}
		}
	}
	if done || final {
		d.skip = skipNone
	}
	if i == 0 {
		return nil, 0
	}
	return Reply{Raw: clone(b[:i])}, i
}

// clone copies b: events never alias the Decoder's buffer.
func clone(b []byte) []byte {
	return append([]byte(nil), b...)
}
