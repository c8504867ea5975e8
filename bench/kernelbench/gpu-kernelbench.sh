#!/usr/bin/env bash
# KernelBench level 1, run unchanged (issue 16, deliverable 4): the eager
# PyTorch and torch.compile time of each problem, and of a team-written
# candidate where CANDIDATES holds one named like the problem. Needs a GPU,
# python3 with torch, and a KernelBench checkout (not committed here):
#
#   git clone https://github.com/ScalingIntelligence/KernelBench ~/KernelBench
#   make build && bench/kernelbench/gpu-kernelbench.sh ~/KernelBench [LIMIT] [CANDIDATES]
#
# Writes bench/kernelbench/level1.jsonl (the results) and
# bench/kernelbench/RESULTS.md (the table, with this command). Not run
# yet: the session that wrote it had no GPU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
kb=${1:?usage: $0 KERNELBENCH_DIR [LIMIT] [CANDIDATES_DIR]}
limit=${2:-20}
cands=${3:-}
out=bench/kernelbench
args=(bench --kernelbench "$kb" --level 1 --limit "$limit" --format json --runs-dir "$(mktemp -d)")
[ -n "$cands" ] && args+=(--kernelbench-candidates "$cands")
bin/cudaperf "${args[@]}" > "$out/level1.jsonl" || true
python3 bench/torch2cuda/report.py kernelbench "$out/level1.jsonl" \
  --command "bench/kernelbench/gpu-kernelbench.sh $kb $limit $cands" > "$out/RESULTS.md"
cat "$out/RESULTS.md"
