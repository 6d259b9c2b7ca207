package relay

// This file is the test harness, not a test: a discrete-event simulation with a fake
// clock. Fake agents own fake screens (main-screen line REPLs or alternate-screen
// programs, with or without a title that says busy/idle); the harness hands every relay
// Action to the target agent (typing fills its input row, a carriage return submits it),
// reports the agent's output back to the relay as an Output event at the same instant,
// and advances time to whichever comes first: the relay's NextWake or an agent's next
// scheduled reply. Nothing sleeps; a run ends at a given time or when nothing is pending.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/parser"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// screenParts is a fake screen read part by part: nothing writes to a fake while the
// relay reads it, so the parts always agree.
type screenParts interface {
	Info() Info
	ScreenTop() int64
	ScreenText() []string
	TextFrom(n int64) []Line
}

// readParts is Screen.Read of a fake screen made of parts.
func readParts(s screenParts, from int64) Reading {
	rd := Reading{Info: s.Info(), Top: s.ScreenTop(), Rows: s.ScreenText()}
	if from == FromTop {
		from = rd.Top
	}
	if from != NoLines {
		rd.Lines = s.TextFrom(from)
	}
	return rd
}

// fakeScreen implements Screen over an agent's transcript.
type fakeScreen struct {
	a *fakeAgent
}

func (s fakeScreen) Read(from int64) Reading { return readParts(s, from) }

func (s fakeScreen) Info() Info {
	info := Info{Title: s.a.title(), AltScreen: s.a.alt, BracketedPaste: s.a.bracketed, MidFrame: s.a.midFrame}
	if s.a.prompt != "" {
		info.HasCursor, info.CursorRow = true, len(s.ScreenText())-1
	}
	return info
}

// all returns every main-screen row: transcript, then the input row.
func (s fakeScreen) all() []string {
	if s.a.alt {
		return nil
	}
	return append(append([]string(nil), s.a.lines...), s.a.inputRow()...)
}

func (s fakeScreen) ScreenTop() int64 {
	return int64(max(0, len(s.all())-s.a.rows))
}

func (s fakeScreen) ScreenText() []string {
	if s.a.alt && s.a.blank {
		return make([]string, s.a.rows)
	}
	if s.a.alt {
		// The transcript's last rows, blank padding, the input row at the bottom.
		room := s.a.rows - len(s.a.inputRow())
		body := s.a.lines[max(0, len(s.a.lines)-room):]
		out := append([]string(nil), body...)
		for len(out) < room {
			out = append(out, "")
		}
		return append(out, s.a.inputRow()...)
	}
	all := s.all()
	return all[s.ScreenTop():]
}

func (s fakeScreen) TextFrom(n int64) []Line {
	all := s.all()
	var out []Line
	for i := max(n, 0); i < int64(len(all)); i++ {
		out = append(out, Line{N: i, Text: all[i]})
	}
	return out
}

// fakeAgent is a simulated agent program.
type fakeAgent struct {
	h         *harness
	id        int
	rows      int
	alt       bool // draws on the alternate screen
	titled    bool // sets "idle"/"busy" titles (the test profile reads them)
	bracketed bool
	midFrame  bool
	think     time.Duration          // time from submit to answer
	reply     func(in string) string // the answer to an input; nil: never answers
	deaf      bool                   // ignores carriage returns
	approval  bool                   // shows a permission prompt
	echoBare  bool                   // echoes input without the "> " prefix
	shell     bool                   // the host says it runs a shell (Open.Shell)
	lines     []string               // transcript
	draft     string                 // text in the input row
	busy      bool                   // working on a turn
	inputs    []string               // everything submitted to it
	pending   []simEvent             // scheduled output
	onSubmit  func(a *fakeAgent, in string)
	// Keys: an interrupt stops a busy turn unless noInterrupt; the clear keys empty the
	// input row clearLag later, or never with noClear (a row already empty prints
	// nothing).
	noInterrupt, noClear bool
	clearLag             time.Duration
	hooks                bool   // opened with Hooks: TurnEnd events say when its turns end
	clearKeep            int    // the clear keys leave the draft's last clearKeep bytes (a cursor inside it)
	after                int    // the draft's bytes after the cursor: readline's Ctrl+U leaves them, the end key moves past them
	placeholder          string // what the input row shows when it is empty
	// prompt: a program no profile knows (a shell's read loop, a REPL): its input row is
	// prompt then the draft, echoed so when submitted, and the screen tells the cursor,
	// on that row.
	prompt string
	// noEcho: the prompt's row shows the prompt alone, whatever is typed (a password
	// read: nothing echoed).
	noEcho bool
	// blank: a full-screen program that cleared its screen and has drawn nothing yet.
	blank bool
	// queued: what is submitted is shown as queued ("Queued: …"), the agent idle, for
	// this long before it takes it up (Gemini CLI while its tools still start).
	queued time.Duration
	// newlines: this many carriage returns are taken as a new line in the draft, not a
	// submit (Gemini CLI under load, the Enter after a paste); redraw is a row it then
	// prints a second later (Gemini CLI draws its banner again); busyTail: it shows busy
	// for that second (Gemini CLI still running its hook after the turn it reported).
	newlines int
	redraw   string
	busyTail bool
}

// keys is what the agent does with Keys written to it.
func (a *fakeAgent) keys(k Keys) {
	switch k.Purpose {
	case Interrupt:
		if a.busy && !a.noInterrupt {
			a.busy, a.pending = false, nil
			a.h.output(a.id)
		}
	case ClearLine:
		if strings.HasPrefix(k.Seq, parser.EndKey) {
			a.after = 0
		}
		clear := func() {
			if kept := a.draft[len(a.draft)-min(max(a.clearKeep, a.after), len(a.draft)):]; kept != a.draft {
				a.draft = kept
				a.h.output(a.id) // an input row already empty is not drawn again
			}
		}
		switch {
		case a.noClear:
		case a.clearLag > 0:
			a.pending = append(a.pending, simEvent{at: a.h.now.Add(a.clearLag), fn: clear})
		default:
			clear()
		}
	case PutBack:
		a.typeText(k.Seq)
	}
}

type simEvent struct {
	at time.Time
	fn func()
}

func (a *fakeAgent) title() string {
	if !a.titled {
		return ""
	}
	if a.busy {
		return "busy"
	}
	return "idle"
}

func (a *fakeAgent) inputRow() []string {
	if a.approval {
		return []string{"Do you want to proceed?", "> 1. Yes"}
	}
	if a.prompt != "" && a.noEcho {
		return []string{a.prompt}
	}
	if a.prompt != "" {
		return []string{a.prompt + strings.ReplaceAll(a.draft, "\n", " ")}
	}
	if a.draft == "" && a.placeholder != "" {
		return []string{"> " + a.placeholder}
	}
	return []string{"> " + strings.ReplaceAll(a.draft, "\n", " ")}
}

// print appends rows to the transcript and reports output.
func (a *fakeAgent) print(rows ...string) {
	a.lines = append(a.lines, rows...)
	a.h.output(a.id)
}

// answer prints an answer: "● " before the first row, two spaces before the others.
func (a *fakeAgent) answer(text string) {
	var rows []string
	for i, l := range strings.Split(text, "\n") {
		if i == 0 {
			rows = append(rows, "● "+l)
		} else {
			rows = append(rows, "  "+l)
		}
	}
	a.busy = false
	a.print(append(rows, "")...)
}

// typeText is what the PTY does with typed bytes: they land in the input row.
func (a *fakeAgent) typeText(text string) {
	a.draft += text
	a.h.output(a.id)
}

// enter is a carriage return: the draft is submitted and echoed, the agent gets busy and
// answers after its think time.
func (a *fakeAgent) enter() {
	if a.deaf || a.draft == "" {
		return
	}
	if a.newlines > 0 {
		a.newlines--
		a.typeText("\n")
		if a.redraw != "" {
			a.pending = append(a.pending, simEvent{at: a.h.now.Add(time.Second), fn: func() { a.print(a.redraw) }})
		}
		if a.busyTail {
			a.busy = true
			a.h.output(a.id)
			a.pending = append(a.pending, simEvent{at: a.h.now.Add(time.Second), fn: func() { a.busy = false; a.h.output(a.id) }})
		}
		return
	}
	in := a.draft
	a.draft = ""
	if a.queued > 0 {
		a.print("Queued (press ↑ to edit):", "    "+shorten(strings.ReplaceAll(in, "\n", " "), 20))
		wait := a.queued
		a.queued = 0 // the next input is taken at once
		a.pending = append(a.pending, simEvent{at: a.h.now.Add(wait), fn: func() { a.draft = in; a.enter() }})
		return
	}
	a.inputs = append(a.inputs, in)
	echo := strings.Split(in, "\n")
	for i := range echo {
		if i == 0 && a.prompt != "" {
			echo[i] = a.prompt + echo[i]
		} else if i == 0 && !a.echoBare {
			echo[i] = "> " + echo[i]
		} else if i > 0 {
			echo[i] = "  " + echo[i]
		}
	}
	a.busy = true
	a.print(echo...)
	if a.onSubmit != nil {
		a.onSubmit(a, in)
	}
	if a.reply == nil {
		return
	}
	out := a.reply(in)
	a.pending = append(a.pending, simEvent{at: a.h.now.Add(a.think), fn: func() { a.answer(out) }})
}

// shorten cuts s to n runes, with an ellipsis when it was longer.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// testProfile reads the fake agents: titles "busy"/"idle", "> " prompts and echoes,
// "● " answers, a permission prompt.
func testProfile() parser.Profile {
	return parser.Profile{
		Name:            "fake",
		IdleTitle:       []parser.Pattern{parser.MustCompile(`^idle$`)},
		BusyTitle:       []parser.Pattern{parser.MustCompile(`^busy$`)},
		ApprovalMarkers: []parser.Pattern{parser.MustCompile(`^Do you want to proceed\?`)},
		Chrome: []parser.Pattern{parser.MustCompile(`^>\s*$`), parser.MustCompile(`^> 1\. Yes`),
			// The queue (queued): its heading and its rows, as Gemini CLI's.
			parser.MustCompile(`^Queued \(press ↑ to edit\):$`), parser.MustCompile(`^ {4}\S.*…$`)},
		AnswerPrefixes: []string{"● "},
		EchoPrefixes:   []string{"> "},
	}
}

// typedRec is one Type action as the harness saw it.
type typedRec struct {
	at        time.Time
	to        int
	text      string
	bracketed bool
	parts     []int
}

// harness runs a relay and fake agents on a fake clock.
type harness struct {
	t       *testing.T
	r       *Relay
	now     time.Time
	agents  map[int]*fakeAgent
	typed   []typedRec
	submits []typedRec
	writes  map[int][]string // raw writes per pane, in order
	// keys are the control keys last written into each pane, until it printed (see
	// apply).
	keys map[int]written
}

func newHarness(t *testing.T, cfg Config) *harness {
	return &harness{t: t, r: New(cfg), now: t0, agents: map[int]*fakeAgent{}, writes: map[int][]string{}, keys: map[int]written{}}
}

// agent opens pane id with a fake agent; the agent is idle from the start.
func (h *harness) agent(id int, name string, a *fakeAgent) *fakeAgent {
	a.h, a.id = h, id
	if a.rows == 0 {
		a.rows = 12
	}
	if a.think == 0 {
		a.think = 2 * time.Second
	}
	h.agents[id] = a
	h.handle(Open{Pane: id, Name: name, Profile: testProfile(), Screen: fakeScreen{a}, Hooks: a.hooks, Shell: a.shell})
	h.output(id) // the program draws its prompt
	return a
}

// handle gives the relay an event now and carries out its actions.
func (h *harness) handle(ev Event) {
	h.apply(h.r.Handle(ev, h.now))
}

func (h *harness) output(id int) {
	delete(h.keys, id) // it printed: it read what was written before
	h.handle(Output{Pane: id})
}

// apply carries out the relay's actions, and fails the test when one runs into control
// keys written just before (runsInto).
func (h *harness) apply(acts []Action) {
	for _, act := range acts {
		a := h.agents[act.Target()]
		if err := runsInto(h.keys, act, h.now, h.r.Config().SubmitDelay); err != "" {
			h.t.Errorf("at %v: %s", h.now.Sub(t0), err)
		}
		h.writes[act.Target()] = append(h.writes[act.Target()], string(act.Bytes()))
		switch act := act.(type) {
		case Type:
			h.typed = append(h.typed, typedRec{at: h.now, to: act.Pane, text: act.Text, bracketed: act.Bracketed, parts: act.Parts})
			if a != nil {
				a.typeText(act.Text)
			}
		case Submit:
			h.submits = append(h.submits, typedRec{at: h.now, to: act.Pane})
			if a != nil {
				a.enter()
			}
		case Keys:
			if a != nil {
				a.keys(act)
			}
		}
	}
}

// written is control keys written into a pane: when, and which.
type written struct {
	at      time.Time
	purpose Purpose
}

// runsInto says what is wrong when act follows control keys into its pane closer than
// gap with no output from the pane between ("" when nothing is): anything after clear
// keys, clear keys after interrupt keys. A program that reads them at once may take
// them as one paste and type the keys as text (Claude Code, 64 bytes or more) or as one
// other key. last holds the control keys last written into each pane, until the pane
// printed (the caller forgets them then); runsInto records act there.
func runsInto(last map[int]written, act Action, now time.Time, gap time.Duration) string {
	id := act.Target()
	prev, ok := last[id]
	delete(last, id)
	k, isKeys := act.(Keys)
	if isKeys && k.Purpose != PutBack {
		last[id] = written{now, k.Purpose}
	}
	if !ok || !now.Before(prev.at.Add(gap)) || prev.purpose == Interrupt && (!isKeys || k.Purpose != ClearLine) {
		return ""
	}
	what := fmt.Sprintf("%T", act)
	if isKeys {
		what = k.Purpose.String() + " keys"
	}
	return fmt.Sprintf("%s written into %d %v after its %s keys, with no output from it between", what, id, now.Sub(prev.at), prev.purpose)
}

// person types text into pane id and submits it, as a person at the keyboard does.
func (h *harness) person(id int, text string) {
	a := h.agents[id]
	for _, r := range text {
		a.draft += string(r)
		h.handle(Keystroke{Pane: id, Draft: true})
		a.h.output(id)
	}
	h.handle(Sent{Pane: id, Text: text})
	a.enter()
}

// draft types text into pane id's input row as a person does, not sending it; the host
// reports the draft it tracks with each key.
func (h *harness) draft(id int, text string) {
	a := h.agents[id]
	for _, r := range text {
		a.draft += string(r)
		h.handle(Keystroke{Pane: id, Draft: true, Text: a.draft})
		h.output(id)
	}
}

// left moves the cursor in pane id's draft n bytes to the left, as a person's Left keys.
func (h *harness) left(id, n int) {
	a := h.agents[id]
	a.after = min(a.after+n, len(a.draft))
	h.handle(Keystroke{Pane: id, Draft: true, Text: a.draft, After: a.after})
}

// run advances the clock through relay wake-ups and agent events up to d after t0.
func (h *harness) run(d time.Duration) {
	end := t0.Add(d)
	for i := 0; ; i++ {
		if i > 100000 {
			h.t.Fatal("simulation does not settle")
		}
		at, ok := h.r.NextWake()
		var ev *simEvent
		var owner *fakeAgent
		for _, a := range h.agents {
			for j := range a.pending {
				if ev == nil || a.pending[j].at.Before(ev.at) {
					ev, owner = &a.pending[j], a
				}
			}
		}
		if ev != nil && (!ok || !at.Before(ev.at)) {
			if ev.at.After(end) {
				break
			}
			h.now = maxTime(h.now, ev.at)
			fn := ev.fn
			for j := range owner.pending {
				if &owner.pending[j] == ev {
					owner.pending = append(owner.pending[:j], owner.pending[j+1:]...)
					break
				}
			}
			fn()
			continue
		}
		if !ok || at.After(end) {
			break
		}
		h.now = maxTime(h.now, at)
		h.apply(h.r.Tick(h.now))
	}
	h.now = maxTime(h.now, end)
	h.apply(h.r.Tick(h.now))
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// phases returns the log's deliveries as "from→to phase" strings.
func (h *harness) phases() []string {
	var out []string
	for _, e := range h.r.Log() {
		if e.Delivery > 0 {
			out = append(out, fmt.Sprintf("%d→%d %s", e.From, e.To, e.Phase))
		}
	}
	return out
}

// notes returns the log's notices.
func (h *harness) notes() []string {
	var out []string
	for _, e := range h.r.Log() {
		if e.Delivery == 0 {
			out = append(out, e.Note)
		}
	}
	return out
}

// counter returns a reply function that answers "NAME reply K" (K counting from 1).
func counter(name string) func(string) string {
	k := 0
	return func(string) string {
		k++
		return fmt.Sprintf("%s reply %d", name, k)
	}
}
