# cudaperf build. `make build` puts the CLI in $(BIN)/cudaperf and every
# built-in plugin in $(BIN)/plugins/<name>/ (executable + plugin.yaml), where
# the CLI finds them by default. `make examples` adds the example analyzer
# plugins (textcount, synccount-py) there too; they are not part of the
# default install because every plugin costs each lint its start-up (the
# Python one alone made a cold one-file lint 130-280 ms instead of 19-22 ms)
# and their features would join every feature vector.
#
# Adding a plugin is one word:
#   GO_PLUGINS: a folder with a Go main package and a plugin.yaml whose
#               command is the folder's base name.
#   PY_PLUGINS: a folder with plugin.yaml and main.py (see plugins/python).
#   EXAMPLE_GO_PLUGINS, EXAMPLE_PY_PLUGINS: the same, installed by `make examples`.

GO      ?= go
BIN     ?= bin
PYTHON  ?= .venv/bin/python
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

# go-nvml's cgo wrappers call NVML functions that nvml.h marks deprecated;
# each call prints a warning (about 150 lines of a fresh build). They are
# NVIDIA's, not ours: silence that one warning class for every cgo package.
export CGO_CFLAGS ?= -O2 -g -Wno-deprecated-declarations

GO_PLUGINS := plugins/analyzer plugins/benchmarker plugins/recorded plugins/policy/replay plugins/policy/openai
PY_PLUGINS := plugins/policy/hf
EXAMPLE_GO_PLUGINS := plugins/examples/textcount
EXAMPLE_PY_PLUGINS := plugins/python/examples/synccount

.PHONY: all build cli go-plugins py-plugins examples test vet demo generate clean bench-plugins rank-model
all: build

build: cli go-plugins py-plugins

cli:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/cudaperf ./cmd/cudaperf

go-plugins:
	@set -e; for p in $(GO_PLUGINS) $(EXTRA_GO); do \
	  n=$$(basename $$p); mkdir -p $(BIN)/plugins/$$n; \
	  echo "$(GO) build -o $(BIN)/plugins/$$n/$$n ./$$p"; \
	  $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/plugins/$$n/$$n ./$$p; \
	  cp $$p/plugin.yaml $(BIN)/plugins/$$n/plugin.yaml; \
	done

py-plugins:
	@set -e; for p in $(PY_PLUGINS) $(EXTRA_PY); do \
	  plugins/python/install.sh $$p $(BIN)/plugins/$$(basename $$p); \
	done

# The example plugins, next to the built-in ones (remove them with
# rm -r $(BIN)/plugins/textcount $(BIN)/plugins/synccount, or skip them
# per run with --no-plugins textcount,synccount-py).
examples: cli
	@$(MAKE) --no-print-directory go-plugins py-plugins GO_PLUGINS= PY_PLUGINS= \
	  EXTRA_GO="$(EXAMPLE_GO_PLUGINS)" EXTRA_PY="$(EXAMPLE_PY_PLUGINS)"

# The main job: lint the example kernels and print their feature vectors,
# with the example plugins installed to show third-party features
# (textcount.*, synccount-py.*) beside the built-in ones.
# The examples contain deliberate bugs, so lint would exit 1 (findings);
# --fail-on never keeps the demo green while printing everything.
demo: build examples
	$(BIN)/cudaperf plugins list
	$(BIN)/cudaperf lint --fail-on never examples/
	$(BIN)/cudaperf features --format csv examples/

vet:
	$(GO) vet ./...
	GO=$(GO) .ci/vet-darwin

test: vet
	$(GO) test -timeout 45m ./...
	$(PYTHON) -m pytest -q plugins/python/tests plugins/policy/hf/tests bench/torch2cuda/tests bench/rl/tests

# Plugin start-up, round-trip and parse-cost benchmarks (numbers go to
# bench/perf/plugins.md); a corpus batch is seconds, so fewer of those.
bench-plugins:
	$(GO) test ./host/pluginhost -run '^$$' -bench 'Start|10KB' -benchtime 50x -count 5
	$(GO) test ./host/pluginhost -run '^$$' -bench 'LintCorpus|ParseForPlugins' -benchtime 3x -count 5

generate:
	plugins/proto/generate.sh

# Retrain the built-in ranker model after the analyzer's features change
# (TestBuiltinModelMatchesAnalyzer says when). SCORE_TEST=1 also scores the
# test split once and logs the look in docs/ranker.md.
rank-model:
	bench/rank/train-default.sh

clean:
	rm -rf $(BIN)
