package vterm

import "unicode/utf8"

// This file is the input state machine, after Paul Williams' DEC parser (tmux input.c
// has the same shape): a table from (state, byte) to (action, next state), built once.
// Printable ASCII in the ground state skips the table (the hot path); UTF-8 is decoded
// in the ground state only, with an incomplete tail carried across writes. OSC and DCS
// strings are buffered up to a bound (longer ones are dropped); SOS, PM and APC strings
// are swallowed.

type pstate uint8

const (
	stGround pstate = iota
	stEscape
	stEscInter
	stCSIEntry
	stCSIParam
	stCSIInter
	stCSIIgnore
	stOSC
	stDCS          // device control string: buffered for DECRQSS and XTGETTCAP
	stIgnoreString // SOS, PM, APC: consumed without effect
	stStringEsc    // ESC inside a string: ST, or the start of a new sequence
	nStates
)

type pact uint8

const (
	aNone pact = iota // ignore the byte
	aPrint
	aExecute
	aCollect
	aParam
	aEscDispatch
	aCSIDispatch
	aOSCPut
	aOSCEnd // BEL-terminated OSC
	aDCSPut
)

const (
	maxParams = 32
	maxParam  = 65535
	maxOSC    = 64 << 10 // longer OSC strings are dropped
	maxDCS    = 1024     // longer DCS strings (sixel images...) are dropped
)

// ptable maps state and byte to action<<4 | next state.
var ptable [nStates][256]uint8

func init() {
	set := func(s pstate, lo, hi int, a pact, next pstate) {
		for b := lo; b <= hi; b++ {
			ptable[s][b] = uint8(a)<<4 | uint8(next)
		}
	}
	execC0 := func(s pstate) {
		set(s, 0x00, 0x17, aExecute, s)
		set(s, 0x19, 0x19, aExecute, s)
		set(s, 0x1c, 0x1f, aExecute, s)
	}
	for s := pstate(0); s < nStates; s++ {
		set(s, 0, 255, aNone, s)
	}
	set(stGround, 0x20, 0xff, aPrint, stGround)
	set(stGround, 0x7f, 0x7f, aNone, stGround)
	execC0(stGround)

	execC0(stEscape)
	set(stEscape, 0x20, 0x2f, aCollect, stEscInter)
	set(stEscape, 0x30, 0x7e, aEscDispatch, stGround)
	set(stEscape, 'P', 'P', aNone, stDCS)
	set(stEscape, 'X', 'X', aNone, stIgnoreString)
	set(stEscape, '^', '^', aNone, stIgnoreString)
	set(stEscape, '_', '_', aNone, stIgnoreString)
	set(stEscape, '[', '[', aNone, stCSIEntry)
	set(stEscape, ']', ']', aNone, stOSC)

	execC0(stEscInter)
	set(stEscInter, 0x20, 0x2f, aCollect, stEscInter)
	set(stEscInter, 0x30, 0x7e, aEscDispatch, stGround)

	execC0(stCSIEntry)
	set(stCSIEntry, 0x20, 0x2f, aCollect, stCSIInter)
	set(stCSIEntry, 0x30, 0x3b, aParam, stCSIParam)
	set(stCSIEntry, 0x3c, 0x3f, aCollect, stCSIParam)
	set(stCSIEntry, 0x40, 0x7e, aCSIDispatch, stGround)

	execC0(stCSIParam)
	set(stCSIParam, 0x20, 0x2f, aCollect, stCSIInter)
	set(stCSIParam, 0x30, 0x3b, aParam, stCSIParam)
	set(stCSIParam, 0x3c, 0x3f, aNone, stCSIIgnore)
	set(stCSIParam, 0x40, 0x7e, aCSIDispatch, stGround)

	execC0(stCSIInter)
	set(stCSIInter, 0x20, 0x2f, aCollect, stCSIInter)
	set(stCSIInter, 0x30, 0x3f, aNone, stCSIIgnore)
	set(stCSIInter, 0x40, 0x7e, aCSIDispatch, stGround)

	execC0(stCSIIgnore)
	set(stCSIIgnore, 0x40, 0x7e, aNone, stGround)

	set(stOSC, 0x20, 0xff, aOSCPut, stOSC)
	set(stOSC, 0x07, 0x07, aOSCEnd, stGround)

	set(stDCS, 0x20, 0xff, aDCSPut, stDCS) // C0 controls inside are ignored

	// anywhere: CAN and SUB abort, ESC starts a sequence (or ends a string)
	for s := pstate(0); s < nStates; s++ {
		set(s, 0x18, 0x18, aExecute, stGround)
		set(s, 0x1a, 0x1a, aExecute, stGround)
		set(s, 0x1b, 0x1b, aNone, stEscape)
	}
	set(stOSC, 0x1b, 0x1b, aNone, stStringEsc)
	set(stDCS, 0x1b, 0x1b, aNone, stStringEsc)
	set(stIgnoreString, 0x1b, 0x1b, aNone, stStringEsc)
}

// parser is the state of the input state machine.
type parser struct {
	state   pstate
	strKind pstate // the string state an ESC interrupted (stStringEsc)

	params [maxParams]int32 // -1: omitted
	sub    [maxParams]bool  // params[i] follows a colon: a sub-parameter of params[i-1]
	np     int
	pover  bool // more than maxParams parameters: the rest are dropped

	prefix    byte // private marker: '<', '=', '>' or '?'
	inter     [2]byte
	ni        int
	interOver bool

	osc     []byte
	oscOver bool

	dcs     []byte
	dcsOver bool

	u8  [4]byte // incomplete UTF-8 sequence carried across writes
	u8n int
}

func (ps *parser) init() {
	ps.osc = make([]byte, 0, 256)
	ps.dcs = make([]byte, 0, 64)
}

func (ps *parser) clear() {
	ps.np = 0
	ps.pover = false
	ps.prefix = 0
	ps.ni = 0
	ps.interOver = false
}

// feed runs p through the state machine.
func (t *Terminal) feed(p []byte) {
	if t.slow {
		for _, b := range p {
			t.feedByte(b)
		}
		return
	}
	ps := &t.p
	for i := 0; i < len(p); {
		b := p[i]
		if ps.state == stGround {
			if ps.u8n > 0 {
				if b >= 0x80 && b < 0xc0 {
					t.u8push(b)
					i++
					continue
				}
				t.u8flush()
			}
			if b >= 0x20 && b < 0x7f {
				if t.activeCharset() == charsetASCII && !t.modes.Insert {
					j := i + 1 + printableRun(p[i+1:])
					t.printASCII(p[i:j])
					i = j
					continue
				}
				t.printRune(rune(b))
				i++
				continue
			}
			if b >= 0x80 {
				if r, ok := decode3(p[i:]); ok {
					t.printRune(r) // CJK, box drawing, most symbols: decoded inline
					i += 3
					continue
				}
				r, size := utf8.DecodeRune(p[i:])
				if r == utf8.RuneError && size <= 1 {
					if !utf8.FullRune(p[i:]) {
						// an incomplete sequence at the end: keep it for the next write
						for ; i < len(p); i++ {
							t.u8push(p[i])
						}
						continue
					}
					size = 1
				}
				t.printRune(r)
				i += size
				continue
			}
			if b == 0x1b {
				if n := t.csiRun(p[i:]); n > 0 {
					i += n
					continue
				}
			} else if b < 0x20 {
				// C0 controls: the table executes each and stays in (or returns to)
				// the ground state; CR and LF end every line
				t.execute(b)
				i++
				continue
			}
		} else if (ps.state == stCSIParam || ps.state == stCSIEntry) && b >= '0' && b <= ';' {
			// parameter bytes: the second hottest path (SGR and cursor addressing)
			j := i
			for j < len(p) && p[j] >= '0' && p[j] <= ';' {
				ps.param(p[j])
				j++
			}
			ps.state = stCSIParam
			i = j
			continue
		} else if ps.state == stStringEsc {
			switch {
			case ps.strKind == stOSC:
				t.oscEnd(false)
			case ps.strKind == stDCS && b == '\\':
				t.dcsEnd() // only a real ST ends a DCS; ESC and anything else aborts it
			}
			ps.state = stGround
			if b == '\\' {
				i++
				continue
			}
			ps.state = stEscape
			ps.clear()
		}
		t.step(b)
		i++
	}
}

// printableRun returns how many bytes at the start of p are printable ASCII (0x20-0x7e),
// looking at eight at a time.
func printableRun(p []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	n := 0
	for ; n+8 <= len(p); n += 8 {
		x := le.Uint64(p[n:])
		// a byte below 0x20, or above 0x7e (0x7f, or any with its high bit set), sets
		// its high bit in one of these
		if ((x-ones*0x20)|(x+ones*(0x80-0x7f))|x)&highs != 0 {
			break
		}
	}
	for n < len(p) && p[n] >= 0x20 && p[n] < 0x7f {
		n++
	}
	return n
}

// csiRun runs a whole control sequence at the start of p (ESC [, an optional private
// marker, parameter bytes and a final byte, all in p) as the table would, byte by byte,
// and returns its length; it returns 0, having done nothing, for anything else (an
// intermediate, a control inside, a sequence cut by the end of p), which the table then
// takes. SGR and cursor addressing go this way: three table steps and a loop per
// sequence saved.
func (t *Terminal) csiRun(p []byte) int {
	if len(p) < 3 || p[1] != '[' {
		return 0
	}
	j := 2
	var prefix byte
	if c := p[j]; c >= 0x3c && c <= 0x3f {
		prefix = c
		j++
	}
	// One pass reads the parameters with param's rules (the one at hand kept in v) and
	// finds the final byte; a sequence that turns out not to be one for this path leaves
	// only the parser's parameters changed, which the table clears as it enters it.
	ps := &t.p
	ps.clear()
	ps.prefix = prefix
	k := j
	if k < len(p) && p[k]-'0' <= ';'-'0' {
		ps.np, ps.params[0], ps.sub[0] = 1, -1, false
		v := int32(-1)
		for ; k < len(p); k++ {
			c := p[k]
			if d := c - '0'; d <= 9 {
				v = min(max(v, 0)*10+int32(d), maxParam)
				continue
			}
			if c != ';' && c != ':' {
				break
			}
			ps.params[ps.np-1] = v
			if ps.np == maxParams {
				ps.pover = true // the rest is dropped
				for k++; k < len(p) && p[k]-'0' <= ';'-'0'; k++ {
				}
				break
			}
			ps.sub[ps.np] = c == ':'
			ps.np++
			v = -1
		}
		if !ps.pover {
			ps.params[ps.np-1] = v
		}
	}
	if k >= len(p) || p[k] < 0x40 || p[k] > 0x7e {
		return 0
	}
	ps.state = stCSIParam // as the table has it while dispatching
	if p[k] == 'm' && prefix == 0 {
		t.sgr() // csiDispatch's way for SGR, the commonest sequence by far
	} else {
		t.csiDispatch(p[k])
	}
	ps.state = stGround
	return k + 1
}

// feedByte is the reference path the fast paths of feed must agree with: every byte
// through the table on its own, UTF-8 decoded byte by byte through the carried sequence,
// every character printed by printRune. FuzzFastSlow plays inputs through both.
func (t *Terminal) feedByte(b byte) {
	ps := &t.p
	switch ps.state {
	case stGround:
		if ps.u8n > 0 {
			if b >= 0x80 && b < 0xc0 {
				t.u8push(b)
				return
			}
			t.u8flush()
		}
		if b >= 0x80 {
			t.u8push(b)
			return
		}
	case stStringEsc:
		switch {
		case ps.strKind == stOSC:
			t.oscEnd(false)
		case ps.strKind == stDCS && b == '\\':
			t.dcsEnd()
		}
		ps.state = stGround
		if b == '\\' {
			return
		}
		ps.state = stEscape
		ps.clear()
	}
	t.step(b)
}

// decode3 decodes a valid three-byte UTF-8 sequence at the start of p, as
// utf8.DecodeRune would; it reports false for anything else (which DecodeRune then
// takes).
func decode3(p []byte) (rune, bool) {
	if len(p) < 3 || p[0]&0xf0 != 0xe0 || p[1]&0xc0 != 0x80 || p[2]&0xc0 != 0x80 {
		return 0, false
	}
	r := rune(p[0]&0x0f)<<12 | rune(p[1]&0x3f)<<6 | rune(p[2]&0x3f)
	// overlong forms and surrogates are invalid
	return r, r >= 0x800 && (r < 0xd800 || r > 0xdfff)
}

// u8push adds a byte to the carried UTF-8 sequence and prints what completes.
func (t *Terminal) u8push(b byte) {
	ps := &t.p
	if ps.u8n == len(ps.u8) {
		t.u8flush()
	}
	ps.u8[ps.u8n] = b
	ps.u8n++
	for ps.u8n > 0 && utf8.FullRune(ps.u8[:ps.u8n]) {
		r, size := utf8.DecodeRune(ps.u8[:ps.u8n])
		t.printRune(r)
		copy(ps.u8[:], ps.u8[size:ps.u8n])
		ps.u8n -= size
	}
}

// u8flush ends an interrupted UTF-8 sequence: each of its bytes shows as U+FFFD, as
// when the same bytes arrive in one write.
func (t *Terminal) u8flush() {
	n := t.p.u8n
	t.p.u8n = 0
	for ; n > 0; n-- {
		t.printRune(utf8.RuneError)
	}
}

// step runs one byte through the table.
func (t *Terminal) step(b byte) {
	ps := &t.p
	e := ptable[ps.state][b]
	act, next := pact(e>>4), pstate(e&15)
	switch act {
	case aNone:
	case aExecute:
		t.execute(b)
	case aPrint:
		t.printRune(rune(b))
	case aCollect:
		if b >= 0x3c && b <= 0x3f {
			ps.prefix = b
		} else if ps.ni < len(ps.inter) {
			ps.inter[ps.ni] = b
			ps.ni++
		} else {
			ps.interOver = true
		}
	case aParam:
		ps.param(b)
	case aEscDispatch:
		if !ps.interOver {
			t.escDispatch(b)
		}
	case aCSIDispatch:
		if !ps.interOver {
			t.csiDispatch(b)
		}
	case aOSCPut:
		if len(ps.osc) < maxOSC {
			ps.osc = append(ps.osc, b)
		} else {
			ps.oscOver = true
		}
	case aOSCEnd:
		t.oscEnd(true)
	case aDCSPut:
		if len(ps.dcs) < maxDCS {
			ps.dcs = append(ps.dcs, b)
		} else {
			ps.dcsOver = true
		}
	}
	if next != ps.state {
		switch next {
		case stEscape, stCSIEntry:
			ps.clear()
		case stOSC:
			ps.osc = ps.osc[:0]
			ps.oscOver = false
		case stDCS:
			ps.dcs = ps.dcs[:0]
			ps.dcsOver = false
		case stStringEsc:
			ps.strKind = ps.state
		}
		ps.state = next
	}
}

// param handles a parameter byte: a digit, ';' or ':'.
func (ps *parser) param(b byte) {
	if ps.np == 0 {
		ps.np = 1
		ps.params[0] = -1
		ps.sub[0] = false
	}
	if b == ';' || b == ':' {
		if ps.np == maxParams {
			ps.pover = true
			return
		}
		ps.params[ps.np] = -1
		ps.sub[ps.np] = b == ':'
		ps.np++
		return
	}
	if ps.pover {
		return
	}
	v := ps.params[ps.np-1]
	if v < 0 {
		v = 0
	}
	v = v*10 + int32(b-'0')
	if v > maxParam {
		v = maxParam
	}
	ps.params[ps.np-1] = v
}

// arg returns parameter i, or def when it is omitted.
func (t *Terminal) arg(i, def int) int {
	if i >= t.p.np || t.p.params[i] < 0 {
		return def
	}
	return int(t.p.params[i])
}

// count returns parameter i as a count: omitted or 0 means 1.
func (t *Terminal) count(i int) int {
	v := t.arg(i, 1)
	if v == 0 {
		return 1
	}
	return v
}
