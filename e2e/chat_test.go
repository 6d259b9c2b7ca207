package e2e

// Chat programs that no built-in profile knows, relayed through real PTYs under the
// generic profile. TestChatBotsRelayExactAnswers runs two simulated chat programs
// (testdata/fakeagent, package demo's line, bare and full styles: a line-mode REPL, an
// inline UI with an input box, a full-screen UI, answering from the seeded corpus)
// in agentmux, linked with --link --turns 2 and stacked (--layout rows: panes 18 rows
// tall, so many answers are longer than the pane), for every ordered pair of different
// styles and two seeds (12 runs: each style sends and receives; the turn budget is
// checked exactly by the reproduction and the property runs): a person's message starts
// the conversation in pane 1, and each bot logs what it received and answered (a JSON
// transcript), so every delivery is compared exactly with the answer it carries:
// "NAME (N):", a blank line and the whole answer (newlines typed as spaces into the REPL,
// which takes no bracketed paste). TestIssueReproduction runs the issue's bot.sh, a bash
// read -p loop, the same way: its answers count the characters it received, so a
// delivery that carried anything but the other bot's two lines would show in them.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// bot is one chat bot in a relay test.
type bot struct {
	fake
	seed int
	// wrap, when set, is a shell script the bot is started through (sh WRAP BOT ARGS).
	wrap string
}

// arg is the AGENT argument running the bot (its name is no built-in profile's).
func (b *bot) arg() string {
	cmd := fmt.Sprintf("'%s'", fakeAgentBin)
	if b.wrap != "" {
		cmd = fmt.Sprintf("sh '%s' '%s'", b.wrap, fakeAgentBin)
	}
	return fmt.Sprintf("%s=%s --name %s --style %s --reply corpus --seed %d --busy 100ms --pace 30ms --max-chars 1200 --transcript '%s'",
		b.name, cmd, b.name, b.style, b.seed, b.transcript)
}

// banner is what the bot shows first.
func (b *bot) banner() string {
	switch b.style {
	case "bare":
		return "✻ Welcome to " + b.name + " chat"
	case "full":
		return b.name + " · ready"
	case "boxed":
		return "* " + b.name + " code · mock-model"
	case "clear":
		return b.name + " ── chat"
	case "inline":
		return b.name + " · simulated agent"
	case "alt":
		return "› Ask " + b.name + " to do anything"
	}
	return b.name + " ready."
}

func TestChatBotsRelayExactAnswers(t *testing.T) {
	t.Parallel()
	styles := []string{"line", "bare", "full"}
	for seed := 1; seed <= 2; seed++ {
		for _, a := range styles {
			for _, b := range styles {
				if a == b {
					continue
				}
				t.Run(fmt.Sprintf("%s-%s-%d", a, b, seed), func(t *testing.T) {
					t.Parallel()
					runChat(t, seed, a, b)
				})
			}
		}
	}
}

// The styles that were not read exactly: an Ink-like program with a boxed input and its
// cursor parked under it, and a full-screen program that clears and redraws its screen
// with no synchronized output; each sends to and receives from another style, and each
// other.
func TestBoxedAndClearingBotsRelayExactAnswers(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{{"boxed", "clear"}, {"clear", "boxed"}, {"line", "boxed"}, {"boxed", "full"}, {"bare", "clear"}, {"clear", "line"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			t.Parallel()
			runChat(t, 3, pair[0], pair[1])
		})
	}
}

// The Claude-Code-like and Codex-like styles under the generic profile (package demo's
// inline and alt styles run as themselves, not as claude and codex): the inline style
// draws its input box between two rules with a footer under it and keeps its hidden
// cursor on the footer, a reverse-video cell in the box for a cursor, and the alt style
// opens its answers with "• ". Each delivery is exactly the answer: not the box's empty
// prompt row after it, not the bullet before it.
func TestClaudeAndCodexLikeBotsRelayExactAnswers(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{{"inline", "alt"}, {"alt", "inline"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			t.Parallel()
			runChat(t, 4, pair[0], pair[1])
		})
	}
}

// blankStart starts a program after two seconds on a blank alternate screen, as a
// full-screen program that clears its screen and draws its UI only once it has loaded.
const blankStart = `printf '\033[?1049h\033[2J\033[H'
sleep 2
exec "$@"
`

// A full-screen program no profile knows, started on a blank screen (the pane counts as
// started before the program draws anything): its UI, drawn seconds later, is not
// relayed as a turn, and the conversation goes as with any other, each delivery exact.
func TestBlankStartFullScreenBot(t *testing.T) {
	t.Parallel()
	wrap := filepath.Join(t.TempDir(), "blank.sh")
	if err := os.WriteFile(wrap, []byte(blankStart), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{"full", "line"}, {"clear", "bare"}, {"full", "clear"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			t.Parallel()
			runChatWrapped(t, 4, pair[0], pair[1], wrap)
		})
	}
}

// runChat runs one conversation of two deliveries, one each way, between a bot of style
// a and one of style b, and checks each delivery.
func runChat(t *testing.T, seed int, a, b string) { runChatWrapped(t, seed, a, b, "") }

// runChatWrapped is runChat with the bot of style a started through the shell script
// wrap (none: "").
func runChatWrapped(t *testing.T, seed int, a, b, wrap string) {
	alice := &bot{fake: *newFake(t, 1, "alice", a), seed: 10*seed + 1, wrap: wrap}
	bob := &bot{fake: *newFake(t, 2, "bob", b), seed: 10*seed + 2}
	rs := &relaySession{session: start(t, "--idle", "800ms", "--layout", "rows", "--link", "--turns", "2",
		alice.arg(), bob.arg()), agents: []*fake{&alice.fake, &bob.fake}}
	rs.diag = rs.transcripts
	rs.waitScreen("both bots' first screens", func(scr *screen) bool {
		return scr.paneHas(1, alice.banner()) && scr.paneHas(2, bob.banner()) && scr.statusHas("1⇄2 0/2")
	}, waitLong)
	rs.send("hello there\r")
	rs.wait("two deliveries, the group severed, alice's second answer logged", func(scr *screen) bool {
		return severed(scr) && len(alice.read().out) == 2 && len(bob.read().out) == 1
	})
	ta, tb := alice.read(), bob.read()
	if len(ta.in) != 2 || len(tb.in) != 1 || ta.in[0] != "hello there" {
		t.Fatalf("alice received %d messages (first %q), bob %d; want 2 (the person's first) and 1\n%s",
			len(ta.in), ta.in[0], len(tb.in), rs.transcripts())
	}
	pairs := []struct {
		got      string
		from, to *bot
		answer   string
	}{
		{tb.in[0], alice, bob, ta.out[0]},
		{ta.in[1], bob, alice, tb.out[0]},
	}
	for i, p := range pairs {
		want := p.from.frame() + "\n\n" + p.answer
		if p.to.style == "line" {
			want = strings.ReplaceAll(want, "\n", " ")
		}
		if p.got != want {
			t.Errorf("delivery %d, %s → %s (%s → %s):\n got %q\nwant %q", i+1, p.from.name, p.to.name,
				p.from.style, p.to.style, p.got, want)
		}
	}
	if t.Failed() {
		t.Logf("last screen:\n%s", rs.describe())
	}
}

// botScript is the issue's reproduction: a bash read -p chat loop.
const botScript = `n=0
echo "$1 ready."
while IFS= read -r -p "$1> " line; do
  n=$((n+1)); sleep 1
  echo "$1 answer $n: I got ${#line} characters."
  echo "Second line of answer $n."
done
`

func TestIssueReproduction(t *testing.T) {
	t.Parallel()
	runBotScript(t, botScript)
}

// The same loop reading with readline (read -e), which turns bracketed paste on and
// still takes one line per Enter: each delivery of two lines arrived as its first line
// ("a (1):") alone. It arrives whole, as one line.
func TestReadlineLoopGetsWholeMessages(t *testing.T) {
	t.Parallel()
	runBotScript(t, strings.Replace(botScript, "read -r -p", "read -e -r -p", 1))
}

// runBotScript runs two copies of a bash chat loop linked with --turns 4 and checks
// every delivery by the character counts the loop answers with.
func runBotScript(t *testing.T, script string) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bash: %v", err)
	}
	path := filepath.Join(t.TempDir(), "bot.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := start(t, "--link", "--turns", "4", "a=bash "+path+" a", "b=bash "+path+" b")
	s.waitScreen("both bots' prompts", func(scr *screen) bool {
		return scr.paneHas(1, "a>") && scr.paneHas(2, "b>") && scr.statusHas("1⇄2 0/4")
	}, waitLong)
	s.send("hello there\r")
	// Each delivery is "NAME (N):", a blank line and the two lines of the answer, typed
	// with its newlines as spaces: the bot counts its characters in its next answer.
	delivered := func(name string, n, got int) int {
		return utf8.RuneCountInString(fmt.Sprintf("%s (%d):  %s answer %d: I got %d characters. Second line of answer %d.",
			name, map[string]int{"a": 1, "b": 2}[name], name, n, got, n))
	}
	b1 := delivered("a", 1, len("hello there"))
	a2 := delivered("b", 1, b1)
	b2 := delivered("a", 2, a2)
	a3 := delivered("b", 2, b2)
	want := []struct {
		pane int
		text string
	}{
		{2, fmt.Sprintf("b answer 1: I got %d characters.", b1)},
		{1, fmt.Sprintf("a answer 2: I got %d characters.", a2)},
		{2, fmt.Sprintf("b answer 2: I got %d characters.", b2)},
		{1, fmt.Sprintf("a answer 3: I got %d characters.", a3)},
	}
	for _, w := range want {
		s.waitScreen(fmt.Sprintf("pane %d: %q", w.pane, w.text), func(scr *screen) bool {
			return paneJoined(scr, w.pane, w.text)
		}, relayWait)
	}
	s.waitScreen("the budget spent after four deliveries", func(scr *screen) bool { return severed(scr) }, relayWait)
	// The budget is exact: a's third answer is not delivered.
	s.send("\x01r")
	scr := s.waitScreen("the relay log", func(scr *screen) bool { return len(deliveryRows(scr)) >= 4 }, relayWait)
	if rows := deliveryRows(scr); len(rows) != 4 {
		t.Errorf("the relay log shows %d deliveries, want 4:\n%s", len(rows), strings.Join(rows, "\n"))
	}
}

// paneJoined reports whether pane n's rows, joined as they are (a long line wraps over
// whole rows), contain x.
func paneJoined(scr *screen, n int, x string) bool {
	p, ok := scr.pane(n)
	if !ok {
		return false
	}
	return strings.Contains(strings.Join(p.lines, ""), x)
}
