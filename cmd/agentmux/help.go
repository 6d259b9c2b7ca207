package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/agentmux/agentmux/docs"
)

// This file makes every help agentmux prints from the command table: agentmux --help
// (and agentmux help), help NAME and NAME --help.

// startUsage is how agentmux --help starts: the ways to start a session, and what an
// AGENT is.
const startUsage = `usage: agentmux [flags] AGENT [AGENT...]
       agentmux --detached [flags] AGENT [AGENT...]   no terminal: print its name
       agentmux COMMAND [ARGS...]                     below (agentmux help COMMAND)

AGENT is a command line, split like a POSIX shell would (quotes honoured), or
NAME=COMMAND to name the pane: agentmux alice=claude bob="codex --full-auto"
Leading upper-case VAR=value words set environment variables, as in a shell:
agentmux 'FOO=bar bash'. Flags may also follow the agents; -- ends them.
`

// keysLine follows agentmux's own flags in agentmux --help.
const keysLine = "Keys: prefix ? shows every binding; prefix d detaches; prefix q ends the session (asks).\n"

// shortColumn is where the overview's one-line helps start.
const shortColumn = 46

// mainHelp is agentmux --help and agentmux help: how to start a session and
// agentmux's own flags, then every command the table shows, each by its synopsis (so
// with every flag it takes) and its one line, the session commands last.
func mainHelp() string {
	var b strings.Builder
	b.WriteString(startUsage)
	b.WriteString("\nflags:\n" + flagHelp(mainFlagSpecs()) + "\n\n")
	b.WriteString(keysLine)
	b.WriteString("\ncommands:\n")
	for _, c := range commandTable {
		if !c.session {
			overviewEntry(&b, c)
		}
	}
	b.WriteString("\nsession commands (each talks to a running agentmux over its socket):\n")
	for _, c := range commandTable {
		if c.session {
			overviewEntry(&b, c)
		}
	}
	b.WriteString(commonFlagHelp() + "\n")
	return b.String()
}

// overviewEntry writes c's lines of the overview: its synopsis, then its one line
// at shortColumn (on a line of its own below a synopsis of more lines, or one that
// reaches it).
func overviewEntry(b *strings.Builder, c command) {
	if c.hidden || c.sameAs != "" {
		return
	}
	lines := synopsisLines(c.synopsis)
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("  " + l)
	}
	last := 2 + len([]rune(lines[0]))
	if len(lines) > 1 || last+2 > shortColumn {
		b.WriteString("\n")
		last = 0
	}
	b.WriteString(strings.Repeat(" ", shortColumn-last) + c.short + "\n")
}

// synopsisLines are a synopsis's lines, a continuation (a line starting with spaces)
// indented under the line it continues.
func synopsisLines(synopsis string) []string {
	lines := strings.Split(synopsis, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, " ") {
			lines[i] = "    " + strings.TrimLeft(l, " ")
		}
	}
	return lines
}

// lookupCommand returns the subcommand called name, with the synopsis and help of the
// one it is the same as (wake: remind's).
func lookupCommand(name string) (command, bool) {
	for _, c := range commandTable {
		if c.name == name {
			if c.sameAs != "" {
				s, _ := lookupCommand(c.sameAs)
				c.synopsis, c.help = s.synopsis, s.help
			}
			return c, true
		}
	}
	return command{}, false
}

// nearCommand is the command word was most likely meant for, a typo away from its
// name (two edits at most, a swap of neighbours one, and fewer than its length), as
// `agentmux atach` or `agentmux sned`: a first argument that is no program. Hidden
// commands are never suggested.
func nearCommand(word string) (string, bool) {
	best, bestD := "", 3
	for _, c := range commandTable {
		if c.hidden {
			continue
		}
		if d := typoDistance(strings.ToLower(word), c.name); d < bestD && d < len(word) {
			best, bestD = c.name, d
		}
	}
	return best, best != ""
}

// typoDistance is the optimal string alignment distance of a and b (by bytes): the
// insertions, deletions, substitutions and swaps of two neighbours that make one the
// other.
func typoDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// isClientCommand reports whether word names a session command.
func isClientCommand(word string) bool {
	c, ok := lookupCommand(word)
	return ok && c.session
}

// runHelp prints agentmux's usage, or a command's: exit 2 for a command that does not
// exist.
func runHelp(args []string, w io.Writer) (int, error) {
	if len(args) == 0 {
		_, err := io.WriteString(w, mainHelp()+guidesLine())
		return 0, err
	}
	if len(args) > 1 {
		return 2, usagef("agentmux help takes one command or topic (got %d)", len(args))
	}
	if c, ok := lookupCommand(args[0]); ok && !c.hidden && !strings.HasSuffix(args[0], ".md") {
		_, err := fmt.Fprintln(w, commandHelp(c))
		return 0, err
	}
	if text, ok := docs.Topic(args[0]); ok {
		_, err := io.WriteString(w, text)
		return 0, err
	}
	return 2, usagef("agentmux help: no command or topic %q (commands: %s; topics: %s)", args[0],
		strings.Join(helpNames(), ", "), strings.Join(docs.Topics(), ", "))
}

// guidesLine names the guides `agentmux help TOPIC` prints.
func guidesLine() string {
	return "\nGuides (agentmux help TOPIC): " + strings.Join(docs.Topics(), ", ") + "\n"
}

// commandHelp is c's usage and help, then the flags it takes, listed from the table (a
// part's under its name), and for a session command the common flags.
func commandHelp(c command) string {
	h := "usage: " + strings.Join(synopsisLines(c.synopsis), "\n       ")
	if c.help != "" {
		h += "\n\n" + c.help
	}
	if len(c.flags) > 0 {
		h += "\n\nflags:\n" + flagHelp(c.flags)
	}
	for _, p := range c.parts {
		if len(p.flags) > 0 {
			h += "\n\nflags of " + c.name + " " + p.name + ":\n" + flagHelp(p.flags)
		}
	}
	if c.session {
		h += "\n\n" + commonFlagHelp()
	}
	if _, guide := docs.Topic(c.name); guide {
		h += "\n\nThe whole guide: agentmux help " + c.name + ".md"
	}
	return h
}

// helpNames lists what `agentmux help` knows, sorted.
func helpNames() []string {
	var names []string
	for _, c := range commandTable {
		if !c.hidden {
			names = append(names, c.name)
		}
	}
	sort.Strings(names)
	return names
}

// wantsHelp reports whether args ask for help (-h, --help or -help before any "--").
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help", "-help":
			return true
		}
	}
	return false
}
