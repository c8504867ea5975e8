#!/usr/bin/env bash
# GPU self-test of the benchmark harness (run on a machine with a CUDA GPU,
# nvcc and gcc). It evaluates every task of bench/suites/selftest: each
# honest variant must be accepted, and each cheat in cheats/*.cu must be
# rejected with the reason its first line names ("// expect: <reason id>").
# `cudaperf bench` exits 0 only when all of that holds.
#
# Usage: bench/gpu-selftest.sh [OUTPUT]   (default bench/gpu-selftest.out)
# The cudaperf binary is $CUDAPERF, else bin/cudaperf, else .device/cudaperf
# (build it elsewhere with `CGO_ENABLED=1 go build -o .device/cudaperf ./cmd/cudaperf`).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/gpu-selftest.out}
bin=${CUDAPERF:-}
for b in bin/cudaperf .device/cudaperf; do [ -z "$bin" ] && [ -x "$b" ] && bin=$b; done
[ -n "$bin" ] || { echo "gpu-selftest: no cudaperf binary; set \$CUDAPERF" >&2; exit 2; }
runs=$(mktemp -d)
# The block runs in a pipeline (a subshell), so its status travels in a file.
{
  echo "# bench/gpu-selftest.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 | head -1)"
  echo "# $(nvcc --version 2>&1 | tail -1)"
  echo "# command: $bin bench --suite selftest --cheats --timeout 20s"
  start=$(date +%s.%N)
  "$bin" bench --suite selftest --cheats --timeout 20s --runs-dir "$runs" 2>&1
  rc=$?
  echo "$rc" >"$runs/rc"
  end=$(date +%s.%N)
  echo "# exit status $rc (0: every honest variant accepted and every cheat rejected with its expected reason)"
  echo "# wall time $(awk "BEGIN{print $end - $start}") s"
} | tee "$out"
cp "$runs"/bench-*/results.jsonl "${out%.out}.jsonl" 2>/dev/null
exit "$(cat "$runs/rc" 2>/dev/null || echo 1)"
