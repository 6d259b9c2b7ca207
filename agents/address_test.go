//go:build agents

package agents

// Addressing with the real CLIs, in agentmux: `agentmux --link --turns 2 A B`, where A's
// model answers its first turn with words around an `@relay:` command,
//
//	Here is a note for my peer.
//	@relay:B please review the tests
//	That was all.
//
// as each CLI draws it (its answer bullet before the command, its own indentation and
// markdown). The turn holds a command, so B must get only its body, attributed: the
// words of `a (1):` + "please review the tests", nothing of the words around it; and B's
// answer, which holds no command, goes back to A whole as the second delivery, after
// which the budget stops it. Each CLI is the sender once: claude → codex, codex →
// gemini, gemini → claude.
//
// Not covered, because it fails (found with this test, Claude Code 2.1.197, Codex
// 0.169.0, Gemini CLI 0.61.0, panes 108 columns wide): a body longer than the pane is
// wide is cut where the CLI wraps it (all three wrap answers themselves, the next row
// indented like the answer, which reads as the command's end); and Codex draws an
// indented continuation line ("  and more") without its indentation (markdown), so only
// the command's first line goes.

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

func TestAddressedConversation(t *testing.T) {
	bin := buildAgentmux(t)
	for _, pair := range [][2]string{{"claude", "codex"}, {"codex", "gemini"}, {"gemini", "claude"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			addressedConversation(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]))
		})
	}
}

func addressedConversation(t *testing.T, bin string, a, b cli) {
	const body = "please review the tests"
	aLabel, bLabel := strings.ToUpper(a.name), strings.ToUpper(b.name)
	aReply := func(p mockmodel.Prompt) string {
		if p.N == 1 {
			return "Here is a note for my peer.\n@relay:" + b.name + " " + body + "\nThat was all."
		}
		return mockmodel.Numbered(aLabel, 6)(p)
	}
	p := startPair(t, bin, a, b, aReply, mockmodel.Numbered(bLabel, 6), "--link", "--turns", "2")
	tm, aSrv, bSrv := p.tm, p.aSrv, p.bSrv
	const opening = "hello from the addressing test"
	tm.submit(opening)

	waitTurn(t, tm, aSrv, a.name, 1, 60*time.Second)
	b1 := waitTurn(t, tm, bSrv, b.name+" (the addressed message)", 1, 120*time.Second)
	if want := a.name + " (1):\n\n" + body; !sameWords(b1.Prompt, want) {
		t.Errorf("the addressed delivery (%s → %s) = %q\nwant the words of %q", a.name, b.name, b1.Prompt, want)
	}
	a2 := waitTurn(t, tm, aSrv, a.name+" (the answer to the message)", 2, 120*time.Second)
	if want := b.name + " (2):\n\n" + b1.Reply; !sameWords(a2.Prompt, want) {
		t.Errorf("delivery 2 (%s → %s) = %q\nwant the words of %q", b.name, a.name, a2.Prompt, want)
	}
	t.Logf("addressed: %s → %s got %q; its answer → %s got %q", a.name, b.name, b1.Prompt, a.name, a2.Prompt)
}
