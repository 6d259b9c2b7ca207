package parser

import (
	"path/filepath"
	"strings"
)

// Profile describes one agent program as data: how its title and screen say whether it
// is busy, idle or waiting for approval, which rows are its own chrome rather than the
// words the agent wrote, and how it marks answers and echoes input.
type Profile struct {
	// Name is the profile's name ("claude", "codex", "gemini", "generic", or a user's).
	Name string
	// Programs are the program base names that select this profile.
	Programs []string

	// IdleTitle, BusyTitle and ApprovalTitle classify the terminal title (OSC 0/2).
	// The title is consulted first; approval wins over busy, busy over idle.
	IdleTitle, BusyTitle, ApprovalTitle []Pattern
	// BusyMarkers and ApprovalMarkers are searched in the live region of the screen only
	// (see LiveRegion), never in scrollback, which keeps stale markers of past turns.
	BusyMarkers, ApprovalMarkers []Pattern
	// IdleUnlessBusy makes a screen that shows none of the busy and approval markers
	// idle (a program with a busy row but no idle title, such as pi), where it would be
	// unknown and wait the full quiet time.
	IdleUnlessBusy bool
	// DoneMarkers are rows a program draws under an answer once its turn is over
	// (opencode's "▣  Build · model · 3.1s"). With them, a screen that shows no busy
	// marker and has rows of words under its last done marker (chrome, blank rows and
	// an echoed draft aside) is unknown, never idle: a pause in the model's stream, the
	// answer's last row standing still above the input, is no end of the turn unless it
	// lasts the full quiet time (--idle).
	DoneMarkers []Pattern
	// LiveRows is the least number of rows at the bottom of the screen (trailing blank
	// rows aside) searched for markers, even when they are not chrome. 0 means 16.
	LiveRows int

	// Chrome matches rows the program draws around the conversation: input box rules,
	// empty prompts, footers and hints, spinner and status rows, turn summaries, tips.
	Chrome []Pattern
	// Prompts match a row that is an empty input prompt (">", "$"): part of the live block
	// at the bottom of the screen, like chrome, but kept among the words of a turn, where
	// an agent may print such a row itself.
	Prompts []Pattern
	// AnswerPrefixes are the glyphs that open an answer ("● ", "• ", "✦ "); they are
	// stripped from the delta, and the answer's continuation rows are dedented by their
	// width when all of them are indented at least that much.
	AnswerPrefixes []string
	// LeadPrefixes are glyphs that open an answer's first row but may as well open a
	// list's items ("• ", the answer glyph of Codex-like programs and a common bullet, for
	// programs no profile knows): stripped from the first row of a turn's words only, when
	// no other row of the turn opens with the same glyph at the same indentation (the
	// rows of a list), and the answer's continuation rows dedented as for AnswerPrefixes.
	LeadPrefixes []string
	// EchoPrefixes open a row that echoes input typed into the program ("❯ ", "› ",
	// "> "), possibly after up to two spaces of indentation.
	EchoPrefixes []string
	// StrictEcho, when set, removes an echo row only when it repeats text known to have
	// been typed; otherwise every echo block is input, never the agent's words. Set it
	// for programs whose own output may start with an echo prefix.
	StrictEcho bool
	// InputBottom, when set, finds an input drawn with no prompt glyph, in place of the
	// echo prefixes: its text is in the rows right above the lowest row matching
	// InputBottom, up to a row matching InputTop (pi: between two rules) or, with no
	// InputTop, up to a blank row (opencode: a box with a left side only, over its
	// agent · model row). They are read without box sides and their common indentation,
	// blank rows around the text dropped; a text matching InputPlaceholders is empty.
	InputTop, InputBottom, InputPlaceholders []Pattern

	// Pad is the columns of blank margin the program draws its transcript with (pi: one):
	// removed from every row of a turn's words.
	Pad int

	// Relay is which relay commands the program's output may hold (see Syntax).
	Relay Syntax
	// Brief, when set, types a first message into the program once it is ready: its
	// name, the other panes and how to address them. BriefTemplate is that message's
	// text ("" for the relay's default).
	Brief         bool
	BriefTemplate string
	// InterruptKeys stop a busy turn (an urgent message goes in then); ClearKeys empty
	// the input line (a person's draft is set aside before a delivery, put back after).
	// Empty: the generic keys, Escape and Ctrl+U (DefaultInterruptKeys, DefaultClearKeys).
	InterruptKeys, ClearKeys string
	// Hooks is how agentmux passes the program its per-session hook settings, so that
	// it reports its turn ends and answers itself (`agentmux hook EVENT`): HooksClaude
	// (--settings FILE with Stop and Notification hooks), HooksCodex (-c notify=[…]),
	// HooksGemini (GEMINI_CLI_HOME: a home of the pane's own, the person's files
	// reached through links, with an extension holding an AfterAgent hook), HooksQwen
	// (QWEN_CODE_SYSTEM_DEFAULTS_PATH: a settings file of agentmux's with a Stop hook,
	// the lowest of Qwen Code's layers), HooksOpencode (OPENCODE_CONFIG_CONTENT naming a
	// plugin of agentmux's that reports session.idle), HooksPi (-e FILE: an extension that
	// reports the pi session's id after each turn, no turn end); "" passes none. NoHooks turns them off for the profile
	// (profiles.toml: hooks = false).
	Hooks   string
	NoHooks bool
}

// The ways of passing hooks (Profile.Hooks).
const (
	HooksClaude = "claude"
	HooksCodex  = "codex"
	HooksGemini = "gemini"
	HooksQwen   = "qwen"
	// HooksOpencode: opencode's plugins see its session.idle event.
	HooksOpencode = "opencode"
	HooksPi       = "pi"
)

// The keys most agent CLIs take to interrupt a turn and to empty the input line.
const (
	DefaultInterruptKeys = "\x1b"
	DefaultClearKeys     = "\x15"
	// EndKey moves the cursor to the end of the input line (Ctrl+E: readline, libedit,
	// prompt_toolkit and the agent CLIs' inputs): the clear keys empty a line only from
	// the cursor back.
	EndKey = "\x05"
)

// Interrupt returns the keys that interrupt the program's turn.
func (p Profile) Interrupt() string { return cmpOr(p.InterruptKeys, DefaultInterruptKeys) }

// Clear returns the keys that empty the program's input line.
func (p Profile) Clear() string { return cmpOr(p.ClearKeys, DefaultClearKeys) }

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// liveRows returns p.LiveRows or its default.
func (p Profile) liveRows() int {
	if p.LiveRows > 0 {
		return p.LiveRows
	}
	return 16
}

// liveMatcher returns a matcher for the rows that may make up the live block: chrome and
// empty prompts.
func (p Profile) liveMatcher() *matcher {
	return newMatcher(append(append([]Pattern(nil), p.Chrome...), p.Prompts...))
}

// IsChrome reports whether line is one of the program's chrome rows.
func (p Profile) IsChrome(line string) bool { return matchAny(p.Chrome, line) }

// echoPrefix returns the byte length of the echo prefix that opens line (indentation
// included), or 0 if line does not open with one.
func (p Profile) echoPrefix(line string) int {
	return prefixLen(line, p.EchoPrefixes)
}

// answerPrefix returns the byte length of the answer prefix that opens line, or 0.
func (p Profile) answerPrefix(line string) int {
	return prefixLen(line, p.AnswerPrefixes)
}

// leadPrefix returns the byte length of the lead prefix that opens line, or 0.
func (p Profile) leadPrefix(line string) int {
	return prefixLen(line, p.LeadPrefixes)
}

// prefixLen returns the length of indentation (at most two spaces) plus the first of
// prefixes that follows it in line, or 0. A prefix with a trailing space also matches a
// line that holds the prefix glyph alone.
func prefixLen(line string, prefixes []string) int {
	ind := 0
	for ind < len(line) && ind < 2 && line[ind] == ' ' {
		ind++
	}
	rest := line[ind:]
	for _, pre := range prefixes {
		if pre == "" {
			continue
		}
		if strings.HasPrefix(rest, pre) {
			return ind + len(pre)
		}
		if bare := strings.TrimRight(pre, " "); bare != pre && rest == bare {
			return ind + len(bare)
		}
	}
	return 0
}

// Profiles is a set of profiles by name.
type Profiles map[string]Profile

// For returns the profile whose Programs list the base name of argv0, with any
// extension such as ".exe" or ".js" removed or as it is ("prompt.sh"), or the "generic"
// profile. It never fails: with no generic profile in the set it returns the built-in
// one.
func (ps Profiles) For(argv0 string) Profile {
	base := programName(argv0)
	full := filepath.Base(strings.TrimSpace(argv0))
	// Prefer a profile named after the program, then any that lists it.
	if p, ok := ps[base]; ok && (listed(p.Programs, base) || listed(p.Programs, full)) {
		return p
	}
	best := ""
	for name, p := range ps {
		if (listed(p.Programs, base) || listed(p.Programs, full)) && (best == "" || name < best) {
			best = name
		}
	}
	if best != "" {
		return ps[best]
	}
	if g, ok := ps["generic"]; ok {
		return g
	}
	return Generic()
}

// ProfileFor returns the built-in profile for the program argv0 (see Profiles.For).
func ProfileFor(argv0 string) Profile { return Builtins().For(argv0) }

func listed(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// programName returns the base name of argv0 without a file extension.
func programName(argv0 string) string {
	base := filepath.Base(strings.TrimSpace(argv0))
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// width returns the number of runes in s but variation selectors, the column width of
// the ASCII and single-width glyphs prefixes are made of (Qwen Code draws "◆" with a
// text-style selector after it, which takes no column).
func width(s string) int {
	n := 0
	for _, r := range s {
		if r < 0xFE00 || r > 0xFE0F {
			n++
		}
	}
	return n
}
