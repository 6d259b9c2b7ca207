package vterm

// Query replies and events: each case feeds a query and compares every reply the
// Terminal sent, in order, byte for byte. Events (bell, title, notifications) are
// collected the same way through OnEvent.

import (
	"strings"
	"testing"
)

// replyTerm returns a Terminal that appends every reply to *out.
func replyTerm(o Options, out *[]string) *Terminal {
	o.Reply = func(b []byte) { *out = append(*out, string(b)) }
	if o.Cols == 0 {
		o.Cols, o.Rows = 80, 24
	}
	return New(o)
}

func TestReplies(t *testing.T) {
	light := Colors{FG: RGBColor{0x11, 0x22, 0x33}, BG: RGBColor{0xfe, 0xfd, 0xfc}, Cursor: RGBColor{1, 2, 3}}
	cases := []struct {
		name string
		o    Options
		in   string
		want []string
	}{
		{"DA1", Options{}, "\x1b[c", []string{"\x1b[?62;22c"}},
		{"DA1 with 0", Options{}, "\x1b[0c", []string{"\x1b[?62;22c"}},
		{"DA2", Options{}, "\x1b[>c", []string{"\x1b[>1;10;0c"}},
		{"DA3 is not answered", Options{}, "\x1b[=c", nil},
		{"XTVERSION", Options{Version: "1.2.3"}, "\x1b[>q", []string{"\x1bP>|agentmux 1.2.3\x1b\\"}},
		{"XTVERSION without version", Options{}, "\x1b[>0q", []string{"\x1bP>|agentmux\x1b\\"}},
		{"DSR status", Options{}, "\x1b[5n", []string{"\x1b[0n"}},
		{"CPR", Options{}, "\x1b[3;7H\x1b[6n", []string{"\x1b[3;7R"}},
		{"CPR at pending wrap", Options{Cols: 5, Rows: 2}, "abcde\x1b[6n", []string{"\x1b[1;5R"}},
		{"CPR in origin mode", Options{}, "\x1b[5;10r\x1b[?6h\x1b[2;3H\x1b[6n", []string{"\x1b[2;3R"}},
		{"DECXCPR", Options{}, "\x1b[2;2H\x1b[?6n", []string{"\x1b[?2;2R"}},
		{"kitty query unanswered by default", Options{}, "\x1b[?u", nil},
		{"kitty query with kitty keys", Options{KittyKeyboard: true}, "\x1b[?u", []string{"\x1b[?0u"}},
		{"kitty query after push", Options{KittyKeyboard: true}, "\x1b[>7u\x1b[?u", []string{"\x1b[?7u"}},
		{"OSC 10 BEL", Options{}, "\x1b]10;?\x07", []string{"\x1b]10;rgb:e5e5/e5e5/e5e5\x07"}},
		{"OSC 11 ST", Options{}, "\x1b]11;?\x1b\\", []string{"\x1b]11;rgb:0000/0000/0000\x1b\\"}},
		{"OSC 10 and 11 in one", Options{}, "\x1b]10;?;?\x07", []string{"\x1b]10;rgb:e5e5/e5e5/e5e5\x07", "\x1b]11;rgb:0000/0000/0000\x07"}},
		{"OSC 10/11/12 host colours", Options{Colors: light}, "\x1b]10;?\x07\x1b]11;?\x07\x1b]12;?\x07",
			[]string{"\x1b]10;rgb:1111/2222/3333\x07", "\x1b]11;rgb:fefe/fdfd/fcfc\x07", "\x1b]12;rgb:0101/0202/0303\x07"}},
		{"light background alone gives a dark foreground", Options{Colors: Colors{BG: RGBColor{250, 250, 250}}}, "\x1b]10;?\x07",
			[]string{"\x1b]10;rgb:0000/0000/0000\x07"}},
		{"OSC 4 query", Options{}, "\x1b]4;1;?\x07", []string{"\x1b]4;1;rgb:cdcd/0000/0000\x07"}},
		{"OSC 4 cube and grey", Options{}, "\x1b]4;196;?;232;?\x1b\\", []string{"\x1b]4;196;rgb:ffff/0000/0000\x1b\\", "\x1b]4;232;rgb:0808/0808/0808\x1b\\"}},
		{"OSC 4 set then query", Options{}, "\x1b]4;5;rgb:12/34/56\x07\x1b]4;5;?\x07", []string{"\x1b]4;5;rgb:1212/3434/5656\x07"}},
		{"OSC 104 resets", Options{}, "\x1b]4;5;#123456\x07\x1b]104\x07\x1b]4;5;?\x07", []string{"\x1b]4;5;rgb:cdcd/0000/cdcd\x07"}},
		{"OSC 4 out of range", Options{}, "\x1b]4;256;?\x07", nil},
		{"XTWINOPS 14t", Options{Cols: 120, Rows: 40}, "\x1b[14t", []string{"\x1b[4;640;960t"}},
		{"XTWINOPS 16t", Options{}, "\x1b[16t", []string{"\x1b[6;16;8t"}},
		{"XTWINOPS 18t", Options{Cols: 120, Rows: 40}, "\x1b[18t", []string{"\x1b[8;40;120t"}},
		{"other window ops are ignored", Options{}, "\x1b[8;10;10t\x1b[22;0t", nil},
		{"DECRQM set", Options{}, "\x1b[?2004h\x1b[?2004$p", []string{"\x1b[?2004;1$y"}},
		{"DECRQM reset", Options{}, "\x1b[?2026$p", []string{"\x1b[?2026;2$y"}},
		{"DECRQM unknown", Options{}, "\x1b[?4242$p", []string{"\x1b[?4242;0$y"}},
		{"DECRQM autowrap and cursor", Options{}, "\x1b[?7$p\x1b[?25l\x1b[?25$p", []string{"\x1b[?7;1$y", "\x1b[?25;2$y"}},
		{"DECRQM mouse", Options{}, "\x1b[?1002h\x1b[?1002$p\x1b[?1000$p\x1b[?1006$p", []string{"\x1b[?1002;1$y", "\x1b[?1000;2$y", "\x1b[?1006;2$y"}},
		{"DECRQM alt screen", Options{}, "\x1b[?1049h\x1b[?1049$p", []string{"\x1b[?1049;1$y"}},
		{"DECRQM ANSI insert mode", Options{}, "\x1b[4h\x1b[4$p", []string{"\x1b[4;1$y"}},
		{"queries split across writes", Options{}, "\x1b[", nil},
		{"DECRQSS SGR default", Options{}, "\x1bP$qm\x1b\\", []string{"\x1bP1$r0m\x1b\\"}},
		{"DECRQSS SGR attributes and colours", Options{},
			"\x1b[1;3;4:3;7;53;31;104;58;2;1;2;3m\x1bP$qm\x1b\\", []string{"\x1bP1$r0;1;3;4:3;7;53;31;104;58:2::1:2:3m\x1b\\"}},
		{"DECRQSS SGR palette and 24-bit", Options{},
			"\x1b[2;5;9;21;38;5;200;48:2::10:20:30m\x1bP$qm\x1b\\", []string{"\x1bP1$r0;2;4:2;5;9;38;5;200;48;2;10;20;30m\x1b\\"}},
		{"DECRQSS SGR bright and underline", Options{}, "\x1b[4;95;8m\x1bP$qm\x1b\\", []string{"\x1bP1$r0;4;8;95m\x1b\\"}},
		{"DECRQSS DECSTBM full screen", Options{Cols: 80, Rows: 24}, "\x1bP$qr\x1b\\", []string{"\x1bP1$r1;24r\x1b\\"}},
		{"DECRQSS DECSTBM region", Options{Cols: 80, Rows: 24}, "\x1b[5;10r\x1bP$qr\x1b\\", []string{"\x1bP1$r5;10r\x1b\\"}},
		{"DECRQSS DECSCUSR default", Options{}, "\x1bP$q q\x1b\\", []string{"\x1bP1$r1 q\x1b\\"}},
		{"DECRQSS DECSCUSR bar", Options{}, "\x1b[6 q\x1bP$q q\x1b\\", []string{"\x1bP1$r6 q\x1b\\"}},
		{"DECRQSS unknown setting", Options{}, "\x1bP$q\"p\x1b\\", []string{"\x1bP0$r\x1b\\"}},
		{"DECRQSS aborted by ESC is not answered", Options{}, "\x1bP$qm\x1b[m", nil},
		{"DECRQSS aborted by CAN is not answered", Options{}, "\x1bP$qm\x18", nil},
		{"DCS ending in BEL is still open", Options{}, "\x1bP$qm\x07\x1b\\", []string{"\x1bP1$r0m\x1b\\"}},
		{"oversized DCS is dropped", Options{}, "\x1bP$qm" + strings.Repeat("x", maxDCS) + "\x1b\\\x1bP$qr\x1b\\",
			[]string{"\x1bP1$r1;24r\x1b\\"}},
		{"sixel DCS is not answered", Options{}, "\x1bP0;1;0q#0;2;0;0;0#0!10~\x1b\\", nil},
		{"XTGETTCAP TN", Options{}, "\x1bP+q544e\x1b\\", []string{"\x1bP1+r544e=787465726D2D323536636F6C6F72\x1b\\"}},
		{"XTGETTCAP Co and colors", Options{}, "\x1bP+q436F;636f6c6f7273\x1b\\",
			[]string{"\x1bP1+r436F=323536\x1b\\", "\x1bP1+r636f6c6f7273=323536\x1b\\"}},
		{"XTGETTCAP unknown", Options{}, "\x1bP+q524742\x1b\\", []string{"\x1bP0+r\x1b\\"}},
		{"XTGETTCAP stops at the first unknown", Options{}, "\x1bP+q544e;6b637575;436f\x1b\\",
			[]string{"\x1bP1+r544e=787465726D2D323536636F6C6F72\x1b\\", "\x1bP0+r\x1b\\"}},
		{"XTGETTCAP malformed hex", Options{}, "\x1bP+q54Z\x1b\\", []string{"\x1bP0+r\x1b\\"}},
		{"XTGETTCAP long name", Options{}, "\x1bP+q" + strings.Repeat("41", 100) + "\x1b\\", []string{"\x1bP0+r\x1b\\"}},
		{"OSC 52 clipboard is swallowed", Options{}, "\x1b]52;c;aGVsbG8=\x07\x1b]52;c;?\x07", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			term := replyTerm(c.o, &got)
			term.Write([]byte(c.in))
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("replies %q, want %q", got, c.want)
			}
			// byte by byte gives the same replies
			var split []string
			term = replyTerm(c.o, &split)
			for i := 0; i < len(c.in); i++ {
				term.Write([]byte{c.in[i]})
			}
			if strings.Join(split, "|") != strings.Join(c.want, "|") {
				t.Errorf("byte by byte: replies %q, want %q", split, c.want)
			}
		})
	}
}

func TestKittyToggleAndColorsAfterNew(t *testing.T) {
	var got []string
	term := replyTerm(Options{}, &got)
	term.SetKittyKeyboard(true)
	term.SetColors(Colors{BG: RGBColor{1, 1, 1}})
	term.Write([]byte("\x1b[?u\x1b]11;?\x07"))
	want := []string{"\x1b[?0u", "\x1b]11;rgb:0101/0101/0101\x07"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("replies %q, want %q", got, want)
	}
}

func TestEvents(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []Event
	}{
		{"bell", "a\x07b", []Event{{Kind: EventBell}}},
		{"BEL ending OSC is not a bell", "\x1b]0;x\x07", []Event{{Kind: EventTitle, Text: "x"}}},
		{"title OSC 2 ST", "\x1b]2;hello world\x1b\\", []Event{{Kind: EventTitle, Text: "hello world"}}},
		{"same title twice is one event", "\x1b]0;a\x07\x1b]0;a\x07", []Event{{Kind: EventTitle, Text: "a"}}},
		{"OSC 1 is not the title", "\x1b]1;icon\x07", nil},
		{"notify OSC 9", "\x1b]9;build done\x07", []Event{{Kind: EventNotify, Text: "build done"}}},
		{"OSC 9;4 progress is not a notification", "\x1b]9;4;1;50\x07", nil},
		{"notify OSC 777", "\x1b]777;notify;Claude;Task done\x1b\\", []Event{{Kind: EventNotify, Title: "Claude", Text: "Task done"}}},
		{"OSC 777 with title only", "\x1b]777;notify;Hi\x07", []Event{{Kind: EventNotify, Text: "Hi"}}},
		{"invalid UTF-8 in title", "\x1b]0;a\xffb\x07", []Event{{Kind: EventTitle, Text: "a\ufffdb"}}},
		{"title push and pop", "\x1b]2;A\x07\x1b[22;0t\x1b]2;B\x07\x1b[23;0t",
			[]Event{{Kind: EventTitle, Text: "A"}, {Kind: EventTitle, Text: "B"}, {Kind: EventTitle, Text: "A"}}},
		{"title push and pop with 2 and omitted", "\x1b]2;A\x07\x1b[22t\x1b]2;B\x07\x1b[22;2t\x1b]2;C\x07\x1b[23;2t\x1b[23t",
			[]Event{{Kind: EventTitle, Text: "A"}, {Kind: EventTitle, Text: "B"}, {Kind: EventTitle, Text: "C"},
				{Kind: EventTitle, Text: "B"}, {Kind: EventTitle, Text: "A"}}},
		{"icon-name push does nothing", "\x1b]2;A\x07\x1b[22;1t\x1b]2;B\x07\x1b[23;0t", []Event{{Kind: EventTitle, Text: "A"}, {Kind: EventTitle, Text: "B"}}},
		{"pop of an empty stack does nothing", "\x1b]2;A\x07\x1b[23;0t", []Event{{Kind: EventTitle, Text: "A"}}},
		{"pop to the same title is no event", "\x1b]2;A\x07\x1b[22;0t\x1b[23;0t", []Event{{Kind: EventTitle, Text: "A"}}},
		{"OSC 52 clipboard write", "\x1b]52;c;aGVsbG8=\x07", []Event{{Kind: EventClipboard, Text: "hello"}}},
		{"OSC 52 with no selection", "\x1b]52;;aMOp\x1b\\", []Event{{Kind: EventClipboard, Text: "hé"}}},
		{"OSC 52 read is no event", "\x1b]52;c;?\x07", nil},
		{"OSC 52 not base64 is no event", "\x1b]52;c;not base64!\x07", nil},
		{"OSC 52 without data is no event", "\x1b]52;c\x07", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []Event
			term := New(Options{Cols: 10, Rows: 2, OnEvent: func(e Event) { got = append(got, e) }})
			term.Write([]byte(c.in))
			if len(got) != len(c.want) {
				t.Fatalf("events %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("event %d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
	term := newTerm(10, 2, "\x07\x07\x1b]2;T\x07")
	if s := term.Snapshot(); s.Bells != 2 || s.Title != "T" || term.Title() != "T" {
		t.Errorf("bells %d title %q", s.Bells, s.Title)
	}
}

func TestTitleStackIsBounded(t *testing.T) {
	term := New(Options{Cols: 10, Rows: 2})
	for i := 0; i < maxTitles+5; i++ {
		term.Write([]byte("\x1b]2;T" + itoa(i) + "\x07\x1b[22;0t"))
	}
	if n := len(term.titles); n != maxTitles {
		t.Fatalf("title stack holds %d titles, want %d", n, maxTitles)
	}
	// the newest titles survive: popping them all ends at the oldest kept one
	for i := 0; i < maxTitles+5; i++ {
		term.Write([]byte("\x1b[23;0t"))
	}
	if got, want := term.Title(), "T5"; got != want {
		t.Errorf("title after popping everything = %q, want %q", got, want)
	}
	term.Write([]byte("\x1b[22;0t\x1bc"))
	if len(term.titles) != 0 {
		t.Error("RIS kept the title stack")
	}
}

// TestOSC52IsSwallowed: clipboard writes and reads leave no trace on the screen, in the
// title or in replies (a read is never answered; a write is only an event).
func TestOSC52IsSwallowed(t *testing.T) {
	var got []string
	term := replyTerm(Options{Cols: 10, Rows: 2}, &got)
	term.Write([]byte("a\x1b]52;c;aGVsbG8=\x07b\x1b]52;p;?\x1b\\c"))
	if s := term.ScreenText(); s[0] != "abc" || term.Title() != "" || len(got) != 0 {
		t.Errorf("OSC 52 left a trace: screen %q title %q replies %q", s, term.Title(), got)
	}
}

func TestHyperlinks(t *testing.T) {
	term := newTerm(20, 2, "a\x1b]8;id=1;https://example.com\x1b\\link\x1b]8;;\x1b\\b\x1b]8;;https://example.com\x07L")
	cells := term.Snapshot().Lines[0].Cells
	if cells[0].Style.Link != 0 || cells[5].Style.Link != 0 {
		t.Errorf("cells outside the link carry ids %d %d", cells[0].Style.Link, cells[5].Style.Link)
	}
	id := cells[1].Style.Link
	if id == 0 || cells[4].Style.Link != id || term.Link(id) != "https://example.com" {
		t.Errorf("link id %d → %q", id, term.Link(id))
	}
	if cells[6].Style.Link != id {
		t.Error("the same URI got a new id")
	}
	if term.Link(9999) != "" {
		t.Error("unknown link id has a URI")
	}
	// SGR 0 does not end a hyperlink
	term = newTerm(20, 2, "\x1b]8;;u\x07a\x1b[0mb")
	if c := term.Snapshot().Lines[0].Cells; c[1].Style.Link == 0 {
		t.Error("SGR 0 ended the hyperlink")
	}
}

func TestLinkTableIsBounded(t *testing.T) {
	term := New(Options{Cols: 10, Rows: 2})
	for i := 0; i < 3*maxLinks; i++ {
		term.Write([]byte("\x1b]8;;https://e/" + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + itoa(i) + "\x07x"))
	}
	if n := len(term.links.uris); n > maxLinks {
		t.Errorf("link table holds %d links", n)
	}
}

func itoa(i int) string { return string(appendInt(nil, i)) }
