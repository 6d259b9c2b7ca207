package parser

// Strategy: tables of {profile, title, screen rows} → state, covering the order of the
// signals (approval first, then the title, then busy markers) and the live region: a
// marker above the last settled row, as scrollback keeps them, never counts.

import (
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	claude, codex, gemini, generic := ProfileFor("claude"), ProfileFor("codex"), ProfileFor("gemini"), Generic()
	rule := strings.Repeat("─", 30)
	idleBox := []string{rule, "❯\u00a0", rule, "  ⏵⏵ auto mode on (shift+tab to cycle)"}
	busyBox := []string{"✽ Quantumizing… (2s · ↓ 3 tokens)", rule, "❯\u00a0", rule, "  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt"}
	var filler []string
	for i := 0; i < 20; i++ {
		filler = append(filler, "● some answer text")
	}
	tests := []struct {
		name   string
		p      Profile
		title  string
		screen []string
		want   State
	}{
		{"claude idle title", claude, "✳ Claude Code", idleBox, Idle},
		{"claude busy title", claude, "◐ Claude Code", busyBox, Busy},
		{"claude busy title wins over an idle screen", claude, "◑ Claude Code", idleBox, Busy},
		{"claude no title, busy markers", claude, "", busyBox, Busy},
		{"claude no title, idle screen", claude, "", idleBox, Unknown},
		{"claude stale marker far above the live region", claude, "",
			append(append([]string{"  ⏵⏵ auto mode on · esc to interrupt", "● old answer"}, filler...), idleBox...), Unknown},
		{"claude permission prompt under an idle title", claude, "✳ Claude Code",
			[]string{"● Bash(rm -rf build)", "", " Do you want to proceed?", " ❯ 1. Yes", "   2. No"}, NeedsApproval},
		{"codex spinner title", codex, "⠦ project", nil, Busy},
		{"codex idle title", codex, "project", nil, Idle},
		{"codex action required", codex, "[ ! ] Action Required", nil, NeedsApproval},
		{"codex sign-in chooser", codex, "", []string{"  Choose how you want to use Codex.", "> 1. Sign in with ChatGPT", "  Press enter to continue"}, NeedsApproval},
		{"codex working row", codex, "", []string{"› hi", "", "• Working (0s • esc to interrupt)", "", "› Ask Codex to do anything"}, Busy},
		{"gemini ready", gemini, "◇  Ready (project)                      ", nil, Idle},
		{"gemini working", gemini, "✦  Working… (project)", nil, Busy},
		{"gemini hand", gemini, "✋  Action Required (project)", nil, NeedsApproval},
		{"gemini trust dialog under a ready title", gemini, "◇  Ready (project)",
			[]string{" ╭──────╮", " │ Do you trust the files in this folder? │", " │ ● 1. Trust folder (project) │", " ╰──────╯"}, NeedsApproval},
		{"generic knows nothing", generic, "bash", []string{"$ "}, Unknown},
		{"generic busy marker", generic, "", []string{"working... esc to interrupt"}, Busy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.p, tt.title, tt.screen); got != tt.want {
				t.Errorf("Classify = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStateString(t *testing.T) {
	for s, want := range map[State]string{Unknown: "unknown", Idle: "idle", Busy: "busy", NeedsApproval: "needs you", State(42): "unknown"} {
		if got := s.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(s), got, want)
		}
	}
}

func TestProfileFor(t *testing.T) {
	for argv0, want := range map[string]string{
		"claude":                      "claude",
		"/usr/local/bin/claude":       "claude",
		"codex":                       "codex",
		"/opt/codex/bin/codex.js":     "codex",
		"gemini":                      "gemini",
		"bash":                        "generic",
		"":                            "generic",
		"/home/me/bin/claude-wrapper": "generic",
	} {
		if got := ProfileFor(argv0).Name; got != want {
			t.Errorf("ProfileFor(%q) = %q, want %q", argv0, got, want)
		}
	}
	if got := (Profiles{}).For("claude").Name; got != "generic" {
		t.Errorf("empty set: %q, want generic", got)
	}
}

func TestBuiltinsAreCopies(t *testing.T) {
	a := Builtins()
	a["claude"].Chrome[0] = MustCompile("^x$")
	if Builtins()["claude"].Chrome[0].String() == "^x$" {
		t.Fatal("changing a copy changed the built-ins")
	}
}

// A profile of the person's may list a program by its file's name ("prompt.sh", as
// agentmux ls shows it) or without the extension ("prompt"): either is taken.
func TestProfileListsAProgramWithItsExtension(t *testing.T) {
	ps := Profiles{"askbot": {Name: "askbot", Programs: []string{"prompt.sh"}}, "py": {Name: "py", Programs: []string{"tool"}}}
	for argv0, want := range map[string]string{
		"./prompt.sh":          "askbot",
		"/tmp/prompt.sh":       "askbot",
		"prompt.py":            "generic",
		"/usr/bin/tool.py":     "py",
		"/usr/bin/tool":        "py",
		"/usr/bin/prompt.bash": "generic",
	} {
		if got := ps.For(argv0).Name; got != want {
			t.Errorf("For(%q) = %q, want %q", argv0, got, want)
		}
	}
}
