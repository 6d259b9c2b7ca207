package keys

// Event is one thing the Decoder decoded from the outer terminal's input: a Key, Paste,
// Mouse, Focus or Reply. The set is closed (the method is unexported), so a type switch
// over those five is complete.
type Event interface{ isEvent() }

func (Key) isEvent()   {}
func (Paste) isEvent() {}
func (Mouse) isEvent() {}
func (Focus) isEvent() {}
func (Reply) isEvent() {}

var (
	_ Event = Key{}
	_ Event = Paste{}
	_ Event = Mouse{}
	_ Event = Focus{}
	_ Event = Reply{}
)

// Paste is a bracketed paste from the outer terminal (ESC[200~ ... ESC[201~), whole.
// A paste longer than the decoder's MaxPaste arrives as several Paste events in order.
type Paste struct {
	// Text is the pasted text, exactly as the terminal sent it between the markers.
	Text string
	// Raw holds the bytes this event was decoded from, markers included.
	Raw []byte
}

// MouseButton is the button of a mouse event.
type MouseButton uint8

// The mouse buttons. ButtonNone is motion with no button held, or a release in the
// encodings that do not say which button was released.
const (
	ButtonNone MouseButton = iota
	ButtonLeft
	ButtonMiddle
	ButtonRight
	WheelUp
	WheelDown
	WheelLeft
	WheelRight
	ButtonBack    // button 8
	ButtonForward // button 9
	Button10
	Button11
)

// MouseAction is what happened to the button.
type MouseAction uint8

// The mouse actions.
const (
	MousePress MouseAction = iota
	MouseRelease
	MouseMotion
)

// Mouse is a mouse event. From the Decoder, X and Y are 0-based cells of the outer
// terminal; the caller translates them to pane-local cells for EncodeMouse.
type Mouse struct {
	X, Y   int
	Button MouseButton
	Action MouseAction
	// Mod holds Shift, Alt and Ctrl as the terminal reported them.
	Mod Mod
	// Raw holds the bytes this event was decoded from.
	Raw []byte
}

// Focus is the outer terminal gaining (In) or losing focus (CSI I / CSI O).
type Focus struct {
	In bool
	// Raw holds the bytes this event was decoded from.
	Raw []byte
}

// Reply is something the outer terminal reported that is not input: answers to
// queries (DA1 "CSI ? ... c", the kitty flags "CSI ? flags u", OSC 10/11 colours,
// cursor position reports, DCS/APC strings) and unrecognised sequences. It must never
// be forwarded to a pane as keys.
type Reply struct {
	// Raw holds the exact bytes of the report.
	Raw []byte
}

// MouseMode is the mouse tracking a program asked for. The values mirror vterm's
// MouseMode, so the session converts with keys.MouseMode(snapshot.Modes.Mouse).
type MouseMode uint8

// The mouse tracking modes (DECSET 9, 1000, 1002, 1003).
const (
	MouseTrackNone   MouseMode = iota
	MouseTrackX10              // 9: presses only, no modifiers
	MouseTrackNormal           // 1000: presses and releases
	MouseTrackButton           // 1002: plus motion while a button is held
	MouseTrackAny              // 1003: plus all motion
)

// MouseEncoding is how mouse reports are encoded. The values mirror vterm's.
type MouseEncoding uint8

// The mouse encodings: the default X10 bytes, SGR (DECSET 1006), urxvt (DECSET 1015).
const (
	MouseEncDefault MouseEncoding = iota
	MouseEncSGR
	MouseEncURXVT
)
