package main

// config.toml's [spend] and [prices]: budgets in both forms, a price added and one
// replaced over the shipped table, and every bad entry an error naming its line; the
// --link-budget flag wins over [spend] link and refuses bad forms with an example.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/session"
	spend "github.com/agentmux/agentmux/usage"
)

func TestSpendConfig(t *testing.T) {
	conf, err := parseConfig([]byte(`[spend]
session = "$20"
link = "300k"
pane = "1.5M"

[prices]
"my-model" = [1, 2, 0.1, 0]
"Claude-Sonnet-4-5" = [4, 16, 0.4, 5]
`))
	require.NoError(t, err)
	assert.Equal(t, spend.Budget{USD: 20}, conf.Spend.SessionBudget)
	assert.Equal(t, spend.Budget{Tokens: 300_000}, conf.Spend.LinkBudget)
	assert.Equal(t, spend.Budget{Tokens: 1_500_000}, conf.Spend.PaneBudget)
	assert.Equal(t, spend.Price{Input: 1, Output: 2, CacheRead: 0.1}, conf.Spend.Prices["my-model"])
	assert.Equal(t, spend.Price{Input: 4, Output: 16, CacheRead: 0.4, CacheWrite: 5}, conf.Spend.Prices["claude-sonnet-4-5"])
	assert.Equal(t, spend.DefaultPrices()["gpt-5"], conf.Spend.Prices["gpt-5"], "the shipped table stays under the overrides")

	for in, want := range map[string]string{
		"[spend]\nsession = \"2$\"\n":                               `line 2: [spend] session: bad budget "2$"`,
		"[ui]\nturns = 3\n[spend]\nlink = \"-3k\"\n":                `line 4: [spend] link: bad budget "-3k"`,
		"[spend]\n\nsession = 20\n":                                 `line 3: [spend] session: 20 is no budget`,
		"[spend]\nlink = \"1k\"\npane = \"abc\"\n":                  `line 3: [spend] pane: bad budget "abc"`,
		"[prices]\n\"a\" = [1, 2]\n":                                `line 2: [prices] "a" = [1 2]: want 4 prices`,
		"[prices]\n# comment\n\"a\" = [1, 2, \"x\", 4]\n":           `line 3: [prices] "a"`,
		"[prices]\n\"a\" = \"3,15\"\n":                              `line 2: [prices] "a" = "3,15"`,
		"[prices]\n\"a\" = [1, 2, 3, -4]\n":                         `line 2`,
		"[prices]\n\"a\" = [1, 2, 3, 4]\n\"b\" = [1, 2, 3, 4, 5]\n": `line 3: [prices] "b"`,
	} {
		_, err := parseConfig([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want it to say %q", in, err, want)
		}
	}
	// session = 20 (a number, no unit): refused, with the right forms.
	_, err = parseConfig([]byte("[spend]\nsession = 20\n"))
	assert.ErrorContains(t, err, "300k")
}

func TestLinkBudgetFlag(t *testing.T) {
	o, err := parseArgs([]string{"--link-budget", "$2", "a", "b"})
	require.NoError(t, err)
	applySpend(&o, mustSpend(t, "[spend]\nlink = \"300k\"\nsession = \"1M\"\n"))
	assert.Equal(t, spend.Budget{USD: 2}, o.sess.Spend.LinkBudget, "the flag wins")
	assert.Equal(t, spend.Budget{Tokens: 1_000_000}, o.sess.Spend.SessionBudget)
	o, err = parseArgs([]string{"a", "b"})
	require.NoError(t, err)
	applySpend(&o, mustSpend(t, "[spend]\nlink = \"300k\"\n"))
	assert.Equal(t, spend.Budget{Tokens: 300_000}, o.sess.Spend.LinkBudget)
	for _, bad := range []string{"2$", "-3k", "abc", "0", ""} {
		_, err := parseArgs([]string{"--link-budget", bad, "a"})
		assert.ErrorIs(t, err, errUsage, bad)
		assert.ErrorContains(t, err, "'$2'", bad)
	}
}

func mustSpend(t *testing.T, text string) session.SpendOptions {
	t.Helper()
	conf, err := parseConfig([]byte(text))
	require.NoError(t, err)
	return conf.Spend
}

func TestMalformedPricesExit2(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "agentmux"), 0o700))
	path := filepath.Join(dir, "agentmux", "config.toml")
	require.NoError(t, os.WriteFile(path, []byte("[prices]\n\"m\" = [1, 2, 3]\n"), 0o600))
	var out, errb bytes.Buffer
	code, err := run(context.Background(), []string{"true"}, nil, &out, &errb)
	assert.Equal(t, 2, code)
	assert.ErrorContains(t, err, path+": line 2: [prices]")
}

// agentmux link --turns N --budget B: the budget in --link-budget's forms, refused
// before anything is sent when bad (exit 2 with the right forms), and not with an
// answer to a link request.
func TestLinkBudgetArgs(t *testing.T) {
	a, err := parseClientArgs("link", []string{"a", "b", "--turns", "12", "--budget", "$2"})
	require.NoError(t, err)
	require.NoError(t, checkLinkArgs(a))
	assert.Equal(t, 12, own[linkArgs](a).turns)
	assert.Equal(t, "$2", own[linkArgs](a).budget)
	for _, bad := range []string{"2$", "-3k", "abc", "0", ""} {
		a, err := parseClientArgs("link", []string{"a", "b", "--budget", bad})
		require.NoError(t, err)
		err = checkLinkArgs(a)
		assert.ErrorIs(t, err, errUsage, bad)
		assert.ErrorContains(t, err, "'$2'", bad)
	}
	_, err = parseClientArgs("link", []string{"a", "b", "--turns", "0"})
	assert.Error(t, err)
	a, err = parseClientArgs("link", []string{"--accept", "--budget", "5k"})
	require.NoError(t, err)
	assert.ErrorIs(t, checkLinkArgs(a), errUsage)
}

// parseClientArgs parses cmd's flags and operands as its command table entry says.
func parseClientArgs(cmd string, args []string) (clientArgs, error) {
	c, _ := lookupCommand(cmd)
	return c.parseFlags(args)
}
