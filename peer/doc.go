// Package peer tells who is at the other end of a session socket's connection, as the
// kernel says it: the user and, where the system says it, the process. The session
// socket takes connections from its own user (and root) only, by that word; the hub and
// the session server ask for the process, to tell a pane's process from the person's.
//
// Each system has its own call, in a small file of its own (credOf):
//
//	Linux    SO_PEERCRED                     user and process, as they were at connect
//	macOS    LOCAL_PEERCRED + LOCAL_PEERPID  user (xucred) and process
//	FreeBSD  LOCAL_PEERCRED                  user (xucred) and, from FreeBSD 13, process
//	others   none                            neither: every connection is refused
//
// Where the process is not given (PID 0), the checks that look for the client's pane
// among processes find none, and a pane is known by its proof ($AGENTMUX_PROOF) alone.
//
// It imports nothing of the project.
package peer
