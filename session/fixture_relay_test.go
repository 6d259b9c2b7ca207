package session

// Strategy: the recorded agent turns (testdata/agent-streams/*-turn.raw, real
// Claude Code classic and fullscreen, Codex and Gemini CLI output) end to end in process,
// through everything the session uses except the PTY: the raw bytes are written, read by read,
// into a real vterm.Terminal (120×40, replies discarded) at the recorded read times on a
// fake clock, and the pane's emulator reaches a real relay.Relay through the same
// termScreen adapter the session opens panes with, with the profile its program name picks.
// The pane is linked with a fake member that is always idle and started: from the start
// (as --link does, before anything is printed) and, in a second run, a second before the
// input (prefix l). The person's typing from chunks.json is reported as keystrokes and a
// Sent event at its recorded times, an Output event follows every read, and the relay is
// ticked at every NextWake up to a few seconds past the recording.
//
// Checked: the fake member gets exactly one delivery, after the turn ended, whose text is
// exactly the attributed model answer (no chrome, no echo of "say hi"); nothing is typed
// into the recorded pane; the turn's window, as the titles in the stream give it, is the
// one the fixture's .md notes give; and the state the relay reports for the pane after
// every read is the one the recording's title says at that byte (read by this test's own
// OSC scanner, not by the emulator or parser), idle at the end. The same replay with the
// bytes cut at random (seeded; a few bytes to a few frames a piece, always cut where the
// program paused, so no byte arrives late) must give the same delivery and states, also
// when a read ends inside a synchronized-output frame.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/vterm"
)

// streamAnswer is what the offline mock model answered in every recorded turn.
const streamAnswer = "Hello from the offline mock server. Line two done."

// streamDir holds the recordings.
var streamDir = filepath.Join("..", "testdata", "agent-streams")

// piece is some bytes the pane's program printed, read at a time since it started.
type piece struct {
	at   time.Duration
	data []byte
	end  int // offset in the raw stream just past data
}

// typedInput is bytes the person typed at a time since the program started.
type typedInput struct {
	at   time.Duration
	text string
}

// recording is one fixture: the raw bytes as read and what was typed.
type recording struct {
	raw    []byte
	reads  []piece
	inputs []typedInput
}

func loadRecording(t *testing.T, name string) recording {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(streamDir, name+".raw"))
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	js, err := os.ReadFile(filepath.Join(streamDir, name+".chunks.json"))
	if err != nil {
		t.Fatalf("read %s chunks: %v", name, err)
	}
	var meta struct {
		Chunks [][2]float64 `json:"chunks"`
		Input  [][2]any     `json:"input"`
	}
	if err := json.Unmarshal(js, &meta); err != nil {
		t.Fatalf("%s chunks: %v", name, err)
	}
	rec := recording{raw: raw}
	off := 0
	for _, c := range meta.Chunks {
		n := int(c[1])
		if off+n > len(raw) {
			t.Fatalf("%s: chunks run past the %d raw bytes", name, len(raw))
		}
		rec.reads = append(rec.reads, piece{at: secs(c[0]), data: raw[off : off+n], end: off + n})
		off += n
	}
	if off != len(raw) {
		t.Fatalf("%s: chunks cover %d of %d bytes", name, off, len(raw))
	}
	for _, in := range meta.Input {
		at, ok1 := in[0].(float64)
		text, ok2 := in[1].(string)
		if !ok1 || !ok2 {
			t.Fatalf("%s: bad input entry %v", name, in)
		}
		rec.inputs = append(rec.inputs, typedInput{at: secs(at), text: text})
	}
	return rec
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// randomPieces cuts the raw stream at random boundaries (1 to 2×avg bytes apart) and
// at every pause of the program's output (a recorded read more than 50 ms after the one
// before: what came before it was in the emulator by then). Each piece is read at the
// recorded time of its last byte, so no byte arrives more than 50 ms late; reads closer
// together are merged or split at random, as a host's coalescing might see them.
func (rec recording) randomPieces(seed uint64, avg int) []piece {
	byteAt := make([]time.Duration, len(rec.raw))
	pause := map[int]bool{} // offsets a piece must end at
	for i, r := range rec.reads {
		for o := r.end - len(r.data); o < r.end; o++ {
			byteAt[o] = r.at
		}
		if i+1 < len(rec.reads) && rec.reads[i+1].at-r.at > 50*time.Millisecond {
			pause[r.end] = true
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var out []piece
	for off := 0; off < len(rec.raw); {
		n := min(1+rng.IntN(2*avg), len(rec.raw)-off)
		for e := off + 1; e < off+n; e++ {
			if pause[e] {
				n = e - off
				break
			}
		}
		out = append(out, piece{at: byteAt[off+n-1], data: rec.raw[off : off+n], end: off + n})
		off += n
	}
	return out
}

// titleChange is a title the stream set (OSC 0 or 2), and the offset just past it.
type titleChange struct {
	end   int
	title string
}

// streamTitles scans raw for OSC 0/2 title sequences (ended by BEL or ST) on its own,
// so the expected timeline does not come from the emulator or parser under test.
func streamTitles(raw []byte) []titleChange {
	var out []titleChange
	s := string(raw)
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "\x1b]")
		if j < 0 {
			break
		}
		start := i + j + 2
		body, end := s[start:], -1
		bel, st := strings.IndexByte(body, '\a'), strings.Index(body, "\x1b\\")
		switch {
		case bel >= 0 && (st < 0 || bel < st):
			end, body = start+bel+1, body[:bel]
		case st >= 0:
			end, body = start+st+2, body[:st]
		default:
			return out
		}
		if t, ok := strings.CutPrefix(body, "0;"); ok {
			out = append(out, titleChange{end, t})
		} else if t, ok := strings.CutPrefix(body, "2;"); ok {
			out = append(out, titleChange{end, t})
		}
		i = end
	}
	return out
}

// titleAt returns the last title set at or before offset off, and false if none was.
func titleAt(titles []titleChange, off int) (string, bool) {
	title, ok := "", false
	for _, tc := range titles {
		if tc.end > off {
			break
		}
		title, ok = tc.title, true
	}
	return title, ok
}

// streamCase is one recorded turn and how its program's titles read, as the fixture's
// .md describes them.
type streamCase struct {
	name, program      string
	busyTitle          func(string) bool // the title says a turn is running
	busyFrom, idleFrom time.Duration     // the turn as the .md notes time it
}

func claudeBusy(s string) bool { return strings.ContainsAny(s, "◐◑") }

func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }

var streamCases = []streamCase{
	// Claude Code: `✳ Claude Code` idle, `◐`/`◑ Claude Code` busy.
	{"claude-code-turn", "claude", claudeBusy, 5700 * time.Millisecond, 13800 * time.Millisecond},
	{"claude-code-fullscreen-turn", "claude", claudeBusy, 5700 * time.Millisecond, 13800 * time.Millisecond},
	// Codex: `<braille spinner> project` busy, plain `project` idle.
	{"codex-turn", "codex", func(s string) bool { r := firstRune(s); return r >= 0x2800 && r <= 0x28ff },
		8500 * time.Millisecond, 16600 * time.Millisecond},
	// Gemini CLI: `◇  Ready (project)` idle, `✦  Working… (project)` busy.
	{"gemini-turn", "gemini", func(s string) bool { return strings.HasPrefix(s, "✦") },
		9600 * time.Millisecond, 17800 * time.Millisecond},
}

// idlePeer is the other member: a program that is always idle (a plain prompt, no
// title, nothing printed after it started) with bracketed paste on.
type idlePeer struct{}

func (idlePeer) Read(from int64) relay.Reading {
	rd := relay.Reading{Info: relay.Info{BracketedPaste: true}, Rows: []string{"$"}}
	if from <= 0 {
		rd.Lines = []relay.Line{{N: 0, Text: "$"}}
	}
	return rd
}

// typedAction is an action the relay asked for, and when.
type typedAction struct {
	at  time.Duration
	act relay.Action
}

// stateSample is the recorded pane's state after one read.
type stateSample struct {
	at    time.Duration
	end   int // offset just past the read
	state parser.State
}

// replayResult is what one replay showed.
type replayResult struct {
	actions []typedAction
	samples []stateSample
	log     string
}

// replayStream replays pieces and inputs into a real emulator and relay, as the ui
// wires them, on a fake clock starting at the program's spawn.
// linkAt 0 links the panes before anything is printed (--link); otherwise at that time
// (prefix l, the program already running).
func replayStream(t *testing.T, sc streamCase, pieces []piece, inputs []typedInput, linkAt time.Duration) replayResult {
	t.Helper()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	term := vterm.New(vterm.Options{Cols: 120, Rows: 40, Reply: func([]byte) {}})
	r := relay.New(relay.Config{})
	prof, ok := parser.Builtins()[sc.program]
	if !ok {
		t.Fatalf("no builtin profile %q", sc.program)
	}
	var res replayResult
	collect := func(now time.Time, acts []relay.Action) {
		for _, a := range acts {
			res.actions = append(res.actions, typedAction{now.Sub(t0), a})
		}
	}
	collect(t0, r.Handle(relay.Open{Pane: 1, Name: sc.program, Profile: prof, Screen: termScreen{t: term}}, t0))
	collect(t0, r.Handle(relay.Open{Pane: 2, Name: "peer", Profile: parser.Generic(), Screen: idlePeer{}}, t0))
	collect(t0, r.Handle(relay.Output{Pane: 2}, t0)) // its prompt
	// until ticks the relay at every wake-up due by at.
	until := func(at time.Duration) {
		for {
			w, ok := r.NextWake()
			if !ok || w.After(t0.Add(at)) {
				return
			}
			collect(w, r.Tick(w))
		}
	}
	linked := false
	link := func(at time.Duration) {
		if !linked && at >= linkAt {
			until(linkAt)
			now := t0.Add(linkAt)
			collect(now, r.Handle(relay.Link{Pane: 1, With: 2}, now))
			linked = true
		}
	}
	draft := ""
	in := slices.Clone(inputs)
	for _, p := range pieces {
		link(p.at)
		for len(in) > 0 && in[0].at <= p.at {
			link(in[0].at)
			until(in[0].at)
			now := t0.Add(in[0].at)
			for _, c := range in[0].text {
				if c == '\r' {
					if strings.TrimSpace(draft) != "" {
						collect(now, r.Handle(relay.Sent{Pane: 1, Text: strings.TrimSpace(draft)}, now))
					} else {
						collect(now, r.Handle(relay.Keystroke{Pane: 1}, now))
					}
					draft = ""
					continue
				}
				draft += string(c)
				collect(now, r.Handle(relay.Keystroke{Pane: 1, Draft: true}, now))
			}
			in = in[1:]
		}
		until(p.at)
		now := t0.Add(p.at)
		if _, err := term.Write(p.data); err != nil {
			t.Fatalf("vterm write: %v", err)
		}
		collect(now, r.Handle(relay.Output{Pane: 1}, now))
		st, _ := r.Pane(1)
		res.samples = append(res.samples, stateSample{at: p.at, end: p.end, state: st.State})
	}
	if len(in) > 0 {
		t.Fatalf("input after the last read: %v", in)
	}
	if !linked {
		t.Fatalf("link time %v after the recording", linkAt)
	}
	until(pieces[len(pieces)-1].at + 8*time.Second)
	var b strings.Builder
	for _, e := range r.Log() {
		b.WriteString(e.String() + "\n")
	}
	res.log = b.String()
	return res
}

// checkDelivery asserts the one delivery: to the peer, after the turn, exactly the
// attributed answer; and nothing typed into the recorded pane.
func checkDelivery(t *testing.T, sc streamCase, res replayResult, turnEnd time.Duration) {
	t.Helper()
	want := sc.program + " (1):\n\n" + streamAnswer
	var types []typedAction
	for _, a := range res.actions {
		if a.act.Target() != 2 {
			t.Errorf("at %v the relay wrote %q into the recorded pane", a.at, a.act.Bytes())
		}
		if _, ok := a.act.(relay.Type); ok {
			types = append(types, a)
		}
	}
	if len(types) != 1 {
		for _, a := range types {
			t.Logf("delivery at %v: %q", a.at, a.act.(relay.Type).Text)
		}
		t.Fatalf("%d deliveries, want 1\nrelay log:\n%s", len(types), res.log)
	}
	d := types[0].act.(relay.Type)
	if d.Text != want || !d.Bracketed {
		t.Errorf("delivered %q (bracketed %v)\nwant      %q\nrelay log:\n%s", d.Text, d.Bracketed, want, res.log)
	}
	if types[0].at < turnEnd {
		t.Errorf("delivered at %v, before the turn ended at %v", types[0].at, turnEnd)
	}
}

// expectedState is what the recording's title says at offset off, and false before the
// program set any title (starting up: not judged).
func expectedState(sc streamCase, titles []titleChange, off int) (parser.State, string, bool) {
	title, ok := titleAt(titles, off)
	if !ok {
		return parser.Unknown, "", false
	}
	if sc.busyTitle(title) {
		return parser.Busy, title, true
	}
	return parser.Idle, title, true
}

// turnWindow returns when the recording's turn ran: the first busy title after the
// person's input and the idle title that followed it.
func turnWindow(sc streamCase, rec recording, titles []titleChange) (start, end time.Duration) {
	sent := rec.inputs[len(rec.inputs)-1].at
	busy := false
	for _, r := range rec.reads {
		if r.at < sent {
			continue
		}
		title, _ := titleAt(titles, r.end)
		switch {
		case !busy && sc.busyTitle(title):
			busy, start = true, r.at
		case busy && !sc.busyTitle(title):
			return start, r.at
		}
	}
	return start, end
}

func TestRecordedTurnsThroughEmulatorAndRelay(t *testing.T) {
	for _, sc := range streamCases {
		t.Run(sc.name, func(t *testing.T) {
			rec := loadRecording(t, sc.name)
			titles := streamTitles(rec.raw)
			start, end := turnWindow(sc, rec, titles)
			// The .md notes: Claude Code busy 5.7–13.8 s, Gemini CLI 9.6–17.8 s, Codex from
			// the submit at 8.5 s to its last bytes at 16.6 s.
			if start < sc.busyFrom || start > sc.busyFrom+150*time.Millisecond ||
				end < sc.idleFrom || end > sc.idleFrom+150*time.Millisecond {
				t.Fatalf("the titles put the turn at %v to %v, the notes at %v to %v", start, end, sc.busyFrom, sc.idleFrom)
			}
			// Linked from the start (--link), and by a person while it is idle a second
			// before the input (prefix l).
			for _, linkAt := range []time.Duration{0, rec.inputs[0].at - time.Second} {
				res := replayStream(t, sc, rec.reads, rec.inputs, linkAt)
				checkDelivery(t, sc, res, end)
				checkStates(t, sc, titles, res)
				if t.Failed() {
					t.Fatalf("linked at %v: failed", linkAt)
				}
			}
		})
	}
}

func TestRecordedTurnsCutAtRandom(t *testing.T) {
	for _, sc := range streamCases {
		t.Run(sc.name, func(t *testing.T) {
			rec := loadRecording(t, sc.name)
			titles := streamTitles(rec.raw)
			_, end := turnWindow(sc, rec, titles)
			for seed := uint64(1); seed <= 3; seed++ {
				// Down to a few bytes a piece (capped at ~2000 pieces: Gemini CLI's 182 KB
				// would take seconds under -race), then a few frames' worth.
				avg := []int{max(7, len(rec.raw)/2000), 64, 700}[seed%3]
				pieces := rec.randomPieces(seed, avg)
				res := replayStream(t, sc, pieces, rec.inputs, 0)
				checkDelivery(t, sc, res, end)
				checkStates(t, sc, titles, res)
				if t.Failed() {
					t.Fatalf("seed %d (%d pieces of ~%d bytes) failed", seed, len(pieces), avg)
				}
			}
		})
	}
}

// checkStates asserts that after every read the relay's state for the pane is the one
// the recording's title says (once the program has set one), and logs the timeline.
func checkStates(t *testing.T, sc streamCase, titles []titleChange, res replayResult) {
	t.Helper()
	var seq []string
	bad := 0
	for _, s := range res.samples {
		if n := len(seq); n == 0 || !strings.HasSuffix(seq[n-1], " "+s.state.String()) {
			seq = append(seq, fmt.Sprintf("%v %v", s.at, s.state))
		}
		want, title, judged := expectedState(sc, titles, s.end)
		if judged && s.state != want {
			if bad++; bad <= 10 {
				t.Errorf("at %v (byte %d, title %q) the relay says %v, the recording %v", s.at, s.end, title, s.state, want)
			}
		}
	}
	if bad > 10 {
		t.Errorf("... %d reads in all disagree", bad)
	}
	if last := res.samples[len(res.samples)-1]; last.state != parser.Idle {
		t.Errorf("after the answer the relay says %v, want idle", last.state)
	}
	if t.Failed() {
		t.Logf("timeline: %s", strings.Join(seq, " → "))
	}
}

// TestRecordedFullscreenLateLogoFrame replays Claude Code's fullscreen turn with the last
// frame of its logo animation (1.95 s, and what followed it before the input) arriving
// late, as a slow host or a program busy at start-up can make it: after the pane started
// and its baseline was taken, and in a second run during the turn (just after the
// Enter). The redrawn header rows are no turn of their own and do not pull the banner and
// old transcript into the answer's delivery.
func TestRecordedFullscreenLateLogoFrame(t *testing.T) {
	sc := streamCases[1]
	rec := loadRecording(t, sc.name)
	_, end := turnWindow(sc, rec, streamTitles(rec.raw))
	enter := rec.inputs[len(rec.inputs)-1].at
	for _, late := range []time.Duration{rec.inputs[0].at - 400*time.Millisecond, enter + 100*time.Millisecond} {
		reads := slices.Clone(rec.reads)
		moved := 0
		for i := range reads {
			if reads[i].at >= 1900*time.Millisecond && reads[i].at < late {
				reads[i].at = late
				moved++
			}
		}
		if moved == 0 || !slices.IsSortedFunc(reads, func(a, b piece) int { return int(a.at - b.at) }) {
			t.Fatalf("late %v: %d reads moved, or out of order", late, moved)
		}
		res := replayStream(t, sc, reads, rec.inputs, 0)
		checkDelivery(t, sc, res, end)
		if t.Failed() {
			t.Fatalf("the logo's last frame at %v: failed", late)
		}
	}
}
