// Package archtest holds no code: its test enforces the import graph of
// docs/ARCHITECTURE (cmd/agentmux → ui → {relay, parser, ptyhost, vterm, keys}; relay → parser;
// vterm, ptyhost, parser, keys and demo import nothing of the project; only ui imports
// bubbletea and lipgloss).
package archtest
