//go:build agents

package agents

// What each CLI needs to run offline against the mock server (the setup recorded in
// testdata/agent-streams/README.md), and how its screen and title say it is ready,
// busy or idle. Claude Code and Gemini CLI get a fresh HOME per test; Codex copies ~400 MB
// into each new HOME and leaves an app-server daemon behind, so it gets one HOME in the
// cache folder, reused across runs, and the daemon is stopped when the test ends.

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

// dummyKey is the API key every CLI is given; nothing checks it. Claude Code asks about a
// custom key once unless its last 20 characters are pre-approved.
const dummyKey = "sk-ant-agentmux-test-0123456789abcdefghij"

// cacheDir is where install.sh put the CLIs (and where Codex's reused HOME lives).
func cacheDir() string {
	if d := os.Getenv("AGENTMUX_AGENTS_CACHE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "agentmux-agents")
}

// binDir returns the folder holding the CLIs' commands, failing the test with the fix when
// install.sh has not run (the commands named, when given, must be there).
func binDir(t *testing.T, need ...string) string {
	t.Helper()
	d := filepath.Join(cacheDir(), "node_modules", ".bin")
	if len(need) == 0 {
		need = []string{"claude"}
	}
	for _, b := range need {
		if _, err := os.Stat(filepath.Join(d, b)); err != nil {
			t.Fatalf("%s not installed in %s: run agents/install.sh (make test-agents does)", b, d)
		}
	}
	return d
}

// baseEnv is the environment every CLI runs with: like the fixture recordings (an env -i
// style minimum), plus what agentmux's panes get (COLORTERM).
func baseEnv(t *testing.T, home string) []string {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node not found: the CLIs need Node.js 20+: %v", err)
	}
	path := strings.Join([]string{binDir(t), filepath.Dir(node), "/usr/local/bin", "/usr/bin", "/bin"}, ":")
	return []string{"PATH=" + path, "HOME=" + home, "TERM=xterm-256color", "COLORTERM=truecolor",
		"LANG=C.UTF-8", "USER=" + os.Getenv("USER"), runVar + "=" + runID(t)}
}

// runVar names the variable baseEnv gives every program a test starts, set to the test's
// runID, which the programs' children inherit: what a test leaves behind is told by it
// from the programs of a test running at the same time in the same folder (another
// checkout's, in Codex's shared project folder).
const runVar = "AGENTMUX_AGENTS_RUN"

// runID is runVar's value for t: this test process and the test's name.
func runID(t *testing.T) string {
	return fmt.Sprintf("%d %s", os.Getpid(), t.Name())
}

// startedBy reports whether the process with the given decimal pid carries t's runID.
func startedBy(t *testing.T, pid string) bool {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "environ"))
	if err != nil {
		return false
	}
	return slices.Contains(strings.Split(string(b), "\x00"), runVar+"="+runID(t))
}

// startMock serves a mockmodel.Server with the given answers on 127.0.0.1; it is closed when
// the test ends, after its request log has been written to the test log.
func startMock(t *testing.T, name string, reply mockmodel.ReplyFunc, d time.Duration) (*mockmodel.Server, string) {
	t.Helper()
	s := mockmodel.New(mockmodel.Options{Reply: reply, Duration: d})
	return s, serveMock(t, name, s)
}

// serveMock serves s on 127.0.0.1 like startMock, for a server the test configured itself.
func serveMock(t *testing.T, name string, s *mockmodel.Server) string {
	t.Helper()
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		var b strings.Builder
		for _, r := range s.Requests() {
			fmt.Fprintln(&b, "  ", r)
		}
		t.Logf("%s mock server requests:\n%s", name, b.String())
		s.Close()
		hs.Close()
	})
	return hs.URL
}

// writeFile writes data (a string, or any value as JSON) to path, making its folder.
func writeFile(t *testing.T, path string, data any) {
	t.Helper()
	var b []byte
	switch v := data.(type) {
	case string:
		b = []byte(v)
	default:
		var err error
		if b, err = json.MarshalIndent(v, "", "  "); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// setupClaude seeds home so Claude Code starts without dialogs against url, with the
// renderer pinned ("default": main screen; "fullscreen": alternate screen). It returns the
// extra environment.
func setupClaude(t *testing.T, home, project, url, renderer string) []string {
	writeFile(t, filepath.Join(home, ".claude.json"), map[string]any{
		"hasCompletedOnboarding": true,
		"autoUpdates":            false,
		"customApiKeyResponses":  map[string]any{"approved": []string{dummyKey[len(dummyKey)-20:]}, "rejected": []string{}},
		"projects":               map[string]any{project: map[string]any{"hasTrustDialogAccepted": true}},
	})
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), map[string]any{"tui": renderer})
	return []string{"ANTHROPIC_API_KEY=" + dummyKey, "ANTHROPIC_BASE_URL=" + url, "DISABLE_AUTOUPDATER=1"}
}

// setupClaudeAsking is setupClaude (main screen) for a Claude Code that asks the person
// before it runs a tool. Since 2.1.332 its default permission mode is auto ("⏵⏵ auto
// mode on" under its prompt), which runs the mock's shell call unasked; the mode named
// "default" asks, as every version's default did before.
func setupClaudeAsking(t *testing.T, home, project, url string) []string {
	env := setupClaude(t, home, project, url, "default")
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), claudeAsks(map[string]any{"tui": "default"}))
	return env
}

// claudeAsks adds the permission mode that asks to Claude Code's settings.
func claudeAsks(settings map[string]any) map[string]any {
	settings["permissions"] = map[string]any{"defaultMode": "default"}
	return settings
}

// setupCodex writes Codex's config for url into home (reused: see codexHome) and returns
// the extra environment.
func setupCodex(t *testing.T, home, project, url string) []string {
	return setupCodexWith(t, home, project, url, "")
}

// setupCodexWith is setupCodex with extra top-level config lines (e.g. an approval policy).
func setupCodexWith(t *testing.T, home, project, url, extra string) []string {
	writeFile(t, filepath.Join(home, ".codex", "config.toml"), fmt.Sprintf(`# written by agentmux's agents tests
%smodel_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = %q
env_key = "MOCK_API_KEY"
wire_api = "responses"
supports_websockets = false

[projects.%q]
trust_level = "trusted"
`, extra, url+"/v1", project))
	return []string{"MOCK_API_KEY=dummy"}
}

// setupGemini seeds home so Gemini CLI uses an API key and trusts project, and returns the
// extra environment.
func setupGemini(t *testing.T, home, project, url string) []string {
	writeFile(t, filepath.Join(home, ".gemini", "settings.json"),
		map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
	writeFile(t, filepath.Join(home, ".gemini", "trustedFolders.json"), map[string]any{project: "TRUST_FOLDER"})
	return []string{"GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL=" + url}
}

// setupPi seeds home with a models.json naming url as an Anthropic-API provider "mock"
// with one model, and returns the extra environment. pi starts with --offline (no update
// check, no network at start) and --provider mock --model mock (see clis).
func setupPi(t *testing.T, home, project, url string) []string {
	writeFile(t, filepath.Join(home, ".pi", "agent", "models.json"), map[string]any{
		"providers": map[string]any{"mock": map[string]any{
			"baseUrl": url, "api": "anthropic-messages", "apiKey": "dummy",
			"models": []any{map[string]any{"id": "mock", "name": "mock", "reasoning": false, "input": []string{"text"},
				"contextWindow": 200000, "maxTokens": 8192,
				"cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}},
		}},
	})
	return []string{"PI_OFFLINE=1"}
}

// setupQwen seeds home so Qwen Code uses an OpenAI-compatible key against url (its
// chat/completions API) with no dialog, trusts project, and sends no usage statistics;
// it returns the extra environment.
func setupQwen(t *testing.T, home, project, url string) []string {
	writeFile(t, filepath.Join(home, ".qwen", "settings.json"), map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		"model":    map[string]any{"name": "mock"},
		"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
	})
	writeFile(t, filepath.Join(home, ".qwen", "trustedFolders.json"), map[string]any{project: "TRUST_FOLDER"})
	return []string{"OPENAI_API_KEY=dummy", "OPENAI_BASE_URL=" + url + "/v1", "OPENAI_MODEL=mock"}
}

// setupOpencode seeds home with an opencode config naming url as an OpenAI-compatible
// provider "mock" with one model, the default, and no auto-update or sharing; it returns
// the extra environment.
func setupOpencode(t *testing.T, home, project, url string) []string {
	writeFile(t, filepath.Join(home, ".config", "opencode", "opencode.json"), map[string]any{
		"$schema":     "https://opencode.ai/config.json",
		"model":       "mock/mock",
		"small_model": "mock/mock",
		"autoupdate":  false,
		"share":       "disabled",
		"provider": map[string]any{"mock": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "mock",
			"options": map[string]any{"baseURL": url + "/v1", "apiKey": "dummy"},
			"models":  map[string]any{"mock": map[string]any{"name": "mock"}},
		}},
	})
	// opencode installs its plugin package (@opencode-ai/plugin) into its config folder
	// by itself, in the background, and waits for that before it loads any plugin (as
	// agentmux's): offline, npm gives up after about 45 s. Here the registry refuses at
	// once, as a machine offline would with no retries.
	return []string{"npm_config_registry=http://127.0.0.1:9/", "npm_config_fetch_retries=0",
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
}

// freshHome makes a new HOME with a project folder in it.
func freshHome(t *testing.T) (home, project string) {
	home = t.TempDir()
	project = filepath.Join(home, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	return home, project
}

// codexHomePath returns the HOME reused for Codex and its project folder.
func codexHomePath() (home, project string) {
	home = filepath.Join(cacheDir(), "home")
	return home, filepath.Join(home, "project")
}

// codexHome returns the HOME reused by every test that runs Codex (Codex installs ~400 MB of
// app-server into each new HOME).
func codexHome(t *testing.T) (home, project string) {
	home, project = codexHomePath()
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	return home, project
}

// cleanUpAgents registers, before the programs start (so it runs after they are stopped), the
// stop of what agent CLIs leave behind: Codex's app-server daemon when home is Codex's, then
// any process still working in project.
func cleanUpAgents(t *testing.T, home, project string) {
	t.Cleanup(func() {
		if codex, _ := codexHomePath(); home == codex {
			stopCodexDaemon(t, home)
		}
		killStragglers(t, project)
	})
}

// stopCodexDaemon runs `codex app-server daemon stop` under home, then ends the helper
// processes the daemon leaves (its pid-update loop), found by their executable living under
// home's .codex folder: only processes this test's Codex started.
func stopCodexDaemon(t *testing.T, home string) {
	cmd := exec.Command(filepath.Join(binDir(t), "codex"), "app-server", "daemon", "stop")
	cmd.Env = append(baseEnv(t, home), "MOCK_API_KEY=dummy")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Logf("codex app-server daemon stop: %v\n%s", err, out)
	}
	prefix := filepath.Join(home, ".codex") + "/"
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.HasPrefix(string(b), prefix) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if err == nil && pid != os.Getpid() {
			t.Logf("stopping leftover Codex helper %d: %s", pid, strings.ReplaceAll(string(b), "\x00", " "))
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
	}
}

// killStragglers ends processes still running in project after the test (agent CLIs whose
// pane outlived agentmux), found by their working directory and t's runID: only this
// test's processes, not those of a test running at the same time in the same folder.
func killStragglers(t *testing.T, project string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, p := range procs {
		pidDir := filepath.Dir(p)
		dir, err := os.Readlink(p)
		if err != nil || dir != project || !startedBy(t, filepath.Base(pidDir)) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(pidDir, "cmdline"))
		t.Logf("killing leftover process %s: %s", filepath.Base(pidDir), strings.ReplaceAll(string(cmdline), "\x00", " "))
		killPid(filepath.Base(pidDir))
	}
}

// killPid sends SIGKILL to the process with the given decimal pid.
func killPid(pid string) {
	if n, err := strconv.Atoi(pid); err == nil && n != os.Getpid() {
		_ = syscall.Kill(n, syscall.SIGKILL)
	}
}

// cli describes one agent CLI for the tests: its command, the setup it needs and its signals.
type cli struct {
	// name names the test; bin is the command (default: name), args its arguments.
	name, bin string
	args      []string
	// setup prepares home for the CLI talking to url and returns extra environment.
	setup func(t *testing.T, home, project, url string) []string
	// home gives the HOME to use: fresh, or Codex's reused one.
	home func(t *testing.T) (home, project string)
	// ready reports whether the CLI has started and waits for input.
	ready func(screen []string, title string) bool
	// busy and idle classify a title (the first-choice turn signal of the relay's profiles).
	busy, idle func(title string) bool
	// screenState: the title never says busy or idle (pi, opencode), so the tests read
	// the turn from the screen as agentmux does, by the CLI's profile (parser.Classify:
	// its busy row or footer).
	screenState bool
	// bullet starts the answer line on screen.
	bullet string
	// restoresPrompt: interrupted before its answer begins, the CLI puts the message it
	// was given back into its input line (measured by keys_test.go: Claude Code does).
	restoresPrompt bool
	// keepsInterrupted: a message interrupted before its request goes out stays in the
	// CLI's conversation, not its input line, and goes to the model joined to the next
	// one (measured by keys_test.go: Qwen Code shows it sent, then "Request cancelled.").
	keepsInterrupted bool
	// pasteShows is what the CLI shows in its input for a pasted message of several
	// lines, when not the message itself (opencode: "[Pasted ~3 lines]").
	pasteShows string
	// paneReady are texts that, all on screen inside its pane, show the CLI ready for input
	// when it runs in agentmux (where the title is not the outer terminal's).
	paneReady []string
	// resumedReady, when set, replaces paneReady for the CLI started on an earlier
	// conversation (opencode shows its "Ask anything" placeholder only in a new one).
	resumedReady []string
}

// cliNamed returns the CLI called name.
func cliNamed(t *testing.T, name string) cli {
	t.Helper()
	for _, c := range clis {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no CLI named %q", name)
	return cli{}
}

// spinnerTitle reports whether a title starts with a braille spinner glyph and a space.
func spinnerTitle(title string) bool {
	r := []rune(title)
	return len(r) > 1 && r[0] >= 0x2800 && r[0] <= 0x28ff && r[1] == ' '
}

// contains reports whether any screen row contains s.
func contains(screen []string, s string) bool {
	for _, row := range screen {
		if strings.Contains(row, s) {
			return true
		}
	}
	return false
}

// command returns the CLI's command line as agentmux takes it: its name, then its
// arguments.
func (c cli) command() string {
	return strings.Join(append([]string{c.program()}, c.args...), " ")
}

// program returns the CLI's command name.
func (c cli) program() string {
	if c.bin != "" {
		return c.bin
	}
	return c.name
}

// argv returns the CLI's command and arguments to run it directly, from dir.
func (c cli) argv(dir string) []string {
	return append([]string{filepath.Join(dir, c.program())}, c.args...)
}

// clis are the three CLIs with the signals measured on them (Claude Code 2.1.197 busy
// titles are braille spinners, 2.1.330's are ◐/◑: either counts).
var clis = []cli{
	{
		name: "claude",
		setup: func(t *testing.T, home, project, url string) []string {
			return setupClaude(t, home, project, url, "default")
		},
		home:  freshHome,
		ready: func(s []string, title string) bool { return title == "✳ Claude Code" && contains(s, "❯") },
		busy: func(title string) bool {
			return strings.HasSuffix(title, " Claude Code") && !strings.HasPrefix(title, "✳")
		},
		idle:           func(title string) bool { return title == "✳ Claude Code" },
		bullet:         "●",
		restoresPrompt: true,
		// Its prompt row: 2.1.197 shows "? for shortcuts" under it, 2.1.332 its
		// permission mode ("⏵⏵ auto mode on") instead.
		paneReady: []string{"❯"},
	},
	{
		name: "claude-fullscreen", bin: "claude",
		setup: func(t *testing.T, home, project, url string) []string {
			return setupClaude(t, home, project, url, "fullscreen")
		},
		home:  freshHome,
		ready: func(s []string, title string) bool { return title == "✳ Claude Code" && contains(s, "❯") },
		busy: func(title string) bool {
			return strings.HasSuffix(title, " Claude Code") && !strings.HasPrefix(title, "✳")
		},
		idle:           func(title string) bool { return title == "✳ Claude Code" },
		bullet:         "●",
		restoresPrompt: true,
	},
	{
		name:  "codex",
		setup: setupCodex,
		home:  codexHome,
		ready: func(s []string, title string) bool {
			return contains(s, "Ask Codex to do anything") && title != "" && !spinnerTitle(title)
		},
		busy:      spinnerTitle,
		idle:      func(title string) bool { return title != "" && !spinnerTitle(title) },
		bullet:    "•",
		paneReady: []string{"Ask Codex to do anything"},
	},
	{
		// pi 0.73.1: its title never changes, so busy and idle are read from the screen.
		name:        "pi",
		args:        []string{"--offline", "--provider", "mock", "--model", "mock"},
		setup:       setupPi,
		home:        freshHome,
		ready:       func(s []string, _ string) bool { return contains(s, "%/200k") },
		busy:        func(string) bool { return false },
		idle:        func(string) bool { return true },
		screenState: true,
		paneReady:   []string{"%/200k"},
	},
	{
		// Qwen Code 0.24.4: it takes ~15 s to start ("Initializing..."), keys typed
		// before it shows its placeholder are lost.
		name:  "qwen",
		setup: setupQwen,
		home:  freshHome,
		ready: func(s []string, title string) bool {
			return strings.HasPrefix(title, "Qwen - ") && contains(s, "Type your message")
		},
		busy:             func(title string) bool { return strings.HasPrefix(title, "◐") },
		idle:             func(title string) bool { return strings.HasPrefix(title, "Qwen - ") },
		bullet:           "◆\uFE0E", // with a text-style variation selector
		keepsInterrupted: true,
		paneReady:        []string{"Type your message"},
	},
	{
		// opencode 1.18.33: its title never says busy or idle.
		name:        "opencode",
		setup:       setupOpencode,
		home:        freshHome,
		ready:       func(s []string, _ string) bool { return contains(s, "Ask anything") },
		busy:        func(string) bool { return false },
		idle:        func(string) bool { return true },
		screenState: true,
		pasteShows:  "[Pasted ~3 lines]",
		paneReady:   []string{"Ask anything"},
		// Resumed: the conversation drawn, and its input box's footer.
		resumedReady: []string{"ans-2 to: second", "ctrl+p commands"},
	},
	{
		name:  "gemini",
		setup: setupGemini,
		home:  freshHome,
		ready: func(s []string, title string) bool {
			// The title says Ready ~2 s before Enter submits; the "? for shortcuts" hint
			// appears when it does.
			return strings.HasPrefix(title, "◇  Ready") && contains(s, "Type your message") &&
				contains(s, "? for shortcuts")
		},
		busy:   func(title string) bool { return strings.HasPrefix(title, "✦  Working") },
		idle:   func(title string) bool { return strings.HasPrefix(title, "◇  Ready") },
		bullet: "✦",
		// In pane 1 it is given the opening message: "? for shortcuts" shows when an
		// Enter would submit it (see ready).
		paneReady: []string{"Type your message", "? for shortcuts"},
	},
}
