package relay

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/agentmux/agentmux/parser"
)

// A draft the relay cannot set aside as aside.go does never holds deliveries for ever:
//   - the screen wins over a draft it shows gone: when the pane's input row (its
//     profile's, or for a program no profile knows the cursor's row showing the prompt
//     the draft followed, alone, after it showed more) is empty on a settled screen
//     (the person not typing, the pane quiet, every key read, no frame half drawn), the
//     draft is taken as gone (the host's tracker is told: InputReset) and deliveries go;
//   - a known draft on one line the screen does not show (a masked field, an input
//     drawn where the relay cannot find it) and does not contradict is said once at
//     InputStale and, left untouched for twice InputStale with the person elsewhere,
//     cleared blind and put back after the answer (setAsideBlind);
//   - any other (unknown: a key the host cannot follow; on more lines, which the clear
//     keys do not clear; one the screen contradicts, or that would not clear) is said
//     once at InputStale and is never touched: each message waiting behind it ends
//     expired once the draft stayed untouched for twice InputStale since the message
//     came, saying why.

// InputReset tells the host that the relay's idea of a pane's input changed without a
// key: it sent clear keys (Text ""), typed a draft back (Text, the cursor at its end),
// found a draft set aside still there, or found the input empty on the screen. The host
// starts its draft tracking for the pane again from Text.
type InputReset struct {
	Pane int
	Text string
}

// TakeInputResets returns the input resets since the last call, in order, and forgets
// them. The host applies them before the next key it forwards.
func (r *Relay) TakeInputResets() []InputReset {
	rs := r.resets
	r.resets = nil
	return rs
}

// resetInput records that p's input is text now as far as the relay knows.
func (r *Relay) resetInput(p *pane, text string) {
	r.resets = append(r.resets, InputReset{Pane: p.id, Text: text})
}

// untouched reports whether p's draft has not changed for d, with the person elsewhere
// and nothing but the draft holding p: no draft set aside or clear keys under way, not
// held, no approval prompt, started and quiet.
func (r *Relay) untouched(p *pane, now time.Time, d time.Duration) bool {
	return p.draft && p.aside == nil && p.clearing == nil && now.Sub(later(p.lastKey, p.restoredAt)) >= d &&
		r.person != p.id && !p.held && p.state != parser.NeedsApproval && p.started && p.quietFor(now, r.cfg)
}

// knownLine reports whether p's draft is known and on one line: one the clear keys
// clear and the relay can type back.
func knownLine(p *pane) bool {
	return p.draftText != "" && !strings.ContainsAny(p.draftText, "\r\n")
}

// blindable reports whether p's draft, not shown on its screen (rd), may be cleared
// blind: known, on one line, never cleared blind before nor refused by its screen, and
// shown masked or not contradicted.
func (r *Relay) blindable(p *pane, rd Reading) bool {
	return p.draft && knownLine(p) && p.noAside != p.draftText && p.blind != p.draftText &&
		(masked(rd, p.draftText) || !contradicted(p, rd))
}

// contradicted reports whether rd shows p's input holding something else than its
// draft: the profile's input row (a program it knows) not showing it, or the cursor's
// row showing the prompt the draft followed and other text after it.
func contradicted(p *pane, rd Reading) bool {
	if rd.MidFrame {
		return true // nothing to judge by: no blind clear on it
	}
	if p.prof.Name != parser.Generic().Name {
		if text, ok := inputRow(p, rd.Rows); ok {
			return !showsDraft(text, p.draftText)
		}
	}
	if p.draftPrompt == nil || *p.draftPrompt == "" {
		return false
	}
	row, ok := cursorPrompt(rd, "")
	rest, opens := strings.CutPrefix(row, *p.draftPrompt)
	return ok && opens && rest != "" && rest != squash(p.draftText)
}

// inputGone reports whether p's screen shows its input empty while the relay counts a
// draft there, on a settled screen: the person not typing (TypingHold) nor typing now,
// the pane quiet and started, every key typed read by its program, no frame half
// drawn, nothing of the relay's own under way.
func (r *Relay) inputGone(p *pane, now time.Time) bool {
	if !p.draft || p.aside != nil || p.clearing != nil || p.inflight != nil || r.person == p.id || r.printing == p.id || p.held ||
		p.state == parser.NeedsApproval || !p.started || now.Before(p.lastKey.Add(r.cfg.TypingHold)) ||
		!p.quietFor(now, r.cfg) || p.unread() > 0 {
		return false
	}
	rd := p.scr.Read(NoLines)
	if rd.MidFrame {
		return false
	}
	if p.prof.Name != parser.Generic().Name {
		if text, ok := inputRow(p, rd.Rows); ok {
			first, _, _ := strings.Cut(text, "\n")
			return squash(first) == ""
		}
	}
	// A program no profile knows: its cursor's row, once it showed more than the prompt
	// (it echoes what is typed: an input that echoes nothing shows the prompt alone
	// with a draft in it).
	if p.draftPrompt == nil || *p.draftPrompt == "" || !p.draftEchoed {
		return false
	}
	row, ok := cursorPrompt(rd, "")
	return ok && row == *p.draftPrompt
}

// draftHolds reports whether p's draft holds something back: deliveries waiting, or
// the end of a turn whose words would go somewhere (p is linked, or may address
// others).
func (r *Relay) draftHolds(p *pane) bool {
	return len(p.queue) > 0 || p.started && p.printed && (p.group != nil || p.address || r.cfg.Address)
}

// shownInput returns what p's input shows ("" when it cannot be told): the profile's
// input row, or for a program no profile knows the cursor's row after the prompt the
// draft followed. The host reports Enter before its echo, so at a Sent it is the text
// sent.
func (p *pane) shownInput() string {
	rd := p.scr.Read(NoLines)
	if rd.MidFrame {
		return ""
	}
	if p.prof.Name != parser.Generic().Name {
		if text, ok := inputRow(p, rd.Rows); ok {
			return strings.TrimSpace(text)
		}
	}
	if p.draftPrompt == nil || !rd.HasCursor || rd.CursorRow < 0 || rd.CursorRow >= len(rd.Rows) {
		return ""
	}
	row, want := rd.Rows[rd.CursorRow], []rune(*p.draftPrompt)
	i := 0
	for j, c := range row {
		switch {
		case i == len(want):
			return strings.TrimSpace(row[j:])
		case unicode.IsSpace(c):
		case c != want[i]:
			return ""
		default:
			i++
		}
	}
	return ""
}

// dropDraft forgets p's draft, which the screen shows gone, telling the host.
func (r *Relay) dropDraft(p *pane, now time.Time) {
	what := "the draft agentmux counted there"
	if p.draftText != "" {
		what = fmt.Sprintf("the draft agentmux counted there (%q)", p.draftText)
	}
	r.notice(now, p.id, "the input in %d %s shows empty: %s is taken as gone", p.id, p.name, what)
	// The person typed it: shown again and sent (the program had only redrawn its input
	// empty), its echo is never the agent's words, though the host, told the input is
	// empty, sends that Enter with no text.
	if p.draftText != "" {
		p.remember(p.draftText)
	}
	p.draft, p.draftText, p.draftAfter, p.echo, p.said = false, "", 0, false, false
	p.draftPrompt, p.draftEchoed = nil, false
	r.resetInput(p, "")
}

// draftBegan notes what p's cursor row shows as a person's draft (text, "" when not
// known) begins: for a program no profile knows, the prompt the draft follows (the
// host reports a key before it writes it, so its echo is not there yet, or if it is,
// it ends the row).
func (p *pane) draftBegan(text string) {
	p.draftPrompt, p.draftEchoed = nil, false
	rd := p.scr.Read(NoLines)
	if prompt, ok := cursorPrompt(rd, ""); ok {
		if cut, echoed := strings.CutSuffix(prompt, squash(text)); echoed && squash(text) != "" {
			prompt, p.draftEchoed = cut, true
		}
		p.draftPrompt = &prompt
	}
}

// noteEcho notes, after output, whether p's cursor row shows more than the prompt its
// draft followed: the program echoes what is typed.
func (p *pane) noteEcho() {
	if !p.draft || p.draftPrompt == nil || p.draftEchoed {
		return
	}
	row, ok := cursorPrompt(p.scr.Read(NoLines), "")
	if rest, opens := strings.CutPrefix(row, *p.draftPrompt); ok && opens && rest != "" {
		p.draftEchoed = true
	}
}

// unshown handles the deliveries waiting behind p's draft, which its screen does not
// show (or not where the relay can set it aside): said once at InputStale; at twice
// InputStale cleared blind (true: the clear keys were sent) or, when it cannot be, what
// waited that long behind it expires.
func (r *Relay) unshown(p *pane, now time.Time, acts []Action) ([]Action, bool) {
	stale := r.cfg.InputStale
	if !r.untouched(p, now, stale) {
		return acts, false
	}
	rd := p.scr.Read(NoLines)
	blind := r.blindable(p, rd)
	if !p.said {
		p.said = true
		if blind {
			left := later(p.lastKey, p.restoredAt).Add(2 * stale).Sub(now)
			r.notice(now, p.id, "your draft in %d %s is not on its screen where agentmux can find it: %d waiting go in once you send or clear it, or after %s more with it untouched (cleared with its keys, put back after)",
				p.id, p.name, len(p.queue), max(left, 0))
		} else {
			left := 2 * stale // until the first message waiting behind it expires
			for _, d := range p.queue {
				if d != p.brief {
					left = min(left, r.abandonAt(p, d).Sub(now))
				}
			}
			r.notice(now, p.id, "your draft in %d %s %s: %d waiting go in once you send or clear it, or end expired after %s more with it untouched",
				p.id, p.name, whyUnreadable(p), len(p.queue), max(left, 0))
		}
	}
	if !r.untouched(p, now, 2*stale) {
		return acts, false
	}
	if blind {
		return r.setAsideBlind(p, now, acts), true
	}
	r.abandon(p, now)
	return acts, false
}

// whyUnreadable says why p's draft cannot be set aside.
func whyUnreadable(p *pane) string {
	switch {
	case p.draftText == "":
		return "could not be read (a key agentmux cannot follow was pressed there)"
	case !knownLine(p):
		return "has more than one line, which its clear keys do not clear"
	case p.noAside == p.draftText || p.blind == p.draftText:
		return "did not clear"
	}
	return "is not what its screen shows"
}

// abandon expires each message that has waited behind p's untouched draft for twice
// InputStale (since the draft's last change, or since it came if later): the draft
// could not be read or set aside, and nothing waits for ever. The brief waits on.
func (r *Relay) abandon(p *pane, now time.Time) {
	why := fmt.Sprintf("your draft in %d %s could not be read or set aside", p.id, p.name)
	n := 0
	p.queue = slices.DeleteFunc(p.queue, func(d *delivery) bool {
		if d == p.brief || now.Before(r.abandonAt(p, d)) {
			return false
		}
		r.setPhase(d, Expired, now, why)
		n++
		return true
	})
	if n > 0 {
		msgs := "messages"
		if n == 1 {
			msgs = "message"
		}
		r.notice(now, p.id, "%s: %d %s waiting behind it expired, untouched for %s", why, n, msgs, 2*r.cfg.InputStale)
	}
}

// abandonAt is when d, waiting behind p's draft, expires if the draft stays untouched.
func (r *Relay) abandonAt(p *pane, d *delivery) time.Time {
	since := later(p.lastKey, p.restoredAt)
	if d.entry != nil {
		since = later(since, d.entry.At)
	}
	return since.Add(2 * r.cfg.InputStale)
}
