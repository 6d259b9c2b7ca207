// Package vterm is agentmux's terminal emulator: every pane's program output goes
// through it, and the rest of agentmux reads the screen from it.
//
// It owns the input parser (a table-driven state machine after Paul Williams' DEC
// parser, with UTF-8 decoding), the main and alternate screens, the main screen's
// bounded history, wide characters, modes, the replies to terminal queries, and
// immutable snapshots for renderers. It imports nothing of the project and must not
// import ui, relay, parser, ptyhost, bubbletea or lipgloss.
//
// # Use
//
// Make a Terminal with New, write the program's output to it (it is an io.Writer that
// always consumes everything), and read it with Snapshot, ScreenText, HistoryLines and
// TextFrom. Queries a program sends (DA1, cursor position, colours, ...) are answered
// through Options.Reply; bells, titles and notifications arrive through Options.OnEvent.
//
// # Locking
//
// One goroutine writes (Write, Resize); any goroutine may read at the same time. Every
// method takes the Terminal's mutex. Options.Reply and Options.OnEvent are called inside
// Write with the mutex held: they must not block and must not call back into the
// Terminal (hand the bytes to a writer goroutine instead).
//
// # Queries and events
//
// Answered: DA1 (CSI ?62;22c), DA2, XTVERSION (DCS >|agentmux VERSION ST), DSR 5n, 6n
// and ?6n, DECRQM for the modes in Modes (and IRM/LNM), XTWINOPS 14t/16t/18t (8×16
// pixel cells), OSC 10/11/12 and OSC 4 colour queries (ending with the query's own
// terminator, BEL or ST), and the kitty keyboard query CSI ? u only when the host says
// it encodes keys that way (Options.KittyKeyboard, SetKittyKeyboard). DCS, SOS, PM, APC
// and unknown OSC strings are swallowed. OnEvent reports BEL, titles (OSC 0/2) and
// notifications (OSC 9, OSC 777); OSC 8 hyperlinks become Style.Link ids (see Link).
//
// Where xterm and tmux disagree (halves of wide characters, REP at the margin, CHT,
// HPR, VPR, DECSTR, invalid UTF-8), vterm follows xterm.
//
// # Snapshots
//
// A Snapshot is immutable. Rows that did not change between two snapshots are the same
// *Line, so renderers can cache per row, and a Snapshot of an unchanged terminal is the
// previous one (same Seq).
//
// # Resize
//
// Lines do not reflow on resize. A narrower screen cuts rows (a cut wide character
// becomes a blank) and a wider one pads them; a shorter screen moves the rows above the
// cursor into history when the cursor would fall off, otherwise it drops bottom rows; a
// taller screen adds blank rows at the bottom (history is not pulled back, so absolute
// row numbers stay unique). The cursor always stays on screen, the scroll region is
// reset, and tab stops survive (new columns get the default stops). History lines keep
// their own width and are cut or padded to the screen width when read.
//
// # History and text
//
// Rows scrolled off the top of the main screen (line feeds, autowrap, IND, SU and any
// scroll region whose top is the first row) go into a bounded history (10 000 lines by
// default), stored compactly: one UTF-8 rune per cell plus style runs, with trailing
// default blanks dropped. Every row carries a soft-wrap flag, so TextFrom can join
// wrapped rows back into the lines the program printed. Absolute row numbers count every
// row ever pushed into history and are never reused.
package vterm
