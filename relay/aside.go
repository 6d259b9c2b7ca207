package relay

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/parser"
)

// A person's draft holds deliveries into its pane, but not forever. Once it has not
// changed for InputStale, and the pane is otherwise ready, the relay sets it aside: it
// clears the input line with the profile's clear keys, waits for the screen to show the
// input row empty (or a placeholder: none of the draft) and the keys read (clearRead:
// nothing is written right behind them), types what waits, and once the agent's answer
// is complete types the draft back as it was, without Enter, and says so ("your draft
// in 2 bob was kept aside for 2 messages and put back"). An urgent message does the
// same at once with a draft that is not being typed (TypingHold). A draft is never
// sent and never mixed with a delivery:
//   - only a draft the host reported whole (Keystroke.Text), on one line, that the
//     screen's input row shows as it is (for a program its profile does not know, a
//     shell or a REPL: the row the cursor is on ends with it), is set aside so; any
//     other is handled by drafts.go (cleared blind, or what waits behind it expires);
//   - the decision is the final check: a key the person types at that very moment
//     comes first (Handle), and a key typed after the clear keys stops the delivery
//     before its first byte and the draft is not typed over the person's new words (the
//     log keeps it);
//   - a clear the screen does not confirm within Confirm types nothing more: the log
//     says what the draft was when the screen no longer shows it whole.

// aside is a draft set aside while deliveries go past it. prompt: for a program whose
// input row its profile does not know (a shell, a REPL), what the cursor's row showed
// before the draft ("bot>", ">>>"), squashed: the row is empty when it shows that alone.
type aside struct {
	text   string
	at     time.Time
	n      int  // messages typed while it was aside
	typed  bool // a delivery was typed
	prompt *string
	// shown, when not zero, is how many of the bottom rows showed the draft when it was
	// set aside: a program whose input row neither its profile nor the cursor finds
	// (an input drawn in its own way) is cleared when fewer do.
	shown int
	// blind, when set, is the bottom rows (bottomKey) when a draft the screen did not
	// show was set aside: its input is cleared when they changed.
	blind *string
}

// clearing is clear keys sent, until the screen shows the input row empty. full: the
// row was not empty when they were sent; answered: the pane printed since (an Output
// event after the call that sent them). Both, and a screen that shows the row empty,
// say the program read them.
type clearing struct {
	at, deadline   time.Time
	full, answered bool
	blind          bool // a draft the screen does not show: only the pane's answer counts
}

// stale reports whether p's draft may be set aside now for the deliveries waiting
// behind it: it is stale, known, shown, and nothing else holds p.
func (r *Relay) stale(p *pane, now time.Time) bool {
	return p.draft && now.Sub(later(p.lastKey, p.restoredAt)) >= r.cfg.InputStale && r.person != p.id &&
		!p.held && p.state != parser.NeedsApproval && p.started && p.quietFor(now, r.cfg) &&
		r.draftShown(p)
}

// maskRunes are the glyphs a masked field shows for each character typed into it.
const maskRunes = "•*●∙·⁕"

// masked reports whether one of the bottom rows of rd shows draft masked: a run of one
// mask glyph exactly as long as the draft (in runes): a field that shows it so never
// contradicts it (drafts.go).
func masked(rd Reading, draft string) bool {
	if rd.MidFrame {
		return false
	}
	n := utf8.RuneCountInString(draft)
	rows := rd.Rows
	end := len(rows)
	for end > 0 && strings.TrimSpace(rows[end-1]) == "" {
		end--
	}
	for _, row := range rows[max(0, end-bottomRows):end] {
		run, last := 0, rune(0)
		for _, c := range row + " " {
			if c == last && run > 0 {
				run++
				continue
			}
			if run == n {
				return true
			}
			run, last = 0, c
			if strings.ContainsRune(maskRunes, c) {
				run = 1
			}
		}
	}
	return false
}

// setAsideBlind sets aside a draft the screen does not show (a masked field, an input
// drawn where the relay cannot find it, one that echoes nothing): the relay followed
// every key of it, so it keeps it and types it back after the answer as setAside does,
// but it cannot see the row empty.
// The clear keys count as read once the pane printed after them and its bottom rows,
// where programs draw their input, changed; if they did not by Confirm, the draft is
// taken to be still there, nothing is typed over it, and what waits behind it expires
// (drafts.go), saying so.
func (r *Relay) setAsideBlind(p *pane, now time.Time, acts []Action) []Action {
	key := bottomKey(p.scr.Read(NoLines).Rows)
	p.blind = p.draftText
	n, msgs := r.batch(p), "messages go"
	if n == 1 {
		msgs = "message goes"
	}
	r.notice(now, p.id, "your draft in %d %s, not on its screen, stayed untouched for %s: it is cleared with its keys while %d %s in; it comes back after the answer",
		p.id, p.name, 2*r.cfg.InputStale, n, msgs)
	p.aside = &aside{text: p.draftText, at: now, blind: &key}
	p.remember(p.draftText)
	p.draft = false
	r.resetInput(p, "")
	p.clearing = &clearing{at: now, deadline: now.Add(r.cfg.Confirm), full: true, blind: true}
	return append(acts, Keys{Pane: p.id, Seq: clearKeys(p), Purpose: ClearLine})
}

// clearKeys are the keys that empty p's input line: the profile's, after the end key
// when the person's cursor is inside their draft (readline's Ctrl+U kills only what is
// before the cursor, and what it killed would be lost).
func clearKeys(p *pane) string {
	if p.draftAfter > 0 {
		return parser.EndKey + p.prof.Clear()
	}
	return p.prof.Clear()
}

// bottomKey returns the bottom rows of a screen (its blank rows at the bottom aside),
// squashed and joined: what changes when a program redraws its input.
func bottomKey(rows []string) string {
	end := len(rows)
	for end > 0 && strings.TrimSpace(rows[end-1]) == "" {
		end--
	}
	var b strings.Builder
	for _, r := range rows[max(0, end-bottomRows):end] {
		b.WriteString(squash(r))
		b.WriteByte('\n')
	}
	return b.String()
}

// draftShown reports whether p's draft is known, on one line, and what the screen's
// input row shows.
func (r *Relay) draftShown(p *pane) bool {
	if p.aside != nil || p.draftText == "" || strings.ContainsAny(p.draftText, "\r\n") || p.noAside == p.draftText {
		return false
	}
	rd := p.scr.Read(NoLines)
	if text, ok := inputRow(p, rd.Rows); ok && showsDraft(text, p.draftText) {
		return true
	}
	if _, ok := cursorPrompt(rd, p.draftText); ok {
		return true
	}
	return !rd.MidFrame && draftRows(rd.Rows, p.draftText) > 0
}

// bottomRows is how many rows at the bottom of a screen are searched for a draft the
// input row of which is not found: where programs draw their input.
const bottomRows = 12

// draftRows returns how many of the bottom rows of a screen (its blank rows at the
// bottom aside) show draft (white space
// aside), a draft of at least 3 characters: the relay saw every key of it, so it finds
// it in any input a program draws.
func draftRows(rows []string, draft string) int {
	d := squash(draft)
	if utf8.RuneCountInString(d) < 3 {
		return 0
	}
	end := len(rows)
	for end > 0 && strings.TrimSpace(rows[end-1]) == "" {
		end--
	}
	n := 0
	for _, r := range rows[max(0, end-bottomRows):end] {
		if strings.Contains(squash(r), d) {
			n++
		}
	}
	return n
}

// showsDraft reports whether an input row's text (with the rows under it that may
// continue it) is the draft: the draft's text ends at the end of one of its rows, and
// rows after it, if any, are something else (a status row under the input).
func showsDraft(text, draft string) bool {
	want, got := squash(draft), ""
	for _, row := range strings.Split(text, "\n") {
		if got += squash(row); got == want {
			return true
		}
		if !strings.HasPrefix(want, got) {
			return false
		}
	}
	return false
}

// cursorPrompt returns, squashed, what the row the cursor is on shows before draft
// (a program's prompt), false when the host does not tell the cursor or the row does
// not end with draft. It finds the input of a program no profile knows.
func cursorPrompt(rd Reading, draft string) (string, bool) {
	if !rd.HasCursor || rd.CursorRow < 0 || rd.CursorRow >= len(rd.Rows) || rd.MidFrame {
		return "", false
	}
	return strings.CutSuffix(squash(rd.Rows[rd.CursorRow]), squash(draft))
}

// setAside keeps p's draft (if any) aside and sends the clear keys.
func (r *Relay) setAside(p *pane, now time.Time, acts []Action) []Action {
	if p.draft {
		p.aside = &aside{text: p.draftText, at: now}
		rd := p.scr.Read(NoLines)
		text, ok := inputRow(p, rd.Rows)
		if !ok || !showsDraft(text, p.draftText) {
			if prompt, ok := cursorPrompt(rd, p.draftText); ok && !hasInputRow(p, rd) {
				p.aside.prompt = &prompt
			} else if !ok {
				p.aside.shown = draftRows(rd.Rows, p.draftText)
			}
		}
		p.remember(p.draftText) // its row on the screen is input, never the agent's words
		p.draft = false
		n, msgs := r.batch(p), "messages go"
		if n == 1 {
			msgs = "message goes"
		}
		r.notice(now, p.id, "your draft in %d %s is kept aside while %d %s in; it comes back after the answer", p.id, p.name, n, msgs)
	}
	r.resetInput(p, "")
	rd := p.scr.Read(NoLines)
	p.clearing = &clearing{at: now, deadline: now.Add(r.cfg.Confirm), full: !rd.MidFrame && !r.rowEmpty(p, rd)}
	return append(acts, Keys{Pane: p.id, Seq: clearKeys(p), Purpose: ClearLine})
}

// clearRead reports whether p's program has read the clear keys sent at c as far as
// the relay can tell, so what follows is written apart from them (the caller checks
// the row is empty now): the pane printed since and its screen showed them at work (the
// row was not empty and is now), or clearGap passed. A program may take the clear keys
// and what follows, read at once, as one paste (Claude Code: 64 bytes or more) and type
// the keys as text; an empty row cleared again draws nothing, and output alone may be
// what the pane drew before it read them.
func (r *Relay) clearRead(c *clearing, now time.Time) bool {
	return c.full && c.answered || !c.blind && !now.Before(c.at.Add(r.clearGap()))
}

// clearGap is the least wait after clear keys before anything more is written into the
// pane, unless its screen shows them read: SubmitDelay, never past Confirm.
func (r *Relay) clearGap() time.Duration { return min(r.cfg.SubmitDelay, r.cfg.Confirm) }

// cleared moves p on once its clear keys were sent: the delivery is typed when the
// screen shows the input row empty and the program read the keys (clearRead); a
// person's key since, or no empty row by the deadline, stops it.
func (r *Relay) cleared(p *pane, now time.Time, acts []Action) []Action {
	c := p.clearing
	switch {
	case p.lastKey.After(c.at) || r.person == p.id:
		p.clearing = nil
		r.unset(p, now, "you typed there since it was cleared; it was not put back over your words")
		if len(p.queue) > 0 {
			r.setPhase(p.queue[0], WaitingPerson, now, "")
		}
		return acts
	case r.inputEmpty(p) && r.clearRead(c, now):
		p.clearing = nil
		if len(p.queue) == 0 {
			return r.restore(p, now, acts)
		}
		return append(acts, r.typeNext(p, now))
	case now.Before(c.deadline):
		return acts
	}
	p.clearing = nil
	if a := p.aside; a != nil {
		p.aside, p.noAside = nil, a.text
		p.draft, p.draftText, p.draftAfter, p.said = true, a.text, 0, true // the end key went first
		r.resetInput(p, a.text)
		wait := "; messages wait for you"
		if now.Sub(later(p.lastKey, p.restoredAt)) >= 2*r.cfg.InputStale {
			wait = "" // they expire now (drafts.go)
		}
		if text, ok := inputRow(p, p.scr.Read(NoLines).Rows); ok && showsDraft(text, a.text) {
			r.notice(now, p.id, "the input line in %d %s did not clear: your draft stays there%s", p.id, p.name, wait)
		} else {
			r.notice(now, p.id, "the input line in %d %s did not clear as expected: your draft was %q%s", p.id, p.name, a.text, wait)
		}
	}
	if len(p.queue) > 0 && p.queue[0].opts.Mode == Urgent {
		// Never lost: it waits with what else waits, typed at the pane's first ready
		// moment as an important message.
		d := p.queue[0]
		d.opts.Mode = Important
		r.setPhase(d, WaitingPerson, now, "urgent, but the input line did not clear: it waits to go in as important")
	}
	if len(p.queue) > 0 {
		// What waits is judged now, as the next Tick would: nothing else asks for a
		// wake-up (an important message into a line with nothing of the person's in it
		// goes at once).
		return r.ready(p, now, acts)
	}
	return acts
}

// restoreDue reports whether p's draft can be typed back: what was typed past it has
// been answered (or failed) and p is idle again.
func (r *Relay) restoreDue(p *pane, now time.Time) bool {
	return p.aside != nil && p.aside.typed && p.clearing == nil && p.inflight == nil && !p.printed && p.quietFor(now, r.cfg) &&
		r.person != p.id // a key typed at this moment comes first: the draft is not put back over it
}

// restore types p's draft back, unless the person typed there meanwhile.
func (r *Relay) restore(p *pane, now time.Time, acts []Action) []Action {
	a := p.aside
	if a == nil {
		return acts
	}
	if p.draft || p.lastKey.After(a.at) {
		r.unset(p, now, "you typed there since; it was not put back over your words")
		return acts
	}
	p.aside = nil
	p.draft, p.draftText, p.draftAfter, p.restoredAt, p.said = true, a.text, 0, now, false
	// What the pane prints until the person's Enter is the draft's echo, as for a draft
	// the person typed: its input drawn again with the draft, never a turn of its own
	// (an input shown masked, or where the relay cannot read it, would not be told from
	// words at the Enter).
	p.echo = p.started && !p.printed && !p.turn && p.inflight == nil
	p.remember(a.text)
	r.resetInput(p, a.text)
	msgs := "messages"
	if a.n == 1 {
		msgs = "message"
	}
	r.notice(now, p.id, "your draft in %d %s was kept aside for %d %s and put back", p.id, p.name, a.n, msgs)
	return append(acts, Keys{Pane: p.id, Seq: a.text, Purpose: PutBack})
}

// unset forgets p's draft set aside, saying what it was and why it is not put back.
func (r *Relay) unset(p *pane, now time.Time, why string) {
	if a := p.aside; a != nil {
		p.aside = nil
		r.notice(now, p.id, "your draft in %d %s was kept aside: %s: %q", p.id, p.name, why, a.text)
	}
}

// inputEmpty reports whether p's screen shows its input row empty: blank, or what its
// profile calls chrome (an empty prompt, a placeholder). With a draft set aside, a row
// that shows none of the draft counts too (a placeholder the profile does not know),
// while what is left of the draft, or the draft with more, does not. A program whose
// input row its profile cannot find is read by its cursor's row: with a draft set
// aside, empty when that row shows the prompt the draft followed and nothing more;
// without one, it counts as empty.
func (r *Relay) inputEmpty(p *pane) bool { return r.rowEmpty(p, p.scr.Read(NoLines)) }

// rowEmpty is inputEmpty of the reading rd.
func (r *Relay) rowEmpty(p *pane, rd Reading) bool {
	if rd.MidFrame {
		return false
	}
	if a := p.aside; a != nil && a.blind != nil {
		return bottomKey(rd.Rows) != *a.blind
	}
	if a := p.aside; a != nil && a.shown > 0 {
		return draftRows(rd.Rows, a.text) < a.shown
	}
	text, ok := inputRow(p, rd.Rows)
	first, _, _ := strings.Cut(text, "\n") // rows under an empty input row are not its
	switch row := squash(text); {
	case ok && squash(first) == "":
		return true
	case !ok && p.aside != nil && p.aside.prompt != nil:
		prompt, shown := cursorPrompt(rd, "")
		return shown && prompt == *p.aside.prompt
	case !ok:
		return p.aside == nil
	case row == "":
		return true
	case p.aside != nil:
		draft := squash(p.aside.text)
		return !strings.Contains(draft, row) && !strings.Contains(row, draft)
	}
	return false
}

// inputRow returns the text in p's input row among its screen's rows, "" when the
// profile calls it chrome (an empty prompt, a placeholder); false: no such row
// (parser.InputRow).
func inputRow(p *pane, rows []string) (string, bool) { return parser.InputRow(p.prof, rows) }

// hasInputRow reports whether p's profile finds an input row in rd.
func hasInputRow(p *pane, rd Reading) bool {
	_, ok := inputRow(p, rd.Rows)
	return ok
}

// squash removes white space, so text wrapped or indented on a screen compares equal.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }
