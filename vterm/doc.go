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
// it encodes keys that way (Options.KittyKeyboard, SetKittyKeyboard).
//
// DECRQSS (DCS $ q Pt ST) is answered as xterm answers it for SGR (m: the pen as
// "0;..." parameters), DECSTBM (r) and DECSCUSR ( q; the default shape reports as 1,
// xterm's blinking block): DCS 1 $ r ... ST, and DCS 0 $ r ST for any other setting.
// XTGETTCAP (DCS + q hex ST) knows two capabilities, TN (xterm-256color, the TERM
// agentmux gives its panes) and Co/colors (256), answered DCS 1 + r name=value ST with
// the value hex-encoded; at the first other name it answers DCS 0 + r ST and stops, as
// xterm does, so programs fall back to their terminfo entry. A DCS string is kept up to
// 1 KB and answered only when a real ST (ESC \) ends it; longer ones (sixel images)
// and every other DCS are dropped.
//
// SOS, PM, APC and unknown OSC strings are swallowed. An OSC 52 clipboard read is never
// answered (the user's clipboard is not a pane's to read); a write is reported to the
// host as an EventClipboard and changes nothing here: the host forwards it to the outer
// terminal only where the person allowed it.
//
// OnEvent reports BEL, titles (OSC 0/2), notifications (OSC 9, OSC 777) and clipboard
// writes (OSC 52); OSC 8
// hyperlinks become Style.Link ids (see Link). The title stack XTPUSHTITLE /
// XTPOPTITLE (CSI 22 ; Ps t, CSI 23 ; Ps t with Ps 0, 2 or omitted; Ps 1, the icon
// name, is ignored) holds 10 titles, dropping the oldest when full; a pop that changes
// the title reports it like OSC 2. RIS empties it.
//
// Where xterm and tmux disagree (halves of wide characters, REP at the margin, CHT,
// HPR, VPR, DECSTR, invalid UTF-8), vterm follows xterm, with one exception real
// programs depend on: after a character is written in the last column (autowrap on),
// EL 0, ED 0, ECH, DCH and ICH leave that row alone and the wrap stays pending, as in
// tmux (whose cursor is then past the last column), where xterm blanks the last cell.
// top and other full-screen programs end full-width rows with EL and keep the last
// character under tmux.
//
// # Characters and grapheme clusters
//
// A rune's width comes from go-runewidth (East Asian ambiguous characters narrow). Runes
// join the cell before them into one grapheme cluster (Cell.Comb) when they are zero
// width (combining marks, VS15/VS16, ZWJ), when they follow a ZWJ (as tmux and xterm
// join them), or when Unicode's grapheme rules (UAX #29, through rivo/uniseg) say so:
// emoji skin-tone modifiers, the second regional indicator of a flag (a lone indicator
// is one cell, a flag two), spacing marks, Hangul jamo. A join that uniseg measures two
// cells wide widens a narrow cell: a flag, an Indic consonant with its spacing vowel
// (two columns, as terminals that draw them separately also use).
//
// An emoji with a skin-tone modifier (👍🏽) is one two-cell cluster, as Unicode, kitty,
// WezTerm, foot, Ghostty, iTerm2 and the string-width measure of Ink-based agent CLIs
// have it. tmux 3.3a instead draws the modifier as a wide character of its own (four
// cells in all); vterm differs on purpose, since matching tmux would push every row an
// agent draws with such emoji two cells out of line. Drawn through an outer tmux 3.3a,
// the modifier is then covered by the next cell and only the base emoji shows.
//
// VS16 (U+FE0F) after an emoji-capable character that defaults to text presentation
// (❤ U+2764, ⚠ U+26A0, ☺ U+263A) makes it a two-cell emoji, as kitty, WezTerm, foot
// and Ghostty draw it; tmux 3.3a keeps such a character one cell wide, so there vterm
// differs from tmux on purpose (programs that print ❤️ expect the modern width). Only
// characters with the Extended_Pictographic property widen: a keycap sequence (1 VS16
// U+20E3) stays one cell. VS15 never narrows a character already drawn wide. A
// cluster that widens in the last column moves to the next line when autowrap is on,
// as a wide character would have wrapped, and stays one cell wide when it is off.
//
// A combining mark joins the character just written: the one under the cursor after a
// write to the last column (whether autowrap is on, the pending-wrap state, or off),
// otherwise the one left of the cursor. Joined runes are kept up to 32 bytes per cell;
// they are the only per-character allocation, and ordinary text (ASCII, and non-ASCII
// that starts new clusters) allocates nothing.
//
// # Snapshots
//
// A Snapshot is immutable. Rows that did not change between two snapshots are the same
// *Line, so renderers can cache per row, and a Snapshot of an unchanged terminal is the
// previous one (same Seq).
//
// # Resize
//
// Lines do not reflow on resize, because the relay depends on stable absolute row
// numbers: it asks for "everything printed after row N" (TextFrom), and reflowing
// would renumber rows it has already read and move text across them. A narrower
// screen cuts rows (a cut wide character becomes a blank) and a wider one pads them,
// or shows again what a narrower one cut off a row nothing changed since (a pane
// zoomed out and back in keeps its lines);
// a shorter screen moves the rows above the cursor into history when the cursor would
// fall off, otherwise it drops bottom rows; a taller screen adds blank rows at the
// bottom (history is not pulled back, so absolute row numbers stay unique). The cursor
// always stays on screen, the scroll region is reset, and tab stops survive (new
// columns get the default stops). History lines keep their own width and are cut or
// padded to the screen width when read.
//
// # History and text
//
// Rows scrolled off the top of the main screen (line feeds, autowrap, IND, SU and any
// scroll region whose top is the first row) go into a bounded history (10 000 lines by
// default), stored compactly: one UTF-8 rune per cell plus style runs and the rare
// joined runes, with trailing default blanks dropped, back to back in one ring of bytes
// behind a 16-byte header per line (about 100 bytes for an 80-column line of text).
// Every row carries a soft-wrap flag, so TextFrom can join wrapped rows back into the
// lines the program printed. Absolute row numbers count every row ever pushed into
// history; a taller screen takes the newest lines back (with their numbers), as xterm
// and tmux do.
//
// # Speed
//
// Runs of printable ASCII are written in bulk, and each row keeps the encoded form of
// the cells printing gave it from column 0 on (prefix.go), so history copies it instead
// of reading the cells again. A reference path that takes every byte on its own through
// the state machine (SetSlowPath, in tests) is fuzzed against the fast paths
// (FuzzFastSlow). Steady-state writes allocate nothing.
package vterm
