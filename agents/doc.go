// Package agents holds the real-agent tests of `make test-agents`: the actual Claude Code,
// Codex and Gemini CLIs, installed with npm by install.sh into a cache folder, run in PTYs
// against the fake model server of internal/mockmodel, first alone (a smoke test per CLI:
// it starts, a typed message is submitted, the mock's answer appears, the title goes busy
// and back to idle) and then inside the agentmux binary, linked, to check the relayed
// conversation end to end (every pair of the three; TestPairs links each of pi, Qwen Code
// and opencode with each of the others both ways, one subtest per ordered pair, and counts
// the deliveries that were exactly the sender's answer). Approval prompts are brought up by the
// mock answering a trigger word with a shell tool call: each CLI alone must show one the
// parser's built-in profile calls NeedsApproval (recorded into parser/testdata with
// AGENTS_UPDATE_SCREENS=1), and in agentmux a linked pane showing one must say `needs you`
// and get nothing typed into it until the person answers. The keys the relay sends for
// an urgent message are checked on each CLI alone (keys_test.go): the profile's interrupt
// keys must end a busy turn and its clear keys empty the input line, as parser.InputRow
// reads it (screens recorded into parser/testdata with AGENTS_UPDATE_SCREENS=1); and end
// to end in agentmux with each CLI (urgent_test.go): `agentmux send --urgent` into it
// mid-answer must cut the turn and reach the model as its next prompt. The web view's
// inbox is answered in a real headless Chromium at a phone's size (webinbox_test.go).
//
// Every test file carries the build tag `agents`, so `go test ./...` builds only this doc:
// the tests need the CLIs and minutes of wall time, and never run in CI. Run them with
// `make test-agents` (or `go test -tags agents ./agents/...` once install.sh has run), on the
// pinned versions install.sh names or, with AGENTS_VERSIONS=latest, the newest ones.
//
// The package has no code of its own; its tests import vterm (to read the screens),
// parser (the built-in profiles), internal/mockmodel, internal/ptytest, internal/oswait
// (to wait on agentmux's log) and chromedp (the browser), and nothing imports it.
package agents
