package hooks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// pi (0.73) keeps each conversation as a session file named by its id under
// ~/.pi/agent/sessions, and `pi --session ID` opens it again. It has no hook settings,
// but it loads extensions named on its command line (-e FILE, also under
// --no-extensions), and an extension sees every event of the session with the
// session's id (ctx.sessionManager.getSessionId()). So a pi pane gets -e with an
// extension of agentmux's: after each of the person's prompts (agent_end, when pi
// has written the turn to its session file) it runs `agentmux hook conversation` with
// the id, which the hub keeps for agentmux restore, and the session file's path, where
// the session reads what the turn spent. It ends no turn (pi's turns end by its
// screen) and changes nothing in pi: a handler that returns nothing.

// conversationOnly are the CLIs whose `agentmux hook conversation` reports agentmux
// keeps: the payload names its CLI, and only these report that way.
var conversationOnly = map[string]bool{"pi": true}

// piExtensionSource is the extension; %s is agentmux's path as a JavaScript string.
const piExtensionSource = `// Written by agentmux for one pane; removed when its session ends.
// After each prompt it tells the agentmux session which pi session this pane holds
// (for agentmux restore). It changes nothing in pi.
import { execFile } from "node:child_process";

const agentmux = %s;

export default function (pi) {
	pi.on("agent_end", async (_event, ctx) => {
		const id = ctx.sessionManager.getSessionId();
		const file = ctx.sessionManager.getSessionFile();
		if (!id || !file) return;
		const payload = JSON.stringify({ cli: "pi", session_id: id, transcript_path: file });
		await new Promise((resolve) => {
			execFile(agentmux, ["hook", "conversation", payload], { timeout: 5000 }, () => resolve());
		});
	});
}
`

// piExtension writes pane id's pi extension into the run's folder and returns its path.
func (h *Setup) piExtension(id int) (string, error) {
	bin, err := json.Marshal(h.bin)
	if err != nil {
		return "", fmt.Errorf("pi extension: %w", err)
	}
	path := filepath.Join(h.dir, fmt.Sprintf("%d-pi-agentmux.mjs", id))
	if err := os.WriteFile(path, fmt.Appendf(nil, piExtensionSource, bin), 0o600); err != nil {
		return "", fmt.Errorf("pi extension: %w", err)
	}
	return path, nil
}
