package demo

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// entryKind is what a transcript entry is.
type entryKind int

const (
	entryUser  entryKind = iota // a message the agent was given
	entryReply                  // the agent's answer
	entryNote                   // a notice, such as an interrupted turn
)

// entry is one item of the transcript.
type entry struct {
	kind entryKind
	text string
	done bool // a reply: its last lines are in (an interrupted one never is)
}

// renderer draws the agent's state in one screen style. Every method writes to a.out.
// Three kinds draw every style: mainDraw (a main-screen program: transcript rows printed
// once above a live region redrawn in place), frameDraw (a full-screen program: the whole
// screen composed and written as one frame) and lineDraw (a line REPL).
type renderer interface {
	// begin enters the style's terminal modes and draws the first screen.
	begin(a *agent)
	// frame brings the screen up to date with the agent's state.
	frame(a *agent)
	// resized redraws everything after the terminal size changed.
	resized(a *agent)
	// raw prints filler output (the flood) and redraws.
	raw(a *agent, p []byte)
	// end leaves the style's modes, leaving the terminal as it found it.
	end(a *agent)
	// title is the window title for the current state; "" sets none.
	title(a *agent) string
	// tickEvery is the spinner period while busy; 0 means no animation.
	tickEvery() time.Duration
	// corpusRows are the rows the corpus answers repeat to trip a relay: the banner's
	// and the empty prompt's.
	corpusRows(a *agent) (banner, prompt string)
	// fits reports whether answer lines must fit the screen's width (a full-screen
	// program cuts, it does not wrap).
	fits() bool
}

// newRenderer returns the renderer of style s.
func newRenderer(s Style) renderer {
	switch s {
	case Alt:
		return &frameDraw{look: altLook{}}
	case Full:
		return &frameDraw{look: fullLook{}}
	case Clear:
		return &frameDraw{look: clearLook{}}
	case Plain:
		return &lineDraw{}
	case Line:
		return &lineDraw{cooked: true}
	case Bare:
		return &mainDraw{look: bareLook{}}
	case Boxed:
		return &mainDraw{look: boxedLook{}}
	}
	return &mainDraw{look: inlineLook{}}
}

// interruptedNote is the transcript note of a turn cut short by Esc or Ctrl+C.
const interruptedNote = "Interrupted · What should I do instead?"

// agent is the simulated agent's state machine. It is driven by one goroutine (the loop in
// main.go, or a test): input, ticks, the end of a turn and resizes come in as method calls,
// and what the terminal must show is appended to out, which the caller flushes.
type agent struct {
	cfg       config
	draw      renderer
	dec       decoder
	answerFor replyFunc // the reply generator
	now       func() time.Time
	out       bytes.Buffer
	log       transcriptLog // -transcript; its writer is set by Main
	// hooked holds the (message, answer) pairs answered in this step: their hooks run
	// once the step's drawing is written (runHooks), as a CLI's Stop hook follows its
	// answer on the screen.
	hooked [][2]string

	cols, rows int

	draft     string
	queued    []string // messages submitted while busy, answered in order
	history   []entry
	busy      bool
	busySince time.Time
	turn      int    // counts turns started, so a timer knows which turn it belongs to
	spin      int    // spinner frame, advanced by tick
	asked     string // the message being answered
	answer    string // the answer being given
	counts    bool   // the answer counts as one of the conversation's (not a greeting or brief)
	steps     []step // the answer's lines still to print, each due after the one before
	stepped   int    // counts steps taken, so a timer knows which step it waits for
	answers   int    // completed turns that count

	inputs      []string // every message submitted, in order
	replies     []string // the answer of every turn started, in order ("" when interrupted)
	interrupted int      // turns cut short
	armed       bool     // Ctrl+C was pressed once: another one exits
	scroll      int      // transcript rows scrolled back (alt style)
	title       string   // the title last written

	queries     queryState
	kittyAsked  bool // the kitty keyboard query was sent
	kittyPushed bool // kitty keyboard flags were pushed and must be popped

	floodLeft int64 // filler bytes still to print
	floodLine int

	inputClosed bool // stdin ended: exit once idle
	done        bool
	code        int
}

// step is some lines of an answer, printed after a delay.
type step struct {
	after time.Duration
	lines []string
}

// newAgent returns an agent for a terminal of cols×rows, reading the clock from now.
func newAgent(cfg config, cols, rows int, now func() time.Time) *agent {
	a := &agent{cfg: cfg, now: now, cols: max(cols, 1), rows: max(rows, 1), floodLeft: cfg.flood}
	a.draw = newRenderer(cfg.Style)
	a.answerFor = newReply(a)
	return a
}

// start draws the first screen, sends the start-up queries and begins the greeting turn.
func (a *agent) start() {
	a.draw.begin(a)
	if a.cfg.queries {
		a.queries.sent = true
		a.out.WriteString(queryDA1 + queryCPR + queryOSC11)
	}
	if a.cfg.greet != "" {
		a.startTurn("", a.cfg.greet)
	}
	if a.cfg.exitAfter == 0 {
		a.quit(a.cfg.exitCode)
	}
	a.render()
}

// input handles bytes read from the terminal.
func (a *agent) input(p []byte) {
	for _, ev := range a.dec.feed(p) {
		switch ev := ev.(type) {
		case keyEvent:
			a.key(ev)
		case pasteEvent:
			a.armed = false
			a.draft += cleanPaste(ev.text)
		case replyEvent:
			a.reply(ev)
		}
	}
	a.render()
}

func (a *agent) key(k keyEvent) {
	if k.kind != keyCtrlC {
		a.armed = false
	}
	switch k.kind {
	case keyText:
		a.draft += k.text
	case keyNewline:
		a.draft += "\n"
	case keyBackspace:
		_, n := utf8.DecodeLastRuneInString(a.draft)
		a.draft = a.draft[:len(a.draft)-n]
	case keyCtrlU: // the draft's last line
		if !a.cfg.IgnoreKill {
			a.draft = a.draft[:strings.LastIndexByte(a.draft, '\n')+1]
		}
	case keyEnter:
		a.submit()
	case keyEscape:
		a.interrupt()
	case keyCtrlC:
		if a.armed {
			a.quit(0)
			return
		}
		a.interrupt()
		a.draft = ""
		a.armed = true
	case keyCtrlD:
		if a.draft == "" {
			a.quit(0)
		}
	case keyWheelUp:
		a.scroll += 3
	case keyWheelDown:
		a.scroll = max(a.scroll-3, 0)
	}
}

// reply records a terminal's answer to one of the agent's queries.
func (a *agent) reply(r replyEvent) {
	switch r.kind {
	case replyDA1:
		a.queries.da1, a.queries.gotDA1 = r.text, true
	case replyCPR:
		a.queries.cpr, a.queries.gotCPR = r.text, true
	case replyOSC11:
		a.queries.osc11, a.queries.gotOSC11 = r.text, true
	case replyKitty:
		if a.kittyAsked && !a.kittyPushed {
			a.kittyPushed = true
			a.out.WriteString(kittyPush1)
		}
	}
}

// submit sends the draft as a message. An empty draft does nothing; while busy the message
// is queued, as Claude Code and Codex do, and answered after the current turn.
func (a *agent) submit() {
	msg := strings.TrimSpace(a.draft)
	if msg == "" {
		return
	}
	a.draft = ""
	a.scroll = 0
	a.inputs = append(a.inputs, msg)
	a.log.received(msg)
	if a.busy {
		a.queued = append(a.queued, msg)
		return
	}
	a.ask(msg)
}

// ask puts msg in the transcript and starts answering it.
func (a *agent) ask(msg string) {
	a.history = append(a.history, entry{kind: entryUser, text: msg})
	a.startTurn(msg, "")
}

// next starts the first queued message, if any, or exits once stdin has ended.
func (a *agent) next() {
	if len(a.queued) > 0 {
		msg := a.queued[0]
		a.queued = a.queued[1:]
		a.ask(msg)
		return
	}
	if a.inputClosed {
		a.quit(0)
	}
}

// startTurn starts answering msg: with fixed, or else with the reply generator's answer
// (a brief is only acknowledged). The answer's lines are printed in steps: the first
// after the think time, then, with a pace, a few lines at a time.
func (a *agent) startTurn(msg, fixed string) {
	a.busy = true
	a.turn++
	a.busySince = a.now()
	a.spin = 0
	a.asked = msg
	a.answer, a.counts = fixed, false
	switch {
	case fixed != "":
	case isBrief(msg):
		// agentmux --brief: noted, without spending an answer of the script.
		a.answer = a.cfg.Name + ": noted, thanks."
	default:
		a.answer, a.counts = a.answerFor(a.cfg.Name, msg, a.answers), true
	}
	a.replies = append(a.replies, a.answer)
	lines := strings.Split(a.answer, "\n")
	after := a.cfg.Think
	for len(lines) > 0 {
		k := len(lines)
		if a.cfg.Pace > 0 {
			k = min(k, 1+len(lines)%3)
		}
		a.steps = append(a.steps, step{after: after, lines: lines[:k]})
		lines, after = lines[k:], a.cfg.Pace
	}
}

// nextStep returns the time from the step before (or the turn's start) to the next step
// of the answer, and false when none is due.
func (a *agent) nextStep() (time.Duration, bool) {
	if len(a.steps) == 0 {
		return 0, false
	}
	return a.steps[0].after, true
}

// step prints the next lines of the answer; after the last the turn ends.
func (a *agent) step() {
	if len(a.steps) == 0 {
		return // interrupted since it was due
	}
	s := a.steps[0]
	a.steps = a.steps[1:]
	a.stepped++
	text := strings.Join(s.lines, "\n")
	if n := len(a.history); n > 0 && a.history[n-1].kind == entryReply && !a.history[n-1].done {
		a.history[n-1].text += "\n" + text
	} else {
		a.history = append(a.history, entry{kind: entryReply, text: text})
	}
	if len(a.steps) == 0 {
		a.endTurn()
	}
	a.render()
}

// finishTurn prints the rest of the busy turn's answer at once.
func (a *agent) finishTurn() {
	for turn := a.turn; a.busy && a.turn == turn && len(a.steps) > 0; {
		a.step()
	}
}

// endTurn ends the busy turn, its answer printed.
func (a *agent) endTurn() {
	a.busy = false
	a.scroll = 0
	a.history[len(a.history)-1].done = true
	a.log.answered(a.answer)
	a.hooked = append(a.hooked, [2]string{a.asked, a.answer})
	if a.counts {
		a.answers++
	}
	if a.cfg.exitAfter > 0 && a.answers >= a.cfg.exitAfter {
		a.quit(a.cfg.exitCode)
	} else {
		a.next()
	}
}

// interrupt cuts a busy turn short and drops the queued messages.
func (a *agent) interrupt() {
	if !a.busy {
		return
	}
	a.busy = false
	a.steps = nil
	a.queued = nil
	a.replies[len(a.replies)-1] = "" // interrupted: no answer
	a.interrupted++
	a.history = append(a.history, entry{kind: entryNote, text: interruptedNote})
	if a.inputClosed {
		a.quit(0)
	}
}

// tick advances the busy spinner.
func (a *agent) tick() {
	if !a.busy {
		return
	}
	a.spin++
	a.render()
}

// resize changes the terminal size and redraws.
func (a *agent) resize(cols, rows int) {
	cols, rows = max(cols, 1), max(rows, 1)
	if cols == a.cols && rows == a.rows {
		return
	}
	a.cols, a.rows = cols, rows
	a.draw.resized(a)
	a.render()
}

// closeInput notes the end of stdin: the agent exits now, or once it has answered the
// current and queued messages.
func (a *agent) closeInput() {
	a.inputClosed = true
	if !a.busy {
		a.quit(0)
	}
	a.render()
}

// floodStep prints the next chunk of filler output; it reports whether any is left.
func (a *agent) floodStep() bool {
	if a.floodLeft <= 0 {
		return false
	}
	var chunk []byte
	for int64(len(chunk)) < min(a.floodLeft, 32<<10) {
		a.floodLine++
		chunk = append(chunk, floodLine(a.cfg.Name, a.floodLine)...)
	}
	if int64(len(chunk)) > a.floodLeft {
		chunk = append(chunk[:a.floodLeft], "\r\n"...)
		a.floodLeft = 0
	} else {
		a.floodLeft -= int64(len(chunk))
	}
	a.draw.raw(a, chunk)
	a.render()
	return a.floodLeft > 0
}

// floodLine is line n of the filler output.
func floodLine(name string, n int) string {
	return fmt.Sprintf("%s flood %08d the quick brown fox jumps over the lazy dog\r\n", name, n)
}

// quit ends the agent with code once the current step is drawn.
func (a *agent) quit(code int) {
	if !a.done {
		a.done, a.code = true, code
	}
}

// render updates the title and the screen.
func (a *agent) render() {
	if t := a.draw.title(a); t != "" && t != a.title {
		a.title = t
		a.out.WriteString(titlePrefix + t + titleSuffix)
	}
	a.draw.frame(a)
}

// finish leaves the terminal modes; the agent must not draw afterwards.
func (a *agent) finish() {
	a.draw.end(a)
	if a.kittyPushed {
		a.out.WriteString(kittyPop)
		a.kittyPushed = false
	}
}

// busySeconds is how long the current turn has run, in whole seconds.
func (a *agent) busySeconds() int {
	return int(a.now().Sub(a.busySince) / time.Second)
}

// cleanPaste normalises pasted text: CR LF and CR become LF, tabs become spaces, other
// control characters are dropped.
func cleanPaste(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return -1
		}
		return r
	}, s)
}

// queryState is what the terminal answered to the start-up queries.
type queryState struct {
	sent                     bool
	gotDA1, gotCPR, gotOSC11 bool
	da1, cpr, osc11          string
}

// String summarises the answers in one row: "terminal: DA1 ✓ ?62;22 · CPR ✓ 1;1 · OSC 11 ✗".
func (q queryState) String() string {
	mark := func(name string, ok bool, v string) string {
		if !ok {
			return name + " ✗"
		}
		return name + " ✓ " + v
	}
	return "terminal: " + mark("DA1", q.gotDA1, "?"+q.da1) + " · " + mark("CPR", q.gotCPR, q.cpr) +
		" · " + mark("OSC 11", q.gotOSC11, q.osc11)
}

// runHooks runs the hooks of the answers given since the last call.
func (a *agent) runHooks() {
	for _, h := range a.hooked {
		a.cfg.hooks.answered(h[0], h[1])
	}
	a.hooked = nil
}
