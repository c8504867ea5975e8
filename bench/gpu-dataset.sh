#!/usr/bin/env bash
# Measures the c2cuda kernels not measured yet (new tasks, sweep instances)
# on a GPU machine without Go, in time-boxed, resumable calls, and merges
# what comes back into bench/suites/c2cuda/measurements.jsonl.
#
#   bench/gpu-dataset.sh build         here: stripped cudaperf + benchmarker plugin packed in .device/dataset.tar.xz (bench/device-pack.sh; carry that file)
#   bench/gpu-dataset.sh run           on the GPU machine: measure until the budget, write $OUT
#   bench/gpu-dataset.sh merge DIR     here: append DIR/results.jsonl to measurements.jsonl, regenerate RESULTS.md
#   bench/gpu-dataset.sh control       on the GPU machine: the control for SHARE_GPU=1 (below), into $OUT
#   bench/gpu-dataset.sh control-report DIR   here: how far each run's primary medians sit from the committed ones
#   bench/gpu-dataset.sh sweep         on the GPU machine: control, the rule below decides SHARE_GPU, then run (FIRST_TASKS first)
#
# control re-measures already measured variants (CONTROL_TASKS, default 6
# tasks, at most CONTROL_PER_TASK = 6 variants each, hand-written ones
# first; after run's preflight and its Landlock fallback) twice in the report profile, once with the GPU
# the candidate's alone and once shared outside the timed calls
# (CUDAPERF_SHARE_GPU=1), into $OUT/control-exclusive.jsonl and
# $OUT/control-shared.jsonl. control-report compares both with the
# committed records: if the shared run sits no further from them than the
# exclusive one (run-to-run noise), SHARE_GPU=1 is safe for the sweep.
#
# run measures every c2cuda candidate that measurements.jsonl (and earlier
# runs on the same machine, under runs/gpu-dataset) holds no finished record
# of, with the report profile: every configuration, the primary and its
# second size 16-1024x smaller included (TestTwoSizes), 3 warm-up and 20
# timed calls each, checked on every configuration. It stops sending
# candidates BUDGET_S seconds after it started (default 480, for a 600 s
# call), lets the ones in flight finish for up to GRACE_S more (default 45),
# then cancels the rest: a cancelled or unsent candidate has no record and
# is measured by the next call. Records are appended as they finish and
# merged by task and candidate, so nothing is measured, or recorded, twice.
#
# sweep decides SHARE_GPU by a rule fixed before any control ran
# (2026-12-02; `cudaperf dataset control`, dataset.ControlDecision): shared
# is used only if (a) both control runs have at least
# 20 accepted variants in common with the records, (b) the median ratio of
# the shared run's primary medians to the exclusive run's (same machine,
# minutes apart) lies in [0.98, 1.02], and (c) the shared run's median
# distance from the committed records is at most the exclusive run's plus
# 2 points. The numbers and the decision go to $OUT/control-decision.txt.
# The first control (H200, 2026-12-02, lease 9, every measured variant of
# the 6 tasks: 358 exclusive, 266 shared before the call's limit) passed:
# shared/exclusive median ratio 1.0066 (median difference 0.93 %, p90
# 4.9 %); against the records 1.13 % (shared) and 0.55 % (exclusive); 163
# against 56 candidates/min. So run now shares by default.
# Then it runs FIRST_TASKS (if set), then every task, in what is left of
# BUDGET_S (counted from the sweep's start).
#
# Environment of run: OUT (required; at most 5 files land there), CUDAPERF
# (default: .device/dataset.tar.xz, else .device/dev.tar.xz, unpacked into /tmp/cudaperf-dataset), BUDGET_S,
# GRACE_S, SHARE_GPU (1: candidates share the GPU outside their timed calls,
# CUDAPERF_SHARE_GPU; these are the suite's own, trusted kernels; every
# record says gpu_shared; default 1 since the control above; 0: the GPU
# is each candidate's alone), TASKS (space-separated; default all), BENCH_FLAGS (extra `cudaperf
# bench` flags). If CUDAPERF_SANDBOX_SKIP is unset and a selftest candidate
# fails inside the sandbox (as CUDA did under Landlock on the first H200),
# run retries with CUDAPERF_SANDBOX_SKIP=landlock and says so in the log.
set -uo pipefail
cd "$(dirname "$0")/.."
suite=bench/suites/c2cuda
records=$suite/measurements.jsonl

log() { echo "# $*" | tee -a "$OUT/measure.log" >&2; }

# device_bin sets bin: $CUDAPERF, else the carried pack, unpacked (this
# script's own, or bench/gpu-evaluator.sh's, which holds the same cudaperf
# and benchmarker: one call can then run both scripts).
device_bin() {
  local pack=.device/dataset.tar.xz
  [ -f "$pack" ] || pack=.device/dev.tar.xz
  if [ -z "${CUDAPERF:-}" ] && [ -f "$pack" ]; then
    mkdir -p /tmp/cudaperf-dataset && tar -C /tmp/cudaperf-dataset -xJf "$pack" || exit 1
  fi
  bin=${CUDAPERF:-/tmp/cudaperf-dataset/bin/cudaperf}
  [ -x "$bin" ] || { echo "gpu-dataset: no cudaperf at $bin; run 'bench/gpu-dataset.sh build' here and carry .device/dataset.tar.xz" >&2; exit 2; }
}

# preflight LOG RUNS: bench/preflight.sh (the Landlock fallback).
. bench/preflight.sh
case ${1:-} in
build)
  exec bench/device-pack.sh "${DEVICE_DIR:-.device}/dataset.tar.xz" benchmarker
  ;;

run)
  : "${OUT:?gpu-dataset run: set OUT to the folder whose files come back}"
  mkdir -p "$OUT" || exit 1
  start=$(date +%s)
  device_bin
  budget=${BUDGET_S:-480} grace=${GRACE_S:-45}
  work=runs/gpu-dataset # ignored by git: kept between calls on a machine that stays warm
  mkdir -p "$work"
  [ "${SHARE_GPU:-1}" = 1 ] && export CUDAPERF_SHARE_GPU=1
  log "bench/gpu-dataset.sh run, $(date -u +%FT%TZ), budget ${budget}s + ${grace}s grace, tasks: ${TASKS:-all}, GPU shared: ${SHARE_GPU:-1}"
  log "$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1 | head -1)"
  nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc) # cudaperf looks there too
  log "$("$nv" --version 2>&1 | tail -1); $(gcc --version 2>&1 | head -1); $(nproc) CPUs; $("$bin" version 2>&1 | head -1)"

  preflight "$OUT/measure.log" "$work/preflight" || exit 3

  left=$((budget - ($(date +%s) - start)))
  [ "$left" -gt 10 ] || { log "no budget left after the preflight"; exit 3; }
  tasks=()
  for t in ${TASKS:-}; do tasks+=(--task "$t"); done
  # The outer timeout only guards against a hang of cudaperf itself.
  timeout -k 10 $((left + grace + 30)) "$bin" bench --suite c2cuda "${tasks[@]}" --profile report ${BENCH_FLAGS:-} \
    --skip-measured "$records" --skip-measured "$work/runs/bench-*/results.jsonl" \
    --time-budget "${left}s" --time-grace "${grace}s" --runs-dir "$work/runs" --format text \
    >>"$OUT/measure.log" 2>"$OUT/stderr.log"
  rc=$?
  cat "$OUT/stderr.log" >>"$OUT/measure.log"

  # Whole lines only: a kill while appending leaves a torn last line.
  : >"$OUT/results.jsonl"
  for f in "$work"/runs/bench-*/results.jsonl; do
    [ -f "$f" ] && head -n "$(wc -l <"$f")" "$f" >>"$OUT/results.jsonl"
  done
  {
    echo "exit status $rc after $(($(date +%s) - start)) s"
    echo "records in results.jsonl: $(wc -l <"$OUT/results.jsonl") (all runs of this machine; merge skips those already merged)"
    echo "accepted: $(grep -c '"accepted":true' "$OUT/results.jsonl"), rejected: $(grep -c '"accepted":false' "$OUT/results.jsonl"), not compiled: $(grep -c '"compile":{"ok":false' "$OUT/results.jsonl")"
    grep -h 'already measured\|time budget' "$OUT/stderr.log" || echo "time budget not reached: every selected candidate was sent"
  } | tee "$OUT/summary.txt"
  # A first look at the numbers, over everything measured so far.
  "$bin" bench report --command "bench/gpu-dataset.sh run" --out "$OUT" "$records" "$OUT/results.jsonl" >/dev/null 2>>"$OUT/measure.log"
  ;;

merge)
  dir=${2:?usage: bench/gpu-dataset.sh merge DIR (the folder run wrote, e.g. the files_at of the device call)}
  bin=${CUDAPERF:-bin/cudaperf}
  [ -f "$dir/results.jsonl" ] || { echo "gpu-dataset: no $dir/results.jsonl" >&2; exit 2; }
  "$bin" dataset merge --into "$records" "$dir/results.jsonl" || exit $?
  "$bin" bench report --command "bench/gpu-dataset.sh run (then merge)" \
    --compare "$suite/measurements-earlier.jsonl" "$records" || exit $?
  cat "$dir/summary.txt" 2>/dev/null
  ;;

control)
  : "${OUT:?gpu-dataset control: set OUT to the folder whose files come back}"
  mkdir -p "$OUT" || exit 1
  device_bin
  # The same sandbox as run's: without the preflight's fallback, every
  # control candidate failed with cudaErrorOperatingSystem under Landlock on
  # the H200 (2026-12-02, lease 8), and the control compared nothing.
  preflight "$OUT/control.log" /tmp/control-preflight || exit 3
  for mode in exclusive shared; do
    : >"$OUT/control-$mode.jsonl"
    for t in ${CONTROL_TASKS:-gelu sum_reduce clamp_scale dot_product conv1d box_blur}; do
      # The task's measured, accepted variants, by their recorded paths.
      # At most CONTROL_PER_TASK, hand-written variants before sweep
      # instances: with every one (358 in all) the first control outran
      # its call.
      mapfile -t cands < <(python3 - "$records" "$t" "${CONTROL_PER_TASK:-6}" <<'PY'
import json, sys
seen = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["task"] == sys.argv[2] and (r.get("verdict") or {}).get("accepted") and r["path"] not in seen:
        seen.append(r["path"])
seen.sort(key=lambda p: (p.rsplit("/", 1)[-1].startswith("sw_"), p))  # sweep instances are variants/sw_*.cu
print("\n".join(seen[: int(sys.argv[3])]))
PY
)
      args=()
      for c in "${cands[@]}"; do args+=(--candidate "$c"); done
      [ ${#args[@]} -gt 0 ] || continue
      share=0
      [ "$mode" = shared ] && share=1
      CUDAPERF_SHARE_GPU=$share "$bin" bench --suite c2cuda --task "$t" "${args[@]}" --profile report \
        --runs-dir "/tmp/control-$mode" --format json >>"$OUT/control-$mode.jsonl" 2>>"$OUT/control.log"
    done
    echo "control $mode: $(wc -l <"$OUT/control-$mode.jsonl") results" | tee -a "$OUT/control.log"
  done
  ;;

sweep)
  : "${OUT:?gpu-dataset sweep: set OUT to the folder whose files come back}"
  mkdir -p "$OUT" || exit 1
  start=$(date +%s)
  device_bin
  export CUDAPERF=$bin # unpacked once, for control and the runs below
  OUT=$OUT bash "$0" control || exit $?
  share=0
  "$bin" dataset control "$records" "$OUT/control-exclusive.jsonl" "$OUT/control-shared.jsonl" >"$OUT/control-decision.txt" 2>&1 && share=1
  log "control decision: SHARE_GPU=$share ($(grep -c ': pass$' "$OUT/control-decision.txt") of 3 criteria pass; $OUT/control-decision.txt)"
  budget=${BUDGET_S:-480}
  if [ -n "${FIRST_TASKS:-}" ]; then
    left=$((budget - ($(date +%s) - start)))
    [ "$left" -gt 30 ] && SHARE_GPU=$share BUDGET_S=$left TASKS="$FIRST_TASKS" OUT=$OUT bash "$0" run
  fi
  left=$((budget - ($(date +%s) - start)))
  [ "$left" -gt 30 ] || { log "sweep: no budget left for the rest"; exit 0; }
  SHARE_GPU=$share BUDGET_S=$left TASKS= OUT=$OUT bash "$0" run
  ;;

control-report)
  dir=${2:?usage: bench/gpu-dataset.sh control-report DIR}
  # Here, with Go: bin/cudaperf (make build) or the source.
  if [ -x "${CUDAPERF:-bin/cudaperf}" ]; then
    "${CUDAPERF:-bin/cudaperf}" dataset compare "$records" "$dir"/control-exclusive.jsonl "$dir"/control-shared.jsonl
    "${CUDAPERF:-bin/cudaperf}" dataset control "$records" "$dir"/control-exclusive.jsonl "$dir"/control-shared.jsonl
  else
    go run ./cmd/cudaperf dataset compare "$records" "$dir"/control-exclusive.jsonl "$dir"/control-shared.jsonl
    go run ./cmd/cudaperf dataset control "$records" "$dir"/control-exclusive.jsonl "$dir"/control-shared.jsonl
  fi
  ;;

*)
  sed -n '2,8p' "$0" >&2
  exit 2
  ;;
esac
