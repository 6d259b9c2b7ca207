package relay

// Strategy: the real agents' turns through the whole relay. The screens the parser tests
// use (../parser/testdata/screens, tmux renderings of the recorded Claude Code classic and
// fullscreen, Codex and Gemini CLI turns, one per quarter second) are replayed as a pane's
// Screen: each sample becomes the pane's screen at its recorded time, followed by an
// Output event. The pane is linked with a fake agent while idle; the person's "say hi" is
// reported as keystrokes and a Sent event at the recorded input times. The fake agent must
// receive exactly one delivery: the model's answer, attributed, with no chrome and no
// echo; the pane's state must follow the recording.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/parser"
)

type screenSample struct {
	at    time.Duration
	title string
	alt   bool
	hist  int
	rows  []string
}

func loadScreens(t *testing.T, name string) []screenSample {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "parser", "testdata", "screens", name+".txt"))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer f.Close()
	var out []screenSample
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "@@ "); ok {
			ti, ai := strings.Index(rest, " title="), strings.LastIndex(rest, " alt=")
			var s screenSample
			var secs float64
			var alt int
			if _, err := fmt.Sscanf(rest[:ti], "t=%f", &secs); err != nil {
				t.Fatalf("header %q: %v", line, err)
			}
			if _, err := fmt.Sscanf(rest[ai:], " alt=%d hist=%d", &alt, &s.hist); err != nil {
				t.Fatalf("header %q: %v", line, err)
			}
			s.at, s.title, s.alt = time.Duration(secs*float64(time.Second)), rest[ti+len(" title="):ai], alt == 1
			out = append(out, s)
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].rows = append(out[len(out)-1].rows, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// replayScreen shows one sample at a time.
type replayScreen struct{ s screenSample }

func (r *replayScreen) Read(from int64) Reading { return readParts(r, from) }
func (r *replayScreen) Info() Info {
	return Info{Title: r.s.title, AltScreen: r.s.alt, BracketedPaste: true}
}
func (r *replayScreen) ScreenTop() int64     { return int64(r.s.hist) }
func (r *replayScreen) ScreenText() []string { return r.s.rows[r.s.hist:] }
func (r *replayScreen) TextFrom(n int64) []Line {
	var out []Line
	for i := max(n, 0); i < int64(r.s.hist+40); i++ {
		if r.s.alt {
			break // the main screen stays as it was before the program took the alternate one
		}
		out = append(out, Line{N: i, Text: r.s.rows[i]})
	}
	return out
}

func TestFixtureTurnsThroughRelay(t *testing.T) {
	const answer = "Hello from the offline mock server. Line two done."
	fixtures := []struct {
		name, program string
		typedAt       time.Duration
	}{
		{"claude-code-turn", "claude", 5 * time.Second},
		{"claude-code-fullscreen-turn", "claude", 5 * time.Second},
		{"codex-turn", "codex", 8 * time.Second},
		{"gemini-turn", "gemini", 9 * time.Second},
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			samples := loadScreens(t, fx.name)
			h := newHarness(t, Config{})
			scr := &replayScreen{s: samples[0]}
			h.handle(Open{Pane: 1, Name: fx.program, Profile: parser.ProfileFor(fx.program), Screen: scr})
			peer := h.agent(2, "peer", &fakeAgent{titled: true, bracketed: true})
			linked, typed, sent := false, false, false
			var states []parser.State
			for _, s := range samples {
				at := t0.Add(s.at)
				if !linked && s.at >= fx.typedAt {
					h.run(fx.typedAt - 500*time.Millisecond) // idle a while: link
					h.handle(Link{Pane: 1, With: 2})
					linked = true
				}
				if !typed && s.at >= fx.typedAt {
					h.run(fx.typedAt)
					h.handle(Keystroke{Pane: 1, Draft: true})
					typed = true
				}
				if !sent && s.at >= fx.typedAt+500*time.Millisecond {
					h.run(fx.typedAt + 500*time.Millisecond)
					h.handle(Sent{Pane: 1, Text: "say hi"})
					sent = true
				}
				h.run(at.Sub(t0))
				scr.s = s
				h.handle(Output{Pane: 1})
				if st, _ := h.r.Pane(1); len(states) == 0 || states[len(states)-1] != st.State {
					states = append(states, st.State)
				}
			}
			h.run(samples[len(samples)-1].at + 10*time.Second)
			if !linked {
				t.Fatal("never linked")
			}
			if len(peer.inputs) != 1 || peer.inputs[0] != fx.program+" (1):\n\n"+answer {
				t.Fatalf("peer got %q\nlog:\n%s", peer.inputs, logText(h.r))
			}
			// The recording goes idle → busy → idle around the turn.
			if !containsSeq(states, []parser.State{parser.Idle, parser.Busy, parser.Idle}) {
				t.Errorf("states %v", states)
			}
		})
	}
}

func containsSeq(states, want []parser.State) bool {
	i := 0
	for _, s := range states {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	return i == len(want)
}

func logText(r *Relay) string {
	var b strings.Builder
	for _, e := range r.Log() {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}
