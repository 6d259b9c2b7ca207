package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/agentmux/agentmux/session"
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

// settings are config.toml's values; zero ones take the defaults.
type settings struct {
	Delivery session.DeliveryRules
	// Retention is how long the store keeps messages (0: store.DefaultRetention).
	Retention time.Duration
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
		InputStaleTimeout *string `toml:"input_stale_timeout"`
		MaxBatch          *int    `toml:"max_batch"`
		UrgentDelay       *string `toml:"urgent_delay"`
		DefaultTimeout    *string `toml:"default_timeout"`
		HookWait          *string `toml:"hook_wait"`
	} `toml:"delivery"`
	Store struct {
		Retention *string `toml:"retention"`
	} `toml:"store"`
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
	d := &st.Delivery
	c := f.Delivery
	for _, k := range []struct {
		key     string
		src     *string
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
		v, err := time.ParseDuration(*k.src)
		switch {
		case err != nil:
			return settings{}, fmt.Errorf("[%s] %s: %q is not a duration (write it as Go does: %q)", table, k.key, *k.src, k.example)
		case v < 0 || v == 0 && !k.zeroOK:
			return settings{}, fmt.Errorf("[%s] %s must be positive, not %s", table, k.key, *k.src)
		}
		*k.dst = v
	}
	if c.MaxBatch != nil {
		if *c.MaxBatch < 1 {
			return settings{}, fmt.Errorf("[delivery] max_batch must be at least 1, not %d", *c.MaxBatch)
		}
		d.MaxBatch = *c.MaxBatch
	}
	return st, nil
}
