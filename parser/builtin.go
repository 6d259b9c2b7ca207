package parser

import "slices"

// The built-in profiles were measured on Claude Code 2.1.330, Codex CLI 0.169.0 and
// Gemini CLI 0.61.0 (testdata/agent-streams): the patterns below are exactly
// what those versions print. A user's profiles file can override or extend any of them.
//
// Interrupt and clear keys: all three take the defaults, Escape and Ctrl+U. Checked from
// what each CLI says, not from a run: their own busy rows name Escape ("esc to interrupt"
// in Claude Code's and Codex's recorded screens, "(esc to cancel" in Gemini CLI's, the
// busy markers below); Ctrl+U deletes from the cursor to the start of the line in Gemini
// CLI's keyboard-shortcuts doc, Claude Code's interactive-mode shortcuts and Codex's
// composer (readline keys). It clears a one-line draft whose cursor is at its end, the
// only draft the relay sets aside; the relay checks the screen's input row is empty
// before it types, so a CLI that ignores it costs a delivery's wait, never a draft.

// pats compiles a list of built-in expressions.
func pats(exprs ...string) []Pattern {
	out := make([]Pattern, len(exprs))
	for i, e := range exprs {
		out[i] = MustCompile(e)
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
		ClearKeys:      DefaultClearKeys,
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
		}, commonChrome...)...),
		AnswerPrefixes: []string{"✦ "},
		EchoPrefixes:   []string{"> "},
		Hooks:          HooksGemini,
		InterruptKeys:  DefaultInterruptKeys,
		ClearKeys:      DefaultClearKeys,
	},
	"generic": Generic(),
}

// Generic returns the profile used for programs no other profile claims: no title
// knowledge, a few widespread markers, rules and spinner rows as chrome, empty prompts as prompts (an
// agent may print a lone ">" among its words), and echo rows removed only when they
// repeat typed text.
func Generic() Profile {
	return Profile{
		Name:           "generic",
		BusyMarkers:    pats(`esc to interrupt`),
		Chrome:         pats(append([]string{`esc to interrupt`}, commonChrome...)...), // a spinner row
		Prompts:        pats(`^\s*[❯›>$%#]\s*$`),
		AnswerPrefixes: []string{"● ", "✦ "},
		EchoPrefixes:   []string{"❯ ", "› ", "> "},
		StrictEcho:     true,
		InterruptKeys:  DefaultInterruptKeys,
		ClearKeys:      DefaultClearKeys,
	}
}

// Builtins returns a fresh copy of the built-in profiles: "claude", "codex", "gemini" and
// "generic".
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
	p.Chrome = append([]Pattern(nil), p.Chrome...)
	p.Prompts = append([]Pattern(nil), p.Prompts...)
	p.AnswerPrefixes = append([]string(nil), p.AnswerPrefixes...)
	p.EchoPrefixes = append([]string(nil), p.EchoPrefixes...)
	p.Relay.MessagePrefixes = slices.Clone(p.Relay.MessagePrefixes) // nil stays nil: the defaults
	p.Relay.ThinkingPrefixes = slices.Clone(p.Relay.ThinkingPrefixes)
	return p
}
