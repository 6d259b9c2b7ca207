package relay

import "time"

// Turn ends from the programs' own hooks: Claude Code's Stop hook, Codex's
// notify and Gemini CLI's AfterAgent hook run `agentmux hook`, which reports to the
// session, which hands the relay a TurnEnd. For a pane opened with Hooks:
//
//   - the turn ends the moment the TurnEnd comes: the pane counts as idle at once (no
//     settle wait) unless its screen still says busy (then once it says idle, or after
//     --idle with nothing drawn), until something is typed into it or a person sends
//     there; what it prints meanwhile is that turn's tail, never a turn read from the
//     screen;
//   - its Text, the answer exactly as the model wrote it (markdown included, whole even
//     when longer than the screen), is what the turn delivers, instead of the screen's
//     delta;
//   - when the screen says idle first, the turn waits HookWait more for the hook; past
//     that it ends on the screen's delta, as for a program without hooks.
//
// The relay log says which source each relayed turn used (Entry.Source).

// TurnEnd reports that the program in Pane ended its turn, as its hook said. Text is
// its answer as the model wrote it ("" when the hook did not carry it: the screen's
// delta is used). Source names the hook for the log ("claude Stop hook").
type TurnEnd struct {
	Pane   int
	Text   string
	Source string
}

func (TurnEnd) isEvent() {}

// The sources of a relayed turn's words (Entry.Source).
const (
	SourceScreen = "screen"
	SourceHook   = "hook"
)

// hookEnded handles a TurnEnd: the pane is idle now and, when its turn's output is
// there to end, the turn ends with the hook's text.
func (r *Relay) hookEnded(e TurnEnd, now time.Time) {
	p := r.live(e.Pane)
	if p == nil {
		return
	}
	switch {
	case p.personTurn():
		// It answered what a person typed before it counted as started (its screen
		// had not been quiet for --idle yet): the hook says it runs and is idle.
		r.start(p, now)
	case !p.ended && len(p.typed) == 0 && e.Text != "":
		// Nothing was ever typed into it and no turn of its ended, yet it says one
		// did: the turn it took by itself while starting (an opening line, a task on
		// its command line). Its screen may never have been read busy (a short turn
		// whose output was read in one piece, while this process was busy starting
		// the other panes) and so taken for its banner; the hook's text is the turn.
		p.bootTurn, p.printed, p.turn = true, true, true
		if !p.started {
			r.start(p, now)
		}
	}
	if d := p.inflight; d != nil && d.phase == Submitted && p.started && e.Text != "" {
		// Its hook ended a turn while the relay had not yet seen it take what it
		// submitted (a quick answer drawn while that was still unread): that turn is
		// the delivery's, and over. Read later from the screen, it would carry the
		// message's echo and rows from before it.
		r.flight(p, Confirmed, now, "its hook ended the turn")
		p.turn, p.printed = true, true
	}
	p.hookIdle = true
	p.hookText, p.hookSource = e.Text, e.Source
	if p.started && (p.printed || p.tail && e.Text != "") && p.inflight == nil && !p.draft && p.clearing == nil {
		r.turnEnded(p, now) // a turn it took by itself after its last: its output was taken as a tail
	}
	p.hookText, p.hookSource = "", "" // only for this turn: a late hook is not the next turn's
}
