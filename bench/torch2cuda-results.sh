#!/usr/bin/env bash
# Turns what bench/gpu-torch2cuda.sh wrote to its OUT_DIR (fetched from the
# device machine) into the committed records, here, without a GPU:
#
#   bench/torch2cuda-results.sh OUT_DIR
#
# appends the suite's records to bench/suites/torch2cuda/measurements.jsonl,
# the self-test's to bench/gpu-torch-selftest.jsonl and KernelBench's to
# bench/kernelbench/level1.jsonl (append-only: a rerun after a deadline adds
# what was left, and the tables take each candidate's latest record), adds
# the run's log to bench/gpu-torch-selftest.out, and rewrites the tables
# bench/suites/torch2cuda/RESULTS.md and bench/kernelbench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
in=${1:?usage: $0 OUT_DIR (what bench/gpu-torch2cuda.sh wrote)}
[ -f "$in/torch2cuda.jsonl" ] || { echo "torch2cuda-results: $in/torch2cuda.jsonl missing: give the folder bench/gpu-torch2cuda.sh wrote" >&2; exit 2; }
py=${PYTHON:-python3}
"$py" - "$in/torch2cuda.jsonl" bench/suites/torch2cuda/measurements.jsonl bench/gpu-torch-selftest.jsonl <<'PY'
import json, sys
src, suite, selftest = sys.argv[1:]
n = {suite: 0, selftest: 0}
with open(suite, "a") as fs, open(selftest, "a") as ft:
    for line in open(src):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        f, name = (fs, suite) if r.get("suite") == "torch2cuda" else (ft, selftest)
        f.write(line + "\n")
        n[name] += 1
for k, v in n.items():
    print(f"torch2cuda-results: {v} records appended to {k}")
PY
if [ -s "$in/kernelbench.jsonl" ]; then
  cat "$in/kernelbench.jsonl" >> bench/kernelbench/level1.jsonl
  echo "torch2cuda-results: $(wc -l < "$in/kernelbench.jsonl") records appended to bench/kernelbench/level1.jsonl"
fi
{
  cat "$in/gpu-torch-selftest.out"
  echo "## timeline.log"; cat "$in/timeline.log" 2>/dev/null
} >> bench/gpu-torch-selftest.out
# The records come from several runs (a rerun measures what an earlier one
# left): the header says where they were made and when they were last
# merged, and each run's raw outputs lie under bench/h200/.
run="bench/gpu-torch2cuda.sh runs on $(head -1 "$in/device.txt" 2>/dev/null | cut -d, -f1), merged here last at $(git rev-parse --short HEAD); each run's raw outputs: bench/h200/"
"$py" bench/torch2cuda/report.py suite bench/suites/torch2cuda/measurements.jsonl --command "$run" > bench/suites/torch2cuda/RESULTS.md
# KernelBench's table changes only when this run measured KernelBench.
if [ -s "$in/kernelbench.jsonl" ]; then
  "$py" bench/torch2cuda/report.py kernelbench bench/kernelbench/level1.jsonl --command "$run" > bench/kernelbench/RESULTS.md
fi
echo "torch2cuda-results: wrote bench/suites/torch2cuda/RESULTS.md bench/kernelbench/RESULTS.md; review, then git add and commit"
