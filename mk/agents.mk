# Real agent CLIs (Claude Code, Codex, Gemini CLI, pi, Qwen Code, opencode) against the fake
# model server in internal/mockmodel. Not part of `make test` or CI: the first run downloads
# ~1.5 GB with npm; later runs reuse it. AGENTS_VERSIONS picks the CLIs' versions: pinned (the
# default: the versions the tests were written against, in ~/.cache/agentmux-agents) or
# latest (the newest the registry serves, in ~/.cache/agentmux-agents-latest, updated on every
# run); AGENTMUX_AGENTS_CACHE overrides the folder. AGENTS_RUN selects tests, e.g.
# `make test-agents AGENTS_RUN=Smoke/claude AGENTS_VERSIONS=latest`. AGENTS_TIMEOUT bounds the
# whole run (go test -timeout): a pair of the matrix takes 3 to 8 minutes on a loaded machine,
# so a run of many pairs needs more than the default, e.g. AGENTS_TIMEOUT=90m.
AGENTS_RUN ?= .
AGENTS_TIMEOUT ?= 15m
AGENTS_VERSIONS ?= pinned

ifeq ($(AGENTS_VERSIONS),latest)
AGENTS_CACHE_DEFAULT := $(HOME)/.cache/agentmux-agents-latest
else
AGENTS_CACHE_DEFAULT := $(HOME)/.cache/agentmux-agents
endif
AGENTMUX_AGENTS_CACHE ?= $(AGENTS_CACHE_DEFAULT)

.PHONY: test-agents

test-agents:
	AGENTMUX_AGENTS_VERSIONS='$(AGENTS_VERSIONS)' AGENTMUX_AGENTS_CACHE='$(AGENTMUX_AGENTS_CACHE)' ./agents/install.sh
	AGENTMUX_AGENTS_CACHE='$(AGENTMUX_AGENTS_CACHE)' $(GO) test -tags agents -count=1 -v -timeout '$(AGENTS_TIMEOUT)' -run '$(AGENTS_RUN)' ./agents/...
