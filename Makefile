# specdev — see README.md. Every target works on a fresh clone with only Go
# (and git, for the demo and the tests) installed.

GO      ?= go
BIN     := bin/specdev
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X main.version=$(VERSION)

.PHONY: build install test lint bench demo clean

# Static binaries (no cgo): no dynamic loader at start-up, which is a good
# part of a short command's cost.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/specdev

install:
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/specdev

# The whole test suite: unit, golden, testscript scenarios, crash and
# concurrency tests with real processes. .ci/run runs exactly this.
test:
	$(GO) test -race ./...

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Go benchmarks plus whole-process timings; figures go in docs/performance.md.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./checkpoint/ ./tests/
	scripts/bench.sh $(BIN)

# A full review hand-off in a temporary repository, narrated.
demo: build
	scripts/demo.sh $(BIN)

clean:
	rm -rf bin
