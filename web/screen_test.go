package web

// The picture encoder is checked against an emulator: a pane's vterm is drawn, frame
// after frame, into a second vterm standing where the page's terminal stands, and after
// each frame the second shows exactly the first's screen (text, styles, cursor) and the
// same history, scrolled lines included, without ever replaying the pane's raw output.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/vterm"
)

// mirror is a pane's emulator, the page's stand-in and the view between them.
type mirror struct {
	t          *testing.T
	pane, page *vterm.Terminal
	v          paneView
	bytes      int
}

func newMirror(t *testing.T, cols, rows int) *mirror {
	return &mirror{t: t, v: paneView{flood: HistoryOnConnect},
		pane: vterm.New(vterm.Options{Cols: cols, Rows: rows, HistoryLimit: 500}),
		page: vterm.New(vterm.Options{Cols: cols, Rows: rows, HistoryLimit: 5000})}
}

// out prints s in the pane, sends the frame to the page and checks they agree.
func (m *mirror) out(s string) {
	m.t.Helper()
	m.pane.Write([]byte(s))
	f := m.v.frame(1, m.pane)
	if f != nil {
		require.GreaterOrEqual(m.t, len(f), 8)
		cols, rows := int(f[3])<<8|int(f[4]), int(f[5])<<8|int(f[6])
		if f[7] == 1 {
			m.page = vterm.New(vterm.Options{Cols: cols, Rows: rows, HistoryLimit: 5000})
		}
		m.bytes += len(f)
		m.page.Write(f[8:])
	}
	m.same()
}

func rowText(l *vterm.Line) string {
	var b strings.Builder
	for _, c := range l.Cells {
		b.WriteString(c.String())
	}
	return strings.TrimRight(b.String(), " ")
}

func styles(l *vterm.Line) []vterm.Style {
	var out []vterm.Style
	for _, c := range l.Cells {
		st := c.Style
		st.Link = 0
		out = append(out, st)
	}
	return out
}

// same checks the page shows the pane's screen, cursor and (on the main screen) the
// tail of its history.
func (m *mirror) same() {
	m.t.Helper()
	a, b := m.pane.Snapshot(), m.page.Snapshot()
	require.Equal(m.t, a.Rows, b.Rows)
	for y := range a.Lines {
		require.Equal(m.t, rowText(a.Lines[y]), rowText(b.Lines[y]), "row %d", y)
		require.Equal(m.t, styles(a.Lines[y]), styles(b.Lines[y]), "styles of row %d", y)
	}
	require.Equal(m.t, a.Cursor.X, b.Cursor.X, "cursor x")
	require.Equal(m.t, a.Cursor.Y, b.Cursor.Y, "cursor y")
	require.Equal(m.t, a.Cursor.Visible, b.Cursor.Visible, "cursor shown")
	require.Equal(m.t, a.Modes.AppCursor, b.Modes.AppCursor)
	require.Equal(m.t, a.Modes.BracketedPaste, b.Modes.BracketedPaste)
	if a.AltScreen {
		return
	}
	n := min(a.HistoryLen, HistoryOnConnect)
	ha := m.pane.HistoryLines(a.HistoryLen-n, n)
	hb := m.page.HistoryLines(b.HistoryLen-n, n)
	require.Len(m.t, hb, n, "the page's history holds the pane's")
	for i := range ha {
		require.Equal(m.t, rowText(ha[i]), rowText(hb[i]), "history line %d of the last %d", i, n)
	}
}

func TestFramesMirrorThePane(t *testing.T) {
	m := newMirror(t, 20, 5)
	m.out("hello\r\n")
	m.out("\x1b[1;31mred\x1b[0m \x1b[38;2;1;2;3;48;5;200mtrue\x1b[0m \x1b[4:3mcurly\x1b[0m")
	m.out("\r\n宽字 wide ✓ é\r\n")
	for i := range 3 { // fewer lines than the screen: scrolled by moving rows
		m.out(fmt.Sprintf("line %d\r\n", i))
	}
	m.out(strings.Repeat("many\r\n", 12)) // more than a screen at once
	for i := range 40 {
		m.out(fmt.Sprintf("scroll %02d %s\r\n", i, strings.Repeat("x", i%25)))
	}
	m.out("\x1b[?1h\x1b[?2004h") // modes keys depend on
	m.out("\x1b[?1049h\x1b[2J\x1b[Hfull screen app\x1b[3;4Hcell")
	m.out("\x1b[?25l")
	m.out("\x1b[?25h\x1b[?1049l")
	m.out("back on main\r\n")
	m.out("\x1b[2;4r\x1b[4;1H\nregion\n\n\x1b[r") // a scroll region: no history
	m.out("\x1b[2J\x1b[H")
	m.pane.Resize(30, 8)
	m.out("after resize\r\n")
	assert.Positive(t, m.bytes)
}

func TestFramesOnlyWhatChanged(t *testing.T) {
	m := newMirror(t, 40, 10)
	m.out(strings.Repeat("the same row\r\n", 9))
	before := m.bytes
	m.out("\x1b[5;1Hx")
	one := m.bytes - before
	assert.Less(t, one, 80, "one changed row, not the screen")
	before = m.bytes
	m.out("")
	assert.Equal(t, before, m.bytes, "no change, no frame")
}

// A flood pushes the newest FloodLines lines and a line saying how many it skipped.
func TestFramesFloodSkipsWithANote(t *testing.T) {
	pane := vterm.New(vterm.Options{Cols: 80, Rows: 5, HistoryLimit: 5000})
	page := vterm.New(vterm.Options{Cols: 80, Rows: 5, HistoryLimit: 5000})
	var v paneView
	page.Write(v.frame(1, pane)[8:])
	for i := range 1000 {
		pane.Write(fmt.Appendf(nil, "flood %d\r\n", i))
	}
	f := v.frame(1, pane)
	page.Write(f[8:])
	snap := page.Snapshot()
	assert.Equal(t, FloodLines+1, snap.HistoryLen, "the newest lines and the note")
	h := page.HistoryLines(0, snap.HistoryLen)
	assert.Contains(t, rowText(h[0]), "⋯ 896 lines scrolled by")
	assert.Equal(t, "flood 995", rowText(h[snap.HistoryLen-1]), "then the lines, up to the screen")
	assert.Equal(t, "flood 996", rowText(snap.Lines[0]))
	assert.Equal(t, "flood 896", rowText(h[1]), "the newest FloodLines, in order")
}

func TestFramesPageOpenedLateGetsHistory(t *testing.T) {
	m := newMirror(t, 20, 4)
	for i := range 30 {
		m.pane.Write(fmt.Appendf(nil, "early %d\r\n", i))
	}
	m.out("") // the first frame: history, then the screen
}

func BenchmarkFrameScroll(b *testing.B) {
	pane := vterm.New(vterm.Options{Cols: 120, Rows: 40})
	var v paneView
	line := []byte(strings.Repeat("log line with some words ", 4) + "\r\n")
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for range 5 {
			pane.Write(line)
		}
		n += len(v.frame(1, pane))
	}
	b.ReportMetric(float64(n)/float64(b.N), "bytes/frame")
}
