package parser

// Strategy: profiles files as TOML text → the resulting profile set or the exact error
// the person would read. Overrides replace lists, `add` extends them, `extends` inherits,
// and every mistake (bad TOML, unknown key, bad pattern, unknown parent, loop) is an
// error naming where it is.

import (
	"strings"
	"testing"
)

func TestLoadProfiles(t *testing.T) {
	ps, err := LoadProfiles([]byte(`
[profile.claude]
busy_title = ['^BUSY']

[profile.claude.add]
chrome = ['^\s*my footer']
echo_prefixes = ["» "]

[profile.aider]
extends = "mybase"
programs = ["aider"]
live_rows = 4

[profile.mybase]
busy_markers = ['Waiting for']
done_markers = ['^Done in \d+s']
strict_echo = false

[profile.mybase.add]
lead_prefixes = ["◇ "]
`))
	if err != nil {
		t.Fatalf("LoadProfiles: %v", err)
	}
	c := ps["claude"]
	if len(c.BusyTitle) != 1 || !c.BusyTitle[0].Match("BUSY now") || c.BusyTitle[0].Match("◐ Claude Code") {
		t.Errorf("claude busy_title not replaced: %v", c.BusyTitle)
	}
	if !c.IsChrome("  my footer here") || !c.IsChrome("❯ ") {
		t.Errorf("claude chrome not extended")
	}
	if got := c.EchoPrefixes; len(got) != 2 || got[1] != "» " {
		t.Errorf("claude echo prefixes = %q", got)
	}
	if len(c.IdleTitle) == 0 {
		t.Errorf("claude idle title lost")
	}
	a := ps.For("/usr/bin/aider")
	if len(a.DoneMarkers) != 1 || !a.DoneMarkers[0].Match("Done in 3s") {
		t.Errorf("aider done markers = %v", a.DoneMarkers)
	}
	if a.Name != "aider" || a.LiveRows != 4 || a.StrictEcho || len(a.BusyMarkers) != 1 {
		t.Errorf("aider = %+v", a)
	}
	if ps["mybase"].Name != "mybase" || !matchAny(ps["mybase"].Prompts, "$ ") {
		t.Errorf("mybase does not start from generic")
	}
	if got := ps["mybase"].LeadPrefixes; len(got) != 2 || got[0] != "• " || got[1] != "◇ " {
		t.Errorf("mybase lead prefixes = %q, want generic's and the added one", got)
	}
	if ps.For("codex").Name != "codex" {
		t.Errorf("built-ins missing from the result")
	}
	if Builtins()["claude"].BusyTitle[0].Match("BUSY") {
		t.Errorf("LoadProfiles changed the built-ins")
	}
}

func TestLoadProfilesErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"bad toml", `[profile.x`, "profiles: toml:"},
		{"unknown key", "[profile.x]\nchrom = ['a']", "unknown keys: profile.x.chrom"},
		{"bad pattern", "[profile.x]\nchrome = ['ok', '(unclosed']", `profile "x": chrome[1]: pattern "(unclosed"`},
		{"bad added pattern", "[profile.x.add]\nbusy_markers = ['[z-a]']", `profile "x": add: busy_markers[0]`},
		{"unknown parent", "[profile.x]\nextends = 'nope'", `profile "x": extends unknown profile "nope"`},
		{"loop", "[profile.x]\nextends = 'y'\n[profile.y]\nextends = 'x'", "extends loop"},
		{"negative live rows", "[profile.x]\nlive_rows = -1", "live_rows must not be negative"},
		{"wrong type", "[profile.x]\nchrome = 'a'", "profiles: toml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadProfiles([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestLoadProfilesEmpty(t *testing.T) {
	ps, err := LoadProfiles(nil)
	if err != nil {
		t.Fatalf("LoadProfiles(nil): %v", err)
	}
	if len(ps) != len(Builtins()) {
		t.Fatalf("got %d profiles, want the %d built-ins", len(ps), len(Builtins()))
	}
}

func TestLoadProfilesRelayKeys(t *testing.T) {
	ps, err := LoadProfiles([]byte(`
[profile.claude]
relay_prefixes = [">>relay:", ">>"]
thinking_prefixes = []
relay_blocks = false
max_block_bytes = 4096
brief = true
brief_template = "hi {name}"

[profile.mine]
extends = "claude"
programs = ["mine"]
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"claude", "mine"} {
		p := ps[name]
		s := p.Relay
		if len(s.MessagePrefixes) != 2 || s.ThinkingPrefixes == nil || len(s.ThinkingPrefixes) != 0 || !s.NoBlock || s.MaxBlockBytes != 4096 || !p.Brief || p.BriefTemplate != "hi {name}" {
			t.Errorf("%s: %+v brief %v %q", name, s, p.Brief, p.BriefTemplate)
		}
		if got := CommandsWith(s, ">>bob hi\n@relay:bob no\n@thinking:bob no"); len(got) != 1 || got[0].To != "bob" {
			t.Errorf("%s: parsed %+v", name, got)
		}
	}
	if g := ps["codex"].Relay; g.MessagePrefixes != nil || g.NoBlock {
		t.Errorf("codex changed: %+v", g)
	}
	for _, bad := range []string{
		"[profile.x]\nrelay_prefixes = [\"\"]",
		"[profile.x]\nrelay_prefixes = [\"a b\"]",
		"[profile.x]\nmax_block_bytes = 0",
		"[profile.x]\nbrief = \"yes\"",
	} {
		if _, err := LoadProfiles([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	} // A misspelt placeholder would be typed into every agent as it stands.
	_, err = LoadProfiles([]byte("[profile.x]\nbrief_template = \"you are {nmae}, pane {pane}\""))
	if want := `profile "x": brief_template: unknown placeholder {nmae} (it has {name}, {pane}, {panes} and {scope})`; err == nil || err.Error() != want {
		t.Errorf("misspelt placeholder: %v; want %s", err, want)
	}
	// Braces that are no placeholder (JSON, as in the default) are text.
	if _, err := LoadProfiles([]byte("[profile.x]\nbrief_template = '{name}: [[RELAY]]{\"to\": \"NAME\"}[[/RELAY]] {panes} {scope}'")); err != nil {
		t.Errorf("a template with JSON braces: %v", err)
	}
}

func TestProfileKeys(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini", "generic"} {
		p := Builtins()[name]
		clear := "\x15"
		if name == "claude" {
			clear = strings.Repeat("\x15", 32) // a message of several lines Claude Code puts back on an interrupt
		}
		if p.Interrupt() != "\x1b" || p.Clear() != clear {
			t.Errorf("%s: interrupt %q clear %q, want Escape and %q", name, p.Interrupt(), p.Clear(), clear)
		}
	}
	ps, err := LoadProfiles([]byte("[profile.aider]\ninterrupt_keys = \"\\u0003\"\nclear_keys = \"\\u0001\\u000b\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a := ps["aider"]; a.Interrupt() != "\x03" || a.Clear() != "\x01\x0b" {
		t.Errorf("aider: interrupt %q clear %q", a.Interrupt(), a.Clear())
	}
	if (Profile{}).Clear() != DefaultClearKeys {
		t.Error("a profile without clear keys does not take the default")
	}
	for _, bad := range []string{`clear_keys = ""`, `interrupt_keys = "\r"`} {
		if _, err := LoadProfiles([]byte("[profile.x]\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "keys") {
			t.Errorf("%s: err %v, want one naming the key", bad, err)
		}
	}
}

func TestLoadProfilesHookKeys(t *testing.T) {
	ps, err := LoadProfiles([]byte(`
[profile.claude]
hooks = false

[profile.myclaude]
extends = "generic"
programs = ["myclaude"]
hooks_via = "claude"

[profile.myqwen]
extends = "generic"
programs = ["myqwen"]
hooks_via = "qwen"
`))
	if err != nil {
		t.Fatal(err)
	}
	if p := ps["qwen"]; p.Hooks != HooksQwen || p.NoHooks {
		t.Errorf("qwen: hooks %q off %v", p.Hooks, p.NoHooks)
	}
	if p := ps["myqwen"]; p.Hooks != HooksQwen || p.NoHooks {
		t.Errorf("myqwen: hooks %q off %v", p.Hooks, p.NoHooks)
	}
	if p := ps["claude"]; !p.NoHooks || p.Hooks != HooksClaude {
		t.Errorf("claude: hooks %q off %v", p.Hooks, p.NoHooks)
	}
	if p := ps["myclaude"]; p.NoHooks || p.Hooks != HooksClaude {
		t.Errorf("myclaude: hooks %q off %v", p.Hooks, p.NoHooks)
	}
	if p := ps["codex"]; p.Hooks != HooksCodex || p.NoHooks {
		t.Errorf("codex: hooks %q off %v", p.Hooks, p.NoHooks)
	}
	if p := ps["generic"]; p.Hooks != "" {
		t.Errorf("generic passes hooks %q", p.Hooks)
	}
	if _, err := LoadProfiles([]byte("[profile.x]\nhooks_via = \"vim\"")); err == nil {
		t.Error("hooks_via vim: no error")
	}
}

// A profile can find an input with no prompt glyph by its edges, as pi's and opencode's
// built-in profiles do: input_top, input_bottom and input_placeholders.
func TestLoadProfilesInputEdges(t *testing.T) {
	ps, err := LoadProfiles([]byte(`
[profile.boxy]
programs = ["boxy"]
input_top = ['^=+$']
input_bottom = ['^=+$']
input_placeholders = ['^type here']
`))
	if err != nil {
		t.Fatalf("LoadProfiles: %v", err)
	}
	p := ps["boxy"]
	if got, ok := InputRow(p, []string{"answer", "=====", "my draft", "=====", "status"}); got != "my draft" || !ok {
		t.Errorf("InputRow = %q, %v; want the draft between the edges", got, ok)
	}
	if got, ok := InputRow(p, []string{"=====", "type here…", "====="}); got != "" || !ok {
		t.Errorf("InputRow = %q, %v; want the placeholder read as empty", got, ok)
	}
	if _, err := LoadProfiles([]byte("[profile.boxy]\ninput_bottom = ['(']\n")); err == nil || !strings.Contains(err.Error(), "input_bottom[0]") {
		t.Errorf("a bad input_bottom pattern: err %v, want one naming input_bottom[0]", err)
	}
}
