package parser

import "fmt"

// relayTable holds a profile table's keys about relay commands and the brief:
//
//	[profile.claude]
//	relay_prefixes = [">>relay:"]   # inline message markers (default @relay: and >>relay:)
//	thinking_prefixes = []          # inline thinking markers (default @thinking: and >>thinking:)
//	relay_blocks = true             # [[RELAY]] blocks
//	max_block_bytes = 1048576       # the largest block
//	brief = true                    # type the brief into it once it is ready
//	brief_template = "..."          # the brief's text ({name}, {pane}, {panes})
type relayTable struct {
	RelayPrefixes    *[]string `toml:"relay_prefixes"`
	ThinkingPrefixes *[]string `toml:"thinking_prefixes"`
	RelayBlocks      *bool     `toml:"relay_blocks"`
	MaxBlockBytes    *int      `toml:"max_block_bytes"`
	Brief            *bool     `toml:"brief"`
	BriefTemplate    *string   `toml:"brief_template"`
}

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
		p.BriefTemplate = *t.BriefTemplate
	}
	if err := p.Relay.Validate(); err != nil {
		return fmt.Errorf("relay_prefixes: %w", err)
	}
	return nil
}
