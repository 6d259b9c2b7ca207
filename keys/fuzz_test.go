package keys

// FuzzDecoder feeds arbitrary bytes, cut into reads at arbitrary places with flushes
// in between, and checks the decoder's invariants after every call: it never panics,
// every input byte is in exactly one event's Raw or still held by the decoder
// (conservation), it never holds more than its bounds, a flush leaves nothing pending
// outside a paste, and every decoded key can be encoded in any mode.

import (
	"testing"
)

func FuzzDecoder(f *testing.F) {
	for _, s := range []string{
		completeStream, "\x1b", "\x1b\x1b", "\x1b[", "\x1b[1;5", "\x1b]11;rgb:0/0/0\x1b",
		"\x1b[200~abc", "\x1b[200~abc\x1b[20", "\x1bP1$r", "\x1b_Gabc", "\xf0\x9f", "\x1b[M",
		"\x1b[<0;1;1", "\x1b[27;5;97~", "\x1b[97:65;6:3;65u", "\x1bO5", "\x1b[[", "\x1b\x1bO",
		"\x1b[99999999999999999999u", "\x1b[;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;u", "\x1b]1" + string(make([]byte, 5000)),
	} {
		f.Add([]byte(s), uint64(0))
		f.Add([]byte(s), uint64(0x0123456789abcdef))
	}
	modes := []Mode{normal, appCursor, appKeypad, kitty(1), kitty(7), kitty(31), kitty(2)}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		d := Decoder{MaxPaste: 512}
		fed, seen := 0, 0
		rng := seed | 1
		next := func() uint64 { // xorshift: reproducible cuts from the seed
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			return rng
		}
		check := func(evs []Event, what string) {
			for _, ev := range evs {
				raw := rawOf(ev)
				if len(raw) == 0 {
					if p, ok := ev.(Paste); !ok || len(p.Raw) == 0 {
						t.Fatalf("%s: event with no Raw: %s", what, describe(ev))
					}
				}
				seen += len(raw)
				if k, ok := ev.(Key); ok {
					for _, m := range modes {
						_ = Encode(k, m)
					}
					_ = k.String()
				}
				if m, ok := ev.(Mouse); ok {
					_ = EncodeMouse(m, m.X, m.Y, MouseTrackAny, MouseEncDefault)
				}
			}
			if seen+d.held() != fed {
				t.Fatalf("%s: %d bytes fed, %d in events, %d held", what, fed, seen, d.held())
			}
			if d.held() > maxString+maxCSI+512+len(data) || len(d.buf) > maxString+len(data) {
				t.Fatalf("%s: holding %d bytes", what, d.held())
			}
		}
		for len(data) > 0 {
			n := int(next()%17) + 1
			if n > len(data) {
				n = len(data)
			}
			fed += n
			check(d.Feed(data[:n]), "Feed")
			data = data[n:]
			if next()%4 == 0 {
				check(d.Flush(), "Flush")
				if d.paste == nil && d.held() != 0 {
					t.Fatalf("Flush left %d bytes outside a paste", d.held())
				}
			}
		}
		check(d.Flush(), "final Flush")
		if d.paste == nil && (d.held() != 0 || d.Pending()) {
			t.Fatalf("final Flush left %d bytes", d.held())
		}
	})
}
