package parser

// Strategy: real screens. testdata/screens/NAME.txt holds the recorded Claude Code
// (classic and fullscreen), Codex and Gemini CLI turns rendered by tmux every quarter
// second (see render_test.go). The tests drive the parser the way the relay does: the
// baseline is the idle screen just before the input was typed; for main-screen programs
// the delta comes from the rows after the baseline's screen top, for alternate-screen
// programs from the transcript merged frame by frame; either way it must be exactly the
// model's answer. Classify must follow the recording's idle/busy timeline.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const answer = "Hello from the offline mock server. Line two done."

// sample is one rendered moment of a recording.
type sample struct {
	t     float64
	title string
	alt   bool
	hist  int
	rows  []string // history rows then the 40 screen rows
}

func (s sample) screen() []string { return s.rows[s.hist:] }

func loadSamples(t testing.TB, name string) []sample {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "screens", name+".txt"))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "@@ "):
			var s sample
			head := strings.TrimPrefix(line, "@@ ")
			// @@ t=5.500 title=TITLE alt=0 hist=0  (the title may hold spaces)
			ti := strings.Index(head, " title=")
			ai := strings.LastIndex(head, " alt=")
			if ti < 0 || ai < ti {
				t.Fatalf("%s: bad header %q", name, line)
			}
			if _, err := fmt.Sscanf(head[:ti], "t=%f", &s.t); err != nil {
				t.Fatalf("%s: bad time in %q: %v", name, line, err)
			}
			s.title = head[ti+len(" title=") : ai]
			var alt int
			if _, err := fmt.Sscanf(head[ai:], " alt=%d hist=%d", &alt, &s.hist); err != nil {
				t.Fatalf("%s: bad header %q: %v", name, line, err)
			}
			s.alt = alt == 1
			out = append(out, s)
		case strings.HasPrefix(line, "#") && len(out) == 0:
		default:
			if len(out) == 0 {
				t.Fatalf("%s: row before the first sample", name)
			}
			out[len(out)-1].rows = append(out[len(out)-1].rows, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read: %v", err)
	}
	for _, s := range out {
		if len(s.rows) != s.hist+40 {
			t.Fatalf("%s t=%.3f: %d rows, want %d", name, s.t, len(s.rows), s.hist+40)
		}
	}
	return out
}

// turnFixture describes one recording: its profile, when the input was typed, and the
// recorded busy interval.
type turnFixture struct {
	name      string
	program   string
	typedAt   float64
	busyFrom  float64 // first sample time the program shows busy
	busyUntil float64 // first sample time it is idle again
	startBusy [2]float64
}

var turnFixtures = []turnFixture{
	{name: "claude-code-turn", program: "claude", typedAt: 5.0, busyFrom: 5.7, busyUntil: 13.8},
	{name: "claude-code-fullscreen-turn", program: "claude", typedAt: 5.0, busyFrom: 5.8, busyUntil: 13.8},
	{name: "codex-turn", program: "/usr/lib/node_modules/@openai/codex/bin/codex.js", typedAt: 8.0, busyFrom: 8.6, busyUntil: 16.6, startBusy: [2]float64{2.7, 3.25}},
	{name: "gemini-turn", program: "gemini", typedAt: 9.0, busyFrom: 9.6, busyUntil: 17.8},
}

// baselineSample returns the last sample before the input was typed.
func baselineSample(t *testing.T, ss []sample, at float64) (int, sample) {
	t.Helper()
	for i := len(ss) - 1; i >= 0; i-- {
		if ss[i].t < at {
			return i, ss[i]
		}
	}
	t.Fatalf("no sample before t=%.1f", at)
	return 0, sample{}
}

func TestFixtureDelta(t *testing.T) {
	for _, fx := range turnFixtures {
		t.Run(fx.name, func(t *testing.T) {
			ss := loadSamples(t, fx.name)
			p := ProfileFor(fx.program)
			bi, base := baselineSample(t, ss, fx.typedAt)
			final := ss[len(ss)-1]
			if Classify(p, base.title, base.screen()) != Idle {
				t.Fatalf("baseline sample t=%.3f is not idle", base.t)
			}
			for _, typed := range [][]string{{"say hi"}, nil} {
				var got string
				if final.alt {
					// The relay merges each frame's content rows as output arrives.
					tr := NewTranscript(p, base.screen(), -1)
					for _, s := range ss[bi+1:] {
						tr.Add(p, s.screen(), -1)
					}
					got = tr.Words(p, typed).Text
				} else {
					// The main screen from the baseline's screen top, numbered as vterm does.
					got = MainTurn(p, numbered(base.rows[base.hist:], base.hist), numbered(final.rows[base.hist:], base.hist), typed).Text
				}
				if got != answer {
					t.Errorf("typed %q: words = %q, want %q", typed, got, answer)
				}
			}
			// Nothing new after the turn: a baseline at the final screen yields nothing.
			var again string
			if final.alt {
				tr := NewTranscript(p, final.screen(), -1)
				tr.Add(p, final.screen(), -1)
				again = tr.Words(p, nil).Text
			} else {
				v := numbered(final.screen(), final.hist)
				again = MainTurn(p, v, v, nil).Text
			}
			if again != "" {
				t.Errorf("words after the turn = %q, want none", again)
			}
		})
	}
}

// numbered returns rows as a main screen whose first row is absolute row top, the cursor
// not known.
func numbered(rows []string, top int) View {
	v := viewOf(rows)
	for i := range v.Lines {
		v.Lines[i].N += int64(top)
	}
	return v
}

func TestFixtureClassify(t *testing.T) {
	for _, fx := range turnFixtures {
		t.Run(fx.name, func(t *testing.T) {
			p := ProfileFor(fx.program)
			seenIdle := false
			for _, s := range loadSamples(t, fx.name) {
				got := Classify(p, s.title, s.screen())
				var want State
				switch {
				case s.t >= fx.busyFrom && s.t < fx.busyUntil:
					want = Busy
				case fx.startBusy[1] > 0 && s.t >= fx.startBusy[0] && s.t < fx.startBusy[1]:
					want = Busy
				case s.title == "" && !seenIdle:
					want = Unknown
				default:
					want = Idle
				}
				if got != want {
					t.Errorf("t=%.3f title %q: %v, want %v\n%s", s.t, s.title, got, want, strings.Join(trimBlankEnd(s.screen()), "\n"))
				}
				seenIdle = seenIdle || got == Idle
			}
		})
	}
}
