#!/usr/bin/env bash
# GPU self-test of the benchmark harness (run on a machine with a CUDA GPU,
# nvcc and gcc). It evaluates every task of bench/suites/selftest: each
# honest variant must be accepted, and each cheat in cheats/*.cu must be
# rejected with the reason its first line names ("// expect: <reason id>"),
# sandbox escapes (sandbox_violation) and input writers (input_modified)
# included. `cudaperf bench` exits 0 only when all of that holds.
#
# Usage: bench/gpu-selftest.sh [PROFILE] [OUTPUT]
#   PROFILE  report, rl, or all (the default: both, one after the other)
#   OUTPUT   for one profile (default bench/gpu-selftest.out for report,
#            bench/gpu-selftest-PROFILE.out for the others); the results
#            go next to it as .jsonl
# SELFTEST_TIMEOUT is the report profile's limit per configuration (default
# 20s; the hang cheat costs 2 s + that x its 5 configurations).
# The cudaperf binary is $CUDAPERF, else bin/cudaperf, else .device/cudaperf
# (build it elsewhere with `CGO_ENABLED=1 go build -o .device/cudaperf ./cmd/cudaperf`).
# Candidates run sandboxed (docs/sandbox.md). Where CUDA fails inside a
# Landlock domain (seen on the H200 machine), run it with
# CUDAPERF_SANDBOX_SKIP=landlock: the results then say "sandboxed": false.
set -uo pipefail
cd "$(dirname "$0")/.."
profile=${1:-all}
if [ "$profile" = all ]; then
  [ $# -ge 2 ] && { echo "gpu-selftest: OUTPUT needs one PROFILE (report or rl)" >&2; exit 2; }
  rc=0
  for p in report rl; do "$0" "$p" || rc=1; done
  exit $rc
fi
case $profile in
  report) def=bench/gpu-selftest.out ;;
  rl) def=bench/gpu-selftest-rl.out ;;
  *) echo "gpu-selftest: unknown profile '$profile' (report, rl or all)" >&2; exit 2 ;;
esac
out=${2:-$def}
bin=${CUDAPERF:-}
for b in bin/cudaperf .device/cudaperf; do [ -z "$bin" ] && [ -x "$b" ] && bin=$b; done
[ -n "$bin" ] && [ -x "$bin" ] || { echo "gpu-selftest: no cudaperf binary${bin:+ at $bin}; set \$CUDAPERF" >&2; exit 2; }
# The report profile is the default, so the script also works with a
# cudaperf that predates --profile.
# The report profile's limit per configuration is set here; the RL
# profile's own limit (from the reference's time) is what it tests.
prof=(--timeout "${SELFTEST_TIMEOUT:-20s}")
[ "$profile" != report ] && prof=(--profile "$profile")
runs=$(mktemp -d)
# The block runs in a pipeline (a subshell), so its status travels in a file.
{
  echo "# bench/gpu-selftest.sh $profile, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 | head -1)"
  echo "# $(nvcc --version 2>&1 | tail -1)"
  echo "# sandbox: CUDAPERF_SANDBOX=${CUDAPERF_SANDBOX:-on} CUDAPERF_SANDBOX_SKIP=${CUDAPERF_SANDBOX_SKIP:-}"
  echo "# command: $bin bench --suite selftest --cheats ${prof[*]}"
  start=$(date +%s.%N)
  "$bin" bench --suite selftest --cheats "${prof[@]}" --runs-dir "$runs" 2>&1
  rc=$?
  echo "$rc" >"$runs/rc"
  end=$(date +%s.%N)
  echo "# exit status $rc (0: every honest variant accepted and every cheat rejected with its expected reason)"
  echo "# wall time $(awk "BEGIN{print $end - $start}") s"
} | tee "$out"
cp "$runs"/bench-*/results.jsonl "${out%.out}.jsonl" 2>/dev/null
exit "$(cat "$runs/rc" 2>/dev/null || echo 1)"
