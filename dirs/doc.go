// Package dirs owns where agentmux keeps things on disk: its private state folder
// (StatePath, SecureDir: the store, the log, the hooks' runs) and the folder of session
// sockets (RuntimeDir), with the sockets in it: their names, claiming one for a session
// (Claim, ClaimExact, Listen) and listing the live ones (Sessions). It is a leaf: it
// imports nothing of the project, so that a client of a session (package client, the
// agents' hooks) finds the socket without linking the server or SQLite.
package dirs
