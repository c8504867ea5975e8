#!/usr/bin/env bash
# Measures issue 11's features with the ranker: trains a pairwise logistic
# (linear) model and a small MLP on c2cuda's train split and prints the
# mean within-task Spearman rho on the validation split (`cudaperf rank
# eval`), before and after:
#
#   before: the analyzer plugin of commit $BEFORE (default a2b70ca, main
#           when the feature work of this session began), no problem size
#           (it had none);
#   after:  the analyzer plugin of the working tree, with each task
#           configuration's sizes bound (--sizes task) and without.
#
# Usage: bench/features/rho.sh [OUT_DIR]
#   SIDE=validation (default). SIDE=test scores the test split: do that
#   once, for the final number, never to choose features.
#   BEFORE=<commit> compares against another analyzer.
# Needs: go, git, and the measured suite bench/suites/c2cuda
# (measurements.jsonl, split.yaml). No GPU: the times are the committed
# measurements. It builds into OUT_DIR (default: a temporary folder) and
# prints each eval's table; the numbers go to docs/features.md with the
# command that produced them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
before=${BEFORE:-a2b70ca}
side=${SIDE:-validation}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
echo "rho.sh: building into $out (before = $before, side = $side)" >&2

go build -o "$out/cudaperf" ./cmd/cudaperf
if ! "$out/cudaperf" rank --help >/dev/null 2>&1; then
  echo "rho.sh: this cudaperf has no 'rank' command (the ranker is not merged yet); nothing measured" >&2
  exit 2
fi
mkdir -p "$out/after/plugins/analyzer" "$out/before/plugins/analyzer" "$out/before-src"
go build -o "$out/after/plugins/analyzer/analyzer" ./plugins/analyzer
cp plugins/analyzer/plugin.yaml "$out/after/plugins/analyzer/"
git archive "$before" | tar -x -C "$out/before-src"
(cd "$out/before-src" && go build -o "$out/before/plugins/analyzer/analyzer" ./plugins/analyzer)
cp "$out/before-src/plugins/analyzer/plugin.yaml" "$out/before/plugins/analyzer/"

# run LABEL PLUGINS SIZES KIND: train on train (early stopping on
# validation, as rank train does), then eval on $side.
run() {
  local label=$1 plugins=$2 sizes=$3 kind=$4
  local model="$out/$label-$kind-$sizes.json"
  echo "== $label, $kind, sizes $sizes" 
  CUDAPERF_PLUGIN_PATH="$plugins" "$out/cudaperf" rank train --kind "$kind" --sizes "$sizes" --out "$model" >"$out/$label-$kind-$sizes.train.log" 2>&1 ||
    { echo "rho.sh: train failed, see $out/$label-$kind-$sizes.train.log" >&2; tail -5 "$out/$label-$kind-$sizes.train.log" >&2; return 1; }
  CUDAPERF_PLUGIN_PATH="$plugins" "$out/cudaperf" rank eval --model "$model" --side "$side" 2>&1
}

for kind in linear mlp; do
  run before "$out/before/plugins" none "$kind"
  run after "$out/after/plugins" none "$kind"
  run after "$out/after/plugins" task "$kind"
done
