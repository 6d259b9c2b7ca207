// Package usage owns what agentmux knows of an agent's spend: the tokens each request
// used, read exactly from the file its CLI records them in (Claude Code's transcript,
// Codex's rollout file, Gemini CLI's and Qwen Code's chat files, pi's session file),
// the price table that turns tokens into money, and the budget forms (`300k`, `$2`)
// the command line and config take.
//
// A Reader reads one file incrementally: it keeps the offset of the last whole line it
// read and the tokens it has counted per request id, so a half-written last line is
// read again on the next Read and a request written twice (a message's blocks each
// carrying its usage, a message rewritten when its tokens arrive) is counted once.
// Reading is driven by the caller (a hook saying a turn ended), never by a timer.
//
// It is a leaf: it imports nothing of the project.
package usage
