//go:build agents

package agents

// Hooks with the real CLIs: `agentmux --link --turns 1 A B`, A answering what the screen
// cannot give as the model wrote it, and the delivery into B must be that answer exactly,
// which only A's hook (Claude's Stop transcript, Codex's notify, Gemini's AfterAgent,
// Qwen's Stop) gives:
//
//   - a markdown answer (a table and a fenced code block, which every CLI renders
//     differently from how the model wrote it): the screen's delta would be the rendered
//     table and code;
//   - a long answer (200 numbered lines, far taller than the pane): the screen's delta
//     would be the rows still on screen at the turn's end, the top of the answer scrolled
//     away. B gets it as one 200-line paste, and what B's model received is the check, not
//     B's screen: a CLI may show a long paste collapsed.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

// markdownAnswer is A's answer: a table and a code block, as a model writes them.
const markdownAnswer = "Here is the plan:\n\n| step | owner |\n|------|-------|\n| parse | alice |\n| test | bob |\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\nDone."

// longAnswer is A's long answer: 200 numbered lines of a few words, about 6,000
// characters, within the relay's limit for one delivery (8,000: relay.Config.Limit) so
// nothing of it is cut by design.
func longAnswer() string {
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %03d of the long answer", i+1)
	}
	return strings.Join(lines, "\n")
}

func TestHooksGiveTheExactAnswer(t *testing.T) {
	bin := buildAgentmux(t)
	// Gemini's answer goes to Codex, not Claude: Claude Code's input turns a pasted tab
	// (the code block's indent) into spaces, whatever gave the text.
	for _, pair := range [][2]string{{"claude", "codex"}, {"codex", "gemini"}, {"gemini", "codex"}, {"qwen", "codex"}} {
		t.Run(pair[0], func(t *testing.T) {
			hookedAnswer(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]), markdownAnswer)
		})
	}
}

func TestHooksGiveALongAnswerWhole(t *testing.T) {
	bin := buildAgentmux(t)
	// A pair is {A, B}: A answers, B receives. A CLI is a row here once agentmux gives it a
	// hook that carries its answer as written.
	for _, pair := range [][2]string{{"claude", "codex"}, {"codex", "claude"}, {"gemini", "claude"}, {"qwen", "claude"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			hookedAnswer(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]), longAnswer())
		})
	}
}

// hookedAnswer runs `agentmux --link --turns 1 a b`, has a's model answer answer to a
// prompt typed into pane 1, and checks that b's model gets exactly "A (1):\n\n" and the
// answer, as the relay delivers it.
func hookedAnswer(t *testing.T, bin string, a, b cli, answer string) {
	p := startPair(t, bin, a, b, mockmodel.Fixed(answer), mockmodel.Fixed("ok"), "--link", "--turns", "1")
	tm, bSrv, state := p.tm, p.bSrv, p.state
	tm.submit("write the plan")
	b1 := waitTurn(t, tm, bSrv, b.name, 1, 120*time.Second)
	want := a.name + " (1):\n\n" + answer
	if got := strings.TrimSpace(b1.Prompt); got != want {
		t.Errorf("%s → %s delivered %q\nwant exactly %q\n%s", a.name, b.name, b1.Prompt, want, lineDiff(got, want))
	}
	// The delivery is typed after the hook reported (or HookWait after the screen went
	// idle without it): the log has the hook's report by now, if it came.
	log, err := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
	if err != nil {
		t.Fatal(err)
	}
	hook := regexp.MustCompile(fmt.Sprintf(`msg=hook pane=1 source=.* chars=%d\n`, len(answer)))
	if !hook.Match(log) {
		t.Errorf("agentmux.log has no %q: %s's hook did not give the answer whole", hook, a.name)
	}
}

// lineDiff describes where got and want first differ, line by line, and how many lines
// each has: a long delivery's error is unreadable as two quoted strings alone.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d: got %q, want %q (%d lines, want %d)", i+1, g[i], w[i], len(g), len(w))
		}
	}
	return fmt.Sprintf("the first %d lines agree; %d lines, want %d", min(len(g), len(w)), len(g), len(w))
}

// A person whose Gemini settings allow only some extensions (security.allowedExtensions)
// still gets a working Gemini pane: that setting skips agentmux's hook extension (it
// could stop Gemini from starting), and the pane's turns end by its screen.
func TestGeminiWithAllowedExtensionsStarts(t *testing.T) {
	bin := buildAgentmux(t)
	c := cliNamed(t, "gemini")
	srv, url := startMock(t, c.name, mockmodel.Fixed("fine here"), answerTime)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, url)...)
	writeFile(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{"security": map[string]any{
		"auth":              map[string]any{"selectedType": "gemini-api-key"},
		"allowedExtensions": []string{"^/nowhere/only-this$"},
	}})
	env = append(env, "XDG_STATE_HOME="+t.TempDir(), "XDG_RUNTIME_DIR="+t.TempDir())
	tm := startTerm(t, "agentmux", []string{bin, c.command()}, project, env, 120, 40)
	tm.waitPaneReady(c)
	tm.submit("say hi")
	if r := waitTurn(t, tm, srv, c.name, 1, 60*time.Second); r.Prompt != "say hi" {
		t.Errorf("the model got %q", r.Prompt)
	}
	tm.waitText(60*time.Second, "fine here")
}

// A person with Qwen Code system defaults of their own (QWEN_CODE_SYSTEM_DEFAULTS_PATH)
// keeps them: agentmux's Stop hook would take that layer's place, so that pane starts
// without hooks (the log says why) and its turns end by its screen.
func TestQwenWithOwnSystemDefaultsStarts(t *testing.T) {
	bin := buildAgentmux(t)
	c := cliNamed(t, "qwen")
	if !installed(t, c.name) {
		t.Skip("qwen not installed")
	}
	srv, url := startMock(t, c.name, mockmodel.Fixed("fine here"), answerTime)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, url)...)
	defaults := filepath.Join(t.TempDir(), "system-defaults.json")
	writeFile(t, defaults, map[string]any{"$version": 4, "privacy": map[string]any{"usageStatisticsEnabled": false}})
	state := t.TempDir()
	env = append(env, "QWEN_CODE_SYSTEM_DEFAULTS_PATH="+defaults, "XDG_STATE_HOME="+state, "XDG_RUNTIME_DIR="+t.TempDir())
	tm := startTerm(t, "agentmux", []string{bin, c.command()}, project, env, 120, 40)
	tm.waitPaneReady(c)
	tm.submit("say hi")
	if r := waitTurn(t, tm, srv, c.name, 1, 60*time.Second); r.Prompt != "say hi" {
		t.Errorf("the model got %q", r.Prompt)
	}
	tm.waitText(60*time.Second, "fine here")
	log, err := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "hooks off for a pane") || !strings.Contains(string(log), defaults) {
		t.Errorf("agentmux.log does not say the pane's hooks are off for the person's defaults %s:\n%s", defaults, log)
	}
}

// pausedAnswer is opencode's answer in TestOpencodePluginEndsThePausedTurn: its model
// stream pauses after the list, longer than the screen's quiet that once ended the turn.
const pausedAnswer = "Two steps:\n\n1. Build it.\n2. Run the tests.\n\n" +
	"Then read what they say, fix what failed, and run them again until every one of them passes; " +
	"this paragraph came after the pause and must be relayed with the rest."

// opencode's turn ends on its session.idle event, reported by agentmux's plugin: a turn
// whose model stream pauses mid-answer (4 s after "2. Run the tests.") is relayed whole,
// with the plugin's text, and the person's opencode config is byte for byte what it was.
func TestOpencodePluginEndsThePausedTurn(t *testing.T) {
	bin := buildAgentmux(t)
	a, b := cliNamed(t, "opencode"), cliNamed(t, "claude")
	for _, c := range []cli{a, b} {
		if !installed(t, c.name) {
			t.Skip(c.name + " not installed")
		}
	}
	aSrv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Fixed(pausedAnswer), Duration: answerTime,
		PauseAfter: "2. Run the tests.", Pause: 4 * time.Second})
	bSrv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Fixed("ok"), Duration: answerTime})
	var config string
	var before []byte
	p := startPairOn(t, bin, a, b, 220, 50, aSrv, bSrv, func(home string) {
		config = filepath.Join(home, ".config", "opencode", "opencode.json")
		var err error
		if before, err = os.ReadFile(config); err != nil {
			t.Fatal(err)
		}
	}, "--link", "--turns", "1")
	p.tm.submit("write the plan")
	b1 := waitTurn(t, p.tm, p.bSrv, b.name, 1, 120*time.Second)
	want := a.name + " (1):\n\n" + pausedAnswer
	if got := strings.TrimSpace(b1.Prompt); got != want {
		t.Errorf("%s → %s delivered %q\nwant exactly %q\n%s", a.name, b.name, b1.Prompt, want, lineDiff(got, want))
	}
	log, err := os.ReadFile(filepath.Join(p.state, "agentmux", "agentmux.log"))
	if err != nil {
		t.Fatal(err)
	}
	hook := regexp.MustCompile(fmt.Sprintf(`msg=hook pane=1 source="opencode opencode-idle hook" chars=%d\n`, len(pausedAnswer)))
	if !hook.Match(log) {
		t.Errorf("agentmux.log has no %q: the plugin did not end the turn with the answer", hook)
	}
	after, err := os.ReadFile(config)
	if err != nil || !bytes.Equal(after, before) {
		t.Errorf("the person's %s changed (err %v):\nbefore %s\nafter %s", config, err, before, after)
	}
}
