package parser

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ask is what a program waiting for the person asks, as its screen shows it: the
// question and the choices it offers (an approval prompt's "1. Yes", "2. Yes, always",
// "3. No"), and the rows around them that say what it is about.
type Ask struct {
	// Question is the row that asks ("Do you want to proceed?"); "" when none was read.
	Question string
	// Options are the numbered choices, in order.
	Options []Option
	// Context is the prompt's rows from a few above the question to its last choice,
	// box borders and blank rows left out: what the choice is about (the command to run).
	Context []string
}

// Option is one choice of an Ask: Key is what to type to pick it (its number), Label
// the words the program shows for it.
type Option struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Asks-reading bounds: how far above the choices the question may be, how many rows
// of context are kept, how long a label or question may be, how many choices a prompt
// has at most, how many rows with text may follow its last choice, and onto how many
// rows more than its first a choice's label may wrap.
const (
	askQuestionReach = 10
	askContextRows   = 8
	askMaxText       = 200
	askMaxOptions    = 9
	askTrailRows     = 6
	askWrapRows      = 3
)

// ReadAsk reads what a prompt on screen (its rows, top to bottom, rows the terminal
// soft-wrapped already joined: vterm's ScreenLines) asks: the last run of
// choices numbered 1, 2, 3… (a pointer such as ❯, › or ● before the chosen one, and box
// borders, are allowed) near the bottom, the question above them (the nearest row
// ending in "?" within a few rows), and the rows in between. ok is false when the
// screen shows no such choices and question: callers then know only that the program
// waits, not for what.
func ReadAsk(screen []string) (Ask, bool) {
	rows := dropScrollbar(cleanAll(screen)) // Qwen Code's, after its transcript scrolled
	for i, r := range rows {
		rows[i] = unboxedAll(r)
	}
	last := -1
	for i := len(rows) - 1; i >= 0; i-- {
		if _, _, ok := optionRow(rows[i]); ok {
			last = i
			break
		}
	}
	if last < 0 {
		return Ask{}, false
	}
	// A prompt's choices are at the bottom of the screen, a hint or a footer at most
	// below them: a numbered list higher up (Gemini CLI's start-up tips, an answer's
	// steps) is not a prompt, even on a screen that says the program waits.
	trail := 0
	for _, r := range rows[last+1:] {
		if r != "" && !isRule(r) {
			trail++
		}
	}
	if trail > askTrailRows {
		return Ask{}, false
	}
	// Walk up over the run: numbers must count down to 1 (blank rows between choices are
	// allowed). A label too long for the pane wraps onto the rows under its number
	// (Claude Code's "Yes, and always allow access to /long/path/ from this project"
	// in a pane beside another): up to askWrapRows rows above a choice are read as the
	// end of the next choice's label.
	first := last
	want, _, _ := optionRow(rows[last])
	var opts []Option
	var wrapped []string // rows read since the last choice, bottom up
	for i := last; i >= 0 && want >= 1; i-- {
		if rows[i] == "" {
			continue
		}
		n, label, ok := optionRow(rows[i])
		if !ok && len(wrapped) < askWrapRows {
			wrapped = append(wrapped, rows[i])
			continue
		}
		if !ok || n != want {
			break
		}
		for j := len(wrapped) - 1; j >= 0; j-- {
			label += " " + wrapped[j]
		}
		wrapped = wrapped[:0]
		opts = append(opts, Option{Key: strconv.Itoa(n), Label: clip(label)})
		first, want = i, want-1
	}
	if want != 0 || len(opts) < 2 || len(opts) > askMaxOptions {
		return Ask{}, false
	}
	for i, j := 0, len(opts)-1; i < j; i, j = i+1, j-1 {
		opts[i], opts[j] = opts[j], opts[i]
	}
	ask := Ask{Options: opts}
	q := -1
	for i := first - 1; i >= 0 && i >= first-askQuestionReach; i-- {
		if strings.HasSuffix(rows[i], "?") {
			q = i
			break
		}
	}
	if q < 0 {
		// No question: a numbered list (Gemini CLI's start-up tips, an answer's
		// steps) on a screen that says the program waits for a prompt not yet drawn.
		return Ask{}, false
	}
	ask.Question = clip(rows[q])
	from := q
	// Context: a few rows with text above the question, up to a rule or two blank rows.
	// A dashed rule is not the prompt's edge: Claude Code 2.1.332 frames the command it
	// asks about in them.
	for i, blanks, kept := from-1, 0, 0; i >= 0 && kept < askContextRows/2 && blanks < 2 && (!isRule(rows[i]) || isDashedRule(rows[i])); i-- {
		if rows[i] == "" {
			blanks++
			continue
		}
		if isDashedRule(rows[i]) {
			continue
		}
		blanks = 0
		from, kept = i, kept+1
	}
	for i := from; i <= last; i++ {
		if rows[i] != "" && !isRule(rows[i]) {
			ask.Context = append(ask.Context, clip(rows[i]))
		}
	}
	if len(ask.Context) > askContextRows+len(opts) {
		ask.Context = ask.Context[len(ask.Context)-askContextRows-len(opts):]
	}
	return ask, true
}

// optionRow reads a choice row: "1. Yes", "❯ 1. Yes", "● 2) Allow for this session".
func optionRow(row string) (n int, label string, ok bool) {
	s := strings.TrimLeftFunc(row, unicode.IsSpace)
	if r, size := utf8.DecodeRuneInString(s); strings.ContainsRune("❯›>●◉▸▶→*•", r) {
		s = strings.TrimLeftFunc(s[size:], unicode.IsSpace)
	}
	i := 0
	for i < len(s) && i < 2 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(s) || (s[i] != '.' && s[i] != ')') {
		return 0, "", false
	}
	n, _ = strconv.Atoi(s[:i])
	label = strings.TrimSpace(s[i+1:])
	if label == "" || !strings.HasPrefix(s[i+1:], " ") {
		return 0, "", false
	}
	return n, label, true
}

// unboxedAll strips a row of every box it is drawn in (│ │ … │ │: a box inside a
// box) and of white space around.
func unboxedAll(row string) string {
	for {
		t := strings.TrimSpace(unboxed(row))
		if t == strings.TrimSpace(row) {
			return t
		}
		row = t
	}
}

// isRule reports whether row is a line drawn across (─, ═, ▀, ▄, ╭…╮ and the like).
func isRule(row string) bool {
	for _, r := range row {
		if !(r >= 0x2500 && r <= 0x259F) && r != '-' && r != '=' && r != ' ' {
			return false
		}
	}
	return row != ""
}

// isDashedRule reports whether row is a dashed line drawn across (╌, ┄, ┈ and their
// heavy forms).
func isDashedRule(row string) bool {
	for _, r := range row {
		if !strings.ContainsRune("╌╍┄┅┈┉ ", r) {
			return false
		}
	}
	return strings.TrimSpace(row) != ""
}

// clip bounds a text read from a screen.
func clip(s string) string {
	if len(s) <= askMaxText {
		return s
	}
	cut := askMaxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Short is the ask as a border's title shows it: the question, then the choices'
// numbers and first words ("Do you want to proceed? 1 Yes 2 Yes, and… 3 No").
func (a Ask) Short() string {
	var b strings.Builder
	b.WriteString(a.Question)
	for _, o := range a.Options {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(o.Key + " " + firstWords(o.Label, 2))
	}
	return b.String()
}

// firstWords is s's first n words, with "…" when there were more.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return strings.Join(f, " ")
	}
	return strings.Join(f[:n], " ") + "…"
}
