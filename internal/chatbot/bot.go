package chatbot

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Style is how a bot draws its screen.
type Style int

// The three screen styles of chat programs.
const (
	// Line is a line-mode REPL: "NAME ready.", then "NAME> " prompts; the terminal's
	// line discipline echoes what is typed; the answer is printed line by line and the
	// prompt again (ollama run, llm chat, a Python bot, bash's read -p).
	Line Style = iota
	// Inline is a Claude-Code-like program on the main screen: a banner, the transcript,
	// and under it an input box (rules around a "❯ " row) with a footer; while it works a
	// spinner row with "esc to interrupt" sits above the box. It takes bracketed pastes
	// and draws its own echo.
	Inline
	// Full is a full-screen program on the alternate screen: a header row, the
	// transcript's last rows, a status row (a spinner with "esc to interrupt" while it
	// works) and an input row at the bottom; the whole frame is redrawn on every change.
	Full
	// Boxed is an Ink-like program on the main screen: its transcript, and under it an
	// input box drawn with round corners ("╭──╮", "│ > draft │", "╰──╯") and a hint row,
	// with the terminal cursor parked on the row under them (where Ink leaves it), not
	// in the box. While it works a spinner row with "esc to interrupt" sits above the
	// box.
	Boxed
	// Clear is a full-screen program on the alternate screen that clears and redraws
	// the whole screen (ESC[H ESC[2J) on every change, with no synchronized output, as
	// many ratatui and bubbletea programs do: a header row, the transcript's last rows
	// (each message it received as "you: …" rows, then the answer), the input row and a
	// status row under it naming its model.
	Clear
)

// Styles are every style, in order.
var Styles = []Style{Line, Inline, Full, Boxed, Clear}

// String returns the style's name as its flag gives it.
func (s Style) String() string { return [...]string{"line", "inline", "full", "boxed", "clear"}[s] }

// ParseStyle returns the style named s.
func ParseStyle(s string) (Style, error) {
	for _, st := range Styles {
		if st.String() == s {
			return st, nil
		}
	}
	return 0, fmt.Errorf("unknown style %q (line, inline, full, boxed or clear)", s)
}

// Config sets up a bot.
type Config struct {
	Name       string
	Style      Style
	Seed       uint64
	Cols, Rows int
	// Think is the time from a submitted message to the first line of the answer; Pace
	// the time between the steps that print it (a few lines each).
	Think, Pace time.Duration
	// Readline makes a Line bot turn bracketed paste on, as a program reading with
	// readline does (bash's read -e): its terminal still hands it one line per Enter.
	Readline bool
	// Label is what a Boxed bot's input row shows before the draft ("> " when empty);
	// Masked makes it show a "•" for each character of the draft instead (a field
	// whose text cannot be read off the screen).
	Label  string
	Masked bool
	// IgnoreKill makes the bot ignore Ctrl+U (its input cannot be cleared so).
	IgnoreKill bool
	// MaxChars bounds an answer's length (0: 6000 characters): a line-mode program's
	// terminal takes lines of 4095 bytes at most, the relay delivers 8000 characters.
	MaxChars int
}

// Bot is a scripted chat program as a state machine, so the same bot runs in a real PTY
// (Run) and on a fake clock in tests: Input takes the bytes typed into its terminal and
// returns what it draws at once; when a message is submitted the answer is queued as
// steps, each due Next() after the previous one, drawn by Step. Not safe for concurrent
// use.
type Bot struct {
	cfg     Config
	gen     *Gen
	draft   []rune
	paste   bool   // inside a bracketed paste
	esc     []byte // an escape sequence being read
	steps   []step
	busy    bool
	script  []string // the transcript of a full-screen bot, as rows
	live    int      // rows of the inline bot's live area above its cursor row
	replies []string
	inputs  []string
	// interrupted counts the answers Escape stopped.
	interrupted int
}

// step is one scheduled drawing.
type step struct {
	after time.Duration
	draw  func() []byte
}

// New returns a bot; Start gives its first screen.
func New(c Config) *Bot {
	if c.Cols <= 0 {
		c.Cols = 80
	}
	if c.Rows <= 0 {
		c.Rows = 24
	}
	b := &Bot{cfg: c}
	if c.MaxChars <= 0 {
		c.MaxChars = 6000
	}
	b.cfg.MaxChars = c.MaxChars
	prompt := b.Prompt()
	if c.Style == Boxed {
		prompt = b.boxRow(b.label()) // an answer may repeat the empty box's row
	}
	b.gen = NewGen(c.Seed, b.Banner(), prompt, c.Cols, c.Style == Full || c.Style == Clear)
	b.gen.max = c.MaxChars
	return b
}

// Banner is the bot's first row.
func (b *Bot) Banner() string {
	switch b.cfg.Style {
	case Inline:
		return "✻ Welcome to " + b.cfg.Name + " chat"
	case Full:
		return b.cfg.Name + " · ready"
	case Boxed:
		return "* " + b.cfg.Name + " code · mock-model"
	case Clear:
		return b.cfg.Name + " ── chat"
	}
	return b.cfg.Name + " ready."
}

// Prompt is the bot's empty prompt row.
func (b *Bot) Prompt() string {
	switch b.cfg.Style {
	case Inline:
		return "❯ "
	case Full, Boxed, Clear:
		return "> "
	}
	return b.cfg.Name + "> "
}

// Replies returns the answers the bot gave, in order; Inputs the messages it received.
func (b *Bot) Replies() []string { return b.replies }

// Inputs returns the messages submitted to the bot, in order.
func (b *Bot) Inputs() []string { return b.inputs }

// Busy reports whether the bot is working on a message.
func (b *Bot) Busy() bool { return b.busy }

// Start returns the bot's first screen.
func (b *Bot) Start() []byte {
	switch b.cfg.Style {
	case Inline:
		var out strings.Builder
		out.WriteString("\x1b[?2004h" + b.Banner() + "\r\n   /help for help, esc to go back\r\n\r\n")
		out.WriteString(b.drawLive(false))
		return []byte(out.String())
	case Boxed:
		return []byte("\x1b[?2004h" + b.Banner() + "\r\n\r\n" + b.drawBox(false))
	case Full:
		return []byte("\x1b[?1049h\x1b[?2004h" + b.frame())
	case Clear:
		return []byte("\x1b[?1049h\x1b[?2004h" + b.clearFrame())
	}
	if b.cfg.Readline {
		return []byte("\x1b[?2004h" + b.Banner() + "\r\n" + b.Prompt())
	}
	return []byte(b.Banner() + "\r\n" + b.Prompt())
}

// Input handles bytes typed into the terminal and returns what the bot draws at once.
// The line style gets whole lines from the terminal's line discipline (with their
// newline); the others get raw keys and bracketed pastes.
func (b *Bot) Input(p []byte) []byte {
	if b.cfg.Style == Line {
		for _, l := range strings.SplitAfter(string(p), "\n") {
			if msg, ok := strings.CutSuffix(l, "\n"); ok {
				b.submit(strings.TrimSuffix(msg, "\r"))
			}
		}
		return nil
	}
	var out []byte
	changed := false // the draft changed since the last drawing
	for len(p) > 0 {
		c := p[0]
		if b.esc != nil || c == 0x1b {
			b.esc = append(b.esc, c)
			p = p[1:]
			if len(b.esc) == 1 && len(p) == 0 && b.busy {
				// A lone Escape: stop the answer.
				b.esc = nil
				out = append(out, b.interrupt()...)
				continue
			}
			if done, seq := escDone(b.esc); done {
				switch seq {
				case "\x1b[200~":
					b.paste = true
				case "\x1b[201~":
					b.paste = false
				}
				b.esc = nil
			}
			continue
		}
		r, size := utf8.DecodeRune(p)
		p = p[size:]
		switch {
		case b.paste && (r == '\r' || r == '\n'):
			b.draft = append(b.draft, '\n')
		case r == '\r':
			if msg := string(b.draft); strings.TrimSpace(msg) != "" && !b.busy {
				b.draft = nil
				out = append(out, b.submit(msg)...)
				changed = false
				continue
			}
		case r == 0x15 && b.cfg.IgnoreKill:
		case r == 0x15: // Ctrl+U: the draft's last line
			i := len(b.draft)
			for i > 0 && b.draft[i-1] != '\n' {
				i--
			}
			b.draft = b.draft[:i]
		case r == 0x7f || r == 0x08:
			if len(b.draft) > 0 {
				b.draft = b.draft[:len(b.draft)-1]
			}
		case r < 0x20:
		default:
			b.draft = append(b.draft, r)
		}
		changed = true
	}
	if changed {
		out = append(out, b.redraw()...)
	}
	return out
}

// escDone reports whether seq, which starts with ESC, is a whole escape sequence.
func escDone(seq []byte) (bool, string) {
	if len(seq) < 2 {
		return false, ""
	}
	if seq[1] != '[' {
		return true, string(seq)
	}
	c := seq[len(seq)-1]
	return len(seq) > 2 && c >= 0x40 && c <= 0x7e, string(seq)
}

// Next returns the time until the next step is due, and false when none is queued.
func (b *Bot) Next() (time.Duration, bool) {
	if len(b.steps) == 0 {
		return 0, false
	}
	return b.steps[0].after, true
}

// Step draws the next queued step (nothing when none is queued).
func (b *Bot) Step() []byte {
	if len(b.steps) == 0 {
		return nil // stopped by an interrupt since it was due
	}
	s := b.steps[0]
	b.steps = b.steps[1:]
	return s.draw()
}

// submit takes msg: it returns the echo to draw now and queues the answer.
func (b *Bot) submit(msg string) []byte {
	b.inputs = append(b.inputs, msg)
	reply := b.gen.Reply(msg)
	b.replies = append(b.replies, reply)
	b.busy = true
	var now []byte
	switch b.cfg.Style {
	case Inline:
		echo := b.clearLive()
		for i, l := range strings.Split(msg, "\n") {
			if i == 0 {
				echo += "❯ " + l + "\r\n"
			} else {
				echo += "  " + l + "\r\n"
			}
		}
		now = []byte(echo + "\r\n" + b.drawLive(true))
	case Boxed:
		echo := b.clearLive()
		for i, l := range strings.Split(msg, "\n") {
			if i == 0 {
				echo += "> " + l + "\r\n"
			} else {
				echo += "  " + l + "\r\n"
			}
		}
		now = []byte(echo + "\r\n" + b.drawBox(true))
	case Full:
		for i, l := range strings.Split(msg, "\n") {
			pre := "  "
			if i == 0 {
				pre = "> "
			}
			b.script = append(b.script, wrapCols(pre+l, b.cfg.Cols)...)
		}
		now = []byte(b.frame())
	case Clear:
		for i, l := range strings.Split(msg, "\n") {
			pre := "     "
			if i == 0 {
				pre = "you: "
			}
			b.script = append(b.script, wrapCols(pre+l, b.cfg.Cols)...)
		}
		b.script = append(b.script, "")
		now = []byte(b.clearFrame())
	}
	lines := strings.Split(reply, "\n")
	first := true
	for len(lines) > 0 {
		k := min(len(lines), 1+len(lines)%3)
		chunk := lines[:k]
		lines = lines[k:]
		last := len(lines) == 0
		after := b.cfg.Pace
		if first {
			after, first = b.cfg.Think, false
		}
		b.steps = append(b.steps, step{after, func() []byte { return b.print(chunk, last) }})
	}
	return now
}

// print draws lines of the answer; with last, the bot is idle at its prompt after them.
func (b *Bot) print(lines []string, last bool) []byte {
	var out strings.Builder
	if last {
		b.busy = false
	}
	switch b.cfg.Style {
	case Line:
		for _, l := range lines {
			out.WriteString(l + "\r\n")
		}
		if last {
			out.WriteString(b.Prompt())
		}
	case Inline:
		out.WriteString(b.clearLive())
		for _, l := range lines {
			out.WriteString(l + "\r\n")
		}
		if last {
			out.WriteString("\r\n")
		}
		out.WriteString(b.drawLive(!last))
	case Boxed:
		out.WriteString(b.clearLive())
		for _, l := range lines {
			out.WriteString(l + "\r\n")
		}
		if last {
			out.WriteString("\r\n")
		}
		out.WriteString(b.drawBox(!last))
	case Full:
		b.script = append(b.script, lines...)
		if last {
			b.script = append(b.script, "")
		}
		out.WriteString(b.frame())
	case Clear:
		for _, l := range lines {
			b.script = append(b.script, wrapCols(l, b.cfg.Cols)...)
		}
		if last {
			b.script = append(b.script, "")
		}
		out.WriteString(b.clearFrame())
	}
	return []byte(out.String())
}

// interrupt stops the answer under way (a lone Escape while busy, in every style but
// Line): what is left of it is never drawn, its reply is recorded as "" (Replies), and
// the bot is idle at its prompt again.
func (b *Bot) interrupt() []byte {
	b.steps = nil
	b.busy = false
	b.replies[len(b.replies)-1] = "" // interrupted: no answer
	b.interrupted++
	switch b.cfg.Style {
	case Inline:
		return []byte(b.clearLive() + "[interrupted]\r\n\r\n" + b.drawLive(false))
	case Boxed:
		return []byte(b.clearLive() + "[interrupted]\r\n\r\n" + b.drawBox(false))
	case Full:
		b.script = append(b.script, "[interrupted]", "")
		return []byte(b.frame())
	}
	b.script = append(b.script, "[interrupted]", "")
	return []byte(b.clearFrame())
}

// Draft returns what is typed in the bot's input and not sent (a raw-mode style's; a
// line-mode bot's draft is its terminal's).
func (b *Bot) Draft() string { return string(b.draft) }

// Interrupted returns how many answers Escape stopped.
func (b *Bot) Interrupted() int { return b.interrupted }

// redraw draws the input again after the draft changed.
func (b *Bot) redraw() []byte {
	switch b.cfg.Style {
	case Inline:
		return []byte(b.clearLive() + b.drawLive(b.busy))
	case Boxed:
		return []byte(b.clearLive() + b.drawBox(b.busy))
	case Full:
		return []byte(b.frame())
	case Clear:
		return []byte(b.clearFrame())
	}
	return nil
}

// shown is the draft as the input row shows it: its last line's tail, to fit.
func (b *Bot) shown(room int) string {
	d := string(b.draft)
	if i := strings.LastIndexByte(d, '\n'); i >= 0 {
		d = "[" + fmt.Sprint(strings.Count(d, "\n")+1) + " lines] " + d[i+1:]
	}
	r := []rune(d)
	for cols(string(r)) > room {
		r = r[1:]
	}
	return string(r)
}

// clearLive moves to the top of the inline bot's live area and erases it.
func (b *Bot) clearLive() string {
	s := "\r"
	if b.live > 0 {
		s += fmt.Sprintf("\x1b[%dA", b.live)
	}
	return s + "\x1b[J"
}

// drawLive draws the inline bot's live area (a spinner row while busy, the input box and
// its footer) and leaves the cursor after the draft.
func (b *Bot) drawLive(busy bool) string {
	rule := strings.Repeat("─", b.cfg.Cols)
	var s strings.Builder
	b.live = 1
	if busy {
		s.WriteString("✻ Thinking… (esc to interrupt)\r\n")
		b.live++
	}
	draft := b.shown(b.cfg.Cols - 3)
	s.WriteString(rule + "\r\n❯ " + draft + "\r\n" + rule + "\r\n  ? for shortcuts")
	s.WriteString(fmt.Sprintf("\x1b[2A\r\x1b[%dC", 2+cols(draft)))
	return s.String()
}

// label is the Boxed bot's input label.
func (b *Bot) label() string {
	if b.cfg.Label == "" {
		return "> "
	}
	return b.cfg.Label
}

// boxDraft is the draft as the Boxed bot's input row shows it.
func (b *Bot) boxDraft() string {
	d := b.shown(b.cfg.Cols - 4 - cols(b.label()))
	if b.cfg.Masked {
		return strings.Repeat("•", utf8.RuneCountInString(d))
	}
	return d
}

// boxRow is the boxed bot's input row showing text: "│ " text, padded, " │".
func (b *Bot) boxRow(text string) string {
	return "│ " + text + strings.Repeat(" ", max(0, b.cfg.Cols-4-cols(text))) + " │"
}

// drawBox draws the boxed bot's live area (a spinner row while busy, the input box and
// its hint row) and parks the cursor at the start of the row under them, as Ink does:
// the cursor is never in the box.
func (b *Bot) drawBox(busy bool) string {
	rule := strings.Repeat("─", b.cfg.Cols-2)
	var s strings.Builder
	b.live = 4
	if busy {
		s.WriteString("⠋ Working… (esc to interrupt)\r\n")
		b.live++
	}
	s.WriteString("╭" + rule + "╮\r\n" + b.boxRow(b.label()+b.boxDraft()) + "\r\n╰" + rule + "╯\r\n")
	s.WriteString("  enter send · ctrl+j newline\r\n")
	return s.String()
}

// clearFrame draws the clearing full-screen bot's whole frame: the screen cleared, then
// every row, the cursor left after the draft. Nothing marks the frame: a reading may
// come between the clear and the rows.
func (b *Bot) clearFrame() string {
	var s strings.Builder
	s.WriteString("\x1b[H\x1b[2J")
	room := b.cfg.Rows - 4
	body := b.script[max(0, len(b.script)-room):]
	rows := append([]string{b.Banner(), ""}, body...)
	for len(rows) < b.cfg.Rows-2 {
		rows = append(rows, "")
	}
	draft := b.shown(b.cfg.Cols - 3)
	status := "mock-model · " + fmt.Sprint(len(b.inputs)) + " messages"
	if b.busy {
		status = "⠋ thinking… (esc to interrupt)"
	}
	rows = append(rows, "> "+draft, status)
	for y, r := range rows {
		fmt.Fprintf(&s, "\x1b[%d;1H%s", y+1, r)
	}
	fmt.Fprintf(&s, "\x1b[%d;%dH", b.cfg.Rows-1, 3+cols(draft))
	return s.String()
}

// frame draws the full-screen bot's whole frame.
func (b *Bot) frame() string {
	var s strings.Builder
	s.WriteString("\x1b[?2026h")
	room := b.cfg.Rows - 3
	body := b.script[max(0, len(b.script)-room):]
	rows := append([]string{b.Banner()}, body...)
	for len(rows) < b.cfg.Rows-2 {
		rows = append(rows, "")
	}
	status := ""
	if b.busy {
		status = "⠋ thinking… (esc to interrupt)"
	}
	draft := b.shown(b.cfg.Cols - 3)
	rows = append(rows, status, "> "+draft)
	for y, r := range rows {
		// Erase first: erasing after a row as wide as the screen would take its last cell.
		fmt.Fprintf(&s, "\x1b[%d;1H\x1b[2K%s", y+1, r)
	}
	fmt.Fprintf(&s, "\x1b[%d;%dH\x1b[?2026l", b.cfg.Rows, 3+cols(draft))
	return s.String()
}

// wrapCols cuts s into rows of at most width columns.
func wrapCols(s string, width int) []string {
	var out []string
	for cols(s) > width {
		cut := fitTo(s, width)
		if cut == "" {
			break
		}
		out = append(out, cut)
		s = strings.TrimLeft(s[len(cut):], " ")
	}
	return append(out, s)
}
