package keys

// Decode tables: bytes from the outer terminal (fed in one piece, then flushed) → the
// events they stand for, for every encoding the decoder knows: xterm's legacy keys and
// PC-style function keys, VT220/Linux-console/rxvt variants, modifyOtherKeys, the kitty
// keyboard protocol, bracketed paste, mouse reports, focus reports and the replies a
// terminal sends to queries. Every case also checks that the events' Raw bytes put
// back together give the input.

import (
	"bytes"
	"testing"
)

type decCase struct {
	in, want string
}

func runDecode(t *testing.T, cases []decCase) {
	t.Helper()
	for _, c := range cases {
		var d Decoder
		evs := append(d.Feed([]byte(c.in)), d.Flush()...)
		if got := describeAll(evs); got != c.want {
			t.Errorf("decode %q:\n got  %s\n want %s", c.in, got, c.want)
		}
		var raw []byte
		for _, ev := range evs {
			raw = append(raw, rawOf(ev)...)
		}
		if !bytes.Equal(raw, []byte(c.in)) {
			t.Errorf("decode %q: Raw bytes joined give %q", c.in, raw)
		}
	}
}

func TestDecodeLegacyText(t *testing.T) {
	runDecode(t, []decCase{
		{"a", "key a"},
		{"aZ1 ", "key a | key Z | key 1 | key space"},
		{"é世🙂", "key é | key 世 | key 🙂"},
		// C0 controls: CR Enter, HT Tab, DEL Backspace, NUL ctrl+space, BS ctrl+h,
		// LF ctrl+j, the rest ctrl+letter and ctrl+\ ] ^ _.
		{"\r\t\x7f", "key enter | key tab | key backspace"},
		{"\x00\x01\x03\x08\x0a\x1a", "key ctrl+space | key ctrl+a | key ctrl+c | key ctrl+h | key ctrl+j | key ctrl+z"},
		{"\x1c\x1d\x1e\x1f", `key ctrl+\ | key ctrl+] | key ctrl+^ | key ctrl+_`},
		// Alt is an ESC prefix, on characters and controls alike.
		{"\x1bx", "key alt+x"},
		{"\x1bX", "key alt+X"},
		{"\x1bé", "key alt+é"},
		{"\x1b\x01", "key ctrl+alt+a"},
		{"\x1b\x7f", "key alt+backspace"},
		{"\x1b\r", "key alt+enter"},
		{"\x1b\t", "key alt+tab"},
		{"\x1b ", "key alt+space"},
		// A lone ESC is Escape (after the flush); two are two Escapes.
		{"\x1b", "key escape"},
		{"\x1b\x1b", "key escape | key escape"},
		{"\x1b\x1bx", "key escape | key alt+x"},
		// Invalid UTF-8 is passed on as unknown keys, one byte each.
		{"\xff\xc3(", "key unknown | key unknown | key ("},
		{"\x9b", "key unknown"},
	})
}

func TestDecodeCursorAndEditingKeys(t *testing.T) {
	runDecode(t, []decCase{
		{"\x1b[A\x1b[B\x1b[C\x1b[D", "key up | key down | key right | key left"},
		{"\x1bOA\x1bOB\x1bOC\x1bOD", "key up | key down | key right | key left"},
		{"\x1b[H\x1b[F\x1bOH\x1bOF\x1b[E\x1bOE", "key home | key end | key home | key end | key begin | key begin"},
		{"\x1b[1;2A", "key shift+up"},
		{"\x1b[1;3B", "key alt+down"},
		{"\x1b[1;5C", "key ctrl+right"},
		{"\x1b[1;6D", "key ctrl+shift+left"},
		{"\x1b[1;8H", "key ctrl+alt+shift+home"},
		{"\x1b[1;9F", "key super+end"},
		{"\x1bO5A", "key ctrl+up"}, // old xterm / konsole SS3 with a modifier digit
		// Old terminals send alt+arrow as ESC before the whole sequence.
		{"\x1b\x1b[A", "key alt+up"},
		{"\x1b\x1bOD", "key alt+left"},
		{"\x1b[2~\x1b[3~\x1b[5~\x1b[6~", "key insert | key delete | key pgup | key pgdn"},
		{"\x1b[1~\x1b[4~\x1b[7~\x1b[8~", "key home | key end | key home | key end"},
		{"\x1b[3;2~", "key shift+delete"},
		{"\x1b[2;3~", "key alt+insert"},
		{"\x1b[5;5~", "key ctrl+pgup"},
		{"\x1b[Z", "key shift+tab"},
		{"\x1b[1;6Z", "key ctrl+shift+tab"},
	})
}

func TestDecodeFunctionKeys(t *testing.T) {
	runDecode(t, []decCase{
		{"\x1bOP\x1bOQ\x1bOR\x1bOS", "key f1 | key f2 | key f3 | key f4"},
		{"\x1b[1;2P\x1b[1;5Q\x1b[1;3S", "key shift+f1 | key ctrl+f2 | key alt+f4"},
		{"\x1b[1;5R", "key ctrl+f3"}, // xterm's modified F3, not a cursor report
		{"\x1b[R", "key f3"},
		{"\x1b[15~\x1b[17~\x1b[18~\x1b[19~\x1b[20~\x1b[21~\x1b[23~\x1b[24~",
			"key f5 | key f6 | key f7 | key f8 | key f9 | key f10 | key f11 | key f12"},
		{"\x1b[15;2~\x1b[24;7~", "key shift+f5 | key ctrl+alt+f12"},
		{"\x1b[11~\x1b[12~\x1b[13~\x1b[14~", "key f1 | key f2 | key f3 | key f4"}, // rxvt; kitty's F3
		{"\x1b[13;5~", "key ctrl+f3"},
		{"\x1b[25~\x1b[34~", "key f13 | key f20"}, // VT220
		{"\x1b[[A\x1b[[E", "key f1 | key f5"},     // Linux console
		{"\x1b[99~", "key unknown"},
		// Application keypad (SS3) keys.
		{"\x1bOp\x1bOy\x1bOM\x1bOk\x1bOX", "key kp_0 | key kp_9 | key kp_enter | key kp_add | key kp_equal"},
	})
}

func TestDecodeModifyOtherKeys(t *testing.T) {
	// xterm's modifyOtherKeys: CSI 27 ; 1+mods ; code ~.
	runDecode(t, []decCase{
		{"\x1b[27;5;97~", "key ctrl+a"},
		{"\x1b[27;2;13~", "key shift+enter"},
		{"\x1b[27;5;13~", "key ctrl+enter"},
		{"\x1b[27;5;9~", "key ctrl+tab"},
		{"\x1b[27;3;27~", "key alt+escape"},
		{"\x1b[27;6;65~", "key ctrl+shift+A"},
		{"\x1b[27;6;97~", "key ctrl+shift+A"},
		{"\x1b[27;5;49~", "key ctrl+1"},
	})
}

func TestDecodeKitty(t *testing.T) {
	runDecode(t, []decCase{
		// CSI code ; mods u.
		{"\x1b[97;5u", "key ctrl+a"},
		{"\x1b[99;5u", "key ctrl+c"},
		{"\x1b[97;3u", "key alt+a"},
		{"\x1b[97;6u", "key ctrl+shift+A base='a'"},
		{"\x1b[32;5u", "key ctrl+space"},
		{"\x1b[97u", "key a"},
		{"\x1b[97;2u", "key shift+A base='a'"},
		// Enter, Tab, Backspace and Escape by their codes.
		{"\x1b[13;2u", "key shift+enter"},
		{"\x1b[13u\x1b[9u\x1b[127u\x1b[27u", "key enter | key tab | key backspace | key escape"},
		{"\x1b[9;2u", "key shift+tab"},
		{"\x1b[127;5u", "key ctrl+backspace"},
		{"\x1b[27;3u", "key alt+escape"},
		// Alternate keys: shifted after a colon, base layout after a second one.
		{"\x1b[97:65;6u", "key ctrl+shift+A base='a'"},
		{"\x1b[49:33;2u", "key shift+! base='1'"},
		{"\x1b[1089::99;5u", "key ctrl+с layout='c'"},
		// Event types after the modifiers.
		{"\x1b[97;1:3u", "key a (release)"},
		{"\x1b[97;5:2u", "key ctrl+a (repeat)"},
		{"\x1b[1;1:3A", "key up (release)"},
		{"\x1b[3;1:2~", "key delete (repeat)"},
		{"\x1b[13;2:3u", "key shift+enter (release)"},
		// Associated text as code points.
		{"\x1b[97;;97u", `key a text="a"`},
		{"\x1b[97;2;65u", `key shift+A base='a' text="A"`},
		{"\x1b[101;;233u", `key é base='e' text="é"`},
		// Lock states come along.
		{"\x1b[97;69u", "key ctrl+caps_lock+a"},
		// kitty's private-use numbers.
		{"\x1b[57376u\x1b[57398;5u", "key f13 | key ctrl+f35"},
		{"\x1b[57399u\x1b[57414u\x1b[57427u", "key kp_0 | key kp_enter | key kp_begin"},
		{"\x1b[57441;2u\x1b[57441;1:3u", "key shift+left_shift | key left_shift (release)"},
		{"\x1b[57358u\x1b[57428u", "key caps_lock | key media_play"},
		// Not keys: the kitty flags answer and malformed fields.
		{"\x1b[?1u", `reply "\x1b[?1u"`},
		{"\x1b[u", `reply "\x1b[u"`},
		{"\x1b[97;1:9u", `reply "\x1b[97;1:9u"`},
		{"\x1b[5u", "key unknown"},
	})
}

func TestDecodePaste(t *testing.T) {
	runDecode(t, []decCase{
		{"\x1b[200~hello\x1b[201~", `paste "hello"`},
		{"\x1b[200~\x1b[201~", `paste ""`},
		// Anything inside a paste is text: escapes, controls, half markers.
		{"\x1b[200~a\x1b[Ab\x03\r\n\x1b[20\x1b\x1b[201~x", `paste "a\x1b[Ab\x03\r\n\x1b[20\x1b" | key x`},
		{"a\x1b[200~b\x1b[201~c", `key a | paste "b" | key c`},
		// A stray end marker is not input.
		{"\x1b[201~", `reply "\x1b[201~"`},
	})
}

func TestDecodeMouseAndFocus(t *testing.T) {
	runDecode(t, []decCase{
		// SGR (1006): CSI < b ; x ; y M for presses and motion, m for releases.
		{"\x1b[<0;10;5M", "mouse left press 9,4"},
		{"\x1b[<0;10;5m", "mouse left release 9,4"},
		{"\x1b[<2;1;1M", "mouse right press 0,0"},
		{"\x1b[<1;300;200M", "mouse middle press 299,199"},
		{"\x1b[<64;3;4M\x1b[<65;3;4M", "mouse wheelup press 2,3 | mouse wheeldown press 2,3"},
		{"\x1b[<66;1;1M\x1b[<67;1;1M", "mouse wheelleft press 0,0 | mouse wheelright press 0,0"},
		{"\x1b[<32;7;8M", "mouse left motion 6,7"},
		{"\x1b[<35;7;8M", "mouse none motion 6,7"},
		{"\x1b[<128;1;1M\x1b[<129;1;1m", "mouse back press 0,0 | mouse forward release 0,0"},
		{"\x1b[<4;1;1M\x1b[<8;1;1M\x1b[<16;1;1M\x1b[<28;1;1M",
			"mouse left press 0,0 shift | mouse left press 0,0 alt | mouse left press 0,0 ctrl | mouse left press 0,0 ctrl+alt+shift"},
		// X10 default encoding: CSI M then three bytes offset by 32.
		{"\x1b[M !!", "mouse left press 0,0"},
		{"\x1b[M#++", "mouse none release 10,10"},
		{"\x1b[M`!!", "mouse wheelup press 0,0"},
		{"\x1b[M@!!", "mouse left motion 0,0"},
		{"\x1b[M\xff\xff\xff", "mouse b11 press 222,222 ctrl+alt+shift"},
		// urxvt (1015): CSI 32+b ; x ; y M.
		{"\x1b[32;10;5M", "mouse left press 9,4"},
		{"\x1b[35;10;5M", "mouse none release 9,4"},
		// Focus reports.
		{"\x1b[I\x1b[O", "focus in | focus out"},
	})
}

func TestDecodeReplies(t *testing.T) {
	runDecode(t, []decCase{
		{"\x1b[?62;22c", `reply "\x1b[?62;22c"`},     // DA1
		{"\x1b[>1;10;0c", `reply "\x1b[>1;10;0c"`},   // DA2
		{"\x1b[?7u", `reply "\x1b[?7u"`},             // kitty flags
		{"\x1b[12;40R", `reply "\x1b[12;40R"`},       // CPR
		{"\x1b[1;1R", `reply "\x1b[1;1R"`},           // CPR at the origin
		{"\x1b[?12;40R", `reply "\x1b[?12;40R"`},     // DECXCPR
		{"\x1b[?2026;2$y", `reply "\x1b[?2026;2$y"`}, // DECRPM
		{"\x1b[0n", `reply "\x1b[0n"`},               // DSR
		{"\x1b[8;24;80t", `reply "\x1b[8;24;80t"`},   // window size
		{"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\", `reply "\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\"`},
		{"\x1b]10;rgb:ffff/ffff/ffff\a", `reply "\x1b]10;rgb:ffff/ffff/ffff\a"`},
		{"\x1bP>|kitty(0.31)\x1b\\", `reply "\x1bP>|kitty(0.31)\x1b\\"`}, // XTVERSION
		{"\x1bP1$r0m\x1b\\", `reply "\x1bP1$r0m\x1b\\"`},                 // DECRQSS
		{"\x1b_Gi=1;OK\x1b\\", `reply "\x1b_Gi=1;OK\x1b\\"`},             // kitty graphics
		// Replies mixed with keys, as they arrive at start-up.
		{"a\x1b]11;rgb:0/0/0\x07\x1b[?62c\x1b[Ab", `key a | reply "\x1b]11;rgb:0/0/0\a" | reply "\x1b[?62c" | key up | key b`},
		// An ESC that cuts a string short ends it.
		{"\x1b]11;rgb\x1bx", `reply "\x1b]11;rgb" | key alt+x`},
		// Alt+] / Alt+P / Alt+_ not followed by what a reply starts with are keys.
		{"\x1b]x", "key alt+] | key x"},
		{"\x1bPh", "key alt+P | key h"},
		{"\x1b_a", "key alt+_ | key a"},
		{"\x1bXy\x1b^z", "key alt+X | key y | key alt+^ | key z"},
		// A string never finished is the Alt key after the flush.
		{"\x1b]1", "key alt+] | key 1"},
		// Malformed CSI: Alt+[ then its bytes as keys.
		{"\x1b[1;\r", "key alt+[ | key 1 | key ; | key enter"},
		{"\x1b[", "key alt+["},
		{"\x1bO", "key alt+O"},
		{"\x1bOz", "key alt+O | key z"},
	})
}
