// Package hooks owns how agentmux learns of an agent's finished turn from the agent
// itself: the per-run hook settings it gives Claude Code (--settings), Codex
// (-c notify=…), Qwen Code (a system defaults file) and opencode (a plugin named by
// OPENCODE_CONFIG_CONTENT), the Gemini CLI home of its own
// with a hook extension, giving that home's writes back to the person's ~/.gemini
// (and, after a killed run, the next run's recovery of them), and `agentmux hook
// EVENT`, which reports the turn to the session socket.
//
// It is a leaf beside session: it imports session (the PaneSpec it edits), parser (the
// profiles that say which hooks a program takes), proto and client (the X_HOOK report)
// and nothing else of the project; never ui, tty, hub or the store. Where its folders
// live is cmd's choice (New takes the root), and only cmd turns its errors into exit
// statuses.
package hooks
