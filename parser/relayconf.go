package parser

import (
	"fmt"
	"regexp"
	"strings"
)

// relayTable holds a profile table's keys about relay commands and the brief:
//
//	[profile.claude]
//	relay_prefixes = [">>relay:"]   # inline message markers (default @relay: and >>relay:)
//	thinking_prefixes = []          # inline thinking markers (default @thinking: and >>thinking:)
//	relay_blocks = true             # [[RELAY]] blocks
//	max_block_bytes = 1048576       # the largest block
//	brief = true                    # type the brief into it once it is ready
//	brief_template = "..."          # the brief's text ({name}, {pane}, {panes}, {scope})
//	interrupt_keys = "\u001b"       # keys that interrupt a turn (default Escape)
//	clear_keys = "\u0015"           # keys that empty the input line (default Ctrl+U)
//	hooks = false                   # no hook settings for this program (see Profile.Hooks)
//	hooks_via = "claude"            # pass hooks as claude, codex, gemini, qwen or opencode take them
type relayTable struct {
	Hooks            *bool     `toml:"hooks"`
	HooksVia         *string   `toml:"hooks_via"`
	InterruptKeys    *string   `toml:"interrupt_keys"`
	ClearKeys        *string   `toml:"clear_keys"`
	RelayPrefixes    *[]string `toml:"relay_prefixes"`
	ThinkingPrefixes *[]string `toml:"thinking_prefixes"`
	RelayBlocks      *bool     `toml:"relay_blocks"`
	MaxBlockBytes    *int      `toml:"max_block_bytes"`
	Brief            *bool     `toml:"brief"`
	BriefTemplate    *string   `toml:"brief_template"`
}

// placeholder matches what brief_template could mean as a placeholder: a word in braces.
// Other braces (JSON in the text) are text.
var placeholder = regexp.MustCompile(`\{[A-Za-z_]+\}`)

// apply sets the keys t gives on p.
func (t relayTable) apply(p *Profile) error {
	if t.RelayPrefixes != nil {
		p.Relay.MessagePrefixes = append([]string{}, *t.RelayPrefixes...)
	}
	if t.ThinkingPrefixes != nil {
		p.Relay.ThinkingPrefixes = append([]string{}, *t.ThinkingPrefixes...)
	}
	if t.RelayBlocks != nil {
		p.Relay.NoBlock = !*t.RelayBlocks
	}
	if t.MaxBlockBytes != nil {
		if *t.MaxBlockBytes <= 0 {
			return fmt.Errorf("max_block_bytes must be positive, got %d", *t.MaxBlockBytes)
		}
		p.Relay.MaxBlockBytes = *t.MaxBlockBytes
	}
	if t.Brief != nil {
		p.Brief = *t.Brief
	}
	if t.BriefTemplate != nil {
		for _, ph := range placeholder.FindAllString(*t.BriefTemplate, -1) {
			switch ph {
			case "{name}", "{pane}", "{panes}", "{scope}":
			default:
				return fmt.Errorf("brief_template: unknown placeholder %s (it has {name}, {pane}, {panes} and {scope})", ph)
			}
		}
		p.BriefTemplate = *t.BriefTemplate
	}
	if t.Hooks != nil {
		p.NoHooks = !*t.Hooks
	}
	if t.HooksVia != nil {
		switch *t.HooksVia {
		case "", HooksClaude, HooksCodex, HooksGemini, HooksQwen, HooksOpencode, HooksPi:
			p.Hooks = *t.HooksVia
		default:
			return fmt.Errorf("hooks_via must be claude, codex, gemini, qwen, opencode, pi or \"\", got %q", *t.HooksVia)
		}
	}
	for _, k := range []struct {
		key string
		src *string
		dst *string
	}{{"interrupt_keys", t.InterruptKeys, &p.InterruptKeys}, {"clear_keys", t.ClearKeys, &p.ClearKeys}} {
		if k.src == nil {
			continue
		}
		if *k.src == "" || strings.ContainsAny(*k.src, "\r\n") {
			return fmt.Errorf("%s must be keys other than Enter, got %q", k.key, *k.src)
		}
		*k.dst = *k.src
	}
	if err := p.Relay.Validate(); err != nil {
		return fmt.Errorf("relay_prefixes: %w", err)
	}
	return nil
}
