package relay

import (
	"sort"
	"strings"
	"time"

	"github.com/agentmux/agentmux/parser"
)

// maxTyped is how many typed texts a pane remembers for echo removal.
const maxTyped = 4

// pane is the relay's state for one pane: who it is and what it runs, with its state
// split by concern into the embedded structs below (their fields and methods are the
// pane's own through embedding).
type pane struct {
	id      int
	name    string
	prof    parser.Profile
	scr     Screen
	group   *group
	program string         // its program, for the brief
	shell   bool           // it runs an interactive shell (Open.Shell)
	cmds    *parser.Parser // relay commands in its turns (a fence lasts across turns)
	address bool           // the person let its output address panes not linked with it
	brief   *delivery      // the brief typed into it, until the turn answering it ends

	paneLife
	paneBaseline
	altFrames
	personInput
	draftRules
	deliveryQueue
	hookReport
	turnSpend
}

// paneLife is the pane's program as the relay last saw it: running or gone, what its
// screen said, when it printed, whether it finished starting.
type paneLife struct {
	exited  bool
	gone    string       // how it went, once exited: "exited (1)", "killed (SIGSEGV)", "closed"
	state   parser.State // what Classify said at the last output
	lastOut time.Time    // last output, or when the pane was opened
	outSeen bool         // any output at all
	started bool         // finished starting: idle and quiet for --idle at least once
	// blankStart: it counted as started on a blank screen (a full-screen program that
	// cleared it and draws its UI seconds later): until a turn starts, what it draws is
	// the rest of its starting, not a turn.
	blankStart bool
}

// paneBaseline is the turn under way and the baseline it is read against: everything
// the pane showed when the baseline was taken is old. base is the main screen's text
// from its top row (baseTop) then, with the cursor; tr gathers the alternate screen's
// frames since (seeded with the frame then, if it was active), so an answer longer than
// the screen stays whole.
type paneBaseline struct {
	// bootTurn is set when the program went busy while starting (a turn of its own, such
	// as an opening line): the baseline was taken then, and that turn is relayed.
	bootTurn bool
	// ended is set once a turn of its ended (endTurn), read from the screen or told by
	// its hook.
	ended   bool
	baseTop int64
	base    parser.View
	tr      *parser.Transcript
	printed bool // output arrived since the baseline
	// turn is set when a turn is under way since the baseline: text was submitted into
	// the pane, or its program said it was busy. A turn that yields no words is noted.
	turn bool
	// worked is set once the program was read busy (or asking the person) since the
	// baseline: it took up the turn. A program with hooks that was not (Gemini CLI
	// shows a message typed while its tools still start as queued, idle, for seconds)
	// has not begun the turn its hook will end (hookWait).
	worked bool
	typed  []string
	// prompt is the program's prompt as its input row showed it, the cursor on it
	// under everything, nothing typed, for Settle with no output (notePrompt);
	// promptCand is such a row at the last output, until it stood that long.
	prompt, promptCand string
}

// altFrames is the alternate screen's frames as read. frame is the last whole frame
// read, with its cursor row: a baseline taken while a frame is half drawn starts from
// it. cand is the last frame read of a program that does not mark its frames (synced
// false), until it counts as whole (settle).
type altFrames struct {
	frame    []string
	frameCur int
	cand     []string
	candCur  int
	synced   bool
}

// personInput is the person at the keyboard.
type personInput struct {
	draft bool
	// echo is set when a person's draft began (or one set aside was typed back) while
	// the pane had printed nothing since its baseline and no turn was under way: what it
	// prints until the Enter is the draft's echo, and the baseline from before the draft
	// stays the turn's. (A baseline read at the Enter may catch the program redrawing
	// its input box, half drawn.)
	echo    bool
	lastKey time.Time
	held    bool
}

// draftRules is the state of the delivery rules (aside.go, batch.go): the draft as the
// host tracks it, a draft set aside and when one was put back, a draft the screen would
// not clear, clear keys waiting for the screen, when an urgent message interrupted the
// pane.
type draftRules struct {
	draftText  string
	draftAfter int // how many characters of draftText follow the person's cursor
	aside      *aside
	restoredAt time.Time
	noAside    string // a draft whose clear the screen did not confirm: never set aside again
	blind      string // a draft cleared blind once: never again
	said       bool   // the draft was said to be not on its screen (drafts.go)
	// draftPrompt is what the cursor's row showed (squashed) when the draft began, nil
	// when the host does not tell the cursor; draftEchoed: that row showed more since.
	draftPrompt  *string
	draftEchoed  bool
	clearing     *clearing
	interrupted  time.Time
	interruptFor *delivery
}

// deliveryQueue is the messages waiting for the pane and the one being typed into it.
type deliveryQueue struct {
	queue    []*delivery
	inflight *delivery
	parts    []*delivery // the rest of inflight's batch
}

// hookReport is set when the program reports its turn ends itself (hooks.go). hookIdle:
// it said its turn ended and nothing was typed into it since; hookText and hookSource:
// the answer it reported, while that TurnEnd is handled.
type hookReport struct {
	hooks      bool
	hookIdle   bool
	hookText   string
	hookSource string
	tail       bool // it printed since its baseline while hookIdle
}

// quiet returns how long the pane must stay quiet to count as idle given what its
// profile says, and false when it cannot be idle at all now (busy, needs approval).
func (p *pane) quiet(cfg Config) (time.Duration, bool) {
	if p.hookIdle {
		if p.state == parser.Busy {
			// Its hook said the turn ended while its screen still says it works
			// (Gemini CLI draws "Executing Hook" while its AfterAgent hook runs): what
			// is typed into it then may be lost. It is idle once its screen says so,
			// or after --idle with nothing drawn.
			return cfg.Idle, true
		}
		return 0, true
	}
	switch p.state {
	case parser.Idle:
		if p.hooks && p.printed {
			return max(cfg.Settle, p.hookWait(cfg)), true // its hook may yet say more
		}
		return cfg.Settle, true
	case parser.Unknown:
		if p.hooks && p.printed {
			return max(cfg.Idle, p.hookWait(cfg)), true
		}
		return cfg.Idle, true
	}
	return 0, false
}

// unworkedHookWait is how long a turn of a pane with hooks waits for its hook when its
// program, which can say it is busy, was never read so since the turn began: what it
// printed (its echo, the message shown as queued, a redraw) is no answer yet.
const unworkedHookWait = 30 * time.Second

// hookWait is how long, past its screen's idle, a turn of a pane with hooks waits for
// the hook's turn end before it ends on the screen's delta: HookWait once the program
// took the turn up (read busy), longer for a turn under way it never showed busy in.
func (p *pane) hookWait(cfg Config) time.Duration {
	if p.turn && !p.worked && (len(p.prof.BusyTitle) > 0 || len(p.prof.BusyMarkers) > 0) {
		return max(cfg.HookWait, unworkedHookWait)
	}
	return cfg.HookWait
}

// quietFor reports whether the pane is idle at now: its title or screen says idle (or
// nothing says) and it has been quiet long enough.
func (p *pane) quietFor(now time.Time, cfg Config) bool {
	d, ok := p.quiet(cfg)
	return ok && !now.Before(p.lastOut.Add(d))
}

// turnQuietAt returns when the pane's turn may end if nothing else arrives: once it
// was quiet long enough since its last output and since the person's last key in it.
// A program handed an Enter prints nothing until it reads it: the quiet before the
// Enter (a draft left minutes in its input) is no end of the turn the Enter starts,
// and the screen then still shows the draft in its input. False when that depends on
// more output.
func (p *pane) turnQuietAt(cfg Config) (time.Time, bool) {
	d, ok := p.quiet(cfg)
	return later(p.lastOut, p.lastKey).Add(d), ok
}

// idleAt returns when the pane will count as idle if nothing else arrives, and false
// when that depends on more output.
func (p *pane) idleAt(cfg Config) (time.Time, bool) {
	d, ok := p.quiet(cfg)
	return p.lastOut.Add(d), ok
}

// startedBy reports whether the pane has finished starting at now: it printed, it can
// be idle, and it has been quiet for the full --idle time whatever its title says (Ink
// programs set an idle title before they finish painting their banner). A program whose
// profile reads idle titles must also show one; if it never does, four times --idle of
// quiet will do, so a changed title format never leaves a pane unusable. A program no
// profile knows that printed nothing at all (a read loop with no prompt) waits for
// input once it has been quiet that long since it started (silentStart).
func (p *pane) startedBy(now time.Time, cfg Config) bool {
	if !p.outSeen {
		at, ok := p.silentStart(cfg)
		return ok && !now.Before(at)
	}
	switch {
	case p.state == parser.Idle:
		return !now.Before(p.lastOut.Add(cfg.Idle))
	case p.state == parser.Unknown && len(p.prof.IdleTitle) == 0:
		return !now.Before(p.lastOut.Add(cfg.Idle))
	case p.state == parser.Unknown:
		return !now.Before(p.lastOut.Add(4 * cfg.Idle))
	}
	return false
}

// blank reports whether a screen's rows hold nothing but white space.
func blank(rows []string) bool {
	for _, r := range rows {
		if strings.TrimSpace(r) != "" {
			return false
		}
	}
	return true
}

// personTurn reports whether the pane, not started yet, took a turn a person started: a
// person submitted text into it (before a pane started nothing else is typed into it)
// and it printed. Its screen was not quiet for --idle before the person's Enter, yet it
// runs and takes input.
func (p *pane) personTurn() bool { return !p.started && p.outSeen && len(p.typed) > 0 }

// silentStart returns when a pane that printed nothing since it started has started:
// four times --idle after, for a program no profile knows; false for one its profile
// knows (an agent CLI draws its input first: typed into before, it drops keys).
func (p *pane) silentStart(cfg Config) (time.Time, bool) {
	if p.prof.Name != parser.Generic().Name {
		return time.Time{}, false
	}
	return p.lastOut.Add(4 * cfg.Idle), true // lastOut: when it started, as it printed nothing
}

// startAt returns when the pane will have started if nothing else arrives, and false
// when that needs more output first.
func (p *pane) startAt(cfg Config) (time.Time, bool) {
	switch {
	case !p.outSeen:
		return p.silentStart(cfg)
	case p.state == parser.Idle, p.state == parser.Unknown && len(p.prof.IdleTitle) == 0:
		return p.lastOut.Add(cfg.Idle), true
	case p.state == parser.Unknown:
		return p.lastOut.Add(4 * cfg.Idle), true
	}
	return time.Time{}, false
}

// typing reports whether a person's draft or recent keystrokes hold deliveries.
func (p *personInput) typing(now time.Time, cfg Config) bool {
	return p.draft || (!p.lastKey.IsZero() && now.Before(p.lastKey.Add(cfg.TypingHold)))
}

// remember adds text to what was typed into the pane.
func (p *paneBaseline) remember(text string) {
	p.typed = append(p.typed, text)
	if len(p.typed) > maxTyped {
		p.typed = append(p.typed[:0], p.typed[len(p.typed)-maxTyped:]...)
	}
}

// observe reads the pane's terminal after output: its state, and for a member on the
// alternate screen the frame, merged into the turn's transcript. One reading gives the
// title and the rows it judges (and the baseline, when it takes one).
func (p *pane) observe() {
	if fs, ok := p.scr.(FrameScreen); ok {
		kept, rd := fs.ReadFrames()
		for _, k := range kept {
			p.observeReading(k, true)
		}
		p.observeReading(rd, false)
		return
	}
	p.observeReading(p.scr.Read(FromTop), false)
}

// observeReading is observe of one reading of the pane's terminal: the last, or one its
// FrameScreen kept since the reading before (kept). A kept reading feeds the state and
// the transcript; the baseline of a turn the program takes by itself waits for the last
// reading, which has the main screen's lines a baseline needs.
func (p *pane) observeReading(rd Reading, kept bool) {
	p.promptOf(rd)
	if rd.AltScreen {
		p.keepFrame(rd)
	}
	if rd.MidFrame {
		// Half a frame: the screen is not worth reading until the output that ends it
		// comes, but the title is set whole, and Codex sets it between frames that
		// follow each other closely: what it says counts now (unless the screen asked
		// for the person, which only a whole frame can take back).
		if st := parser.Classify(p.prof, rd.Title, nil); st != parser.Unknown && p.state != parser.NeedsApproval {
			p.state = st
		}
		return
	}
	p.state = parser.Classify(p.prof, rd.Title, rd.Rows)
	if p.state == parser.Busy || p.state == parser.NeedsApproval {
		p.worked = true
	}
	if !kept && !p.started && !p.bootTurn && !p.turn && p.state == parser.Busy && p.group != nil && p.outSeen {
		// Busy before it ever was idle, and not with text typed into it: what it shows now
		// is its banner, what follows a turn it takes by itself (an agent started with a
		// task or an opening line).
		p.bootTurn = true
		p.baseline(rd)
		p.printed, p.turn, p.worked = true, true, true
		return
	}
	if p.state == parser.Busy && p.started {
		p.turn = true
	}
	if rd.AltScreen && !p.drawing(rd) {
		if p.tr == nil {
			p.tr = parser.NewTranscript(p.prof, nil, -1)
		}
		p.tr.Add(p.prof, rd.Rows, -1)
	}
}

// drawing reports whether rd, a reading of the alternate screen of a program that does
// not mark its frames, shows a frame being drawn: the cursor is away from the row where
// it stood in the last frame that stood whole. Such a program moves the cursor to each
// row it rewrites and back to its input when the frame is done; rows read half way are
// some of the new frame's over the old one's, which line up with nothing.
func (p *pane) drawing(rd Reading) bool {
	return !p.synced && p.frame != nil && p.frameCur >= 0 && altCursor(rd.Info) != p.frameCur
}

// keepFrame notes the alternate screen's frame of rd. A program that marks its frames
// (synchronized output) shows a whole one whenever it is not mid-frame; one that does
// not (it clears its screen and draws it again from the top) may be read half way
// through a frame, so its frame counts as whole only once nothing followed it for
// frameGap (settle).
func (p *altFrames) keepFrame(rd Reading) {
	if rd.MidFrame {
		p.synced, p.cand = true, nil
		return
	}
	if p.synced || p.frame == nil {
		p.frame, p.frameCur = rd.Rows, altCursor(rd.Info)
	}
	if !p.synced {
		p.cand, p.candCur = rd.Rows, altCursor(rd.Info)
	}
}

// settle takes the last frame read as whole when nothing followed it for frameGap.
func (p *pane) settle(now time.Time) {
	if p.cand != nil && !now.Before(p.lastOut.Add(frameGap)) {
		p.frame, p.frameCur, p.cand = p.cand, p.candCur, nil
	}
}

// frameGap is how long a frame of a program that does not mark its frames must stand
// before it counts as whole: the pieces of one frame come closer together.
const frameGap = 40 * time.Millisecond

// view returns the main screen of a reading: its lines, and the cursor when the host
// tells it and the main screen is active.
func view(rd Reading) parser.View {
	v := parser.View{Lines: rd.Lines, Cursor: -1}
	if rd.HasCursor && !rd.AltScreen && rd.CursorRow >= 0 && rd.CursorRow < len(rd.Rows) {
		v.Cursor, v.Input = rd.Top+int64(rd.CursorRow), rd.Rows[rd.CursorRow]
	}
	return v
}

// altCursor returns the cursor's row on the alternate screen, -1 when not known.
func altCursor(info Info) int {
	if info.HasCursor && info.AltScreen {
		return info.CursorRow
	}
	return -1
}

// unread returns how many bytes typed into p its program has not read, 0 when its
// screen cannot tell (InputQueue).
func (p *pane) unread() int {
	if q, ok := p.scr.(InputQueue); ok {
		if n, ok := q.Unread(); ok {
			return n
		}
	}
	return 0
}

// rebase makes everything the pane shows now old, as a turn's end does: the frame on
// the alternate screen now is the baseline's (unless it is being drawn), not the last
// one that stood for frameGap.
func (p *pane) rebase() {
	rd := p.scr.Read(FromTop)
	if rd.AltScreen && !rd.MidFrame {
		p.frame, p.frameCur, p.cand = rd.Rows, altCursor(rd.Info), nil
	}
	p.baseline(rd)
}

// setBaseline makes everything the pane shows now old.
func (p *pane) setBaseline() { p.baseline(p.scr.Read(FromTop)) }

// baseline makes everything a reading shows old: its lines from its main screen's first
// row on (rd's lines may start higher), its cursor, its frame.
func (p *pane) baseline(rd Reading) {
	p.printed, p.turn, p.worked, p.echo, p.tail = false, false, false, false, false
	p.baseTop = rd.Top
	i := sort.Search(len(rd.Lines), func(i int) bool { return rd.Lines[i].N >= rd.Top })
	rd.Lines = rd.Lines[i:]
	p.base = view(rd)
	p.tr = nil
	if rd.AltScreen {
		if p.frame == nil || !rd.MidFrame && (p.synced || p.cand == nil) {
			p.frame, p.frameCur = rd.Rows, altCursor(rd.Info)
		}
		// Half a frame is no baseline: what the program is drawing would seem new, the
		// rows it erased to draw it old. The last whole frame is.
		p.tr = parser.NewTranscript(p.prof, p.frame, p.frameCur)
	}
}

// read reads the pane's terminal with its main screen's lines since the baseline's
// screen top, what delta and words need.
func (p *pane) read() Reading { return p.scr.Read(p.baseTop) }

// delta returns the words the pane wrote since its baseline, as the terminal is now.
func (p *pane) delta() parser.Words { return p.words(p.read()) }

// words returns the words the pane wrote since its baseline, as rd (from read) shows
// them. A turn spent on the alternate screen is read from the frames gathered during it
// (the last one, drawn at its prompt, included), any other from the main screen's text
// since the baseline's screen top.
func (p *pane) words(rd Reading) parser.Words {
	if rd.AltScreen && !rd.MidFrame {
		p.frame, p.frameCur, p.cand = rd.Rows, altCursor(rd.Info), nil // the turn's end: quiet
		if p.tr == nil {
			p.tr = parser.NewTranscript(p.prof, nil, -1)
		}
		p.tr.Add(p.prof, rd.Rows, altCursor(rd.Info))
	}
	if p.tr != nil {
		return p.tr.Words(p.prof, p.typed)
	}
	base := p.base
	base.Prompt = p.prompt
	return parser.MainTurn(p.prof, base, view(rd), p.typed)
}

// notePrompt takes the input row read at the last output for the program's prompt
// once it stood quiet for settle (a row half drawn is soon drawn on).
func (p *pane) notePrompt(now time.Time, settle time.Duration) {
	if p.promptCand != "" && !now.Before(p.lastOut.Add(settle)) {
		p.prompt = p.promptCand
	}
}

// promptOf notes the candidate for the program's prompt in rd, the screen after an
// output: the cursor's row, under every other, while nothing the person or the relay
// typed is on it.
func (p *pane) promptOf(rd Reading) {
	p.promptCand = ""
	if rd.AltScreen || !rd.HasCursor || rd.CursorRow < 0 || rd.CursorRow >= len(rd.Rows) || p.draft || p.inflight != nil || !blank(rd.Rows[rd.CursorRow+1:]) {
		return
	}
	p.promptCand = strings.TrimSpace(rd.Rows[rd.CursorRow])
}
