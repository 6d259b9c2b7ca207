//go:build agents

package agents

// A long delivery as the relay types it (one bracketed paste of several paragraphs), into
// each CLI alone in a 120×40 PTY: what the CLI shows for it before the Enter must read as
// nothing new (parser's TestRealScreens checks the recording: MainTurn from the ready
// screen, the paste typed, gives ""), or the relay
// would take it for the CLI's reaction to the Enter and, when that Enter did not submit,
// relay it as the CLI's answer. Gemini CLI 0.61 shows a hint under its input for a paste
// of more than 5 lines or 500 characters ("Press Ctrl+O to expand pasted text") and,
// when the Enter comes within 40 ms of its reading the paste (its own clock: on a loaded
// machine, 200 ms after on the wire), takes it for a newline. Then the model must get
// exactly the paste. With AGENTS_UPDATE_SCREENS=1 the screen goes to
// parser/testdata/screens/real-NAME-long-paste.txt (before, typed, delta "").

import (
	"context"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

// longPaste is a delivery of the pairs matrix's size: a header and three paragraphs.
const longPaste = "pi (1):\n\nPI-1 to: hello from the long conversation test,\n\n" +
	"Paragraph of PI-1: the relay must carry these words whole, in order, across the rows this pane wraps them " +
	"into, without the boxes, the status rows or the message this answer was given, and the word 漢字 counts " +
	"two columns per character while the sentence keeps going a little longer to wrap.\n\n" +
	"Closing line of PI-1, the last one."

func TestLongPaste(t *testing.T) {
	for _, name := range []string{"gemini", "qwen"} {
		t.Run(name, func(t *testing.T) {
			if !installed(t, name) {
				t.Skipf("%s not installed", name)
			}
			longPasteAlone(t, cliNamed(t, name))
		})
	}
}

func longPasteAlone(t *testing.T, c cli) {
	srv, url := startMock(t, c.name, mockmodel.Fixed("understood"), answerTime)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, url)...)
	tm := startTerm(t, c.name, c.argv(binDir(t, c.program())), project, env, 120, 40)
	tm.waitFor("the CLI to be ready for input", 180*time.Second, c.ready) // Qwen Code takes over 90 s on a loaded machine
	before := tm.vt.ScreenText()

	tm.typeText("\x1b[200~" + longPaste + "\x1b[201~")
	// Shown: the paste's start, or a placeholder for it, in the input box.
	tm.waitFor("the paste shown", 30*time.Second, func(s []string, _ string) bool {
		return contains(s, "pi (1):") || contains(s, "Pasted")
	})
	// A hint may follow the paste (Gemini CLI's does); nothing marks that none will.
	_, _ = tm.await(3*time.Second, func(s []string, _ string) bool { return contains(s, "expand pasted text") })
	screen := tm.vt.ScreenText()
	saveScreen(t, c.name+"-long-paste", recording{
		what:   c.name + " at 120x40 in a PTY through vterm (agents/paste_test.go):\nready, then a long delivery as the relay types it (bracketed paste), no Enter yet.",
		title:  tm.vt.Title(),
		state:  "idle",
		typed:  longPaste,
		before: before, screen: screen,
	})
	// The relay's Enter, then, as the relay does when its target shows no reaction within
	// its confirm window, a second one.
	tm.typeText("\r")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_, err := srv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn })
	cancel()
	if err != nil {
		t.Logf("%s: the first Enter after the paste did not submit it\n%s", c.name, tm.dump())
		tm.typeText("\r")
	}
	r := waitTurn(t, tm, srv, c.name, 1, 60*time.Second)
	if !sameWords(r.Prompt, longPaste) {
		t.Errorf("%s's model got %q, want the paste %q", c.name, r.Prompt, longPaste)
	}
}
