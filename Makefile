# agentmux: build, run, test. `make demo` runs two simulated agents; `make test` is what CI runs.
GO        ?= go
BIN       ?= bin/agentmux
FUZZTIME  ?= 30s
FUZZMINIMIZE ?= 10s
ARGS      ?=
STATICCHECK ?= $(shell command -v staticcheck 2>/dev/null || echo $$($(GO) env GOPATH)/bin/staticcheck)
DEADCODE  ?= $(shell command -v deadcode 2>/dev/null || echo $$($(GO) env GOPATH)/bin/deadcode)
# make install puts agentmux in $(PREFIX)/bin.
PREFIX    ?= $(HOME)/.local
# The systems agentmux is built for: make cross vets and builds each, make dist archives each.
CROSS     ?= linux/amd64 linux/arm64 darwin/arm64 darwin/amd64 freebsd/amd64
GORELEASER_VERSION ?= v2.15.1
GORELEASER ?= $(shell command -v goreleaser 2>/dev/null || echo $$($(GO) env GOPATH)/bin/goreleaser)

.PHONY: build run demo test test-short lint fuzz bench clean install cross dist

# The web view's tests drive a real Chromium and Firefox; without one they skip, and this says so.
BROWSER_NOTE = if [ -z "$$AGENTMUX_BROWSER" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1 && ! command -v headless-shell >/dev/null 2>&1; then echo "note: the web view's browser tests did not run (no Chromium): apt-get install chromium, then make test"; fi
FIREFOX_NOTE = if [ -z "$$AGENTMUX_FIREFOX" ] && ! command -v firefox-esr >/dev/null 2>&1 && ! command -v firefox >/dev/null 2>&1; then echo "note: the web view's Firefox tests did not run (no Firefox): apt-get install firefox-esr, then make test"; fi

# -buildvcs=auto stamps the git revision into --version even where GOFLAGS turns it off.
# Without cgo, as the release archives are built: a static binary, and each start of a
# process some 3 ms sooner (no C library to load), the session's start about 10%.
build:
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -o $(BIN) ./cmd/agentmux

# The binary built as make build builds it, copied to $(PREFIX)/bin; says whether that
# folder is on PATH.
install: build
	install -d $(PREFIX)/bin
	install -m 0755 $(BIN) $(PREFIX)/bin/agentmux
	@echo "installed $(PREFIX)/bin/agentmux: $$($(PREFIX)/bin/agentmux --version)"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) echo "$(PREFIX)/bin is on your PATH: run agentmux";; \
	  *) echo "note: $(PREFIX)/bin is not on your PATH; add this line to your shell's profile:"; \
	     echo "  export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

# go vet (tests included) and a build of the binary for every system in CROSS, without
# cgo as the release archives are built: what CI checks for the systems it cannot run.
cross:
	@set -e; for t in $(CROSS); do \
	  echo "cross: $$t: go vet ./... and go build ./cmd/agentmux"; \
	  CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./...; \
	  CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -o /dev/null ./cmd/agentmux; \
	done

# The release archives of .goreleaser.yaml (every system in CROSS, checksums.txt) in dist/,
# as a snapshot: offline (GOPROXY=off: the modules must be in the module cache), nothing
# published. GoReleaser is a tool, installed into GOPATH/bin when missing, not a module
# dependency.
dist:
	@if [ ! -x "$(GORELEASER)" ]; then echo "installing goreleaser $(GORELEASER_VERSION)"; \
	  $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION); fi
	GOPROXY=off $(GORELEASER) release --snapshot --clean
	@set -e; for t in $(CROSS); do \
	  a=$$(ls dist/agentmux_*_$${t%/*}_$${t#*/}.tar.gz); echo "dist: $$a"; \
	  grep -q " $$(basename $$a)$$" dist/checksums.txt || { echo "dist: $$a is not in checksums.txt"; exit 1; }; \
	done

run: build
	./$(BIN) $(ARGS)

demo: build
	./$(BIN) demo

# The whole suite with the race detector, then a short run of every fuzz target. Counted in
# inputs, not seconds: go1.26's fuzzer can fail a duration-bounded run with "context deadline
# exceeded" when a worker is busy (minimizing) at the deadline (go.dev/issue/75804).
# Each package's tests get 15 minutes (the slowest, e2e, takes about 7.5 on a quiet 2-core
# machine): a hang fails its package with every goroutine's stack instead of eating the run.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 15m ./...
	@$(BROWSER_NOTE)
	@$(FIREFOX_NOTE)
	$(MAKE) --no-print-directory fuzz FUZZTIME=20000x FUZZMINIMIZE=500x

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@if [ -x "$(STATICCHECK)" ]; then $(STATICCHECK) ./...; else echo "staticcheck not installed: $(GO) install honnef.co/go/tools/cmd/staticcheck@latest"; exit 1; fi
	@# Code that no program and no test reaches, outside internal/ (whose helpers serve the
	@# test programs under testdata/, which ./... does not list).
	@if [ ! -x "$(DEADCODE)" ]; then echo "deadcode not installed: $(GO) install golang.org/x/tools/cmd/deadcode@v0.52.0"; exit 1; fi
	@out=$$($(DEADCODE) -test ./... | grep -v -e '^internal/' -e '_test\.go:'); if [ -n "$$out" ]; then echo "unreachable code:"; echo "$$out"; exit 1; fi

# Every FuzzXxx target in the module, each for FUZZTIME (a duration, or a count such as
# 20000x), minimizing a new input for at most FUZZMINIMIZE.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/func //'); do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    log=$$(mktemp); \
	    if ! $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZE) $$pkg >$$log 2>&1; then cat $$log; rm -f $$log; exit 1; fi; \
	    rm -f $$log; \
	  done; \
	done

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

clean:
	rm -rf bin dist

# Real agent CLIs against a local fake model server (not in CI: downloads ~870 MB with npm).
-include mk/agents.mk
