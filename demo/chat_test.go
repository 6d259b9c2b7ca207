package demo

// The chat programs' styles and the behaviours the merged simulator gained: an answer
// printed in steps (--pace) exactly once in every style, the draft's last line cleared by
// Ctrl+U (or kept with --ignore-kill), the boxed input's label and masked draft with the
// cursor parked under the box, the line style's cooked terminal, and Bot on a fake clock.

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestPacePrintsTheAnswerInSteps: with --pace a greeting of seven lines is printed a few
// lines at a time, the agent busy until the last step, each line on the screen once.
func TestPacePrintsTheAnswerInSteps(t *testing.T) {
	greet := "line one\nline two\nline three\nline four\nline five\nline six\nline seven"
	for _, st := range styleNames {
		t.Run(st, func(t *testing.T) {
			h := newHarness(t, 60, 24, "--style", st, "--busy", "1s", "--pace", "30ms", "--greet", greet)
			if d, ok := h.a.nextStep(); !ok || d != time.Second {
				t.Fatalf("first step due after %v (%v), want the think time", d, ok)
			}
			h.a.step()
			h.flush()
			if !h.a.busy {
				t.Fatal("idle after the first step of seven lines")
			}
			h.want("line one")
			h.wantNot("line seven")
			if d, ok := h.a.nextStep(); !ok || d != 30*time.Millisecond {
				t.Fatalf("next step due after %v (%v), want the pace", d, ok)
			}
			steps := 1
			for h.a.busy {
				h.a.step()
				h.flush()
				steps++
			}
			if steps < 3 {
				t.Fatalf("seven lines in %d steps: want a few lines a step", steps)
			}
			for _, l := range strings.Split(greet, "\n") {
				if n := h.count(l); n != 1 {
					t.Fatalf("%q is on %d rows, want 1:\n%s", l, n, h.screen())
				}
			}
			if got := h.a.replies; len(got) != 1 || got[0] != greet {
				t.Fatalf("replies %q", got)
			}
		})
	}
}

func TestCtrlUClearsTheDraftsLastLine(t *testing.T) {
	for _, tt := range []struct{ args, typed, want string }{
		{"--style bare", "\x1b[200~first\nsecond\x1b[201~\x15", "first\n"},
		{"--style bare", "\x1b[200~first\nsecond\x1b[201~\x15\x15", "first\n"}, // an empty last line stays empty
		{"--style inline", "one line\x15", ""},
		{"--style boxed --ignore-kill", "keep me\x15", "keep me"},
	} {
		h := newHarness(t, 60, 20, strings.Fields(tt.args)...)
		h.typ(tt.typed)
		if h.a.draft != tt.want {
			t.Errorf("%s, typed %q: draft %q, want %q", tt.args, tt.typed, h.a.draft, tt.want)
		}
	}
}

func TestBoxedLabelMaskAndParkedCursor(t *testing.T) {
	h := newHarness(t, 50, 16, "--name", "bo", "--style", "boxed", "--label", "Message: ", "--masked")
	h.want("* bo code · mock-model", "│ Message:", "enter send · ctrl+j newline")
	h.typ("secret")
	h.want("│ Message: ••••••")
	h.wantNot("secret")
	if c := h.vt.Cursor(); c.X != 0 || c.Y != h.row("enter send")+1 {
		t.Fatalf("cursor at %d,%d, want parked at the start of the row under the hint (%d)", c.X, c.Y, h.row("enter send")+1)
	}
}

func TestBareCursorAfterTheDraft(t *testing.T) {
	h := newHarness(t, 50, 16, "--name", "ba", "--style", "bare", "--reply", "echo")
	h.want("✻ Welcome to ba chat", "? for shortcuts")
	h.typ("hello")
	if c := h.vt.Cursor(); c.Y != h.row("❯ hello") || c.X != 2+len("hello") {
		t.Fatalf("cursor at %d,%d, want after the draft on row %d", c.X, c.Y, h.row("❯ hello"))
	}
	h.typ("\r")
	h.want("✻ Thinking… (esc to interrupt)")
	h.finish(time.Second)
	h.want("❯ hello", "ba heard: hello")
	h.wantNot("Thinking")
}

func TestFullAndClearFrames(t *testing.T) {
	f := newHarness(t, 40, 10, "--name", "fu", "--style", "full", "--reply", "echo")
	out := f.typ("x")
	if !strings.HasPrefix(out, syncOn) || !strings.HasSuffix(out, syncOff) || strings.Contains(out, "\x1b[2J") {
		t.Fatalf("full: a synchronized frame without a clear: %q", out)
	}
	f.want("fu · ready", "> x")
	c := newHarness(t, 40, 10, "--name", "cl", "--style", "clear", "--reply", "echo")
	c.typ("hi\r")
	c.finish(time.Second)
	out = c.typ("y")
	if !strings.HasPrefix(out, "\x1b[H\x1b[2J") || strings.Contains(out, syncOn) {
		t.Fatalf("clear: a frame that clears the screen, unsynchronized: %q", out)
	}
	c.want("cl ── chat", "you: hi", "cl heard: hi", "> y", "mock-model · 1 messages")
}

// TestBotCorpusIsSeeded: two bots of the same seed give the same answers to the same
// messages, and a full-screen bot's answer lines fit its width.
func TestBotCorpusIsSeeded(t *testing.T) {
	run := func(seed uint64) []string {
		b := New(Config{Name: "b", Style: Full, Reply: "corpus", Seed: seed, Cols: 30, Rows: 10, Think: time.Second, Pace: time.Millisecond})
		b.Start()
		for _, m := range []string{"hello there\r", "more please\r"} {
			b.Input([]byte(m))
			for _, ok := b.Next(); ok; _, ok = b.Next() {
				b.Step()
			}
		}
		if len(b.Inputs()) != 2 || b.Busy() {
			t.Fatalf("inputs %q, busy %v", b.Inputs(), b.Busy())
		}
		return b.Replies()
	}
	a, b := run(7), run(7)
	if !reflect.DeepEqual(a, b) || len(a) != 2 {
		t.Fatalf("seed 7 gave %q then %q", a, b)
	}
	if reflect.DeepEqual(a, run(8)) {
		t.Fatal("seeds 7 and 8 gave the same answers")
	}
	for _, r := range a {
		for _, l := range strings.Split(r, "\n") {
			if width(l) > 30 {
				t.Fatalf("line %q is wider than the full-screen bot's 30 columns", l)
			}
		}
	}
}

// TestBotInterruptRecordsNoAnswer: Escape while a bot answers stops it; its reply is
// recorded as "" and nothing more is drawn.
func TestBotInterruptRecordsNoAnswer(t *testing.T) {
	b := New(Config{Name: "b", Style: Bare, Reply: "echo", Think: time.Second})
	b.Start()
	b.Input([]byte("hi\r"))
	if !b.Busy() {
		t.Fatal("not busy after a message")
	}
	b.Input([]byte{0x1b})
	if b.Busy() || b.Interrupted() != 1 || !reflect.DeepEqual(b.Replies(), []string{""}) {
		t.Fatalf("busy %v, interrupted %d, replies %q", b.Busy(), b.Interrupted(), b.Replies())
	}
	if _, ok := b.Next(); ok || len(b.Step()) != 0 {
		t.Fatal("a step is left after the interrupt")
	}
}

// TestLineStyleOnATerminalStaysCooked: the line style leaves its terminal's line
// discipline on (the terminal echoes and hands over whole lines), so a line typed into it
// is echoed once, by the terminal, and answered after its "NAME> " prompt.
func TestLineStyleOnATerminalStaysCooked(t *testing.T) {
	p := runOnPTY(t, 60, 12, "--name", "li", "--style", "line", "--reply", "echo", "--busy", "0s")
	p.out.waitFor(t, "li ready.")
	p.out.waitFor(t, "li> ")
	if p.modeChanged(t) {
		t.Fatal("the line style changed its terminal's mode")
	}
	p.master.Write([]byte("hi there\r")) // the line discipline turns CR into LF
	p.out.waitFor(t, "li heard: hi there")
	if n := strings.Count(p.out.String(), "hi there"); n != 2 {
		t.Fatalf("%q appears %d times, want the terminal's echo and the answer:\n%q", "hi there", n, p.out.String())
	}
	p.master.Write([]byte{4}) // Ctrl+D at the start of a line: the end of input
	p.exit(t)
}
