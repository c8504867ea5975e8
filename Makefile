# cudaperf build. `make build` puts the CLI in $(BIN)/cudaperf and every
# built-in plugin in $(BIN)/plugins/<name>/ (executable + plugin.yaml), where
# the CLI finds them by default.
#
# Adding a plugin is one word:
#   GO_PLUGINS: a folder with a Go main package and a plugin.yaml whose
#               command is the folder's base name.
#   PY_PLUGINS: a folder with plugin.yaml and main.py (see plugins/python).

GO      ?= go
BIN     ?= bin
PYTHON  ?= .venv/bin/python
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

# go-nvml's cgo wrappers call NVML functions that nvml.h marks deprecated;
# each call prints a warning (about 150 lines of a fresh build). They are
# NVIDIA's, not ours: silence that one warning class for every cgo package.
export CGO_CFLAGS ?= -O2 -g -Wno-deprecated-declarations

GO_PLUGINS := plugins/analyzer plugins/examples/textcount plugins/benchmarker plugins/recorded plugins/policy/replay plugins/policy/openai
PY_PLUGINS := plugins/python/examples/synccount plugins/policy/hf

.PHONY: all build cli go-plugins py-plugins test vet demo generate clean bench-plugins rank-model
all: build

build: cli go-plugins py-plugins

cli:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/cudaperf ./cmd/cudaperf

go-plugins:
	@set -e; for p in $(GO_PLUGINS); do \
	  n=$$(basename $$p); mkdir -p $(BIN)/plugins/$$n; \
	  echo "$(GO) build -o $(BIN)/plugins/$$n/$$n ./$$p"; \
	  $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/plugins/$$n/$$n ./$$p; \
	  cp $$p/plugin.yaml $(BIN)/plugins/$$n/plugin.yaml; \
	done

py-plugins:
	@set -e; for p in $(PY_PLUGINS); do \
	  plugins/python/install.sh $$p $(BIN)/plugins/$$(basename $$p); \
	done

# The main job: lint the example kernels and print their feature vectors.
# The examples contain deliberate bugs, so lint would exit 1 (findings);
# --fail-on never keeps the demo green while printing everything.
demo: build
	$(BIN)/cudaperf plugins list
	$(BIN)/cudaperf lint --fail-on never examples/
	$(BIN)/cudaperf features --format csv examples/

vet:
	$(GO) vet ./...

test: vet
	$(GO) test -timeout 45m ./...
	$(PYTHON) -m pytest -q plugins/python/tests plugins/policy/hf/tests bench/torch2cuda/tests

# Plugin start-up and round-trip benchmarks (numbers go to bench/perf/plugins.md).
bench-plugins:
	$(GO) test ./host/pluginhost -run '^$$' -bench . -benchtime 50x -count 5

generate:
	plugins/proto/generate.sh

# Retrain the built-in ranker model after the analyzer's features change
# (TestBuiltinModelMatchesAnalyzer says when). SCORE_TEST=1 also scores the
# test split once and logs the look in docs/ranker.md.
rank-model:
	bench/rank/train-default.sh

clean:
	rm -rf $(BIN)
