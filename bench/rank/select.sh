#!/usr/bin/env bash
# Model selection on the validation split: trains each candidate option set
# on the c2cuda train split and prints a markdown table of its validation
# metrics (mean over the 6 validation tasks, 95% bootstrap CI over tasks).
# The test split is never read. Output: docs/ranker-selection.md.
#
# Usage: bench/rank/select.sh >docs/ranker-selection.md   (after make build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
candidates=(
  "--sizes none --kind linear"
  "--sizes none --kind mlp"
  "--sizes none --kind mlp --l2 0.01 --ensemble 5"
  "--sizes none --kind mlp --l2 0.01 --ensemble 5 --pairs all"
  "--sizes none --kind mlp --l2 0.01 --ensemble 5 --pairs all --all-configs"
  "--sizes task --kind linear --l2 0.01 --ensemble 5"
  "--sizes task --kind mlp"
  "--sizes task --kind mlp --hidden 8 --l2 0.01 --ensemble 5"
  "--sizes task --kind mlp --hidden 32 --l2 0.01 --ensemble 5"
  "--sizes task --kind mlp --l2 0.001 --ensemble 5"
  "--sizes task --kind mlp --l2 0.01 --ensemble 5"
  "--sizes task --kind mlp --l2 0.01 --ensemble 5 --pairs all"
  "--sizes task --kind mlp --l2 0.01 --ensemble 5 --all-configs"
  "--sizes task --kind mlp --l2 0.01 --ensemble 5 --pairs all --all-configs"
)
echo "| options | validation ρ | τ | pair accuracy |"
echo "|---|---|---|---|"
for opts in "${candidates[@]}"; do
  # shellcheck disable=SC2086
  bin/cudaperf rank train --out "$tmp/m.json" --seed 1 $opts 2>/dev/null
  python3 - "$tmp/m.json" "$opts" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))["training"]["metrics"]["validation"]
f = lambda c: "%.2f [%.2f, %.2f]" % (c["mean"], c["lo"], c["hi"])
print("| `%s` | %s | %s | %s |" % (sys.argv[2], f(v["rho"]), f(v["tau"]), f(v["pair_accuracy"])))
PY
done
