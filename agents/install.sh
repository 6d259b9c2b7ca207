#!/usr/bin/env bash
# install.sh installs the real agent CLIs (Claude Code, Codex, Gemini CLI, pi, Qwen Code,
# opencode) with npm into a cache folder for `make test-agents`. It is idempotent: when every
# CLI is installed at the versions asked for it does nothing, so repeated runs cost a second,
# not the ~1.5 GB download.
#
#   AGENTMUX_AGENTS_VERSIONS pinned (default): the versions the agents tests were written
#                            against (below); latest: the newest ones the registry serves
#   AGENTMUX_AGENTS_CACHE    install prefix (default: $HOME/.cache/agentmux-agents for the
#                            pinned versions, $HOME/.cache/agentmux-agents-latest for latest)
#   AGENTMUX_AGENTS_UPDATE   set to 1 to reinstall even if the CLIs are present
#
# It prints the prefix it used on its last line ("agents: prefix DIR"), and each CLI's
# version.
set -euo pipefail

versions="${AGENTMUX_AGENTS_VERSIONS:-pinned}"
names=(@anthropic-ai/claude-code @openai/codex @google/gemini-cli @mariozechner/pi-coding-agent @qwen-code/qwen-code opencode-ai)
bins=(claude codex gemini pi qwen opencode)
# The versions the agents tests were written against, in the order of names.
pinned=(2.1.197 0.171.0 0.61.0 0.73.1 0.24.4 1.18.33)

case "$versions" in
pinned)
	prefix="${AGENTMUX_AGENTS_CACHE:-$HOME/.cache/agentmux-agents}"
	packages=()
	for i in "${!names[@]}"; do packages+=("${names[$i]}@${pinned[$i]}"); done
	;;
latest)
	prefix="${AGENTMUX_AGENTS_CACHE:-$HOME/.cache/agentmux-agents-latest}"
	packages=()
	for n in "${names[@]}"; do packages+=("$n@latest"); done
	;;
*)
	echo "agents: AGENTMUX_AGENTS_VERSIONS must be pinned or latest, not \"$versions\"" >&2
	exit 2
	;;
esac

# installed prints the version of package $1 installed in prefix ("" when none).
installed() {
	local f="$prefix/node_modules/$1/package.json"
	[[ -f "$f" ]] || return 0
	sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -n 1
}

# ready reports whether every CLI is installed, at its pinned version when pinned.
ready() {
	local i
	for i in "${!names[@]}"; do
		[[ -x "$prefix/node_modules/.bin/${bins[$i]}" ]] || return 1
		if [[ "$versions" == pinned && "$(installed "${names[$i]}")" != "${pinned[$i]}" ]]; then
			return 1
		fi
	done
}

show() {
	local n
	for n in "${names[@]}"; do echo "agents: $n $(installed "$n")"; done
	echo "agents: prefix $prefix"
}

if [[ "${AGENTMUX_AGENTS_UPDATE:-0}" != 1 && "$versions" == pinned ]] && ready; then
	echo "agents: CLIs already installed in $prefix"
	show
	exit 0
fi

command -v npm >/dev/null || { echo "agents: npm not found (install Node.js 20+)" >&2; exit 1; }
mkdir -p "$prefix"
echo "agents: installing ${packages[*]} into $prefix (about 1.5 GB, a few minutes)"
start=$(date +%s)
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "${packages[@]}"
echo "agents: installed in $(( $(date +%s) - start )) s"
ready || { echo "agents: install finished but a CLI is missing (or not at its pinned version) in $prefix" >&2; exit 1; }
show
