package demo

// The decoder is checked with tables of input bytes → events, covering the encodings a
// terminal (or agentmux's keys package) may send for the same key: legacy bytes, xterm
// modifyOtherKeys and the kitty keyboard protocol; then sequences split across reads, and
// a fuzz target that feeds arbitrary bytes to a whole agent.

import (
	"reflect"
	"strings"
	"testing"
)

func key(k keyKind) event             { return keyEvent{kind: k} }
func text(s string) event             { return keyEvent{kind: keyText, text: s} }
func paste(s string) event            { return pasteEvent{text: s} }
func rep(k replyKind, s string) event { return replyEvent{kind: k, text: s} }

func TestDecoderTable(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []event
	}{
		{"text", "hé", []event{text("h"), text("é")}},
		{"wide", "日", []event{text("日")}},
		{"enter", "\r", []event{key(keyEnter)}},
		{"line feed is a newline", "\n", []event{key(keyNewline)}},
		{"backspace", "\x7f\x08", []event{key(keyBackspace), key(keyBackspace)}},
		{"ctrl keys", "\x03\x04\x15", []event{key(keyCtrlC), key(keyCtrlD), key(keyCtrlU)}},
		{"other controls ignored", "\x01\x02\x09", nil},
		{"lone escape", "\x1b", []event{key(keyEscape)}},
		{"escape escape", "\x1b\x1b", []event{key(keyEscape), key(keyEscape)}},
		{"alt+enter", "\x1b\r", []event{key(keyNewline)}},
		{"alt+letter ignored", "\x1bb", nil},
		{"arrows ignored", "\x1b[A\x1bOB\x1b[1;5C", nil},
		{"focus ignored", "\x1b[I\x1b[O", nil},
		{"delete ignored", "\x1b[3~", nil},
		{"kitty shift+enter", "\x1b[13;2u", []event{key(keyNewline)}},
		{"kitty enter", "\x1b[13u", []event{key(keyEnter)}},
		{"kitty enter release ignored", "\x1b[13;1:3u", nil},
		{"kitty enter repeat", "\x1b[13;1:2u", []event{key(keyEnter)}},
		{"kitty escape", "\x1b[27u", []event{key(keyEscape)}},
		{"kitty backspace", "\x1b[127u", []event{key(keyBackspace)}},
		{"kitty ctrl+c", "\x1b[99;5u", []event{key(keyCtrlC)}},
		{"kitty ctrl+d", "\x1b[100;5u", []event{key(keyCtrlD)}},
		{"kitty ctrl+j", "\x1b[106;5u", []event{key(keyNewline)}},
		{"kitty ctrl+x ignored", "\x1b[120;5u", nil},
		{"kitty alt+x ignored", "\x1b[120;3u", nil},
		{"kitty shift+a", "\x1b[97;2u", []event{text("A")}},
		{"kitty shifted alternate", "\x1b[49:33;2u", []event{text("!")}},
		{"kitty text field", "\x1b[97;2;65u", []event{text("A")}},
		{"kitty functional key ignored", "\x1b[57399u", nil},
		{"modifyOtherKeys shift+enter", "\x1b[27;2;13~", []event{key(keyNewline)}},
		{"modifyOtherKeys ctrl+c", "\x1b[27;5;99~", []event{key(keyCtrlC)}},
		{"paste", "\x1b[200~a\r\nb\x1b[201~x", []event{paste("a\r\nb"), text("x")}},
		{"empty paste", "\x1b[200~\x1b[201~", []event{paste("")}},
		{"paste keeps escapes", "\x1b[200~\x1b[A\x03\x1b[201~", []event{paste("\x1b[A\x03")}},
		{"stray paste end ignored", "\x1b[201~", nil},
		{"DA1 answer", "\x1b[?62;22c", []event{rep(replyDA1, "62;22")}},
		{"CPR answer", "\x1b[12;40R", []event{rep(replyCPR, "12;40")}},
		{"OSC 11 answer ST", "\x1b]11;rgb:0000/0000/0000\x1b\\", []event{rep(replyOSC11, "rgb:0000/0000/0000")}},
		{"OSC 11 answer BEL", "\x1b]11;rgb:ffff/ffff/ffff\x07", []event{rep(replyOSC11, "rgb:ffff/ffff/ffff")}},
		{"OSC 10 ignored", "\x1b]10;rgb:ffff/ffff/ffff\x07", nil},
		{"kitty flags answer", "\x1b[?7u", []event{rep(replyKitty, "7")}},
		{"XTVERSION answer skipped", "\x1bP>|xterm(388)\x1b\\k", []event{text("k")}},
		{"wheel", "\x1b[<64;3;4M\x1b[<65;3;4M", []event{key(keyWheelUp), key(keyWheelDown)}},
		{"click ignored", "\x1b[<0;3;4M\x1b[<0;3;4m", nil},
		{"malformed CSI: keys' reading (Alt+[, 1, Ctrl+A, x)", "\x1b[1\x01x", []event{text("1"), text("x")}},
		{"invalid UTF-8 skipped", "\xffa", []event{text("a")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d decoder
			if got := d.feed([]byte(tt.in)); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("feed(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
			if d.d.Pending() {
				t.Fatal("left an incomplete sequence behind")
			}
		})
	}
}

func TestDecoderLineFeedSubmits(t *testing.T) {
	d := decoder{lfSubmits: true}
	if got := d.feed([]byte("a\n")); !reflect.DeepEqual(got, []event{text("a"), key(keyEnter)}) {
		t.Fatalf("got %#v", got)
	}
}

// TestDecoderSplitReads feeds every input one byte at a time, and in every two-part split,
// and expects the events of feeding it whole (a lone ESC at a split is the one exception:
// it reads as the Escape key, so inputs starting a sequence are split after their ESC+1).
func TestDecoderSplitReads(t *testing.T) {
	inputs := []string{
		"\x1b[200~first line\r\nsecond line with 日本\x1b[201~",
		"\x1b[13;2u\x1b[99;5u\x1b[?62;22c",
		"\x1b]11;rgb:1234/5678/9abc\x1b\\",
		"héllo 日本 \x1b[27;2;13~",
	}
	for _, in := range inputs {
		var whole decoder
		want := whole.feed([]byte(in))
		for cut := 1; cut < len(in); cut++ {
			if in[cut-1] == 0x1b {
				continue // a read ending in a lone ESC is the Escape key by design
			}
			var d decoder
			got := append(d.feed([]byte(in[:cut])), d.feed([]byte(in[cut:]))...)
			if !reflect.DeepEqual(mergeText(got), mergeText(want)) {
				t.Fatalf("split %q at %d: got %#v, want %#v", in, cut, got, want)
			}
		}
	}
}

// TestDecoderPasteAcrossManyReads splits a large paste, with its end marker cut in two.
func TestDecoderPasteAcrossManyReads(t *testing.T) {
	body := strings.Repeat("0123456789abcdef", 1000)
	in := "\x1b[200~" + body + "\x1b[201~\r"
	var d decoder
	var got []event
	for i := 0; i < len(in); i += 997 {
		got = append(got, d.feed([]byte(in[i:min(i+997, len(in))]))...)
	}
	want := []event{paste(body), key(keyEnter)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %d events, first %.60q", len(got), got)
	}
}

func TestDecoderBoundsLongPastes(t *testing.T) {
	var d decoder
	var got []event
	got = append(got, d.feed([]byte("\x1b[200~"))...)
	for range 3 {
		got = append(got, d.feed([]byte(strings.Repeat("y", maxPaste/2)))...)
	}
	got = append(got, d.feed([]byte("\x1b[201~"))...)
	total := 0
	for _, ev := range got {
		p, ok := ev.(pasteEvent)
		if !ok || len(p.text) > maxPaste {
			t.Fatalf("event %T of %d bytes: want pastes of at most %d", ev, len(p.text), maxPaste)
		}
		total += len(p.text)
	}
	if total != 3*maxPaste/2 {
		t.Fatalf("pastes carry %d bytes, want %d", total, 3*maxPaste/2)
	}
}

// mergeText joins runs of text events, so splits inside a rune compare equal.
func mergeText(evs []event) []event {
	var out []event
	for _, ev := range evs {
		if k, ok := ev.(keyEvent); ok && k.kind == keyText && len(out) > 0 {
			if prev, ok := out[len(out)-1].(keyEvent); ok && prev.kind == keyText {
				out[len(out)-1] = text(prev.text + k.text)
				continue
			}
		}
		out = append(out, ev)
	}
	return out
}

// FuzzAgentInput feeds arbitrary bytes to an agent of every style at a small size: it must
// not panic, and its inline live region must fit the screen.
func FuzzAgentInput(f *testing.F) {
	f.Add([]byte("hello\r\x1b[200~a\nb\x1b[201~\x1b[13;2u\x7f\x03x\x04"), uint8(10), uint8(5))
	f.Add([]byte("\x1b[?62c\x1b[5;5R\x1b]11;rgb:0/0/0\x07\x1b[<64;1;1M\x1b"), uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, in []byte, cols, rows uint8) {
		for _, st := range styleNames {
			cfg, _ := parseFlags([]string{"--style", st, "--queries", "--reply", "echo"}, nopWriter{})
			a := newAgent(cfg, int(cols%100), int(rows%50), fixedNow)
			a.start()
			half := len(in) / 2
			a.input(in[:half])
			a.tick()
			a.finishTurn()
			a.input(in[half:])
			a.resize(int(rows%100), int(cols%50))
			a.finish()
			if d, ok := a.draw.(*mainDraw); ok && !a.done {
				if n := len(d.live(a).rows); n > a.rows {
					t.Fatalf("live region of %d rows on a %d-row screen", n, a.rows)
				}
			}
		}
	})
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
