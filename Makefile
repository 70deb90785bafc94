# specdev — see README.md. Every target works on a fresh clone with only Go
# (and git, for the demo and the tests) installed.

GO      ?= go
BIN     := bin/specdev
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X main.version=$(VERSION)

# staticcheck, pinned; go run fetches it through the Go module proxy once.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
COVERDIR    := $(CURDIR)/cover
COVERPKG    := github.com/specdev/specdev/...

.PHONY: build install test lint unit cover bench demo clean

# Static binaries (no cgo): no dynamic loader at start-up, which is a good
# part of a short command's cost.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/specdev

install:
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/specdev

# The whole check: lint, then the whole test suite (unit, golden, testscript
# scenarios, crash and concurrency tests with real processes). .ci/run runs
# exactly this.
test: lint unit

# Formatting, go vet and staticcheck: any finding fails.
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# The race detector needs cgo, and so a C compiler; without one (go env
# reports CGO_ENABLED=0) the suite runs without it, and says so.
unit:
	@if [ "$$($(GO) env CGO_ENABLED)" = 1 ]; then \
		echo "$(GO) test -race ./..."; $(GO) test -race ./...; \
	else \
		echo "make test: no C compiler found (cgo is off), so the tests run without -race; install gcc for the race detector"; \
		echo "$(GO) test ./..."; $(GO) test ./...; \
	fi

# Coverage of the unit tests and of the scenarios together: under -cover,
# tests/ builds the binary under test with coverage and every process of
# it writes its counters into $(COVERDIR) (see tests/main_test.go).
cover:
	rm -rf $(COVERDIR) && mkdir -p $(COVERDIR)
	$(GO) test -cover -coverpkg=$(COVERPKG) ./... -args -test.gocoverdir=$(COVERDIR)
	$(GO) tool covdata percent -i=$(COVERDIR)
	$(GO) tool covdata textfmt -i=$(COVERDIR) -o $(COVERDIR)/cover.out
	@$(GO) tool cover -func=$(COVERDIR)/cover.out | tail -n 1
	@echo "per function: go tool cover -func=$(COVERDIR)/cover.out; as HTML: go tool cover -html=$(COVERDIR)/cover.out"

# Go benchmarks (in process, for finding where time goes), then the
# whole-process timings of the performance targets, one line each with
# its target and met or MISSED (scripts/bench.sh). About 5 minutes.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./checkpoint/ ./cmd/specdev/ ./internal/changeset/ ./protocol/ ./tests/
	scripts/bench.sh $(BIN)

# A full review hand-off, narrated command by command, in a new repository
# that it keeps (scripts/demo.sh checks every step).
demo: build
	scripts/demo.sh $(BIN)

clean:
	rm -rf bin $(COVERDIR)
