// Command fakeagent is the simulated agent CLI of package demo as a program of its own, for
// the end-to-end tests (built by path: ./... skips testdata). See demo.Main for its flags.
package main

import (
	"os"

	"github.com/agentmux/agentmux/demo"
)

func main() { os.Exit(demo.Main(os.Args[1:], os.Stdin, os.Stdout)) }
