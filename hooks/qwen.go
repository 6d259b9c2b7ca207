package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// Qwen Code (0.24, a Gemini CLI fork) has Claude Code's Stop hook, whose input carries
// last_assistant_message: the text parts of the turn's last model message joined as
// the model wrote them, thoughts left out. It takes no settings flag, but it reads five
// settings layers and two of them from files an environment variable names:
// QWEN_CODE_SYSTEM_SETTINGS_PATH (the system layer, above the person's own settings)
// and QWEN_CODE_SYSTEM_DEFAULTS_PATH (system defaults, below everything). The hooks of
// both system layers run whether the folder is trusted or not, and a layer's hooks add
// to the others' (Qwen lists each layer's hooks apart; within a layer, hook lists are
// concatenated). So a Qwen pane gets the defaults layer: a file agentmux writes into
// the run's folder, holding only the Stop hook, named by QWEN_CODE_SYSTEM_DEFAULTS_PATH.
// Nothing of the person's ~/.qwen is read, linked or written, and every setting of
// theirs (any layer) still wins over it.
//
// The defaults layer is one file: a person who has one (the variable set, or the file
// beside the system settings, /etc/qwen-code/system-defaults.json on Linux) would lose
// theirs to agentmux's. That pane runs without hooks instead (its turns end by its
// screen), and the log says why. A Qwen project cannot redirect the variable: Qwen
// ignores it in a project's .env.

// qwenSettingsVersion is the settings format Qwen Code 0.24 writes ("$version"): a file
// without it, Qwen rewrites to add it.
const qwenSettingsVersion = 4

// qwenNoAnswer is what Qwen puts in last_assistant_message when the turn's last model
// message has no text.
const qwenNoAnswer = "[no response text]"

// errQwenDefaults: the person has a system defaults file of their own.
var errQwenDefaults = errors.New("the person has Qwen system defaults of their own, which agentmux's would hide")

// qwenSystemDefaults is where Qwen Code finds its system defaults file without
// agentmux: env's QWEN_CODE_SYSTEM_DEFAULTS_PATH, else system-defaults.json beside its
// system settings file; named reports whether the variable named it.
func qwenSystemDefaults(env []string) (path string, named bool) {
	if p := lookupEnv(env, "QWEN_CODE_SYSTEM_DEFAULTS_PATH"); p != "" {
		return p, true
	}
	settings := lookupEnv(env, "QWEN_CODE_SYSTEM_SETTINGS_PATH")
	if settings == "" {
		switch runtime.GOOS {
		case "darwin":
			settings = "/Library/Application Support/QwenCode/settings.json"
		default:
			settings = "/etc/qwen-code/settings.json"
		}
	}
	return filepath.Join(filepath.Dir(settings), "system-defaults.json"), false
}

// qwenSpec writes pane id's Qwen Code defaults layer into dir, its hooks running the
// commands of events (Stop, Notification) by event (none: no hooks) and agentmux's MCP
// server when mcp is not nil (Qwen merges each layer's mcpServers by name, the person's
// winning), and returns env with the variable that names it. It fails, writing nothing,
// when the person has a defaults layer of their own.
func qwenSpec(dir string, id int, env []string, events map[string]string, mcp map[string]any) ([]string, error) {
	if p, named := qwenSystemDefaults(env); named {
		return nil, fmt.Errorf("qwen: QWEN_CODE_SYSTEM_DEFAULTS_PATH=%s: %w", p, errQwenDefaults)
	} else if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("qwen: %s: %w", p, errQwenDefaults)
	}
	settings := map[string]any{}
	if len(events) > 0 {
		settings = namedHooks(events)
	}
	settings["$version"] = qwenSettingsVersion
	if mcp != nil {
		settings["mcpServers"] = map[string]any{MCPServerName: mcp}
	}
	b, _ := json.MarshalIndent(settings, "", "  ")
	path := filepath.Join(dir, fmt.Sprintf("%d-qwen-defaults.json", id))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("qwen: %w", err)
	}
	_, err = f.Write(b)
	if err = errors.Join(err, f.Close()); err != nil {
		_ = os.Remove(path)
		return nil, fmt.Errorf("qwen: %w", err)
	}
	return append(slices.Clone(env), "QWEN_CODE_SYSTEM_DEFAULTS_PATH="+path), nil
}
