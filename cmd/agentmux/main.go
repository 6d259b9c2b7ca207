// Command agentmux runs AI coding agents side by side in one terminal, each in its own
// PTY pane, with the person watching and typing into any of them.
//
// This package owns the command line and only parses and wires: every subcommand is
// declared once in commandTable (commands.go), the AGENT arguments, logging and exit
// codes; the screen is package ui, the agents' hooks package hooks. Only this package
// turns errors into exit statuses.
package main

import (
	"context"
	"fmt"
	"os"
)

func main() {
	code, err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		// An error may quote what a session or an agent said: shown, never obeyed.
		fmt.Fprintf(os.Stderr, "agentmux: %s\n", line(err.Error()))
	}
	os.Exit(code)
}
