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
	"strings"
)

func main() {
	code, err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		// An error may quote what a session or an agent said: shown, never obeyed.
		fmt.Fprintln(os.Stderr, errorLine(err))
	}
	os.Exit(code)
}

// errorLine is the one line of stderr that says err: "agentmux: " and the error, which
// a subcommand's own usage error already starts with its name ("agentmux send: …").
func errorLine(err error) string {
	msg := line(err.Error())
	if strings.HasPrefix(msg, "agentmux ") || strings.HasPrefix(msg, "agentmux:") {
		return msg
	}
	return "agentmux: " + msg
}
