package parser

import (
	"slices"
	"strings"
	"sync"
)

// The built-in profiles were measured on Claude Code 2.1.330, Codex CLI 0.169.0 and
// Gemini CLI 0.61.0 (testdata/agent-streams): the patterns below are exactly
// what those versions print. A user's profiles file can override or extend any of them.
// Claude Code 2.1.332 (2026-11) reads the same, checked by `make test-agents
// AGENTS_VERSIONS=latest`: its "⏵⏵ auto mode on" footer is chrome, its approval prompt
// matches the same markers (with a fourth choice, and in a narrow pane a wrapped one,
// which ReadAsk joins), and keys typed within 100-200 ms of that prompt's drawing are
// dropped by the CLI itself.
//
// Interrupt and clear keys, checked on the real CLIs by agents/keys_test.go (`make
// test-agents`) with Claude Code 2.1.197, Codex CLI 0.169.0 and Gemini CLI 0.61.0:
// Escape ends a busy turn in all three (before the answer and mid-answer; the model's
// stream is cut and the screen is idle within 0.2 s), and Ctrl+U empties a one-line draft
// (the cursor at its end) in all three. Claude Code differs in one way: interrupted
// before its answer begins, it puts the message it was given back into its input line,
// with all its lines, and its Ctrl+U deletes back to the start of the cursor's line or,
// at a line's start, the line break before it. One Ctrl+U left "NAME (N):" and a blank
// line of a relayed message there, for the next delivery to be typed after. So Claude's
// clear keys are 32 Ctrl+U, which empty 16 lines (a paste Claude shows collapsed, as
// "[Pasted text #1 +6 lines]", comes back expanded; a longer message is not emptied,
// and the relay, which checks the input row is empty before it types, says so). More
// would not do: Claude Code reads 64 bytes or more arriving at once as a paste, and does
// nothing with the control keys in it.

// pats returns the Patterns of a list of built-in expressions, each compiled on its
// first use (TestBuiltinPatternsCompile compiles them all).
func pats(exprs ...string) []Pattern {
	out := make([]Pattern, len(exprs))
	for i, e := range exprs {
		out[i] = lazyPattern(e)
	}
	return out
}

// Chrome shared by every profile: horizontal rules and box borders.
var commonChrome = []string{
	`^\s*[─━═—-]{3,}\s*$`,
	`^\s*[╭╰][─━]*[╮╯]?\s*$`,
}

var builtins = Profiles{
	"claude": {
		Name:          "claude",
		Programs:      []string{"claude"},
		IdleTitle:     pats(`^✳`),
		BusyTitle:     pats(`^[◐◑◒◓\x{2800}-\x{28FF}]`),
		ApprovalTitle: nil,
		BusyMarkers: pats(
			`esc to interrupt`,
			`^[·✢*✶✻✽✳] \S+…`,
		),
		ApprovalMarkers: pats(
			`Do you want to (?:proceed|make this edit|create|overwrite|allow|run)`,
			`Do you trust the files in this folder\?`,
			`^\s*│?\s*❯ 1\. Yes`,
		),
		Chrome: pats(append([]string{
			`^\s*❯\s*$`,        // empty prompt row
			`^\s*[⏵⏸]`,         // mode footer: ⏵⏵ auto mode on, ⏸ plan mode on
			`esc to interrupt`, // busy footer
			`^\s*[◐◑◒◓○●◔◕]\s+\S+ · /effort\s*$`, // effort indicator, right-aligned
			`^\s*\? for shortcuts`,               // hint row
			`^[·✢*✶✻✽✳] \S+…`,                    // spinner row: ✽ Quantumizing… (2s · ↓ 3 tokens)
			`^[·✢*✶✻✽✳] \S+ for \d+[smh]`,        // summary: ✻ Cogitated for 8s · done 12:05 AM
			`^\s*⎿\s+Tip:`,                       // tips under the spinner
			`^\s*[⏵⏸].*·\s*(?:←|→) for agents`,   // agents hint in the footer
		}, commonChrome...)...),
		AnswerPrefixes: []string{"● ", "⏺ "},
		EchoPrefixes:   []string{"❯ "},
		Hooks:          HooksClaude,
		InterruptKeys:  DefaultInterruptKeys,
		ClearKeys:      strings.Repeat(DefaultClearKeys, 32), // see above: a message put back, of up to 16 lines
	},
	"codex": {
		Name:          "codex",
		Programs:      []string{"codex"},
		IdleTitle:     pats(`^[^\x{2800}-\x{28FF}\s]`),
		BusyTitle:     pats(`^[\x{2800}-\x{28FF}]`),
		ApprovalTitle: pats(`Action Required`),
		BusyMarkers: pats(
			`^\s*[•◦] Working \(`,
			`esc to interrupt`,
		),
		ApprovalMarkers: pats(
			`Would you like to (?:run the following command|make the following edits|allow)`,
			`Press enter to confirm or esc to cancel`,
			`^\s*Press enter to continue`,
			`allow Codex to work in this folder`,
			`Do you trust the (?:files|contents) (?:in|of) this`,
		),
		Chrome: pats(append([]string{
			`^\s*›\s*$`,                          // empty composer
			`^\s*›\s+Ask Codex to do anything`,   // its placeholder
			`^\s*[•◦] Working \(`,                // busy row until the first token
			`^\s*(?:─+ )?Worked for \d`,          // turn summary
			`^\s*>_ OpenAI Codex`,                // header
			`^\s*│?\s*(?:model|directory):\s`,    // header fields
			`^\s*│?\s{3,}~/\S*\s*│?\s*$`,         // header: the directory alone (Codex 0.169 at 110 columns)
			`\? for shortcuts`,                   // hints
			`f2 to view\s*$`,                     // warnings hint
			`esc to interrupt`,                   // busy hints
			`^\s*(?:⏎|enter) (?:send|to send)`,   // composer hints
			`^\s+\S.* · (?:~|/)\S*\s*$`,          // status row: model · ~/project
			`^\s+\S.* · \d+% context left\s*$`,   // status row: context
			`^\s*Token usage:`,                   // exit summary
			`^\s*To continue this session, run `, // exit summary
		}, commonChrome...)...),
		AnswerPrefixes: []string{"• "},
		EchoPrefixes:   []string{"› "},
		Hooks:          HooksCodex,
		InterruptKeys:  DefaultInterruptKeys,
		ClearKeys:      DefaultClearKeys,
	},
	"gemini": {
		Name:          "gemini",
		Programs:      []string{"gemini"},
		IdleTitle:     pats(`^◇\s+Ready`),
		BusyTitle:     pats(`^✦\s+Working`),
		ApprovalTitle: pats(`^✋`),
		BusyMarkers: pats(
			`\(esc to cancel`,
		),
		ApprovalMarkers: pats(
			`Do you trust the files in this folder\?`,
			`Allow execution`,
			`Apply this change\?`,
			`Waiting for user confirmation`,
			`^\s*│?\s*● 1\. (?:Allow|Yes|Trust)`,
		),
		Chrome: pats(append([]string{
			`^\s*>\s*$`,                         // empty prompt
			`^\s*>\s+Type your message`,         // prompt placeholder
			`\(esc to cancel`,                   // spinner row
			`^\s*\? for shortcuts\s*$`,          // hint row
			`^\s*Shift\+Tab to accept edits`,    // mode row
			`^\s*(?:accepting edits|YOLO mode)`, // mode rows
			`^\s*workspace \(/directory\)`,      // footer headings
			`\s{5,}(?:no sandbox|sandbox-exec|macOS Seatbelt|docker|podman)\b`, // footer values
			`^\s?Using:? \d+ \S+ (?:file|server)`,                              // context summary
			`^\s*ℹ `,                                                           // info notices
			`^\s*⚠ `,                                                           // warnings
			`^\s*│`,                                                            // boxes: tool calls and dialogs
			`^\s*[▀▄]{3,}\s*$`,                                                 // half-block rules above and below the input box and typed messages (true-colour terminals)
			// The hint under a paste of more than 5 lines or 500 characters (0.61): drawn
			// when a long delivery is typed, it is no reaction to the Enter, and no answer.
			`^\s*Press \S+ to expand pasted text\s*$`,
			// Its message queue, shown when a message is submitted while it still works:
			// a heading, then each message squashed to one row, 4 columns in, cut with
			// "…" (or the count of the rest).
			`^\s*Queued \(press ↑ to edit\):\s*$`,
			`^ {4}\S.*…$`,
			`^ {4}\.\.\. \(\+\d+ more\)\s*$`,
			`^\s*(?:\S\s+)?Executing Hooks?: \S`, // its status row while a hook (agentmux's own) runs
		}, commonChrome...)...),
		AnswerPrefixes: []string{"✦ "},
		EchoPrefixes:   []string{"> "},
		Hooks:          HooksGemini,
		InterruptKeys:  DefaultInterruptKeys,
		ClearKeys:      DefaultClearKeys,
	},
	"pi": {
		// pi 0.73.1 (@mariozechner/pi-coding-agent), measured offline on the mock server:
		// a main-screen program whose title never changes ("π - project"). While it works a
		// braille spinner row "⠇ Working..." sits above its input, which is drawn between
		// two rules with the directory and a status row (tokens, context, model) under
		// them. It echoes a message and draws its answer each indented by one space, with
		// no glyph. Escape interrupts it. Without its spinner row it is idle.
		Name:        "pi",
		Programs:    []string{"pi"},
		Hooks:       HooksPi,
		BusyMarkers: pats(`^\s*[\x{2800}-\x{28FF}] Working`),
		Chrome: pats(append([]string{
			`^\s*[\x{2800}-\x{28FF}] Working`,                                          // spinner row
			`^\s*escape interrupt · ctrl\+c`,                                           // hint row under the banner
			`^\s*(?:[↑↓]\d+\S* )*\d+(?:\.\d+)?%/\d+k\b`,                                // status row: tokens, context used, model
			`^\s*(?:fd|ripgrep) not found\. Offline mode enabled, skipping download\.`, // start-up notices
		}, commonChrome...)...),
		Prompts:      Generic().Prompts,
		EchoPrefixes: Generic().EchoPrefixes,
		StrictEcho:   true,
		// Its input has no prompt glyph: the rows between the two rules.
		InputTop:       pats(`^─{8,}$`),
		InputBottom:    pats(`^─{8,}$`),
		Pad:            1,
		IdleUnlessBusy: true,
		InterruptKeys:  DefaultInterruptKeys,
		ClearKeys:      DefaultClearKeys,
	},
	"qwen": {
		// Qwen Code 0.24.4 (@qwen-code/qwen-code, a Gemini CLI fork), measured offline on
		// the mock server: an Ink program on the main screen. Its title is "Qwen - DIR",
		// a half-circle opening it while it works; a spinner row "(0s · esc to cancel)"
		// sits above its input, which is drawn between two rules with a placeholder and
		// two footer rows under them. It echoes a message as "> …" and opens its answer
		// with "◆︎ " (a text-style variation selector after the glyph); notices open with
		// "●︎ ".
		Name:        "qwen",
		Programs:    []string{"qwen"},
		IdleTitle:   pats(`^Qwen - `),
		BusyTitle:   pats(`^[◐◑◒◓]`),
		BusyMarkers: pats(`esc to cancel\)`),
		ApprovalMarkers: pats(
			`Do you trust the files in this folder\?`,
			`Allow execution`,
			`Apply this change\?`,
			`Waiting for user confirmation`,
		),
		Chrome: pats(append([]string{
			`^\s*>\s*$`,                 // empty prompt
			`^\s*>\s+Type your message`, // its placeholder
			`esc to cancel\)`,           // spinner row
			`^\s*➜ \S`,                  // footer: directory · model
			`^\s*(?:Enter to steer|Auto mode \(shift|YOLO mode|accepting edits)`, // footer: modes
			`^\s*●\x{FE0E}? `, // notices: context files read, modes, warnings
			`^\s{5,}(?:An LLM classifier|risky ones are blocked)`, // the auto mode notice's rows
			`^\s*Tips: `, // tips under the banner
			`^\s*│`,      // boxes: notices, tool calls, dialogs
		}, commonChrome...)...),
		AnswerPrefixes: []string{"◆\uFE0E ", "◆ "},
		EchoPrefixes:   []string{"> "},
		StrictEcho:     true,
		Hooks:          HooksQwen,
		InterruptKeys:  DefaultInterruptKeys,
		ClearKeys:      DefaultClearKeys,
	},
	"opencode": {
		// opencode 1.18.33 (opencode-ai), measured offline on the mock server with an
		// OpenAI-compatible provider: a full-screen program whose title says nothing of
		// its state ("OpenCode", then "OC | <session title>"). A message is drawn in a box
		// with only a left side ("┃  …", empty "┃" rows above and below), the answer
		// under it indented five columns, then a row "▣  Build · <model> · 3.1s"; the
		// input is a box of the same kind at the bottom, with the agent and model in it,
		// its bottom edge "╹▀▀▀", and a footer that says "esc interrupt" while it works
		// ("esc again to interrupt" after one Escape: it takes two).
		// Its start screen, drawn seconds after it clears its screen, is a block-letter
		// logo over the input box, at times a tip ("● Tip …") under it, and a row with
		// the directory and its version: none of it is a turn.
		Name:        "opencode",
		Programs:    []string{"opencode"},
		BusyMarkers: pats(`esc (?:again to )?interrupt`),
		// Its turn ends when its plugin of agentmux's sees session.idle (Hooks); without
		// it, on the row under an answer once the turn is over: until that shows, a
		// pause in the model's stream (its footer may say nothing then) is no end.
		DoneMarkers: pats(`^\s*▣\s`),
		Hooks:       HooksOpencode,
		Chrome: pats(append([]string{
			`^\s*┃\s*$`,                           // a box's empty rows
			`^\s*▣\s`,                             // agent · model · time of a turn
			`^\s*┃\s+\S+ · \S+(?: \S+)?\s*$`,      // the input box's agent · model row
			`^\s*┃\s+Ask anything`,                // its placeholder
			`^\s*╹▀+`,                             // the input box's bottom edge
			`ctrl\+p commands\s*$`,                // footer
			`\s{2}ctrl\+p\s*$`,                    // footer wrapped in a narrow pane: the directory and "ctrl+p",
			`^\s+\S+\s{2,}commands\s*$`,           // then the directory's tail and "commands"
			`esc (?:again to )?interrupt`,         // busy footer (after one Escape: "again")
			`^[\s▀▄█]+$`,                          // the start screen's logo
			`^\s{3,}┃`,                            // its input box, drawn centred, and a draft in it
			`^\s*● Tip\s`,                         // a tip under it
			`^\s*[~/].*\s{2,}v?\d+\.\d+\.\d+\s*$`, // the start screen's directory and version row
		}, commonChrome...)...),
		Prompts:      Generic().Prompts,
		EchoPrefixes: []string{"┃  "},
		StrictEcho:   true,
		// Its input box: the rows over its agent · model row, up to a blank row.
		InputBottom:       pats(`^\s*┃\s+\S+ · \S+(?: \S+)?\s*$`),
		InputPlaceholders: pats(`^Ask anything`),
		Pad:               5,
		IdleUnlessBusy:    true,
		// One Escape only arms the interrupt ("esc again to interrupt"); the second stops it.
		InterruptKeys: "\x1b[27u\x1b[27u",
		ClearKeys:     DefaultClearKeys,
	},
	"generic": Generic(),
}

// Generic returns the profile used for programs no other profile claims: no title
// knowledge, a few widespread markers, rules and spinner rows as chrome, empty prompts as prompts (an
// agent may print a lone ">" among its words), and echo rows removed only when they
// repeat typed text. Every copy shares one compilation of its patterns.
func Generic() Profile { return generic().clone() }

// generic is the one Generic profile the copies are made from.
var generic = sync.OnceValue(newGeneric)

// newGeneric makes the Generic profile.
func newGeneric() Profile {
	return Profile{
		Name:           "generic",
		BusyMarkers:    pats(`esc to interrupt`),
		Chrome:         pats(append([]string{`esc to interrupt`}, commonChrome...)...), // a spinner row
		Prompts:        pats(`^\s*[❯›>$%#]\s*$`),
		AnswerPrefixes: []string{"● ", "✦ "},
		LeadPrefixes:   []string{"• "},
		EchoPrefixes:   []string{"❯ ", "› ", "> "},
		StrictEcho:     true,
		InterruptKeys:  DefaultInterruptKeys,
		ClearKeys:      DefaultClearKeys,
	}
}

// Builtins returns a fresh copy of the built-in profiles: "claude", "codex", "gemini", "pi",
// "qwen", "opencode" and "generic".
func Builtins() Profiles {
	out := make(Profiles, len(builtins))
	for k, p := range builtins {
		out[k] = p.clone()
	}
	return out
}

// clone returns p with its slices copied, so changing one copy never changes another.
func (p Profile) clone() Profile {
	p.Programs = append([]string(nil), p.Programs...)
	p.IdleTitle = append([]Pattern(nil), p.IdleTitle...)
	p.BusyTitle = append([]Pattern(nil), p.BusyTitle...)
	p.ApprovalTitle = append([]Pattern(nil), p.ApprovalTitle...)
	p.BusyMarkers = append([]Pattern(nil), p.BusyMarkers...)
	p.ApprovalMarkers = append([]Pattern(nil), p.ApprovalMarkers...)
	p.DoneMarkers = append([]Pattern(nil), p.DoneMarkers...)
	p.Chrome = append([]Pattern(nil), p.Chrome...)
	p.Prompts = append([]Pattern(nil), p.Prompts...)
	p.AnswerPrefixes = append([]string(nil), p.AnswerPrefixes...)
	p.LeadPrefixes = slices.Clone(p.LeadPrefixes)
	p.EchoPrefixes = append([]string(nil), p.EchoPrefixes...)
	p.InputTop = slices.Clone(p.InputTop)
	p.InputBottom = slices.Clone(p.InputBottom)
	p.InputPlaceholders = slices.Clone(p.InputPlaceholders)
	p.Relay.MessagePrefixes = slices.Clone(p.Relay.MessagePrefixes) // nil stays nil: the defaults
	p.Relay.ThinkingPrefixes = slices.Clone(p.Relay.ThinkingPrefixes)
	return p
}
