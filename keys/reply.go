package keys

import (
	"bytes"
	"strconv"
)

// Helpers that read the replies a host asks the outer terminal for at start-up: the
// kitty keyboard flags (to learn whether the terminal speaks the protocol), primary
// device attributes (the usual "end of answers" sentinel) and the OSC 10/11/12 colours.

// KittyFlags returns the flags in a kitty keyboard protocol answer "CSI ? flags u".
func (r Reply) KittyFlags() (uint8, bool) {
	b, ok := bytes.CutPrefix(r.Raw, []byte("\x1b[?"))
	if !ok {
		return 0, false
	}
	b, ok = bytes.CutSuffix(b, []byte("u"))
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b), 10, 8)
	if err != nil {
		return 0, false
	}
	return uint8(n), true
}

// PrimaryDA reports whether r is a primary device attributes answer "CSI ? ... c".
func (r Reply) PrimaryDA() bool {
	return bytes.HasPrefix(r.Raw, []byte("\x1b[?")) && bytes.HasSuffix(r.Raw, []byte("c"))
}

// Color reads an OSC colour answer "OSC n ; rgb:R/G/B" ended by BEL or ST, with 1 to 4
// hex digits per component (scaled to 8 bits), as terminals send for OSC 10
// (foreground), 11 (background) and 12 (cursor). It returns n and the colour.
func (r Reply) Color() (n int, red, green, blue uint8, ok bool) {
	b, found := bytes.CutPrefix(r.Raw, []byte("\x1b]"))
	if !found {
		return 0, 0, 0, 0, false
	}
	if c, found := bytes.CutSuffix(b, []byte("\x1b\\")); found {
		b = c
	} else if c, found := bytes.CutSuffix(b, []byte("\a")); found {
		b = c
	} else {
		return 0, 0, 0, 0, false
	}
	num, spec, found := bytes.Cut(b, []byte(";"))
	if !found {
		return 0, 0, 0, 0, false
	}
	n, err := strconv.Atoi(string(num))
	if err != nil {
		return 0, 0, 0, 0, false
	}
	if s, found := bytes.CutPrefix(spec, []byte("rgb:")); found {
		spec = s
	} else if s, found := bytes.CutPrefix(spec, []byte("rgba:")); found {
		spec = s
	} else {
		return 0, 0, 0, 0, false
	}
	parts := bytes.Split(spec, []byte("/"))
	if len(parts) < 3 {
		return 0, 0, 0, 0, false
	}
	var rgb [3]uint8
	for i := range rgb {
		p := parts[i]
		if len(p) < 1 || len(p) > 4 {
			return 0, 0, 0, 0, false
		}
		v, err := strconv.ParseUint(string(p), 16, 16)
		if err != nil {
			return 0, 0, 0, 0, false
		}
		full := uint64(1)<<(4*len(p)) - 1
		rgb[i] = uint8((v*255 + full/2) / full)
	}
	return n, rgb[0], rgb[1], rgb[2], true
}
