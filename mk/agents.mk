# Real agent CLIs (Claude Code, Codex, Gemini CLI) against the fake model server in
# internal/mockmodel. Not part of `make test` or CI: the first run downloads ~870 MB with npm
# into $(AGENTMUX_AGENTS_CACHE) (default ~/.cache/agentmux-agents); later runs reuse it.
# AGENTS_RUN selects tests, e.g. `make test-agents AGENTS_RUN=Smoke/claude`.
AGENTS_RUN ?= .

.PHONY: test-agents

test-agents:
	./agents/install.sh
	$(GO) test -tags agents -count=1 -v -timeout 15m -run '$(AGENTS_RUN)' ./agents/...
