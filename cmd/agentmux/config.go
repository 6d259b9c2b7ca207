package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/ui"
)

// config.toml, beside profiles.toml, holds agentmux's settings that are not profiles.
// Its [delivery] table tunes the relay's delivery rules and its [store] table the
// message store, durations written as Go durations:
//
//	[delivery]
//	input_stale_timeout = "2m"   # a person's draft unchanged this long is set aside
//	max_batch = 10               # the most messages in one paste
//	urgent_delay = "500ms"       # the longest an urgent message waits for idle
//	default_timeout = "0s"       # a sent message's timeout unless it has one (0: none)
//	hook_wait = "1s"             # how long a turn waits for its program's hook
//
//	[store]
//	retention = "720h"           # how long messages are kept (30 days)
//
//	[ui]
//	allow_clipboard = false      # let panes' programs write the clipboard (OSC 52)
//	worktree = false             # every pane in a git worktree of its own (--worktree)
//	prefix = "ctrl+a"            # these five as their flags say; a flag given wins
//	layout = "auto"
//	turns = 8
//	idle = "1.5s"
//	scrollback = 10000           # history lines per pane
//
//	[ui.keys]                    # a key after the prefix → an action (ui.ActionNames)
//	"n" = "new-pane"
//
//	[mesh]
//	url = "nats://hub:4222"      # the mesh every session joins (--mesh)
//	creds = "/home/me/l.creds"   # its credentials (--mesh-creds; or nkey, --mesh-nkey)
//	ca = "/home/me/hub-ca.pem"   # the hub's TLS authority (--mesh-ca; else the system's)
//	answer_from = ["laptop"]     # your sessions elsewhere: they see and answer your panes' prompts
//
//	[web]
//	web = true                   # serve every session's web view (agentmux web prints its URL)
//	web_listen = "127.0.0.1:0"   # where it listens (a free loopback port)
//	control = false              # let its pages send, link and type
//
//	[mcp]
//	enabled = false              # give each supported agent CLI agentmux's MCP server (--mcp)
//	[notify]                     # where notifications go (notifycfg.go, docs/notify.md)
//	terminal = "osc9"            # osc9, osc777, bell or off
//	command = ["notify-send", "agentmux"]
//	webhook = "https://example.org/hook"
//	ntfy = "https://ntfy.sh/my-topic"
//	events = ["needs-you", "budget", "exited", "expired"]
//
//	[security]
//	pane_namespaces = true       # each pane in a user namespace of its own (Linux;
//	                             # false lets setuid programs such as sudo work in panes)

// settings are config.toml's values; zero ones take the defaults.
type settings struct {
	Delivery session.DeliveryRules
	// Retention is how long the store keeps messages (0: store.DefaultRetention).
	Retention time.Duration
	// AllowClipboard forwards a pane program's own clipboard writes (OSC 52) to the
	// outer terminal ([ui] allow_clipboard; off by default).
	AllowClipboard bool
	// Worktree starts every pane in a git worktree of its own ([ui] worktree).
	Worktree bool
	// UI holds [ui]'s defaults for what flags also set (flags win) and its key bindings.
	UI uiSettings
	// Mesh is the mesh a session joins unless --mesh says otherwise ([mesh] url,
	// creds, nkey).
	Mesh meshFlags
	// MeshAnswerFrom names the sessions of the mesh that are the person's too ([mesh]
	// answer_from): they see what this session's panes ask and may answer them.
	MeshAnswerFrom []string
	// Web starts the session's web view with it ([web]; --web and its flags override).
	Web webFlags
	// NoPaneNamespaces starts the panes in the server's own user namespace ([security]
	// pane_namespaces = false): setuid programs work in them, and the panes are told
	// from the person by their processes' parents alone (docs/security.md).
	NoPaneNamespaces bool
	// MCP gives each supported agent CLI agentmux's MCP server ([mcp] enabled; --mcp).
	MCP bool
	// Restore is what starting a session whose name a restorable session holds does
	// ([session] restore): "ask", "auto" or "never" (the default, "": never).
	Restore string
	// Spend holds [spend]'s budgets and [prices]' price table (spendconfig.go).
	Spend session.SpendOptions
	// Notify says where notifications go ([notify]; the --notify-* flags override).
	Notify notifyFlags
}

// uiSettings are [ui]'s prefix, layout, turns, idle and scrollback (each set only when
// written: its flag's default otherwise), and [ui.keys].
type uiSettings struct {
	Prefix     *keys.Key
	PrefixSpec string
	Layout     *ui.LayoutKind
	Turns      int
	Idle       time.Duration
	Scrollback *int
	Keys       []ui.Binding
}

// configPath returns os.UserConfigDir()/agentmux/config.toml.
func configPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("config directory: %w", err)
	}
	return filepath.Join(dir, "agentmux", "config.toml"), nil
}

// loadConfig returns config.toml's settings; no config directory or no file means the
// defaults (zero). A file that cannot be read or parsed is an error naming it.
func loadConfig() (settings, error) {
	path, err := configPath()
	if err != nil {
		return settings{}, nil
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return settings{}, nil
	case err != nil:
		return settings{}, fmt.Errorf("config: %w", err)
	}
	s, err := parseConfig(data)
	if err != nil {
		return settings{}, &fileError{path: path, err: err}
	}
	return s, nil
}

// configFile is the shape of config.toml.
type configFile struct {
	Delivery struct {
		InputStaleTimeout *tomlValue `toml:"input_stale_timeout"`
		MaxBatch          *tomlValue `toml:"max_batch"`
		UrgentDelay       *tomlValue `toml:"urgent_delay"`
		DefaultTimeout    *tomlValue `toml:"default_timeout"`
		HookWait          *tomlValue `toml:"hook_wait"`
	} `toml:"delivery"`
	Store struct {
		Retention *tomlValue `toml:"retention"`
	} `toml:"store"`
	UI struct {
		AllowClipboard *tomlValue            `toml:"allow_clipboard"`
		Worktree       *tomlValue            `toml:"worktree"`
		Prefix         *tomlValue            `toml:"prefix"`
		Layout         *tomlValue            `toml:"layout"`
		Turns          *tomlValue            `toml:"turns"`
		Idle           *tomlValue            `toml:"idle"`
		Scrollback     *tomlValue            `toml:"scrollback"`
		Keys           map[string]*tomlValue `toml:"keys"`
	} `toml:"ui"`
	Mesh struct {
		URL        string   `toml:"url"`
		Creds      string   `toml:"creds"`
		Nkey       string   `toml:"nkey"`
		CA         string   `toml:"ca"`
		AnswerFrom []string `toml:"answer_from"`
	} `toml:"mesh"`
	Web struct {
		Web     *tomlValue `toml:"web"`
		Listen  *tomlValue `toml:"web_listen"`
		Control *tomlValue `toml:"control"`
	} `toml:"web"`
	Security struct {
		PaneNamespaces *tomlValue `toml:"pane_namespaces"`
	} `toml:"security"`
	MCP struct {
		Enabled *tomlValue `toml:"enabled"`
	} `toml:"mcp"`
	Session struct {
		Restore *tomlValue `toml:"restore"`
	} `toml:"session"`
	spendFile
	Notify notifyTable `toml:"notify"`
}

// tomlValue is a config value as written, of whatever TOML type: the type is checked
// with an error that says how to write the value (a TOML decoder's own, "incompatible
// types: TOML value has type int64", helps no one).
type tomlValue struct{ v any }

// UnmarshalTOML keeps the value as decoded.
func (t *tomlValue) UnmarshalTOML(v any) error {
	t.v = v
	return nil
}

// duration is the value as a Go duration written as a string, e.g. "1.5s".
func (t *tomlValue) duration(table, key, example string) (time.Duration, error) {
	s, ok := t.v.(string)
	if !ok {
		if n, isNum := t.v.(int64); isNum {
			return 0, fmt.Errorf("[%s] %s = %d needs a unit, in quotes: %s = \"%ds\"", table, key, n, key, n)
		}
		return 0, fmt.Errorf("[%s] %s = %v: write a duration in quotes, e.g. %s = %q", table, key, t.v, key, example)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		if _, numErr := strconv.ParseFloat(s, 64); numErr == nil {
			return 0, fmt.Errorf("[%s] %s: %q needs a unit, e.g. %q", table, key, s, s+"s")
		}
		return 0, fmt.Errorf("[%s] %s: %q is not a duration (write it as Go does: %q)", table, key, s, example)
	}
	return v, nil
}

// integer is the value as a whole number.
func (t *tomlValue) integer(table, key string) (int, error) {
	n, ok := t.v.(int64)
	if !ok {
		return 0, fmt.Errorf("[%s] %s = %v: want a whole number, without quotes", table, key, tomlText(t.v))
	}
	return int(n), nil
}

// boolean is the value as true or false.
func (t *tomlValue) boolean(table, key string) (bool, error) {
	b, ok := t.v.(bool)
	if !ok {
		return false, fmt.Errorf("[%s] %s = %v: want true or false, without quotes", table, key, tomlText(t.v))
	}
	return b, nil
}

// tomlText shows a decoded value as it was written, strings quoted.
func tomlText(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// parseConfig parses config.toml's text. Unknown keys are errors, so a typo never passes
// silently; so are durations that are not Go durations, and values out of range.
func parseConfig(data []byte) (settings, error) {
	var f configFile
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return settings{}, fmt.Errorf("%s", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return settings{}, fmt.Errorf("unknown keys: %s", strings.Join(keys, ", "))
	}
	var st settings
	st.Mesh = meshFlags{url: f.Mesh.URL, creds: f.Mesh.Creds, nkey: f.Mesh.Nkey, ca: f.Mesh.CA}
	for _, name := range f.Mesh.AnswerFrom {
		if err := mesh.CheckName(name); err != nil {
			return settings{}, fmt.Errorf("[mesh] answer_from: %w", err)
		}
	}
	st.MeshAnswerFrom = f.Mesh.AnswerFrom
	d := &st.Delivery
	c := f.Delivery
	for _, k := range []struct {
		key     string
		src     *tomlValue
		dst     *time.Duration
		zeroOK  bool
		example string
	}{
		{"input_stale_timeout", c.InputStaleTimeout, &d.InputStale, false, "2m"},
		{"urgent_delay", c.UrgentDelay, &d.UrgentDelay, false, "500ms"},
		{"default_timeout", c.DefaultTimeout, &d.DefaultTimeout, true, "10m"},
		{"hook_wait", c.HookWait, &d.HookWait, false, "1s"},
		{"retention", f.Store.Retention, &st.Retention, false, "720h"},
	} {
		if k.src == nil {
			continue
		}
		table := "delivery"
		if k.dst == &st.Retention {
			table = "store"
		}
		v, err := k.src.duration(table, k.key, k.example)
		switch {
		case err != nil:
			return settings{}, err
		case v < 0 || v == 0 && !k.zeroOK:
			return settings{}, fmt.Errorf("[%s] %s must be positive, not %s", table, k.key, k.src.v)
		}
		*k.dst = v
	}
	if c.MaxBatch != nil {
		n, err := c.MaxBatch.integer("delivery", "max_batch")
		if err != nil {
			return settings{}, err
		}
		if n < 1 {
			return settings{}, fmt.Errorf("[delivery] max_batch must be at least 1, not %d", n)
		}
		d.MaxBatch = n
	}
	if v := f.UI.AllowClipboard; v != nil {
		b, err := v.boolean("ui", "allow_clipboard")
		if err != nil {
			return settings{}, err
		}
		st.AllowClipboard = b
	}
	if v := f.UI.Worktree; v != nil {
		b, err := v.boolean("ui", "worktree")
		if err != nil {
			return settings{}, err
		}
		st.Worktree = b
	}
	if v := f.MCP.Enabled; v != nil {
		b, err := v.boolean("mcp", "enabled")
		if err != nil {
			return settings{}, err
		}
		st.MCP = b
	}
	if v := f.Security.PaneNamespaces; v != nil {
		b, err := v.boolean("security", "pane_namespaces")
		if err != nil {
			return settings{}, err
		}
		st.NoPaneNamespaces = !b
	}
	if v := f.Session.Restore; v != nil {
		r, ok := v.v.(string)
		if !ok || r != "ask" && r != "auto" && r != "never" {
			return settings{}, fmt.Errorf("[session] restore = %s: want \"ask\", \"auto\" or \"never\"", tomlText(v.v))
		}
		st.Restore = r
	}
	if st.Spend, err = parseSpend(f.spendFile, data); err != nil {
		return settings{}, err
	}
	if st.Notify, err = parseNotify(f.Notify); err != nil {
		return settings{}, err
	}
	if st.UI, err = parseUI(f); err != nil {
		return settings{}, err
	}
	for _, k := range []struct {
		key string
		src *tomlValue
		dst *bool
	}{{"web", f.Web.Web, &st.Web.on}, {"control", f.Web.Control, &st.Web.control}} {
		if k.src == nil {
			continue
		}
		b, err := k.src.boolean("web", k.key)
		if err != nil {
			return settings{}, err
		}
		*k.dst = b
	}
	if v := f.Web.Listen; v != nil {
		addr, ok := v.v.(string)
		if err := checkListen(addr); !ok || addr == "" || err != nil { // --web-listen's rule
			return settings{}, fmt.Errorf("[web] web_listen = %s: write HOST:PORT in quotes, e.g. web_listen = \"127.0.0.1:8080\"", tomlText(v.v))
		}
		st.Web.listen = addr
	}
	return st, nil
}

// parseUI checks [ui]'s flag defaults and key bindings with the flags' own rules.
func parseUI(f configFile) (uiSettings, error) {
	var u uiSettings
	c := f.UI
	str := func(v *tomlValue, key, example string) (string, error) {
		s, ok := v.v.(string)
		if !ok {
			return "", fmt.Errorf("[ui] %s = %v: write it in quotes, e.g. %s = %q", key, tomlText(v.v), key, example)
		}
		return s, nil
	}
	if c.Prefix != nil {
		s, err := str(c.Prefix, "prefix", "ctrl+b")
		if err != nil {
			return u, err
		}
		k, err := keys.ParseKey(s)
		if err == nil {
			err = usablePrefix(k)
		}
		if err != nil {
			return u, fmt.Errorf("[ui] prefix = %q: %v", s, err)
		}
		u.Prefix, u.PrefixSpec = &k, s
	}
	if c.Layout != nil {
		s, err := str(c.Layout, "layout", "tiled")
		if err != nil {
			return u, err
		}
		l, err := ui.ParseLayout(s)
		if err != nil {
			return u, fmt.Errorf("[ui] layout: %v", err)
		}
		u.Layout = &l
	}
	if c.Turns != nil {
		n, err := c.Turns.integer("ui", "turns")
		if err != nil {
			return u, err
		}
		if n < 1 {
			return u, fmt.Errorf("[ui] turns must be at least 1, not %d", n)
		}
		u.Turns = n
	}
	if c.Idle != nil {
		d, err := c.Idle.duration("ui", "idle", "1.5s")
		if err != nil {
			return u, err
		}
		if d <= 0 {
			return u, fmt.Errorf("[ui] idle must be positive, not %s", c.Idle.v)
		}
		u.Idle = d
	}
	if c.Scrollback != nil {
		n, err := c.Scrollback.integer("ui", "scrollback")
		if err != nil {
			return u, err
		}
		if n < 0 {
			return u, fmt.Errorf("[ui] scrollback must be 0 or more lines, not %d", n)
		}
		u.Scrollback = &n
	}
	names := make([]string, 0, len(c.Keys))
	for k := range c.Keys {
		names = append(names, k)
	}
	slices.Sort(names) // errors and bindings in one order every time
	for _, spec := range names {
		v := c.Keys[spec]
		act, ok := v.v.(string)
		if !ok {
			return u, fmt.Errorf("[ui.keys] %q = %v: write the action's name in quotes", spec, tomlText(v.v))
		}
		k, err := keys.ParseKey(spec)
		if err != nil {
			return u, fmt.Errorf("[ui.keys] %q: %v", spec, err)
		}
		if err := ui.CheckAction(act); err != nil {
			return u, fmt.Errorf("[ui.keys] %q: %v", spec, err)
		}
		u.Keys = append(u.Keys, ui.Binding{Key: k, Action: act})
	}
	return u, nil
}

// applyUI sets the options [ui] gives where no flag did (set names the flags given).
func applyUI(o *options, u uiSettings, set map[string]bool) {
	if u.Prefix != nil && !set["prefix"] {
		o.cfg.Prefix, o.cfg.PrefixSpec = *u.Prefix, u.PrefixSpec
	}
	if u.Layout != nil && !set["layout"] {
		o.cfg.Layout = *u.Layout
	}
	if u.Turns > 0 && !set["turns"] {
		o.sess.Turns = u.Turns
	}
	if u.Idle > 0 && !set["idle"] {
		o.sess.Idle = u.Idle
	}
	if u.Scrollback != nil {
		o.sess.HistoryLimit = *u.Scrollback
	}
	o.cfg.Bindings = u.Keys
}

// webWith is the web view's settings: config.toml's, with the flags given on top.
func (s settings) webWith(o options) webFlags {
	w := s.Web
	if o.webSet["web"] {
		w.on = o.web.on
	}
	if o.webSet["web-listen"] {
		w.listen, w.on = o.web.listen, true
	}
	if o.webSet["web-control"] {
		w.control, w.on = o.web.control, w.on || o.web.control
	}
	return w
}
