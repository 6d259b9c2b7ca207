// Package archtest holds no code: its test enforces the import graph the README's
// architecture section shows (cmd/agentmux → ui → {session, tty} → the leaves; session
// imports no bubbletea or lipgloss; ui reaches panes only through session), so a
// forbidden import fails here before it spreads.
package archtest
