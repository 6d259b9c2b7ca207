#!/usr/bin/env bash
# install.sh installs the real agent CLIs (Claude Code, Codex, Gemini CLI, pi, Qwen Code,
# opencode) with npm into a cache folder for `make test-agents`. It is idempotent: when every
# CLI is already installed it does nothing, so repeated runs cost a second, not the ~1.5 GB
# download.
#
#   AGENTMUX_AGENTS_CACHE  install prefix (default: $HOME/.cache/agentmux-agents)
#   AGENTMUX_AGENTS_UPDATE set to 1 to reinstall even if the CLIs are present
set -euo pipefail

prefix="${AGENTMUX_AGENTS_CACHE:-$HOME/.cache/agentmux-agents}"
packages=(@anthropic-ai/claude-code @openai/codex @google/gemini-cli @mariozechner/pi-coding-agent @qwen-code/qwen-code opencode-ai)
bins=(claude codex gemini pi qwen opencode)

have_all() {
	local b
	for b in "${bins[@]}"; do
		[[ -x "$prefix/node_modules/.bin/$b" ]] || return 1
	done
}

if [[ "${AGENTMUX_AGENTS_UPDATE:-0}" != 1 ]] && have_all; then
	echo "agents: CLIs already installed in $prefix"
	exit 0
fi

command -v npm >/dev/null || { echo "agents: npm not found (install Node.js 20+)" >&2; exit 1; }
mkdir -p "$prefix"
echo "agents: installing ${packages[*]} into $prefix (about 1.5 GB, a few minutes)"
start=$(date +%s)
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "${packages[@]}"
echo "agents: installed in $(( $(date +%s) - start )) s"
have_all || { echo "agents: install finished but a CLI binary is missing in $prefix/node_modules/.bin" >&2; exit 1; }
