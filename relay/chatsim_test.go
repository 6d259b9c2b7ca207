package relay_test

// Strategy: the relay's exactness (every turn arrives whole, once, without chrome) on a
// fake clock. Two simulated chat programs (package demo's Bot), of every
// pair of screen styles (line-mode REPL, inline with input box, full-screen), draw into
// real vterm terminals of random sizes; each terminal reaches a real relay.Relay under
// the generic profile through an adapter like the ui's (text, absolute rows, cursor), the
// relay's writes reach the bots (through an emulated line discipline for the REPL: echo,
// whole lines), and a person's message starts the conversation in pane 1 as the ui
// reports it (keystrokes, then Sent), at once or after they started. In two runs of
// three every bot's drawings reach its terminal cut at random bytes a few milliseconds
// apart (so a person's Enter may come while the inline bot redraws its input box), and a line-mode bot's prompt after its answer in a piece of
// its own, just before, at or past the relay's quiet times. Time jumps to whichever
// comes first, the relay's NextWake, a bot's next drawing step or piece; nothing sleeps. Checked for each seed: exactly
// --turns deliveries, alternating, each exactly "NAME (N):", a blank line and the whole
// answer the sender gave (newlines as spaces into the REPL, which takes no bracketed
// paste), the group severed after them, and no turn noted as having nothing to relay.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/demo"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/vterm"
)

// screen adapts a vterm terminal to relay.Screen as the session does: one reading
// under the terminal's lock.
type screen struct{ t *vterm.Terminal }

func (s screen) Read(from int64) relay.Reading {
	if from == relay.FromTop {
		from = -1
	}
	return reading(s.t.ReadText(from))
}

// ReadFrames makes screen a relay.FrameScreen, as the session's is.
func (s screen) ReadFrames() ([]relay.Reading, relay.Reading) {
	kept, now := s.t.ReadFrames(-1)
	rds := make([]relay.Reading, len(kept))
	for i, k := range kept {
		rds[i] = reading(k)
	}
	return rds, reading(now)
}

// reading is a vterm reading as the relay takes it.
func reading(tr vterm.TextReading) relay.Reading {
	rd := relay.Reading{Info: relay.Info{Title: tr.Title, AltScreen: tr.AltScreen, BracketedPaste: tr.Modes.BracketedPaste,
		MidFrame: tr.Modes.SyncOutput, HasCursor: true, CursorRow: tr.Cursor.Y}, Top: tr.Top, Rows: tr.Rows}
	for _, l := range tr.Lines {
		rd.Lines = append(rd.Lines, relay.Line{N: l.N, Text: l.Text})
	}
	return rd
}

// simPane is one bot in its terminal.
type simPane struct {
	id    int
	name  string
	style demo.Style
	bot   *demo.Bot
	term  *vterm.Terminal
	due   time.Time // when the bot's next step is due (zero: none armed)
	tick  time.Time // when the bot's spinner next turns (zero: none armed)
	line  []byte    // the line discipline's line being typed (line style)
	// pending is what the bot drew and its terminal has not got yet, in order: a
	// program's writes reach the terminal split and paced as its PTY is read.
	pending []piece
	heard   time.Time // when the relay hears of output written and not yet told (lag)
}

// piece is some bytes a bot drew, written into its terminal at a time (pending) or
// after a gap since the piece before (a splitter's).
type piece struct {
	at  time.Time
	gap time.Duration
	b   []byte
}

// splitter cuts what a bot draws into the pieces its terminal gets, with the gaps
// between them.
type splitter func(p *simPane, b []byte) []piece

// sim runs two bots and a relay on a fake clock.
type sim struct {
	t     *testing.T
	r     *relay.Relay
	now   time.Time
	panes []*simPane
	types []relay.Type
	split splitter // nil: a bot's drawing reaches its terminal whole, at once
	// lag, when set, is how long after output reaches a terminal the relay hears of it:
	// output that comes meanwhile is heard of in the same event, as a busy session's
	// loop reads a pane's screen once for several reads of its PTY.
	lag func() time.Duration
}

var start = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// eachSeed calls run for seeds 1 to n, then extra (seeds past n that once failed).
// SEED=K runs seed K alone; SEEDS=N runs seeds 1 to N instead (a sweep past a test's
// range).
func eachSeed(n uint64, extra []uint64, run func(seed uint64)) {
	seeds := extra
	if m, err := strconv.ParseUint(os.Getenv("SEEDS"), 10, 64); err == nil {
		n, seeds = m, nil
	}
	for seed := uint64(1); seed <= n; seed++ {
		seeds = append(seeds, seed)
	}
	for _, seed := range seeds {
		if os.Getenv("SEED") != "" && fmt.Sprint(seed) != os.Getenv("SEED") {
			continue
		}
		run(seed)
	}
}

// strayTurn returns the first text the relay typed into pane into that is not exactly
// one of from's answers under its attribution (newlines read as spaces), and whether
// there was one.
func (s *sim) strayTurn(from *simPane, into int) (string, bool) {
	for _, ty := range s.types {
		if ty.Pane != into {
			continue
		}
		ok := false
		for _, r := range from.bot.Replies() {
			ok = ok || flat(ty.Text) == flat(fmt.Sprintf("%s (%d):\n\n%s", from.name, from.id, r))
		}
		if !ok {
			return ty.Text, true
		}
	}
	return "", false
}

func newSim(t *testing.T, cfg relay.Config, split splitter, bots ...demo.Config) *sim {
	s := &sim{t: t, r: relay.New(cfg), now: start, split: split}
	for i, c := range bots {
		p := &simPane{id: i + 1, name: c.Name, style: c.Style, bot: demo.New(c),
			term: vterm.New(vterm.Options{Cols: c.Cols, Rows: c.Rows, Reply: func([]byte) {}})}
		p.term.KeepFrames(keptFrames)
		s.panes = append(s.panes, p)
		s.apply(s.r.Handle(relay.Open{Pane: p.id, Name: p.name, Profile: parser.ProfileFor(p.name), Screen: screen{p.term}}, s.now))
		s.draw(p, p.bot.Start())
	}
	return s
}

// draw is a bot's drawing: written into its terminal now, or in the splitter's pieces
// after what is pending, each when its gap has passed.
func (s *sim) draw(p *simPane, b []byte) {
	if s.split == nil || len(b) == 0 {
		s.write(p, b)
	} else {
		at := s.now
		if n := len(p.pending); n > 0 {
			at = p.pending[n-1].at
		}
		for _, pc := range s.split(p, b) {
			at = at.Add(pc.gap)
			p.pending = append(p.pending, piece{at: at, b: pc.b})
		}
		s.flush(p)
	}
	s.arm(p)
}

// flush writes p's pending pieces that are due.
func (s *sim) flush(p *simPane) {
	for len(p.pending) > 0 && !p.pending[0].at.After(s.now) {
		b := p.pending[0].b
		p.pending = p.pending[1:]
		s.write(p, b)
	}
}

// write writes b into p's terminal now and tells the relay.
func (s *sim) write(p *simPane, b []byte) {
	if len(b) == 0 {
		return
	}
	if _, err := p.term.Write(b); err != nil {
		s.t.Fatal(err)
	}
	if s.lag != nil {
		if p.heard.IsZero() {
			p.heard = s.now.Add(s.lag())
		}
		return
	}
	s.apply(s.r.Handle(relay.Output{Pane: p.id}, s.now))
}

// arm schedules the bot's next step if none is.
func (s *sim) arm(p *simPane) {
	if d := p.bot.TickEvery(); d > 0 && p.tick.IsZero() {
		p.tick = s.now.Add(d)
	}
	if !p.due.IsZero() {
		return
	}
	if d, ok := p.bot.Next(); ok {
		p.due = s.now.Add(d)
	}
}

// event returns when p's bot next acts (its next step or spinner tick, whichever comes
// first), and false when neither is armed.
func (p *simPane) event() (time.Time, bool) {
	switch {
	case p.due.IsZero() && p.tick.IsZero():
		return time.Time{}, false
	case p.due.IsZero():
		return p.tick, true
	case p.tick.IsZero() || !p.tick.Before(p.due):
		return p.due, true
	}
	return p.tick, true
}

// input is bytes typed into a pane's terminal: the line discipline echoes a REPL's and
// hands it whole lines; the other bots read raw keys.
func (s *sim) input(p *simPane, b []byte) {
	if p.style == demo.Line {
		// Readline takes a bracketed paste's markers; its newlines end lines.
		b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\x1b[200~"), nil), []byte("\x1b[201~"), nil)
		var echo []byte
		for _, c := range b {
			switch c {
			case '\r', '\n':
				echo = append(echo, '\r', '\n')
				line := append(p.line, '\n')
				p.line = nil
				s.write(p, echo)
				echo = nil
				s.draw(p, p.bot.Input(line))
			case 0x15: // the terminal's kill character: the line typed so far is erased
				echo = append(echo, bytes.Repeat([]byte("\b \b"), utf8.RuneCount(p.line))...)
				p.line = nil
			default:
				p.line = append(p.line, c)
				echo = append(echo, c)
			}
		}
		s.write(p, echo)
		return
	}
	s.draw(p, p.bot.Input(b))
}

func (s *sim) apply(acts []relay.Action) {
	for _, a := range acts {
		if ty, ok := a.(relay.Type); ok {
			s.types = append(s.types, ty)
		}
		s.input(s.panes[a.Target()-1], a.Bytes())
	}
}

// person types text into pane id and presses Enter, reported as the ui reports it.
func (s *sim) person(id int, text string) {
	p := s.panes[id-1]
	for _, r := range text {
		s.apply(s.r.Handle(relay.Keystroke{Pane: id, Draft: true}, s.now))
		s.input(p, []byte(string(r)))
	}
	s.apply(s.r.Handle(relay.Sent{Pane: id, Text: text}, s.now))
	s.input(p, []byte{'\r'})
}

// run advances the clock through relay wake-ups and bot steps until nothing is pending
// or the time limit.
func (s *sim) run(limit time.Duration) {
	end := start.Add(limit)
	for i := 0; ; i++ {
		if i > 200000 {
			s.t.Fatal("the simulation does not settle")
		}
		at, ok := s.r.NextWake()
		var next, out, told *simPane
		var nextAt time.Time
		// The relay hears of late output (lag) when nothing else comes first.
		for _, p := range s.panes {
			if !p.heard.IsZero() && (told == nil || p.heard.Before(told.heard)) {
				told = p
			}
		}
		if told != nil && (!ok || !at.Before(told.heard)) {
			if e, ok2 := s.firstBotEvent(); !ok2 || !e.Before(told.heard) {
				if told.heard.After(end) {
					return
				}
				s.now = later(s.now, told.heard)
				told.heard = time.Time{}
				s.apply(s.r.Handle(relay.Output{Pane: told.id}, s.now))
				continue
			}
		}
		for _, p := range s.panes {
			if e, ok := p.event(); ok && (next == nil || e.Before(nextAt)) {
				next, nextAt = p, e
			}
			if len(p.pending) > 0 && (out == nil || p.pending[0].at.Before(out.pending[0].at)) {
				out = p
			}
		}
		if out != nil && (!ok || !at.Before(out.pending[0].at)) && (next == nil || !nextAt.Before(out.pending[0].at)) {
			if out.pending[0].at.After(end) {
				return
			}
			s.now = later(s.now, out.pending[0].at)
			s.flush(out)
			continue
		}
		if next != nil && (!ok || !at.Before(nextAt)) {
			if nextAt.After(end) {
				return
			}
			s.now = later(s.now, nextAt)
			if nextAt.Equal(next.due) {
				next.due = time.Time{}
				s.draw(next, next.bot.Step())
			} else {
				next.tick = time.Time{}
				s.draw(next, next.bot.Tick())
			}
			continue
		}
		if !ok || at.After(end) {
			return
		}
		s.now = later(s.now, at)
		s.apply(s.r.Tick(s.now))
	}
}

// firstBotEvent returns when the first bot step, spinner tick or pending piece is due.
func (s *sim) firstBotEvent() (time.Time, bool) {
	var first time.Time
	ok := false
	for _, p := range s.panes {
		if e, ok2 := p.event(); ok2 && (!ok || e.Before(first)) {
			first, ok = e, true
		}
		if len(p.pending) > 0 && (!ok || p.pending[0].at.Before(first)) {
			first, ok = p.pending[0].at, true
		}
	}
	return first, ok
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// logText renders the relay log.
func (s *sim) logText() string {
	var b strings.Builder
	for _, e := range s.r.Log() {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

// randomSplit cuts a bot's drawing at random bytes into up to four pieces a few
// milliseconds apart, as a PTY may be read. A line-mode bot's prompt is printed in a
// piece of its own after the rest of an answer, after a gap about the relay's quiet
// times (Settle, Idle) or past them: the relay may end the turn before the prompt comes.
// (Not the first prompt: a person who types before it shows gets it after the echo.)
func randomSplit(rng *rand.Rand, cfg relay.Config) splitter {
	gaps := []time.Duration{0, time.Millisecond, 17 * time.Millisecond, cfg.Settle - time.Millisecond, cfg.Settle,
		cfg.Idle - time.Millisecond, cfg.Idle, cfg.Idle + 200*time.Millisecond}
	return func(p *simPane, b []byte) []piece {
		var tail []piece
		if prompt := []byte(p.bot.Prompt()); p.style == demo.Line && len(b) > len(prompt) && bytes.HasSuffix(b, prompt) &&
			!bytes.HasPrefix(b, []byte(p.bot.Banner())) {
			b, tail = b[:len(b)-len(prompt)], []piece{{gap: gaps[rng.IntN(len(gaps))], b: prompt}}
		}
		var out []piece
		gap := time.Duration(0)
		for k := rng.IntN(4); k > 0 && len(b) > 1; k-- {
			i := 1 + rng.IntN(len(b)-1)
			out = append(out, piece{gap: gap, b: b[:i]})
			b, gap = b[i:], time.Duration(rng.IntN(20))*time.Millisecond
		}
		return append(append(out, piece{gap: gap, b: b}), tail...)
	}
}

var styles = []demo.Style{demo.Line, demo.Bare, demo.Full}

// chatStyles are the styles of the chat programs no built-in profile knows: a line-mode
// REPL, an inline UI with an input box, a full-screen UI, an Ink-like boxed input and a
// full-screen UI that clears its screen.
var chatStyles = []demo.Style{demo.Line, demo.Bare, demo.Full, demo.Boxed, demo.Clear}

// runConversation runs one seeded conversation between bots of the first three styles
// and checks the property.
func runConversation(t *testing.T, seed uint64) {
	runStyles(t, seed, func(i int) demo.Style { return styles[(int(seed)/[]int{1, 3}[i])%3] })
}

// runStyles runs one seeded conversation between bots of the styles style(0) and
// style(1) and checks the property.
func runStyles(t *testing.T, seed uint64, style func(i int) demo.Style) {
	rng := rand.New(rand.NewPCG(seed, 99))
	turns := 2 + rng.IntN(4)
	var cfgs []demo.Config
	for i, name := range []string{"alice", "bob"} {
		st := style(i)
		cfgs = append(cfgs, demo.Config{Reply: "corpus", Name: name, Style: st, Seed: seed*7 + uint64(i),
			Cols: 30 + rng.IntN(70), Rows: 8 + rng.IntN(24), Think: 400 * time.Millisecond, Pace: 40 * time.Millisecond})
	}
	cfg := relay.Config{Turns: turns}
	var split splitter
	if rng.IntN(3) > 0 {
		split = randomSplit(rand.New(rand.NewPCG(seed, 7)), relay.New(cfg).Config())
	}
	// The person types at once, or after the bots started (1.5 s of quiet), or later.
	at := time.Duration(rng.IntN(4000)) * time.Millisecond
	msg := []string{"hello there", "> what is in the relay log?", "please say 漢字 🙂 back"}[rng.IntN(3)]
	converse(t, fmt.Sprintf("seed %d", seed), cfg, split, cfgs, at, msg)
}

// converse runs a conversation the person starts in pane 1 with msg at at, and checks
// the property.
func converse(t *testing.T, name string, cfg relay.Config, split splitter, cfgs []demo.Config, at time.Duration, msg string) {
	t.Helper()
	turns := cfg.Turns
	s := newSim(t, cfg, split, cfgs...)
	s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
	s.run(at)
	s.now = later(s.now, start.Add(at))
	s.apply(s.r.Tick(s.now))
	s.person(1, msg)
	s.run(10 * time.Minute)
	desc := func() string {
		return fmt.Sprintf("%s: %s %v %dx%d ⇄ %s %v %dx%d, --turns %d, typed at %v\nrelay log:\n%s", name,
			cfgs[0].Name, cfgs[0].Style, cfgs[0].Cols, cfgs[0].Rows, cfgs[1].Name, cfgs[1].Style, cfgs[1].Cols, cfgs[1].Rows, turns, at, s.logText())
	}
	if len(s.types) != turns {
		for _, p := range s.panes {
			t.Logf("%s inputs %q replies %q\n%s", p.name, p.bot.Inputs(), p.bot.Replies(), strings.Join(p.term.ScreenText(), "\n"))
		}
		t.Fatalf("%d deliveries, want %d\n%s", len(s.types), turns, desc())
	}
	for d, ty := range s.types {
		from, to := s.panes[d%2], s.panes[(d+1)%2]
		replies := from.bot.Replies()
		if len(replies) <= d/2 {
			t.Fatalf("delivery %d: %s gave %d answers\n%s", d+1, from.name, len(replies), desc())
		}
		want := fmt.Sprintf("%s (%d):\n\n%s", from.name, from.id, replies[d/2])
		if to.style == demo.Line {
			want = strings.ReplaceAll(want, "\n", " ")
		}
		if ty.Pane != to.id || ty.Text != want {
			t.Fatalf("delivery %d to %d:\n%q\nwant to %d:\n%q\n%s", d+1, ty.Pane, ty.Text, to.id, want, desc())
		}
	}
	if !strings.Contains(s.logText(), "severed") || strings.Contains(s.logText(), "nothing new found") {
		t.Fatalf("the log should end the group after the budget and note no empty turn\n%s", desc())
	}
}

func TestConversationsDeliverExactAnswers(t *testing.T) {
	eachSeed(500, nil, func(seed uint64) { runConversation(t, seed) })
}

// The styles of the programs that were not read exactly (a boxed input with the cursor
// parked under it, a full-screen program that clears and redraws its screen and shows
// its transcript as "you: …" rows), each paired with every style, both ways.
func TestBoxedAndClearingConversations(t *testing.T) {
	// Pairs (a, b) with a or b among the new styles, in turn.
	var pairs [][2]demo.Style
	for _, a := range chatStyles {
		for _, b := range chatStyles {
			if a == demo.Boxed || a == demo.Clear || b == demo.Boxed || b == demo.Clear {
				pairs = append(pairs, [2]demo.Style{a, b})
			}
		}
	}
	eachSeed(250, nil, func(seed uint64) {
		pair := pairs[int(seed)%len(pairs)]
		runStyles(t, seed, func(i int) demo.Style { return pair[i] })
	})
}

// A line-mode program reading with readline turns bracketed paste on, yet takes one
// line per Enter, a paste's newlines included (bash's read -e): a relayed answer of many
// lines arrived as its first line ("alice (1):") and the rest as further messages. It
// goes as one line, whole, in both directions.
func TestReadlineTakesMessagesWhole(t *testing.T) {
	for _, other := range chatStyles {
		cfgs := []demo.Config{
			{Reply: "corpus", Name: "alice", Style: demo.Line, Readline: true, Seed: 31, Cols: 100, Rows: 20, Think: 100 * time.Millisecond, Pace: 30 * time.Millisecond},
			{Reply: "corpus", Name: "bob", Style: other, Readline: true, Seed: 32, Cols: 100, Rows: 20, Think: 100 * time.Millisecond, Pace: 30 * time.Millisecond},
		}
		converse(t, "readline and "+other.String(), relay.Config{Turns: 3}, nil, cfgs, 2*time.Second, "hello there")
	}
}

// The inline bot draws its input box without synchronized output, so a person's Enter
// may come while it redraws the box for the draft's last key. Seed 22: the half-drawn
// draft ("❯ >") was relayed as a turn of its own, ended at the Enter. Seed 43: typed
// before the bot finished starting, so the baseline is still read at the Enter, with
// the box half drawn; its answer ran on into the prompt row and the footer under it.
func TestInlineEnterWhileTheBoxIsRedrawn(t *testing.T) {
	for _, seed := range []uint64{22, 43} {
		runConversation(t, seed)
	}
}

// The e2e flake of the line-mode REPL (TestChatBotsRelayExactAnswers, line-full): its
// prompt printed after its answer in a write of its own, just before, at or after the
// relay's quiet time, is never relayed, as part of the answer or as a turn of its own.
func TestLinePromptAroundTheQuietTime(t *testing.T) {
	idle := relay.New(relay.Config{}).Config().Idle
	for _, gap := range []time.Duration{0, time.Millisecond, idle - time.Millisecond, idle, idle + 200*time.Millisecond} {
		split := func(p *simPane, b []byte) []piece {
			prompt := []byte(p.bot.Prompt())
			if p.style != demo.Line || !bytes.HasSuffix(b, prompt) || bytes.HasPrefix(b, []byte(p.bot.Banner())) {
				return []piece{{b: b}}
			}
			return []piece{{b: b[:len(b)-len(prompt)]}, {gap: gap, b: prompt}}
		}
		for _, st := range []demo.Style{demo.Full, demo.Bare, demo.Line} {
			cfgs := []demo.Config{
				{Reply: "corpus", Name: "alice", Style: demo.Line, Seed: 21, Cols: 118, Rows: 18, Think: 100 * time.Millisecond, Pace: 30 * time.Millisecond},
				{Reply: "corpus", Name: "bob", Style: st, Seed: 22, Cols: 118, Rows: 18, Think: 100 * time.Millisecond, Pace: 30 * time.Millisecond},
			}
			converse(t, fmt.Sprintf("prompt %v after the answer", gap), relay.Config{Turns: 2}, split, cfgs, 2*idle, "hello there")
		}
	}
}

// keptFrames is how many unread frames each simulated terminal keeps (KeepFrames), as
// the session's do.
const keptFrames = 8

// flat is a text as a line-mode program takes it: newlines read as spaces.
func flat(x string) string { return strings.ReplaceAll(x, "\n", " ") }
