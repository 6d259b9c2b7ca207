package demo

// The plain style is a line REPL: its raw output is checked (no title, no bracketed
// paste, no cursor addressing) as well as the emulated screen (prompt, echo, answers).

import (
	"strings"
	"testing"
	"time"
)

func TestPlainSession(t *testing.T) {
	h := newHarness(t, 60, 20, "--name", "carol", "--style", "plain", "--reply", "echo")
	h.want("carol (simulated agent).")
	if got := h.rows()[h.vt.Cursor().Y]; got != ">" {
		t.Fatalf("want a prompt on the cursor row, got %q", got)
	}
	if out := h.typ("hi"); out != "hi" {
		t.Errorf("typed keys should be echoed as they are: %q", out)
	}
	if out := h.typ("\x7f"); out != "\b \b" {
		t.Errorf("backspace echo = %q", out)
	}
	h.typ("ey you\r")
	h.want("> hey you")
	if h.a.busy != true || h.rows()[h.vt.Cursor().Y] != "" {
		t.Fatalf("after Enter: busy and on a fresh line without a prompt:\n%s", h.screen())
	}
	h.typ("next") // type-ahead while busy: shown after the answer
	h.wantNot("next")
	h.finish(time.Second)
	h.want("> hey you", "carol heard: hey you", "> next")
	if h.row("carol heard") != h.row("> hey you")+1 || h.row("> next") != h.row("carol heard")+1 {
		t.Fatalf("want prompt, answer, prompt on consecutive rows:\n%s", h.screen())
	}
	raw := h.raw.String()
	for _, seq := range []string{"\x1b]0;", pasteOn, altOn, "\x1b[H"} {
		if strings.Contains(raw, seq) {
			t.Errorf("a plain REPL should not write %q", seq)
		}
	}
}

func TestPlainEnterInSameReadIsEchoed(t *testing.T) {
	h := newHarness(t, 60, 20, "--style", "plain", "--reply", "echo")
	h.typ("all at once\r")
	h.want("> all at once")
}

func TestPlainPasteWithoutBracketsEnabled(t *testing.T) {
	h := newHarness(t, 60, 20, "--style", "plain", "--reply", "echo")
	h.typ("\x1b[200~two\nlines\x1b[201~\r")
	h.finish(time.Second)
	h.want("> two", "lines", "agent heard: two lines")
}

func TestPlainCtrlC(t *testing.T) {
	h := newHarness(t, 60, 20, "--style", "plain")
	h.typ("abc")
	h.typ("\x03")
	h.want("> abc^C", "(press Ctrl+C again to exit)")
	if h.a.done {
		t.Fatal("one Ctrl+C exited")
	}
	h.typ("\x03")
	if !h.a.done {
		t.Fatal("two Ctrl+C did not exit")
	}
}

func TestPlainBackspaceAcrossLinesReprints(t *testing.T) {
	h := newHarness(t, 60, 20, "--style", "plain")
	h.typ("one\x1b\rtwo")
	h.typ("\x7f\x7f\x7f\x7f")
	if h.a.draft != "one" {
		t.Fatalf("draft = %q", h.a.draft)
	}
	rows := h.rows()
	if got := rows[h.vt.Cursor().Y]; got != "> one" {
		t.Fatalf("the cursor row should show the reprinted draft, got %q:\n%s", got, h.screen())
	}
}

func TestPlainQueries(t *testing.T) {
	h := newHarness(t, 80, 20, "--style", "plain", "--queries")
	if !strings.Contains(h.raw.String(), queryDA1+queryCPR+queryOSC11) {
		t.Fatalf("queries not sent: %q", h.raw.String())
	}
	h.want("terminal: DA1 ✗ · CPR ✗ · OSC 11 ✗")
	h.typ("\x1b[?62;22c\x1b[3;1R\x1b]11;rgb:1e1e/1e1e/1e1e\x07")
	h.want("terminal: DA1 ✓ ?62;22 · CPR ✓ 3;1 · OSC 11 ✓ rgb:1e1e/1e1e/1e1e")
	if h.a.draft != "" {
		t.Fatalf("answers leaked into the draft: %q", h.a.draft)
	}
}
