#!/usr/bin/env bash
# Measures the c2cuda dataset on a GPU: every variant of every task (or of
# the tasks named), every configuration, with the harness's full protocol.
# Results are appended to OUTDIR/runs/bench-*/results.jsonl as they are
# produced, so a run cut short keeps what it measured. Run the same command
# again to resume: candidates with a finished record in OUTDIR are skipped
# (--skip-measured), so nothing is measured twice and nothing is lost (a
# line torn by the kill is dropped and its candidate measured again).
# `cudaperf bench report` turns the results into
# bench/suites/c2cuda/RESULTS.md and its plot.
#
# Usage: bench/measure-c2cuda.sh OUTDIR [TASK...]
# Extra `cudaperf bench` flags go in $BENCH_FLAGS (e.g. "--timeout 60s").
# The cudaperf binary is $CUDAPERF, else bin/cudaperf, else .device/cudaperf.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bench/measure-c2cuda.sh OUTDIR [TASK...]}
shift
bin=${CUDAPERF:-}
for b in bin/cudaperf .device/cudaperf; do [ -z "$bin" ] && [ -x "$b" ] && bin=$b; done
[ -n "$bin" ] || { echo "measure-c2cuda: no cudaperf binary; set \$CUDAPERF" >&2; exit 2; }
mkdir -p "$out"
tasks=()
for t in "$@"; do tasks+=(--task "$t"); done
{
  echo "# bench/measure-c2cuda.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ), tasks: ${*:-all}"
  echo "# $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1 | head -1)"
  echo "# $(nvcc --version 2>&1 | tail -1); $(gcc --version | head -1); $(nproc) CPUs"
} >>"$out/measure.log"
start=$(date +%s)
"$bin" bench --suite c2cuda "${tasks[@]}" ${BENCH_FLAGS:-} --skip-measured "$out/runs/bench-*/results.jsonl" \
  --runs-dir "$out/runs" --format text 2>&1 | tee -a "$out/measure.log"
rc=${PIPESTATUS[0]}
# The run folder stays: if this script is killed, its results.jsonl holds
# everything measured so far.
# Whole lines only: a kill while appending leaves a torn last line.
: >"$out/results.jsonl"
for f in "$out"/runs/bench-*/results.jsonl; do
  [ -f "$f" ] && head -n "$(wc -l <"$f")" "$f" >>"$out/results.jsonl"
done
echo "# exit status $rc, wall time $(( $(date +%s) - start )) s" | tee -a "$out/measure.log"
exit "$rc"
