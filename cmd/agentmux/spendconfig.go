package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/session"
	spend "github.com/agentmux/agentmux/usage"
	"github.com/agentmux/agentmux/usage/opencode"
)

// config.toml's spend settings:
//
//	[spend]
//	session = "$20"              # the session's cap: every delivery held once reached
//	link = "300k"                # a new link's budget (--link-budget wins)
//	pane = "$5"                  # each pane's cap: deliveries into it held once reached
//
//	[prices]                     # $ per million tokens: input, output, cache read, cache write
//	"claude-sonnet-4-5" = [3, 15, 0.30, 3.75]
//	"my-local-model" = [0, 0, 0, 0]
//
// A [prices] entry adds a model to the shipped table or replaces its price.

// spendFile is the shape of config.toml's [spend] and [prices].
type spendFile struct {
	Spend struct {
		Session *tomlValue `toml:"session"`
		Link    *tomlValue `toml:"link"`
		Pane    *tomlValue `toml:"pane"`
	} `toml:"spend"`
	Prices map[string]*tomlValue `toml:"prices"`
}

// parseSpend reads [spend] and [prices] into the session's spend options (data is the
// file's text, for the line a bad entry is on).
func parseSpend(f spendFile, data []byte) (session.SpendOptions, error) {
	var o session.SpendOptions
	for _, k := range []struct {
		key string
		src *tomlValue
		dst *spend.Budget
	}{{"session", f.Spend.Session, &o.SessionBudget}, {"link", f.Spend.Link, &o.LinkBudget}, {"pane", f.Spend.Pane, &o.PaneBudget}} {
		if k.src == nil {
			continue
		}
		s, ok := k.src.v.(string)
		if !ok {
			s = tomlText(k.src.v)
		}
		b, err := spend.ParseBudget(s)
		if !ok {
			err = fmt.Errorf("%s is no budget: write it in quotes, as tokens like \"300k\" or dollars like \"$2\"", s)
		}
		if err != nil {
			return o, fmt.Errorf("line %d: [spend] %s: %v", lineOf(data, "spend", k.key), k.key, err)
		}
		*k.dst = b
	}
	if len(f.Prices) == 0 {
		return o, nil
	}
	over := spend.Prices{}
	for model, v := range f.Prices {
		var fields []string
		if items, ok := v.v.([]any); ok {
			for _, it := range items {
				fields = append(fields, tomlText(it))
			}
		}
		p, err := spend.ParsePrice(fields)
		if err == nil && fields == nil {
			err = fmt.Errorf("want an array")
		}
		if err != nil {
			return o, fmt.Errorf("line %d: [prices] %q = %s: %v", lineOf(data, "prices", model), model, tomlText(v.v), err)
		}
		over[strings.ToLower(model)] = p
	}
	o.Prices = spend.DefaultPrices().Merge(over)
	return o, nil
}

// tableHeader matches a TOML table header line, capturing its name; compiled on first
// use, not at every agentmux process's start.
var tableHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\s*([^\]]+?)\s*\]`) })

// lineOf returns the line (from 1) where key is set in [table] of a TOML text, 0 when
// it cannot be told.
func lineOf(data []byte, table, key string) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	in := false
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if m := tableHeader().FindStringSubmatch(l); m != nil {
			in = m[1] == table
			continue
		}
		if !in {
			continue
		}
		k, _, ok := strings.Cut(l, "=")
		if ok && strings.Trim(strings.TrimSpace(k), `"'`) == key {
			return n
		}
	}
	return 0
}

// applySpend sets the session's spend options from config.toml's, --link-budget
// winning over [spend] link.
func applySpend(o *options, conf session.SpendOptions) {
	o.sess.Spend = conf
	if o.set["link-budget"] {
		o.sess.Spend.LinkBudget = o.linkBudget
	}
	o.sess.Spend.Opencode = opencodeUsage
}

// opencodeUsage reads what an opencode pane started in dir at since spent, from
// opencode's database (opencode.Folder), and names the database's write-ahead log,
// whose writes say a step was recorded.
func opencodeUsage(dir string, env []string, since time.Time) (func() ([]spend.Request, error), string) {
	db := opencode.DB(env)
	if db == "" {
		return func() ([]spend.Request, error) {
			return nil, errors.New("usage: opencode: no home folder to find its database in")
		}, ""
	}
	return opencode.NewFolder(db, dir, since).Read, db + "-wal"
}
