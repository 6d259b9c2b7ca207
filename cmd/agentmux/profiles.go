package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentmux/agentmux/parser"
)

// profilesPath returns where the user's agent profiles live:
// os.UserConfigDir()/agentmux/profiles.toml (~/.config/agentmux/profiles.toml on Linux).
func profilesPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("config directory: %w", err)
	}
	return filepath.Join(dir, "agentmux", "profiles.toml"), nil
}

// loadProfiles returns the built-in profiles merged with the user's profiles file when
// there is one. A file that cannot be read or parsed is an error naming it; no config
// directory, or no file, means the built-ins.
func loadProfiles() (parser.Profiles, error) {
	path, err := profilesPath()
	if err != nil {
		return parser.Builtins(), nil
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return parser.Builtins(), nil
	case err != nil:
		return nil, fmt.Errorf("profiles: %w", err)
	}
	ps, err := parser.LoadProfiles(data)
	if err != nil {
		return nil, &fileError{path: path, err: err}
	}
	return ps, nil
}

// fileError is a profiles or config file that does not parse: "PATH: what is wrong",
// without the "profiles: " its message starts with (the path already says which file
// it is).
type fileError struct {
	path string
	err  error
}

func (e *fileError) Error() string {
	return e.path + ": " + strings.TrimPrefix(e.err.Error(), "profiles: ")
}

// Unwrap returns the parser's error.
func (e *fileError) Unwrap() error { return e.err }
