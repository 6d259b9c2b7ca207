package demo

// Strategy: parse the simulated agent's command lines as agentmux restore writes them
// (Claude's --resume ID, Codex's resume ID with hook flags before it) and check the
// conversation its hooks would report.

import (
	"io"
	"strings"
	"testing"
)

func TestResumeForms(t *testing.T) {
	for _, tc := range []struct {
		args    string
		id      string
		resumed bool
	}{
		{"--style inline --resume c-1", "c-1", true},
		{"-c notify=[\"x\"] resume c-2 --style alt", "c-2", true},
		{"resume c-3", "c-3", true},
		{"--style inline", "", false},
	} {
		cfg, err := parseFlags(strings.Fields(tc.args), io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		if cfg.resumed != tc.resumed || tc.resumed && cfg.conversation != tc.id || cfg.hooks.conversation != cfg.conversation {
			t.Errorf("%s: conversation %q resumed %v, want %q %v", tc.args, cfg.conversation, cfg.resumed, tc.id, tc.resumed)
		}
		if !tc.resumed && !strings.HasPrefix(cfg.conversation, "fake-") {
			t.Errorf("%s: a new conversation %q", tc.args, cfg.conversation)
		}
	}
}
