//go:build agents

package agents

// opencode's next turn, begun: the message the relay pasted and submitted stands in its
// box under the last turn's "▣" row before opencode has answered. The parser must never
// read that as a finished turn (parser's DoneMarkers): the box's rows open with the same
// "┃  " as a draft in the input box, and only the input box's own rows may stand under
// the "▣" row of a turn that is over. In a 120×40 PTY through vterm: one turn answered,
// then a delivery pasted as the relay types it and submitted; every screen from the
// Enter until opencode's footer says it works is read, and none that shows the message's
// box may classify idle. The first screen with the box and the busy footer is written,
// with AGENTS_UPDATE_SCREENS=1, to parser/testdata/screens/real-opencode-next-turn.txt,
// from which parser's TestOpencodeMessageBoxUnderTheDoneRowIsNoEnd derives the moment
// before opencode marks itself working (two runs here never caught that moment itself).

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
	"github.com/agentmux/agentmux/parser"
)

func TestOpencodeNextTurnIsNotDone(t *testing.T) {
	c := cliNamed(t, "opencode")
	srv, url := startMock(t, c.name, func(p mockmodel.Prompt) string {
		return fmt.Sprintf("OC-%d answered in a few words.", p.N)
	}, 4*time.Second)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, url)...)
	prof := parser.ProfileFor(c.program())
	tm := startTerm(t, c.name, c.argv(binDir(t, c.program())), project, env, 120, 40)
	tm.waitFor("opencode ready for input", 240*time.Second, c.ready) // slow to start on a loaded machine

	tm.submit("hello there")
	waitTurn(t, tm, srv, c.name, 1, 240*time.Second) // its first request: minutes under load
	tm.waitFor("the first turn over", 60*time.Second, func(s []string, title string) bool {
		return contains(s, "OC-1 answered") && parser.Classify(prof, title, s) == parser.Idle
	})

	const relayed = "gemini (2):\n\nGEMINI-1 to: opencode (1): the second message"
	tm.typeText("\x1b[200~" + relayed + "\x1b[201~")
	tm.waitFor("the paste's summary in the input", 15*time.Second, func(s []string, _ string) bool {
		return contains(s, c.pasteShows)
	})
	time.Sleep(300 * time.Millisecond) // the submit delay the relay keeps, not synchronisation
	tm.typeText("\r")
	var idle []string
	tm.waitFor("opencode's footer saying it works", 120*time.Second, func(s []string, title string) bool {
		if !contains(s, "the second message") {
			return false
		}
		if idle == nil && parser.Classify(prof, title, s) == parser.Idle {
			idle = s
		}
		return contains(s, "esc interrupt")
	})
	if idle != nil {
		t.Errorf("the message's box under the last turn's ▣ row, no answer yet, read idle:\n%s", strings.Join(idle, "\n"))
	}
	if st := parser.Classify(prof, tm.vt.Title(), tm.vt.ScreenText()); st != parser.Busy {
		t.Errorf("with esc interrupt in its footer opencode is %v, want busy", st)
	}
	saveScreen(t, "opencode-next-turn", recording{
		what: "opencode 1.18.33 at 120x40 in a PTY through vterm, against the mock model\n" +
			"(agents/opencodedone_test.go): one turn answered, then a delivery pasted as the relay\n" +
			"types it and submitted. Its box stands under the last turn's ▣ row, with the ▣ row of\n" +
			"the turn begun under it (no time yet) and \"esc interrupt\" in the footer; the model has\n" +
			"not answered yet.",
		title: tm.vt.Title(), state: "busy", screen: tm.vt.ScreenText(),
	})
	waitTurn(t, tm, srv, c.name, 2, 240*time.Second)
}
