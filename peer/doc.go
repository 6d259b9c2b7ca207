// Package peer tells who is at the other end of a session socket's connection, as the
// kernel says it: the process id a socket's peer credentials give. The hub and the
// session server both ask it, to tell a pane's process from the person's.
//
// It imports nothing of the project.
package peer
