// Package parser turns the text of an agent program's terminal into what the relay needs:
// whether the program is idle, busy or waiting for approval (Classify), the words it
// wrote in a turn (MainTurn for the main screen, from its lines' absolute row numbers and
// the cursor; Transcript for a full-screen program's frames; see turn.go for the rule),
// the text in its input row (InputRow, for the relay's drafts and clears), and the relay
// commands in them (Commands). What each program prints is data, in a Profile: built-ins
// for Claude Code, Codex and Gemini CLI, a generic one for everything else, overridable
// by a user's TOML file (LoadProfiles).
//
// Everything here is a pure function of its arguments: no I/O (callers read files and
// screens), no clock, no goroutines. The package imports nothing of the project
// (vterm, ptyhost, relay, ui, keys) and no UI library; relay and ui import it.
package parser
