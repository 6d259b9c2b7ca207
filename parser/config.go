package parser

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// A profiles file is TOML with one table per profile. A table named after an existing
// profile (built-in or defined earlier in the file) starts from it; any other starts from
// the profile named by `extends` (default "generic"). A list given in the table replaces
// the inherited one; lists under the table's `add` sub-table are appended to it:
//
//	[profile.claude.add]
//	chrome = ['^\s*my status line']
//
//	[profile.aider]
//	extends = "generic"
//	programs = ["aider"]
//	echo_prefixes = ["> "]
//	busy_markers = ['Waiting for']
//
// Relay commands and the brief have keys of their own (relayTable): relay_prefixes,
// thinking_prefixes, relay_blocks, max_block_bytes, brief, brief_template.
//
// Patterns are Go regular expressions (RE2), matched against one row of text; use TOML
// literal strings ('...') to keep backslashes as they are. The caller reads the file:
// by convention profiles.toml in agentmux's folder under os.UserConfigDir (for example
// ~/.config/agentmux/profiles.toml).

// profileFile is the shape of a profiles file.
type profileFile struct {
	Profile map[string]profileTable `toml:"profile"`
}

// profileLists are the list fields a profile table can set or add to.
type profileLists struct {
	Programs        []string `toml:"programs"`
	IdleTitle       []string `toml:"idle_title"`
	BusyTitle       []string `toml:"busy_title"`
	ApprovalTitle   []string `toml:"approval_title"`
	BusyMarkers     []string `toml:"busy_markers"`
	DoneMarkers     []string `toml:"done_markers"`
	ApprovalMarkers []string `toml:"approval_markers"`
	Chrome          []string `toml:"chrome"`
	Prompts         []string `toml:"prompts"`
	AnswerPrefixes  []string `toml:"answer_prefixes"`
	LeadPrefixes    []string `toml:"lead_prefixes"`
	EchoPrefixes    []string `toml:"echo_prefixes"`
	InputTop        []string `toml:"input_top"`
	InputBottom     []string `toml:"input_bottom"`
	InputPlacehold  []string `toml:"input_placeholders"`
}

// profileTable is one [profile.NAME] table.
type profileTable struct {
	profileLists
	Extends    string        `toml:"extends"`
	LiveRows   *int          `toml:"live_rows"`
	StrictEcho *bool         `toml:"strict_echo"`
	Pad        *int          `toml:"pad"`
	IdleUnless *bool         `toml:"idle_unless_busy"`
	Add        *profileLists `toml:"add"`
	relayTable
}

// LoadProfiles parses a profiles file (the caller reads it) and returns the built-in
// profiles merged with the file's. Errors name the profile, the key and, for a bad
// pattern, its position in the list; unknown keys are errors too, so a typo never passes
// silently.
func LoadProfiles(data []byte) (Profiles, error) {
	var f profileFile
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, fmt.Errorf("profiles: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("profiles: unknown keys: %s", strings.Join(keys, ", "))
	}
	out := Builtins()
	names := make([]string, 0, len(f.Profile))
	for name := range f.Profile {
		names = append(names, name)
	}
	// Profiles that extend others are applied after them; otherwise by name, so the result
	// never depends on map order.
	sort.Strings(names)
	done := map[string]bool{}
	var apply func(name string, stack []string) error
	apply = func(name string, stack []string) error {
		if done[name] {
			return nil
		}
		for _, s := range stack {
			if s == name {
				return fmt.Errorf("profiles: extends loop: %s", strings.Join(append(stack, name), " → "))
			}
		}
		t := f.Profile[name]
		if t.Extends != "" {
			if _, inFile := f.Profile[t.Extends]; inFile && t.Extends != name {
				if err := apply(t.Extends, append(stack, name)); err != nil {
					return err
				}
			}
		}
		p, err := buildProfile(name, t, out)
		if err != nil {
			return err
		}
		out[name] = p
		done[name] = true
		return nil
	}
	for _, name := range names {
		if err := apply(name, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// buildProfile applies table t to its base profile from have.
func buildProfile(name string, t profileTable, have Profiles) (Profile, error) {
	if strings.TrimSpace(name) == "" {
		return Profile{}, errors.New("profiles: a profile needs a name")
	}
	base, ok := have[name]
	switch {
	case t.Extends != "":
		if base, ok = have[t.Extends]; !ok {
			return Profile{}, fmt.Errorf("profile %q: extends unknown profile %q", name, t.Extends)
		}
	case !ok:
		base = have["generic"]
	}
	p := base.clone()
	p.Name = name
	if t.LiveRows != nil {
		if *t.LiveRows < 0 {
			return Profile{}, fmt.Errorf("profile %q: live_rows must not be negative, got %d", name, *t.LiveRows)
		}
		p.LiveRows = *t.LiveRows
	}
	if t.IdleUnless != nil {
		p.IdleUnlessBusy = *t.IdleUnless
	}
	if t.Pad != nil {
		p.Pad = max(*t.Pad, 0)
	}
	if t.StrictEcho != nil {
		p.StrictEcho = *t.StrictEcho
	}
	if err := t.relayTable.apply(&p); err != nil {
		return Profile{}, fmt.Errorf("profile %q: %w", name, err)
	}
	if err := setLists(&p, t.profileLists, false); err != nil {
		return Profile{}, fmt.Errorf("profile %q: %w", name, err)
	}
	if t.Add != nil {
		if err := setLists(&p, *t.Add, true); err != nil {
			return Profile{}, fmt.Errorf("profile %q: add: %w", name, err)
		}
	}
	return p, nil
}

// setLists replaces (or, with add, extends) p's lists with the ones l gives.
func setLists(p *Profile, l profileLists, add bool) error {
	strs := []struct {
		src []string
		dst *[]string
	}{
		{l.Programs, &p.Programs},
		{l.AnswerPrefixes, &p.AnswerPrefixes},
		{l.LeadPrefixes, &p.LeadPrefixes},
		{l.EchoPrefixes, &p.EchoPrefixes},
	}
	for _, s := range strs {
		if s.src == nil {
			continue
		}
		if add {
			*s.dst = append(*s.dst, s.src...)
		} else {
			*s.dst = append([]string(nil), s.src...)
		}
	}
	pl := []struct {
		key string
		src []string
		dst *[]Pattern
	}{
		{"idle_title", l.IdleTitle, &p.IdleTitle},
		{"busy_title", l.BusyTitle, &p.BusyTitle},
		{"approval_title", l.ApprovalTitle, &p.ApprovalTitle},
		{"busy_markers", l.BusyMarkers, &p.BusyMarkers},
		{"done_markers", l.DoneMarkers, &p.DoneMarkers},
		{"approval_markers", l.ApprovalMarkers, &p.ApprovalMarkers},
		{"chrome", l.Chrome, &p.Chrome},
		{"prompts", l.Prompts, &p.Prompts},
		{"input_top", l.InputTop, &p.InputTop},
		{"input_bottom", l.InputBottom, &p.InputBottom},
		{"input_placeholders", l.InputPlacehold, &p.InputPlaceholders},
	}
	for _, s := range pl {
		if s.src == nil {
			continue
		}
		compiled := make([]Pattern, 0, len(s.src))
		for i, e := range s.src {
			c, err := Compile(e)
			if err != nil {
				return fmt.Errorf("%s[%d]: %w", s.key, i, err)
			}
			compiled = append(compiled, c)
		}
		if add {
			*s.dst = append(*s.dst, compiled...)
		} else {
			*s.dst = compiled
		}
	}
	return nil
}
