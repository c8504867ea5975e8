#!/usr/bin/env bash
# Retrains the built-in ranker model (host/rank/default_model.json, embedded
# in cudaperf) on the c2cuda train split, early-stopped on validation, and
# rewrites the validation results page (docs/ranker-validation.md and .png).
# Run it (`make rank-model`) whenever the analyzer's features change: the
# test TestBuiltinModelMatchesAnalyzer fails until you do.
#
# The test split is NOT scored unless SCORE_TEST=1: then the model is
# evaluated on it (metrics.test is recorded in the model, which `cudaperf
# lint` prints beside each score), docs/ranker-test.md and .png are
# rewritten, and a line is appended to the table of looks at the test split
# in docs/ranker.md. Score the test split once per model you intend to keep,
# after choosing everything on validation.
#
# Usage: bench/rank/train-default.sh          (from anywhere in the repo)
#        SCORE_TEST=1 bench/rank/train-default.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# Chosen on the validation split (docs/ranker.md, "Model selection").
OPTS=(--sizes task --kind mlp --hidden 16 --ensemble 5 --l2 0.01 --pairs quartile --seed 1)
model=host/rank/default_model.json

make --no-print-directory cli go-plugins >/dev/null
bin/cudaperf rank train --out "$model" "${OPTS[@]}"
bin/cudaperf rank eval --model "$model" --side validation --format markdown \
  --plot docs/ranker-validation.png >docs/ranker-validation.md
if [ "${SCORE_TEST:-0}" = 1 ]; then
  bin/cudaperf rank eval --model "$model" --side test --record --format markdown \
    --plot docs/ranker-test.png >docs/ranker-test.md
  python3 - "$model" <<'PY' >>docs/ranker.md
import json, subprocess, sys, datetime
m = json.load(open(sys.argv[1]))
t = m["training"]["metrics"]["test"]
head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
print("| %s | %s%s | %s | %.2f [%.2f, %.2f] | %.2f [%.2f, %.2f] |" % (
    datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), head, "+changes" if dirty else "",
    m["training"]["data_hash"], t["rho"]["mean"], t["rho"]["lo"], t["rho"]["hi"],
    t["pair_accuracy"]["mean"], t["pair_accuracy"]["lo"], t["pair_accuracy"]["hi"]))
PY
  echo "scored the test split: docs/ranker-test.md; the look is logged at the end of docs/ranker.md" >&2
fi
make --no-print-directory cli >/dev/null # embed the new model
echo "wrote $model; commit it with docs/ranker-*.md and docs/ranker-*.png" >&2
