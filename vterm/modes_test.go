package vterm

// Modes: each case feeds mode sequences and compares the whole Modes value of the
// snapshot (so a sequence that changes the wrong mode fails), plus the cursor shape and
// visibility, the alternate screen with its cursor save/restore, and the kitty keyboard
// flag stack kept per screen.

import "testing"

func TestModes(t *testing.T) {
	def := Modes{Autowrap: true}
	with := func(f func(m *Modes)) Modes {
		m := def
		f(&m)
		return m
	}
	cases := []struct {
		name string
		in   string
		want Modes
	}{
		{"defaults", "", def},
		{"DECCKM", "\x1b[?1h", with(func(m *Modes) { m.AppCursor = true })},
		{"DECKPAM", "\x1b=", with(func(m *Modes) { m.AppKeypad = true })},
		{"DECKPNM", "\x1b=\x1b>", def},
		{"DECNKM", "\x1b[?66h", with(func(m *Modes) { m.AppKeypad = true })},
		{"bracketed paste", "\x1b[?2004h", with(func(m *Modes) { m.BracketedPaste = true })},
		{"focus events", "\x1b[?1004h", with(func(m *Modes) { m.FocusEvents = true })},
		{"synchronized output", "\x1b[?2026h", with(func(m *Modes) { m.SyncOutput = true })},
		{"synchronized output ends", "\x1b[?2026h\x1b[?2026l", def},
		{"autowrap off", "\x1b[?7l", with(func(m *Modes) { m.Autowrap = false })},
		{"insert", "\x1b[4h", with(func(m *Modes) { m.Insert = true })},
		{"origin", "\x1b[?6h", with(func(m *Modes) { m.Origin = true })},
		{"alt scroll", "\x1b[?1007h", with(func(m *Modes) { m.AltScroll = true })},
		{"several in one", "\x1b[?1;2004;1004h", with(func(m *Modes) { m.AppCursor, m.BracketedPaste, m.FocusEvents = true, true, true })},
		{"mouse X10", "\x1b[?9h", with(func(m *Modes) { m.Mouse = MouseX10 })},
		{"mouse normal", "\x1b[?1000h", with(func(m *Modes) { m.Mouse = MouseNormal })},
		{"mouse button", "\x1b[?1000h\x1b[?1002h", with(func(m *Modes) { m.Mouse = MouseButton })},
		{"mouse any SGR", "\x1b[?1003h\x1b[?1006h", with(func(m *Modes) { m.Mouse, m.MouseEnc = MouseAny, MouseEncSGR })},
		{"mouse urxvt", "\x1b[?1015h", with(func(m *Modes) { m.MouseEnc = MouseEncURXVT })},
		{"mouse off in reverse order", "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?1006l", def},
		{"kitty push", "\x1b[>5u", with(func(m *Modes) { m.KittyFlags = 5 })},
		{"kitty push pop", "\x1b[>1u\x1b[>3u\x1b[<u", with(func(m *Modes) { m.KittyFlags = 1 })},
		{"kitty pop too many", "\x1b[>1u\x1b[<9u", def},
		{"kitty set or and-not", "\x1b[>1u\x1b[=6;2u\x1b[=2;3u", with(func(m *Modes) { m.KittyFlags = 5 })},
		{"kitty set replaces", "\x1b[>1u\x1b[=8u", with(func(m *Modes) { m.KittyFlags = 8 })},
		{"kitty flags are masked", "\x1b[>255u", with(func(m *Modes) { m.KittyFlags = 31 })},
		{"kitty stacks are per screen", "\x1b[>1u\x1b[?1049h\x1b[>2u", with(func(m *Modes) { m.KittyFlags = 2 })},
		{"main stack back after alt", "\x1b[>1u\x1b[?1049h\x1b[>2u\x1b[?1049l", with(func(m *Modes) { m.KittyFlags = 1 })},
		{"modifyOtherKeys", "\x1b[>4;2m", with(func(m *Modes) { m.ModifyOtherKeys = 2 })},
		{"modifyOtherKeys reset", "\x1b[>4;2m\x1b[>4m", def},
		{"modifyOtherKeys disable", "\x1b[>4;1m\x1b[>4n", def},
		{"RIS resets modes", "\x1b[?1h\x1b[?2004h\x1b[>3u\x1bc", def},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := newTerm(10, 3, c.in).Snapshot().Modes; got != c.want {
				t.Errorf("%q: modes %+v, want %+v", c.in, got, c.want)
			}
		})
	}
}

func TestCursorShapeAndVisibility(t *testing.T) {
	for in, want := range map[string]Cursor{
		"":                   {Visible: true},
		"\x1b[?25l":          {},
		"\x1b[?25l\x1b[?25h": {Visible: true},
		"\x1b[6 q":           {Visible: true, Shape: CursorBar},
		"\x1b[2 q\x1b[0 q":   {Visible: true, Shape: CursorDefault},
		"\x1b[4 q\x1b[9 q":   {Visible: true, Shape: CursorUnderline},
	} {
		if got := newTerm(10, 3, in).Snapshot().Cursor; got != want {
			t.Errorf("%q: cursor %+v, want %+v", in, got, want)
		}
	}
}

func TestAlternateScreen(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"1049 round trip restores cursor and screen", 20, 4, "main\x1b[?1049halt\x1b[?1049l!", rows(4, "main!"), 5, 0},
		{"1049 clears the alternate screen", 20, 4, "\x1b[?1049hold\x1b[?1049l\x1b[?1049h", rows(4), 0, 0},
		{"1049 left on", 20, 4, "main\x1b[2;3H\x1b[?1049halt", rows(4, "", "  alt"), 5, 1},
		{"1047 keeps the cursor", 20, 4, "main\x1b[?1047halt\x1b[?1047lX", rows(4, "main   X"), 8, 0},
		{"1047 clears alt when leaving", 20, 4, "\x1b[?1047halt\x1b[?1047l\x1b[?47h", rows(4), 3, 0},
		{"47 keeps the alternate contents", 20, 4, "\x1b[?47halt\x1b[?47l\x1b[?47h", rows(4, "alt"), 3, 0},
		{"set 1049 twice", 20, 4, "m\x1b[?1049ha\x1b[?1049hb", rows(4, " ab"), 3, 0},
		{"reset 1049 twice", 20, 4, "m\x1b[?1049ha\x1b[?1049l\x1b[?1049lb", rows(4, "mb"), 2, 0},
		{"1048 saves and restores", 20, 4, "\x1b[2;5H\x1b[?1048h\x1b[H\x1b[?1048lX", rows(4, "", "    X"), 5, 1},
	})
	term := newTerm(10, 3, "\x1b[?1049h")
	if !term.Snapshot().AltScreen {
		t.Error("AltScreen false on the alternate screen")
	}
}
