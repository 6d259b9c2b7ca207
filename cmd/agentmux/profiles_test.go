package main

// Strategy: run the command with XDG_CONFIG_HOME pointing at a temporary folder holding
// (or not) a profiles file, and check the exit status and the one-line error, before any
// terminal is needed.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMalformedProfilesExit2(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "agentmux"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "agentmux", "profiles.toml")
	if err := os.WriteFile(path, []byte("[profile.claude]\nchrome = ['(unclosed']\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code, err := run(context.Background(), []string{"true"}, nil, &out, &errb)
	if code != 2 || err == nil {
		t.Fatalf("exit %d, err %v: want 2 and an error", code, err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, path+": ") || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line starting with %s", msg, path)
	}
	if reason := strings.TrimPrefix(msg, path+": "); strings.HasPrefix(reason, "profiles") || !strings.Contains(reason, "(unclosed") {
		t.Errorf("error %q: want the reason after the path, once, naming the bad pattern", msg)
	}
}

func TestProfilesFileOptional(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ps, err := loadProfiles()
	if err != nil || ps["claude"].Name != "claude" {
		t.Fatalf("no file: %v, %v", ps, err)
	}
}

func TestDemoPanesProfiles(t *testing.T) {
	specs, err := demoPanes()
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 2 || specs[0].Name != "alice" || specs[0].Profile != "claude" || specs[1].Name != "bob" || specs[1].Profile != "codex" {
		t.Fatalf("demo panes %+v", specs)
	}
	if !strings.Contains(strings.Join(specs[0].Argv, " "), "--greet") {
		t.Errorf("alice does not open the conversation: %q", specs[0].Argv)
	}
}
