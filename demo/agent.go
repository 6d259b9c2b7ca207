package demo

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

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
			a.render() // the footer tells of shift+enter from now on
		}
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
