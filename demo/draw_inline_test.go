package demo

// The inline style is checked on the screen a terminal shows (through the harness's
// emulator): the banner, the input box between two rules with the footer under it, the
// spinner and busy title, answers and echoes in the transcript above the box, and that
// the box is redrawn in place (never left behind) however the transcript grows.

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

const rule = "────────"

func TestInlineIdleScreen(t *testing.T) {
	h := newHarness(t, 60, 20, "--name", "alice", "--reply", "echo")
	h.want("alice · simulated agent", "❯", "demo mode · ctrl+j for newline")
	if got := h.count(rule); got != 2 {
		t.Fatalf("want the two rules of the input box, got %d:\n%s", got, h.screen())
	}
	if h.title() != "✳ alice" {
		t.Errorf("idle title = %q, want %q", h.title(), "✳ alice")
	}
	if h.vt.CursorVisible() {
		t.Error("the hardware cursor should be hidden (the input cursor is a reverse cell)")
	}
	for _, seq := range []string{pasteOn, focusOn, kittyQuery} {
		if !strings.Contains(h.raw.String(), seq) {
			t.Errorf("start-up output lacks %q", seq)
		}
	}
	// The terminal answers the kitty keyboard query: the agent pushes its flags, and
	// shift+enter makes a newline from then on, which the footer says.
	if out := h.typ("\x1b[?0u"); !strings.Contains(out, kittyPush1) {
		t.Errorf("no kitty flags pushed after the terminal's answer: %q", out)
	}
	h.want("demo mode · shift+enter for newline")
	// The box is at the bottom of what was drawn: rule, prompt, rule, footer.
	top := h.row(rule)
	rows := h.rows()
	if !strings.HasPrefix(rows[top+1], "❯") || !strings.Contains(rows[top+2], rule) ||
		!strings.Contains(rows[top+3], "demo mode") {
		t.Fatalf("input box layout wrong:\n%s", h.screen())
	}
}

func TestInlineTurn(t *testing.T) {
	h := newHarness(t, 60, 20, "--name", "alice", "--reply", "echo", "--busy", "2s")
	h.typ("hello thre")
	h.typ("\x7f\x7fere")
	h.want("❯ hello there")
	h.typ("\r")
	if !h.a.busy {
		t.Fatal("not busy after Enter")
	}
	h.want("❯ hello there", "Thinking… (0s · esc to interrupt)", "esc to interrupt")
	if h.title() != "◐ alice" {
		t.Errorf("busy title = %q", h.title())
	}
	echo := h.row("❯ hello there")
	if box := h.row(rule); echo > box {
		t.Fatalf("the echo should be above the input box:\n%s", h.screen())
	}
	first := h.rows()[h.row("Thinking…")]
	h.tick(9)
	if h.title() != "◑ alice" {
		t.Errorf("title after a second = %q, want ◑ alice", h.title())
	}
	if now := h.rows()[h.row("Thinking…")]; now == first {
		t.Errorf("spinner row did not animate: %q", now)
	}
	h.want("(1s · esc to interrupt)")
	h.finish(time.Second)
	h.want("● alice heard: hello there")
	h.wantNot("Thinking…", "esc to interrupt")
	if h.title() != "✳ alice" {
		t.Errorf("title after the turn = %q", h.title())
	}
	if got := h.count(rule); got != 2 {
		t.Fatalf("want exactly one input box, got %d rules:\n%s", got, h.screen())
	}
}

func TestInlineTranscriptScrollsAboveTheBox(t *testing.T) {
	h := newHarness(t, 40, 12, "--name", "a", "--reply", "echo")
	for i := range 6 {
		h.typ("message number " + string(rune('A'+i)) + "\r")
		h.finish(time.Second)
	}
	rows := h.rows()
	if got := h.count(rule); got != 2 {
		t.Fatalf("want one input box, got %d rules:\n%s", got, h.screen())
	}
	last := h.row("a heard: message number F")
	if last < 0 || h.row(rule) < last {
		t.Fatalf("the last answer should sit above the box:\n%s", h.screen())
	}
	if !strings.Contains(rows[len(rows)-1], "demo mode") {
		t.Fatalf("the footer should be on the last row once the transcript fills the screen:\n%s", h.screen())
	}
	h.wantNot("message number A") // scrolled off into history
}

func TestInlineMultilineDraft(t *testing.T) {
	h := newHarness(t, 60, 20, "--reply", "echo")
	h.typ("\x1b[200~line one\r\nline two\x1b[201~")
	h.typ("\x1b[13;2u" + "three")
	h.typ("\x1b\r" + "four")
	want := "line one\nline two\nthree\nfour"
	if h.a.draft != want {
		t.Fatalf("draft = %q, want %q", h.a.draft, want)
	}
	h.want("❯ line one", "  line two", "  three", "  four")
	h.typ("\r")
	h.finish(time.Second)
	h.want("❯ line one", "agent heard: line one line two three four")
}

func TestInlineKittyPushOnlyWhenAnswered(t *testing.T) {
	h := newHarness(t, 60, 20)
	if strings.Contains(h.raw.String(), kittyPush1) {
		t.Fatal("pushed kitty flags before the terminal answered the query")
	}
	if out := h.typ("\x1b[?0u"); !strings.Contains(out, kittyPush1) {
		t.Fatalf("no push after the kitty answer: %q", out)
	}
	if out := h.typ("\x1b[?1u"); strings.Contains(out, kittyPush1) {
		t.Fatal("pushed twice")
	}
	h.a.finish()
	if out := h.flush(); !strings.Contains(out, kittyPop) || !strings.Contains(out, showCursor) {
		t.Fatalf("finish should pop the flags and show the cursor: %q", out)
	}
}

func TestInlineInterrupt(t *testing.T) {
	for _, key := range []string{"\x1b", "\x1b[27u", "\x03"} {
		h := newHarness(t, 60, 20, "--reply", "echo")
		h.typ("hi\r")
		h.typ(key)
		if h.a.busy {
			t.Fatalf("%q did not interrupt", key)
		}
		h.want("⎿  Interrupted · What should I do instead?")
		h.finish(time.Second) // a stale end of turn changes nothing
		h.wantNot("agent heard")
	}
}

func TestInlineCtrlCTwiceExits(t *testing.T) {
	h := newHarness(t, 60, 20)
	h.typ("draft")
	h.typ("\x03")
	if h.a.draft != "" || h.a.done {
		t.Fatalf("first Ctrl+C should clear the draft and not exit (draft %q, done %v)", h.a.draft, h.a.done)
	}
	h.want("Press Ctrl-C again to exit")
	h.typ("\x03")
	if !h.a.done || h.a.code != 0 {
		t.Fatalf("second Ctrl+C: done %v code %d", h.a.done, h.a.code)
	}
	if h.count(rule) != 0 {
		t.Fatalf("the input box should be gone on exit:\n%s", h.screen())
	}
}

func TestInlineCtrlCDisarmedByOtherKeys(t *testing.T) {
	h := newHarness(t, 60, 20)
	h.typ("\x03")
	h.typ("x")
	h.typ("\x03")
	if h.a.done {
		t.Fatal("Ctrl+C, a key, Ctrl+C should not exit")
	}
}

func TestInlineCtrlD(t *testing.T) {
	h := newHarness(t, 60, 20)
	h.typ("x\x04")
	if h.a.done {
		t.Fatal("Ctrl+D with a draft should not exit")
	}
	h.typ("\x7f\x04")
	if !h.a.done || h.a.code != 0 {
		t.Fatalf("Ctrl+D on an empty draft: done %v code %d", h.a.done, h.a.code)
	}
}

func TestInlineResizeReprints(t *testing.T) {
	h := newHarness(t, 60, 20, "--name", "alice", "--reply", "echo")
	h.typ("first message\r")
	h.finish(time.Second)
	h.typ("draft")
	h.vt.Resize(40, 15)
	h.a.resize(40, 15)
	out := h.flush()
	if !strings.Contains(out, clearAll) {
		t.Fatalf("resize should clear and reprint: %q", out)
	}
	h.want("alice · simulated agent", "❯ first message", "● alice heard: first message", "❯ draft")
	if h.count(rule) != 2 {
		t.Fatalf("want one input box after resize:\n%s", h.screen())
	}
	if w := len([]rune(h.rows()[h.row(rule)])); w != 40 {
		t.Fatalf("rule is %d wide, want the new width 40", w)
	}
}

func TestInlineQueuedMessages(t *testing.T) {
	h := newHarness(t, 60, 20, "--reply", "echo")
	h.typ("one\r")
	h.typ("two\r")
	h.want("↳ queued: two")
	h.finish(time.Second)
	h.want("agent heard: one", "❯ two")
	if !h.a.busy {
		t.Fatal("the queued message should start a turn")
	}
	h.finish(time.Second)
	h.want("agent heard: two")
	h.wantNot("queued")
}

func TestInlineLiveRegionFitsTinyScreens(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {2, 3}, {10, 4}, {20, 6}} {
		h := newHarness(t, size[0], size[1], "--queries")
		h.typ(strings.Repeat("long draft words ", 10) + "\x1b[13;2u" + "x")
		h.typ("\r")
		h.tick(3)
		rows := h.a.draw.(*mainDraw).live(h.a).rows
		if len(rows) > size[1] {
			t.Fatalf("%v: live region has %d rows, more than the screen", size, len(rows))
		}
		for _, r := range rows {
			if w := width(ansi.Strip(r)); w > size[0] {
				t.Fatalf("%v: live row %q is %d wide", size, r, w)
			}
		}
	}
}
