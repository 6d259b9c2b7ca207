// Package keys translates keyboard, paste, mouse and focus input between the outer
// terminal and the programs running in agentmux panes.
//
// It owns two directions:
//
//   - Decoding: a Decoder turns the raw byte stream read from the outer terminal (stdin
//     in raw mode) into events: Key, Paste, Mouse, Focus and Reply. It understands the
//     legacy xterm encodings, xterm's modifyOtherKeys, the kitty keyboard protocol,
//     bracketed paste, SGR/urxvt/X10 mouse reports, focus reports, and the answers the
//     outer terminal sends to queries (which become Reply events and must never be
//     forwarded to a pane as keys). Every event carries the exact bytes it came from.
//   - Encoding: Encode, EncodePaste, EncodeMouse and EncodeFocus produce the bytes a
//     real terminal (xterm, or kitty when the program enabled the kitty keyboard
//     protocol) would send to a program in the given modes.
//
// ParseKey and Key.Matches serve key bindings such as the --prefix flag.
//
// The package is pure: no I/O, no clock, no goroutines. The caller decides when an
// incomplete escape sequence has waited long enough (Decoder.Pending, Decoder.Flush).
//
// Package keys must not import anything of the agentmux project (vterm, ui, relay,
// parser, ptyhost) nor bubbletea or lipgloss. Its MouseMode and MouseEncoding values
// mirror vterm's, so the session converts between them with a plain conversion.
package keys
