package relay

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/parser"
)

// commands returns the relay commands in a turn's text. The pane's parser keeps the
// fence state from turn to turn; the turn's last line has ended.
func (p *pane) commands(text string) []parser.Command {
	if p.cmds == nil {
		p.cmds = parser.NewParser(p.prof.Relay)
	}
	out := p.cmds.Feed([]byte(text))
	if text != "" && text[len(text)-1] != '\n' {
		out = append(out, p.cmds.Feed([]byte{'\n'})...)
	}
	return append(out, p.cmds.Flush()...)
}

// logKind logs a thinking or state command from p to q: never typed, an entry of its
// own with the whole body.
func (r *Relay) logKind(p, q *pane, c parser.Command, now time.Time) {
	body := c.Body
	if c.Data != nil {
		body = strings.TrimRight(body, "\n") + "\n" + string(c.Data)
	}
	e := Entry{
		At: now, From: p.id, FromName: p.name, To: q.id, ToName: q.name,
		Size: utf8.RuneCountInString(body), Words: summary(body),
		Kind: c.Kind, Thread: c.Thread, Body: body,
	}
	e.Note = e.kindString() // a notice's line, as hosts show notices
	r.log(e)
}

// kindString renders a thinking or state entry: "1 alice → 2 bob  thinking  "words"".
func (e Entry) kindString() string {
	s := fmt.Sprintf("%d %s → %d %s  %s  %q", e.From, e.FromName, e.To, e.ToName, e.Kind, e.Words)
	if e.Thread != "" {
		s += "  [thread:" + e.Thread + "]"
	}
	return s
}

// Address turns explicit addressing from a pane's output to panes not linked with it
// on or off (a person's choice, shown on the pane's border).
type Address struct {
	Pane int
	On   bool
}

// Brief types the brief into a pane (again): its name, the other panes and how to
// address them. A host sends it when the person asks, e.g. after a pane was added or
// relinked; --brief and a profile's brief send it once when a pane is ready.
type Brief struct{ Pane int }

func (Address) isEvent() {}
func (Brief) isEvent()   {}

// setAddress applies an Address event.
func (r *Relay) setAddress(e Address, now time.Time) {
	p := r.live(e.Pane)
	if p == nil || p.address == e.On {
		return
	}
	p.address = e.On
	if e.On {
		r.notice(now, p.id, "%d %s may address any pane", p.id, p.name)
	} else {
		r.notice(now, p.id, "%d %s may address linked panes only", p.id, p.name)
	}
}

// Addressing reports whether a pane's relay commands may reach panes not linked with
// it: addressing is on for the session or for that pane.
func (r *Relay) Addressing(id int) bool {
	p := r.live(id)
	return p != nil && (r.cfg.Address || p.address)
}

// DefaultBrief is the brief's text unless a profile gives its own. {name} and {pane}
// are the pane's, {panes} lists the other panes one a line ("  2 bob (codex)"), and
// {scope} says whom it may address.
const DefaultBrief = `agentmux: you are {name}, pane {pane}, in a session with other agents:
{panes}
To send one of them a message, write a line of its own: @relay:NAME your message (NAME or its number; @relay:* reaches every other pane; indented lines that follow are part of it), or a block [[RELAY]]{"to": "NAME", "type": "message", "body": "your message"}[[/RELAY]]. {scope} Messages to you arrive as "NAME (N):" and the words. Nothing needs an answer to this note.`

// MCPBrief ends the brief of a pane whose program got agentmux's MCP server (--mcp).
const MCPBrief = `You also have agentmux's tools (MCP server "agentmux"): members lists the panes; send types a message into one (to: its name or number) and returns its id; wait with that id returns once it was confirmed, or with answer true once that agent answered (call it again with its token while it says pending); read, history and capture show messages and screens.`

// queueBrief queues the brief for p: typed like a delivery (idle-gated, never over a
// person's draft), costing no turn; the turn that answers it is not relayed.
func (r *Relay) queueBrief(p *pane, now time.Time) {
	text := r.briefText(p)
	r.nDeliv++
	d := &delivery{id: r.nDeliv, to: p.id, words: text, framed: text, phase: Waiting}
	d.entry = r.log(Entry{
		At: now, Delivery: d.id, FromName: "agentmux", To: p.id, ToName: p.name,
		Size: utf8.RuneCountInString(text), Words: summary(text), Body: text, Phase: Waiting, Note: "brief",
	})
	p.queue = append(p.queue, d)
	p.brief = d
}

// briefText fills p's brief template.
func (r *Relay) briefText(p *pane) string {
	var list strings.Builder
	for _, id := range r.order {
		q := r.live(id)
		if q == nil || q == p {
			continue
		}
		prog := filepath.Base(q.program)
		if q.program == "" {
			prog = q.prof.Name
		}
		fmt.Fprintf(&list, "  %d %s (%s)", q.id, q.name, prog)
		if p.group != nil && p.group == q.group {
			list.WriteString(", linked with you")
		}
		list.WriteByte('\n')
	}
	if list.Len() == 0 {
		list.WriteString("  (none yet)\n")
	}
	var scope string
	switch {
	case r.cfg.Address || p.address:
		scope = "Any of them receives them."
	case p.group != nil:
		scope = "Only panes linked with you receive them."
	default:
		scope = "You are linked with no pane yet, so none receives them until the person links you."
	}
	tmpl := p.prof.BriefTemplate
	if tmpl == "" {
		tmpl = DefaultBrief
	}
	text := strings.NewReplacer("{name}", p.name, "{pane}", strconv.Itoa(p.id),
		"{panes}", strings.TrimRight(list.String(), "\n"), "{scope}", scope).Replace(tmpl)
	if r.cfg.MCP && p.prof.Hooks != "" && p.prof.Hooks != parser.HooksPi && !p.prof.NoHooks { // pi's extension gives no MCP server
		text += " " + MCPBrief
	}
	return text
}

// turnEnded ends p's turn: the turn that answers a brief is no one's business and
// only moves the baseline; any other is relayed (endTurn).
func (r *Relay) turnEnded(p *pane, now time.Time) {
	if d := p.brief; d != nil && d.phase.Final() {
		p.brief = nil
		if d.phase == Confirmed {
			p.setBaseline()
			return
		}
	}
	if p.blankStart && !p.turn {
		// It counted as started on a blank screen and drew its UI since, with nothing
		// typed into it: that finished its starting.
		p.blankStart = false
		p.rebase()
		return
	}
	r.endTurn(p, now)
}
