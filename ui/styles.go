package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// styles are the lipgloss styles of agentmux's own chrome: borders, titles, the status
// line, prompts and the help box. Pane contents never go through lipgloss (render.go).
// Colours are fixed palette colours, never adaptive ones: an adaptive colour would make
// termenv query the terminal's background behind our input reader's back.
type styles struct {
	border, borderFocus lipgloss.Style
	title, titleFocus   lipgloss.Style
	running, exited     lipgloss.Style
	exitedBad           lipgloss.Style
	busy, needsYou      lipgloss.Style
	status, statusKey   lipgloss.Style
	statusMode          lipgloss.Style
	statusMsg           lipgloss.Style
	statusRelay         lipgloss.Style
	prompt              lipgloss.Style
	helpBox, helpKey    lipgloss.Style
	helpTitle           lipgloss.Style
	selected            lipgloss.Style // the relay log's selected entry (its time)

	// Pre-rendered pieces that do not depend on a pane.
	vbar, vbarFocus string
	paints          statusPaints
}

// statusPaints are the status line's styles as escape sequences (built every frame).
type statusPaints struct {
	status, statusKey, statusMode, statusMsg, statusRelay, prompt paint
}

// newStyles builds the styles for renderer r (tests pin its colour profile).
func newStyles(r *lipgloss.Renderer) styles {
	c := func(s string) lipgloss.Color { return lipgloss.Color(s) }
	s := styles{
		border:      r.NewStyle().Foreground(c("240")),
		borderFocus: r.NewStyle().Foreground(c("39")),
		title:       r.NewStyle().Foreground(c("250")),
		titleFocus:  r.NewStyle().Foreground(c("231")).Bold(true),
		running:     r.NewStyle().Foreground(c("71")),
		exited:      r.NewStyle().Foreground(c("244")),
		exitedBad:   r.NewStyle().Foreground(c("203")),
		busy:        r.NewStyle().Foreground(c("214")),
		needsYou:    r.NewStyle().Foreground(c("203")).Bold(true),
		status:      r.NewStyle().Foreground(c("252")).Background(c("236")),
		statusKey:   r.NewStyle().Foreground(c("16")).Background(c("39")).Bold(true),
		statusMode:  r.NewStyle().Foreground(c("16")).Background(c("214")).Bold(true),
		statusMsg:   r.NewStyle().Foreground(c("223")).Background(c("236")),
		statusRelay: r.NewStyle().Foreground(c("16")).Background(c("114")).Bold(true),
		prompt:      r.NewStyle().Foreground(c("16")).Background(c("214")).Bold(true),
		helpBox: r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c("39")).
			Padding(0, 1),
		helpKey:   r.NewStyle().Foreground(c("39")).Bold(true),
		helpTitle: r.NewStyle().Bold(true),
		selected:  r.NewStyle().Reverse(true),
	}
	s.vbar = s.border.Render("│")
	s.vbarFocus = s.borderFocus.Render("│")
	s.paints = statusPaints{
		status: paintOf(s.status), statusKey: paintOf(s.statusKey), statusMode: paintOf(s.statusMode),
		statusMsg: paintOf(s.statusMsg), statusRelay: paintOf(s.statusRelay), prompt: paintOf(s.prompt),
	}
	return s
}

// paint is a style's opening and closing escape sequences, taken from lipgloss once, so
// long border rows are built by concatenation instead of a lipgloss Render (which
// measures every grapheme) per frame.
type paint struct{ pre, suf string }

// paintOf extracts st's escape sequences by rendering a single marker character.
func paintOf(st lipgloss.Style) paint {
	out := st.Render("X")
	i := strings.IndexByte(out, 'X')
	if i < 0 {
		return paint{}
	}
	return paint{pre: out[:i], suf: out[i+1:]}
}

// wrap returns text in p's style.
func (p paint) wrap(text string) string { return p.pre + text + p.suf }

// topBorder draws a pane's top border, w columns wide:
// "╭ 1 alice ─ idle ─ 🔔 ─ ✳ Claude Code ───╮". The "N name" title comes first and is cut
// to fit; then the state (or, when it does not fit, its first word; for a pane that needs
// you, first the state without what it asks), the bell mark when
// bell is set, and after a whole state what follows it (after: where the pane runs, how
// it was restored, " · " between them) and the program's own title (ptitle), each only
// when it fits whole. A pane narrower than its corners gets spaces.
func (s styles) topBorder(w int, title, state, after string, focused bool, kind stateKind, bell bool, ptitle string) string {
	if w < 2 {
		return strings.Repeat(" ", max(w, 0))
	}
	bs, ts := s.border, s.title
	if focused {
		bs, ts = s.borderFocus, s.titleFocus
	}
	ss := s.running
	switch kind {
	case kindBusy:
		ss = s.busy
	case kindNeedsYou:
		ss = s.needsYou
	case kindExited:
		ss = s.exited
	case kindExitedBad:
		ss = s.exitedBad
	}
	bp := paintOf(bs)
	inner := w - 2
	var b strings.Builder
	b.WriteString(bp.wrap("╭"))
	used := 0
	piece := func(text string, st lipgloss.Style) {
		if used >= inner || text == "" {
			return
		}
		text = ansi.Truncate(text, inner-used, "")
		used += ansi.StringWidth(text)
		b.WriteString(st.Render(text))
	}
	piece(" "+title+" ", ts)
	whole := func(text string, st lipgloss.Style) bool {
		if text != "" && inner-used >= ansi.StringWidth(text)+3 {
			piece("─", bs)
			piece(" "+text+" ", st)
			return true
		}
		return false
	}
	// The state before anything else: whole, or else its first word ("busy" of
	// "busy · linked"), and then nothing after it, so the program's title never stands
	// where the state should be.
	if state != "" {
		room := inner - used // what follows the state fits only where it leaves the bell its place
		if bell {
			room -= ansi.StringWidth(bellMark) + 3
		}
		for part := range strings.SplitSeq(after, " · ") {
			if part == "" || room < ansi.StringWidth(state+" · "+part)+3 {
				break
			}
			state += " · " + part
		}
	}
	full := whole(state, ss)
	if !full {
		word, _, _ := strings.Cut(state, " · ")
		// A pane that needs you says what it asks last: as much of it as fits, else
		// nothing of it, and the rest may fit.
		i := strings.LastIndex(state, " · ")
		if kind == kindNeedsYou && i >= 0 {
			room := inner - used - 3 - ansi.StringWidth(state[:i]+" · ")
			if bell {
				room -= ansi.StringWidth(bellMark) + 3 // the bell keeps its place after it
			}
			if room >= minAskShown {
				full = whole(state[:i]+" · "+ansi.Truncate(state[i+len(" · "):], room, "…"), ss)
			}
		}
		if !full && (kind != kindNeedsYou || i < 0 || !whole(state[:i], ss)) {
			whole(word, ss)
		}
	}
	if bell {
		whole(bellMark, s.needsYou)
	}
	if full {
		whole(ptitle, s.exited)
	}
	b.WriteString(bp.wrap(strings.Repeat("─", max(inner-used, 0)) + "╮"))
	return b.String()
}

// bottomBorder draws a pane's bottom border, w columns wide.
func (s styles) bottomBorder(w int, focused bool) string {
	if w < 2 {
		return strings.Repeat(" ", max(w, 0))
	}
	bs := s.border
	if focused {
		bs = s.borderFocus
	}
	return paintOf(bs).wrap("╰" + strings.Repeat("─", w-2) + "╯")
}

// stateKind is how a pane's border colours its state.
type stateKind uint8

const (
	kindRunning   stateKind = iota // running, or idle: the quiet default
	kindIdle                       // idle: ready for input
	kindBusy                       // working on a turn
	kindNeedsYou                   // waiting for the person (an approval prompt)
	kindExited                     // exited with status 0
	kindExitedBad                  // exited with another status
)
