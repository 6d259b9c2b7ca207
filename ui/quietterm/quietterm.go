// Package quietterm keeps the libraries' package initialisation from querying the
// terminal. Bubble Tea v1's init asks Lip Gloss's default renderer whether the
// terminal's background is dark, and termenv answers by writing OSC 11 and a cursor
// position request to standard output and reading the reply from the terminal byte by
// byte, with the terminal in raw mode, for up to five seconds. In agentmux that would
// happen in every process whose standard output is a terminal, before main: one round
// trip to the terminal on every start (more over a slow ssh link), five seconds for a
// terminal that answers neither, and any key the person typed meanwhile read and
// dropped. agentmux asks the terminal what it needs itself (tty's probe, whose reader
// keeps the keys it reads) and never uses the default renderer's guess.
//
// Importing this package (ui does) is enough: Go initialises the packages ready to be
// initialised in the order of their import paths, and this one needs only Lip Gloss,
// while Bubble Tea's path sorts after it, so this init runs between Lip Gloss's and
// Bubble Tea's and the query never starts.
package quietterm

import "github.com/charmbracelet/lipgloss"

func init() {
	// Dark is what every agentmux renderer is told anyway (ui.runModel); the value only
	// matters for adaptive colours, which agentmux does not use.
	lipgloss.SetHasDarkBackground(true)
}
