package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"

	"github.com/agentmux/agentmux/notify"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/ui"
)

// config.toml's [notify] table and the --notify-* flags say where the session's
// notifications go (docs/notify.md):
//
//	[notify]
//	terminal = "osc9"                        # the attached terminals: osc9, osc777, bell or off
//	command = ["notify-send", "agentmux"]    # run with the note's JSON on stdin
//	webhook = "https://example.org/hook"     # POSTed the same JSON
//	ntfy = "https://ntfy.sh/my-topic"        # an ntfy topic: title, question, click URL
//	events = ["needs-you", "budget", "exited", "expired"]   # add "turn" for finished turns

// notifyFlags are [notify]'s settings, or the flags'.
type notifyFlags struct {
	terminal string   // "" leaves it to config.toml (default osc9)
	command  []string // the notifier command's words
	webhook  string
	ntfy     string
	events   []string // nil: notify.DefaultEvents
	// commandLine and eventList are the flags' raw values (--notify-command is one
	// command line, --notify-events a comma-separated list).
	commandLine, eventList string
}

// check reads the flags' raw values and checks every value, naming where it came from.
func (f *notifyFlags) check(where string) error {
	if f.commandLine != "" {
		words, err := splitWords(f.commandLine)
		if err != nil || len(words) == 0 {
			return fmt.Errorf("%s: --notify-command %q: want a command line", where, f.commandLine)
		}
		f.command = words
	}
	if f.eventList != "" {
		f.events = strings.Split(f.eventList, ",")
	}
	if err := checkTerminal(f.terminal); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	for _, u := range []struct{ name, v string }{{"webhook", f.webhook}, {"ntfy", f.ntfy}} {
		if err := checkURL(u.v); err != nil {
			return fmt.Errorf("%s: notify %s: %w", where, u.name, err)
		}
	}
	for i, e := range f.events {
		e = strings.TrimSpace(e)
		f.events[i] = e
		if !slices.Contains(notify.AllEvents, e) {
			return fmt.Errorf("%s: notify events: unknown event %q (want some of %s)", where, e, strings.Join(notify.AllEvents, ", "))
		}
	}
	return nil
}

// checkTerminal checks a terminal notification mode.
func checkTerminal(mode string) error {
	switch mode {
	case "", ui.NotifyOSC9, ui.NotifyOSC777, ui.NotifyBell, ui.NotifyOff:
		return nil
	}
	return fmt.Errorf("notify terminal %q: want osc9, osc777, bell or off", mode)
}

// checkURL wants an http or https URL with a host ("" is none).
func checkURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q: want an http:// or https:// URL", s)
	}
	return nil
}

// or fills what the flags f left unset from config.toml's d.
func (f notifyFlags) or(d notifyFlags) notifyFlags {
	if f.terminal == "" {
		f.terminal = d.terminal
	}
	if f.command == nil {
		f.command = d.command
	}
	if f.webhook == "" {
		f.webhook = d.webhook
	}
	if f.ntfy == "" {
		f.ntfy = d.ntfy
	}
	if f.events == nil {
		f.events = d.events
	}
	return f
}

// parseNotify reads config.toml's [notify].
func parseNotify(t notifyTable) (notifyFlags, error) {
	var f notifyFlags
	if t.Terminal != nil {
		s, ok := t.Terminal.v.(string)
		if !ok {
			return f, fmt.Errorf("[notify] terminal = %s: want \"osc9\", \"osc777\", \"bell\" or \"off\"", tomlText(t.Terminal.v))
		}
		f.terminal = s
	}
	list := func(key string, v *tomlValue) ([]string, error) {
		if v == nil {
			return nil, nil
		}
		items, ok := v.v.([]any)
		out := []string{}
		for _, it := range items {
			s, isStr := it.(string)
			if !isStr {
				ok = false
				break
			}
			out = append(out, s)
		}
		if !ok {
			return nil, fmt.Errorf("[notify] %s = %s: want a list of strings, e.g. %s = [\"notify-send\", \"agentmux\"]", key, tomlText(v.v), key)
		}
		return out, nil
	}
	var err error
	if f.command, err = list("command", t.Command); err != nil {
		return f, err
	}
	if f.command != nil && len(f.command) == 0 {
		return f, fmt.Errorf("[notify] command = []: name a program")
	}
	if f.events, err = list("events", t.Events); err != nil {
		return f, err
	}
	f.webhook, f.ntfy = t.Webhook, t.Ntfy
	if err := f.check("config"); err != nil {
		return f, err
	}
	return f, nil
}

// notifyTable is [notify] as written.
type notifyTable struct {
	Terminal *tomlValue `toml:"terminal"`
	Command  *tomlValue `toml:"command"`
	Webhook  string     `toml:"webhook"`
	Ntfy     string     `toml:"ntfy"`
	Events   *tomlValue `toml:"events"`
}

// startNotify starts the session's notifier when [notify] or the flags name one, and
// watches s for it; the func it returns stops both (sending what is gathered).
func startNotify(f notifyFlags, name string, s *session.Session, web func() string, logger *slog.Logger) (stop func()) {
	cfg := notify.Config{Session: name, Command: f.command, Webhook: f.webhook, Ntfy: f.ntfy, Events: f.events,
		URL: web, Warn: s.Warn, Logger: logger}
	if !cfg.Enabled() {
		return func() {}
	}
	n := notify.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := notify.Watch(ctx, s, n)
	logger.Info("notify", "command", len(f.command) > 0, "webhook", f.webhook != "", "ntfy", f.ntfy != "", "events", f.events)
	return func() {
		cancel()
		<-done
		n.Close()
	}
}
