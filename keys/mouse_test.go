package keys

// Mouse and focus encoding tables against xterm's mouse tracking rules: which events
// each tracking mode reports, the button byte (buttons, wheel, motion and modifier
// bits), the three encodings, 1-based coordinates, and the default encoding's 223 limit.
// SGR reports decode back to the same event.

import (
	"bytes"
	"testing"
)

func TestEncodeMouse(t *testing.T) {
	press := Mouse{Button: ButtonLeft, Action: MousePress}
	release := Mouse{Button: ButtonLeft, Action: MouseRelease}
	drag := Mouse{Button: ButtonLeft, Action: MouseMotion}
	hover := Mouse{Button: ButtonNone, Action: MouseMotion}
	wheel := Mouse{Button: WheelDown, Action: MousePress}
	cases := []struct {
		name string
		ev   Mouse
		x, y int
		mode MouseMode
		enc  MouseEncoding
		want string
	}{
		{"no tracking", press, 0, 0, MouseTrackNone, MouseEncSGR, ""},
		{"sgr press", press, 9, 4, MouseTrackNormal, MouseEncSGR, "\x1b[<0;10;5M"},
		{"sgr release names the button", Mouse{Button: ButtonRight, Action: MouseRelease}, 9, 4, MouseTrackNormal, MouseEncSGR, "\x1b[<2;10;5m"},
		{"sgr wheel", wheel, 0, 0, MouseTrackNormal, MouseEncSGR, "\x1b[<65;1;1M"},
		{"wheel left", Mouse{Button: WheelLeft}, 0, 0, MouseTrackNormal, MouseEncSGR, "\x1b[<66;1;1M"},
		{"no wheel releases", Mouse{Button: WheelUp, Action: MouseRelease}, 0, 0, MouseTrackAny, MouseEncSGR, ""},
		{"extra button", Mouse{Button: ButtonForward}, 0, 0, MouseTrackNormal, MouseEncSGR, "\x1b[<129;1;1M"},
		{"modifiers", Mouse{Button: ButtonLeft, Mod: ModShift | ModAlt | ModCtrl}, 0, 0, MouseTrackNormal, MouseEncSGR, "\x1b[<28;1;1M"},
		{"x10 mode: presses only", release, 0, 0, MouseTrackX10, MouseEncSGR, ""},
		{"x10 mode: no modifiers", Mouse{Button: ButtonLeft, Mod: ModCtrl}, 0, 0, MouseTrackX10, MouseEncDefault, "\x1b[M !!"},
		{"normal mode: no motion", drag, 0, 0, MouseTrackNormal, MouseEncSGR, ""},
		{"button mode: drag", drag, 2, 3, MouseTrackButton, MouseEncSGR, "\x1b[<32;3;4M"},
		{"button mode: no hover", hover, 2, 3, MouseTrackButton, MouseEncSGR, ""},
		{"any mode: hover", hover, 2, 3, MouseTrackAny, MouseEncSGR, "\x1b[<35;3;4M"},
		{"default press", press, 9, 4, MouseTrackNormal, MouseEncDefault, "\x1b[M *%"},
		{"default release is button 3", release, 9, 4, MouseTrackNormal, MouseEncDefault, "\x1b[M#*%"},
		{"default wheel", Mouse{Button: WheelUp}, 0, 0, MouseTrackNormal, MouseEncDefault, "\x1b[M`!!"},
		{"default at the limit", press, 222, 222, MouseTrackNormal, MouseEncDefault, "\x1b[M \xff\xff"},
		{"default past the limit", press, 223, 0, MouseTrackNormal, MouseEncDefault, ""},
		{"urxvt past the limit", press, 300, 400, MouseTrackNormal, MouseEncURXVT, "\x1b[32;301;401M"},
		{"urxvt release", release, 0, 0, MouseTrackNormal, MouseEncURXVT, "\x1b[35;1;1M"},
		{"sgr far away", press, 1000, 2000, MouseTrackNormal, MouseEncSGR, "\x1b[<0;1001;2001M"},
		{"outside the pane", press, -1, 0, MouseTrackAny, MouseEncSGR, ""},
	}
	for _, c := range cases {
		got := EncodeMouse(c.ev, c.x, c.y, c.mode, c.enc)
		if !bytes.Equal(got, []byte(c.want)) || (c.want == "" && got != nil) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestMouseSGRRoundTrip(t *testing.T) {
	for b := ButtonNone; b <= Button11; b++ {
		for _, a := range []MouseAction{MousePress, MouseRelease, MouseMotion} {
			for _, m := range []Mod{0, ModShift, ModAlt | ModCtrl} {
				ev := Mouse{X: 7, Y: 3, Button: b, Action: a, Mod: m}
				enc := EncodeMouse(ev, ev.X, ev.Y, MouseTrackAny, MouseEncSGR)
				if enc == nil {
					continue
				}
				evs := decodeOne(enc)
				got, ok := evs[0].(Mouse)
				if len(evs) != 1 || !ok || got.X != 7 || got.Y != 3 || got.Button != b || got.Action != a || got.Mod != m {
					t.Errorf("%+v → %q → %s", ev, enc, describeAll(evs))
				}
			}
		}
	}
}

func TestEncodeFocus(t *testing.T) {
	if string(EncodeFocus(true)) != "\x1b[I" || string(EncodeFocus(false)) != "\x1b[O" {
		t.Fatalf("focus: %q %q", EncodeFocus(true), EncodeFocus(false))
	}
	for _, in := range []bool{true, false} {
		if evs := decodeOne(EncodeFocus(in)); len(evs) != 1 || evs[0].(Focus).In != in {
			t.Errorf("focus %v round trip: %s", in, describeAll(evs))
		}
	}
}
