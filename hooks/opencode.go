package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
)

// opencode (1.18) has no hook commands, but it loads plugins: JavaScript modules whose
// event function sees every event of its bus, session.idle among them, the moment a
// session's turn is over (a pause in the model's stream is no such event). It reads
// config from five places, the last of them OPENCODE_CONFIG_CONTENT, JSON merged over
// all the others with its plugin list added to theirs. So an opencode pane gets that
// variable naming one plugin: a file agentmux writes into the run's folder (0600, in
// agentmux's own 0700 state folder), which on session.idle of a top-level session
// reads the turn's answer (the text of the assistant messages after the last user
// message, as the model wrote them) through the client opencode gives plugins, and
// runs `agentmux hook opencode-idle` with it. Nothing of the person's opencode config
// is read or written; a person whose environment already sets OPENCODE_CONFIG_CONTENT
// keeps it, with the plugin added to its list (when it is no JSON object, the pane
// runs without the hook and its turns end by the screen's done row).

// opencodeIdle is the hook event the plugin runs.
const opencodeIdle = "opencode-idle"

// opencodePlugin is the plugin's source; %s is the agentmux binary and the event, as
// JSON strings.
const opencodePlugin = `// Written by agentmux for one opencode pane: reports the end of each turn (the
// session.idle event) to the agentmux session, with the turn's answer. Removed when
// the session ends.
import { spawn } from "node:child_process"

const bin = %s
const hookEvent = %s

async function data(call) {
  try {
    const res = await call()
    return res && typeof res === "object" && "data" in res ? res.data : res
  } catch {
    return undefined
  }
}

// answer is the text of the assistant messages after the last user message.
async function answer(client, id) {
  const msgs = await data(() => client.session.messages({ path: { id }, sessionID: id }))
  let parts = []
  for (const m of Array.isArray(msgs) ? msgs : []) {
    const role = m && m.info && m.info.role
    if (role === "user") parts = []
    if (role !== "assistant") continue
    for (const p of m.parts || []) {
      if (p && p.type === "text" && !p.synthetic && !p.ignored && typeof p.text === "string" && p.text !== "") parts.push(p.text)
    }
  }
  return parts.join("\n\n")
}

function report(payload) {
  return new Promise((resolve) => {
    let c
    try {
      c = spawn(bin, ["hook", hookEvent], { stdio: ["pipe", "ignore", "ignore"] })
    } catch {
      resolve()
      return
    }
    c.on("error", resolve)
    c.on("close", resolve)
    c.stdin.on("error", () => {})
    c.stdin.end(JSON.stringify(payload))
  })
}

export const AgentmuxTurnEnd = async ({ client }) => ({
  event: async ({ event }) => {
    if (!event || event.type !== "session.idle") return
    const id = event.properties && event.properties.sessionID
    if (typeof id !== "string" || id === "") return
    const info = await data(() => client.session.get({ path: { id }, sessionID: id }))
    if (info && info.parentID) return // a subagent's session: not the pane's turn
    await report({ session_id: id, last_assistant_message: await answer(client, id) })
  },
})
`

// errOpencodeConfig: the person's OPENCODE_CONFIG_CONTENT is no JSON object.
var errOpencodeConfig = errors.New("OPENCODE_CONFIG_CONTENT is no JSON object agentmux can add its plugin to")

// opencodeSpec writes pane id's opencode plugin into dir, reporting turn ends with
// agentmux binary bin, and returns env with OPENCODE_CONFIG_CONTENT naming it (the
// person's own content kept, the plugin added to its list). It fails, writing nothing,
// when that content is no JSON object.
func opencodeSpec(dir, bin string, id int, env []string) ([]string, error) {
	content := map[string]any{}
	if c := lookupEnv(env, "OPENCODE_CONFIG_CONTENT"); c != "" {
		if err := json.Unmarshal([]byte(c), &content); err != nil || content == nil {
			return nil, fmt.Errorf("opencode: %w", errOpencodeConfig)
		}
	}
	var plugins []any
	if p, ok := content["plugin"]; ok {
		if plugins, ok = p.([]any); !ok {
			return nil, fmt.Errorf("opencode: its plugin is no list: %w", errOpencodeConfig)
		}
	}
	path := filepath.Join(dir, fmt.Sprintf("%d-opencode-plugin.js", id))
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	src := fmt.Sprintf(opencodePlugin, q(bin), q(opencodeIdle))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opencode: %w", err)
	}
	_, err = f.WriteString(src)
	if err = errors.Join(err, f.Close()); err != nil {
		_ = os.Remove(path)
		return nil, fmt.Errorf("opencode: %w", err)
	}
	content["plugin"] = append(slices.Clone(plugins), (&url.URL{Scheme: "file", Path: path}).String())
	b, _ := json.Marshal(content)
	return append(slices.Clone(env), "OPENCODE_CONFIG_CONTENT="+string(b)), nil
}
