// Package e2e holds the end-to-end tests of agentmux: the real binary (built with -race)
// runs in a PTY at 120×40 with simulated agents (testdata/fakeagent, package demo) in its
// panes, and the tests read its screen through vterm, as a person would see it, while
// typing keys into it. The relay tests (relay_test.go) also read what each fake agent
// received and answered from the transcript it keeps (demo --transcript), to compare every
// delivery with the answer it carries.
//
// The package has no code of its own, only tests. Its tests import vterm (the screen they
// read), and client and proto for the session socket's protocol member (socket_test.go),
// and nothing else of the project: agentmux is driven as a black box, through its
// command line, its terminal, its socket and the processes it starts. Each agentmux gets
// its own XDG_RUNTIME_DIR (sockets) and XDG_STATE_HOME (the message store).
package e2e
