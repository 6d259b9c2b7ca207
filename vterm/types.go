package vterm

// This file is the public contract of the package: the value types a host reads from a
// Terminal. The ui, relay wiring and tests depend on these names; change them deliberately.

// Color is a cell colour: the terminal default, a palette index (0-255), or a 24-bit RGB
// value. The kind lives in the top byte, so a 24-bit colour is never confused with a
// palette index, even when its value is below 256.
type Color uint32

const (
	colorKindShift       = 24
	colorDefault   Color = 0
	colorIndexed   Color = 1 << colorKindShift
	colorRGB       Color = 2 << colorKindShift
	colorKindMask  Color = 0xff << colorKindShift
	colorValueMask Color = 0x00ffffff
)

// DefaultColor is the terminal's default foreground or background.
const DefaultColor Color = colorDefault

// Indexed returns the palette colour i (0-15 are the ANSI colours).
func Indexed(i uint8) Color { return colorIndexed | Color(i) }

// RGB returns a 24-bit colour.
func RGB(r, g, b uint8) Color { return colorRGB | Color(r)<<16 | Color(g)<<8 | Color(b) }

// IsDefault reports whether c is the terminal default colour.
func (c Color) IsDefault() bool { return c&colorKindMask == colorDefault }

// Index returns the palette index of c and true, or false when c is not a palette colour.
func (c Color) Index() (uint8, bool) {
	if c&colorKindMask != colorIndexed {
		return 0, false
	}
	return uint8(c & 0xff), true
}

// RGB returns the components of a 24-bit colour and true, or false when c is not one.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	if c&colorKindMask != colorRGB {
		return 0, 0, 0, false
	}
	v := c & colorValueMask
	return uint8(v >> 16), uint8(v >> 8), uint8(v), true
}

// Attr is a set of character attributes.
type Attr uint16

// The character attributes SGR can set.
const (
	AttrBold Attr = 1 << iota
	AttrDim
	AttrItalic
	AttrBlink
	AttrReverse
	AttrHidden
	AttrStrike
	AttrOverline
)

// Underline is the underline style of a cell (SGR 4, 4:0 to 4:5, 21, 24).
type Underline uint8

// The underline styles.
const (
	UnderlineNone Underline = iota
	UnderlineSingle
	UnderlineDouble
	UnderlineCurly
	UnderlineDotted
	UnderlineDashed
)

// Style is everything SGR sets on a cell. It is comparable: equal styles can share one
// SGR run when rendering.
type Style struct {
	FG, BG    Color
	UL        Color // underline colour (SGR 58); DefaultColor follows FG
	Attr      Attr
	Underline Underline
	// Link is the OSC 8 hyperlink id the cell belongs to (0 = none); see Terminal.Link.
	Link uint32
}

// Cell is one screen cell.
type Cell struct {
	// Rune is the base character; 0 is an empty cell, drawn as a space.
	Rune rune
	// Comb holds combining marks, variation selectors and ZWJ continuations that join
	// Rune into one grapheme ("" almost always).
	Comb string
	// Width is 1 for a normal cell, 2 for the lead cell of a wide character, and 0 for the
	// continuation cell that follows a wide lead (its Rune is 0).
	Width uint8
	Style Style
}

// String returns the cell's text: "" for a continuation cell, " " for an empty cell.
func (c Cell) String() string {
	if c.Width == 0 {
		return ""
	}
	if c.Rune == 0 {
		return " "
	}
	if c.Comb == "" {
		return string(c.Rune)
	}
	return string(c.Rune) + c.Comb
}

// Line is one row of cells. A Line inside a Snapshot is immutable: the Terminal copies a
// row before changing it again, so two snapshots hold the same *Line exactly when that
// row did not change between them. Renderers cache per *Line.
type Line struct {
	Cells []Cell
	// Wrapped is true when the text continues on the next line because of autowrap (a soft
	// wrap), so joining the two gives back the line the program printed.
	Wrapped bool
}

// CursorShape is the DECSCUSR cursor shape.
type CursorShape uint8

// The cursor shapes DECSCUSR can select.
const (
	CursorDefault CursorShape = iota
	CursorBlockBlink
	CursorBlock
	CursorUnderlineBlink
	CursorUnderline
	CursorBarBlink
	CursorBar
)

// Cursor is the cursor's position (0-based, always inside the screen), visibility and shape.
type Cursor struct {
	X, Y    int
	Visible bool
	Shape   CursorShape
}

// MouseMode is the mouse tracking a program asked for.
type MouseMode uint8

// Mouse tracking modes (DECSET 9, 1000, 1002, 1003).
const (
	MouseNone   MouseMode = iota
	MouseX10              // 9: presses only
	MouseNormal           // 1000: presses and releases
	MouseButton           // 1002: plus motion while a button is held
	MouseAny              // 1003: all motion
)

// MouseEncoding is how mouse events are encoded for the program.
type MouseEncoding uint8

// Mouse encodings (default X10 bytes, DECSET 1006 SGR, DECSET 1015 urxvt).
const (
	MouseEncDefault MouseEncoding = iota
	MouseEncSGR
	MouseEncURXVT
)

// Modes are the terminal modes a host needs to encode keys, pastes and mouse events the
// way the program asked, and to draw it.
type Modes struct {
	AppCursor      bool // DECCKM: arrows send SS3
	AppKeypad      bool // DECKPAM
	BracketedPaste bool // 2004
	FocusEvents    bool // 1004
	SyncOutput     bool // 2026: the program is mid-frame
	Autowrap       bool // DECAWM (7)
	Insert         bool // IRM (4)
	Origin         bool // DECOM (6)
	AltScroll      bool // 1007: the wheel sends arrow keys on the alternate screen
	Mouse          MouseMode
	MouseEnc       MouseEncoding
	// KittyFlags are the kitty keyboard protocol flags on top of the stack of the active
	// screen (0 = legacy encoding).
	KittyFlags uint8
	// ModifyOtherKeys is xterm's modifyOtherKeys level set by XTMODKEYS (CSI > 4 ; n m):
	// 0 off, 1 or 2 (Codex asks for 2 when the kitty protocol is not answered).
	ModifyOtherKeys uint8
}

// Snapshot is an immutable picture of the terminal at one moment. Its Lines are shared
// with later snapshots while they do not change.
type Snapshot struct {
	Cols, Rows int
	Lines      []*Line // len(Lines) == Rows, each with exactly Cols cells
	Cursor     Cursor
	Modes      Modes
	Title      string
	AltScreen  bool // the alternate screen is active
	// HistoryLen is the number of lines now held in the main screen's history.
	HistoryLen int
	// Bells counts BEL characters received since the Terminal was made.
	Bells uint64
	// Seq changes whenever anything visible in the snapshot changes; equal Seq means an
	// equal snapshot.
	Seq uint64
}
