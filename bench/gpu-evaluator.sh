#!/usr/bin/env bash
# Issue 10's GPU measurements in one device call (each step time-boxed, so
# a slow step never takes the others' results with it):
#   ctx       what a process pays before its first kernel (bench/ctxinit),
#             5 in a row and 8 at once
#   sandbox   bench/gpu-sandbox.sh (CUDA under each sandbox mechanism)
#   selftest-rl, selftest-report  bench/gpu-selftest.sh in that profile
#   rl        bench/gpu-rl.sh: the 128-candidate batch, RUNS cold runs and
#             one warm run, RL profile
#   rl-pageable  the batch once more with the driver's host buffers
#             pageable (CUDAPERF_TEST_PAGEABLE), one cold run
#   rl-slots  the batch once more with SLOTS (default 16) candidate
#             processes per GPU instead of 8, one cold run
#   rl-mps    the batch once more with the candidates as MPS clients
#   report    the same batch in the report profile, REPORT_RUNS cold runs
#             and one warm run
#   rl-nice   the batch with candidate compiles at niceness 0, then 10
#             (CUDAPERF_COMPILE_NICE), RUNS cold runs each
#   staging   where a candidate process's host staging cost goes, by way
#             of staging (bench/ctxinit/staging.cu and .py: pinned arena
#             as the driver, pageable, registered, huge pages, inputs or
#             outputs mapped from files, no CUDA), alone and 8 at once
#   rl-map    the batch with the driver's arena (RUNS cold runs), then
#             with its mapped staging (CUDAPERF_STAGING=mapped), and the RL
#             self-test with it
#
# Usage: bench/gpu-evaluator.sh OUTDIR [STEP...]   (default: every step but rl-mps, rl-nice, staging and rl-map)
#   CUDAPERF      the cudaperf binary; its plugins are found next to it,
#                 as `make build` lays them out. Default: .device/dev.tar.xz
#                 unpacked (on a machine without Go; made here with
#                 `bench/device-pack.sh .device/dev.tar.xz benchmarker analyzer -- ./bench/sandbox`,
#                 then carry that file), else bin/cudaperf
#   SANDBOX_TEST  the bench/sandbox test binary (go test -c), for sandbox
#                 (default: the one in the pack)
#   RUNS, REPORT_RUNS  cold runs (default 3 and 1)
#   SELFTEST_RL_S, RL_S, SELFTEST_REPORT_S, REPORT_S  each step's time box
#   REPORT_STRIDE every how many candidates of the batch the report step
#                 takes (default 1: all 128)
#   PACK          a .tgz path: at the end, everything in OUTDIR goes into
#                 it and OUTDIR is removed (a device call returns at most 8
#                 files; lease 10 lost its control runs' records to that)
# Where the sandbox step shows CUDA failing inside Landlock (seen on the
# H200 machine, docs/sandbox.md), run with CUDAPERF_SANDBOX_SKIP=landlock.
set -uo pipefail
cd "$(dirname "$0")/.."
ctxmode=
rlmps=
[ "${1:-}" = --ctx ] && { ctxmode=1; shift; }
[ "${1:-}" = --rl-mps ] && { rlmps=1; shift; }
stagingmode=
[ "${1:-}" = --staging ] && { stagingmode=1; shift; }
out=${1:?usage: bench/gpu-evaluator.sh OUTDIR [STEP...]}
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
steps=${*:-ctx sandbox selftest-rl rl rl-pageable rl-slots selftest-report report}
if [ -z "${CUDAPERF:-}" ] && [ -f .device/dev.tar.xz ]; then
  mkdir -p /tmp/cudaperf-evaluator && tar -C /tmp/cudaperf-evaluator -xJf .device/dev.tar.xz || exit 1
  CUDAPERF=/tmp/cudaperf-evaluator/bin/cudaperf
  [ -x /tmp/cudaperf-evaluator/sandbox.test ] && export SANDBOX_TEST=${SANDBOX_TEST:-/tmp/cudaperf-evaluator/sandbox.test}
fi
export CUDAPERF=${CUDAPERF:-$PWD/bin/cudaperf} CUDAPERF_BIN=${CUDAPERF:-$PWD/bin/cudaperf}
log() { echo "gpu-evaluator: $(date -u +%T) $*" | tee -a "$out/steps.log" >&2; }
step() { # step NAME SECONDS COMMAND...
  local name=$1 secs=$2 t0 rc=0
  shift 2
  case " $steps " in *" $name "*) ;; *) return 0 ;; esac
  log "$name: $*"
  t0=$(date +%s)
  # CPU use each second beside it: is the machine's CPU what saturates?
  local vm=
  if command -v vmstat >/dev/null; then vmstat -n 1 >"$out/$name.vmstat" 2>&1 & vm=$!; fi
  timeout --kill-after=10 "$secs" "$@" || rc=$?
  [ -n "$vm" ] && kill "$vm" 2>/dev/null
  log "$name: exit $rc after $(($(date +%s) - t0)) s"
}
ctx() {
  local nv
  nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nv" -O2 -arch=sm_90 -o /tmp/ctxinit bench/ctxinit/ctxinit.cu || return 1
  {
    nvidia-smi --query-gpu=name,compute_mode,persistence_mode --format=csv
    ls -l /dev/char/ 2>&1 | grep -E '195:|238:|nvidia' | head
    echo "# bench/ctxinit: 5 processes one after another, then 8 at once ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1))"
    for i in 1 2 3 4 5; do
      s=$(date +%s%N); /tmp/ctxinit | tr -d '\n'; echo " process_ms $((($(date +%s%N) - s) / 1000000))"
    done
    burst() { # burst N LABEL [ENV...]: N processes at once, wall time
      local n=$1 label=$2 s
      shift 2
      s=$(date +%s%N)
      for _ in $(seq "$n"); do env "$@" /tmp/ctxinit >/dev/null & done
      wait
      echo "# $n at once, $label: $((($(date +%s%N) - s) / 1000000)) ms wall"
    }
    echo "# 8 at once, one line each"
    for i in 1 2 3 4 5 6 7 8; do /tmp/ctxinit & done; wait
    # Is the ~5 contexts/s of the first measurement the driver's limit, or
    # a setting's? Each line is the wall time of a burst.
    burst 8 default
    burst 16 default
    burst 8 "CUDA_MODULE_LOADING=EAGER" CUDA_MODULE_LOADING=EAGER
    burst 8 "CUDA_DEVICE_MAX_CONNECTIONS=1" CUDA_DEVICE_MAX_CONNECTIONS=1
    # What ending the process costs (a candidate holds hundreds of MB):
    # the CUDA runtime's teardown at exit, or _exit and the kernel driver's.
    echo "# one process at a time, 512 MiB allocated: process_ms - context - first kernel - alloc = start + exit"
    for how in normal fast normal fast; do
      s=$(date +%s%N); CTXINIT_MB=512 CTXINIT_EXIT=$how /tmp/ctxinit | tr -d '\n'; echo " exit $how process_ms $((($(date +%s%N) - s) / 1000000))"
    done
    burst 8 "512 MiB each, exit" CUDA_DEVICE_MAX_CONNECTIONS=1 CTXINIT_MB=512
    burst 8 "512 MiB each, _exit" CUDA_DEVICE_MAX_CONNECTIONS=1 CTXINIT_MB=512 CTXINIT_EXIT=fast
    burst 16 "512 MiB each, exit" CUDA_DEVICE_MAX_CONNECTIONS=1 CTXINIT_MB=512
    burst 16 "512 MiB each, _exit" CUDA_DEVICE_MAX_CONNECTIONS=1 CTXINIT_MB=512 CTXINIT_EXIT=fast
    # MPS: clients share the server's context, if the daemon is there.
    if command -v nvidia-cuda-mps-control >/dev/null; then
      export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
      mkdir -p /tmp/mps-pipe /tmp/mps-log
      if nvidia-cuda-mps-control -d; then
        sleep 1
        for i in 1 2 3; do /tmp/ctxinit; done
        burst 8 MPS
        burst 16 MPS
        echo quit | nvidia-cuda-mps-control
      else
        echo "# MPS: the daemon did not start"
      fi
      unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
    else
      echo "# MPS: nvidia-cuda-mps-control is not installed"
    fi
  } 2>&1 | tee "$out/ctxinit.out"
}
[ -n "$ctxmode" ] && { ctx; exit; }
# The RL batch again with candidates as MPS clients (one server context,
# lighter client contexts), one cold run.
rl_mps() {
  command -v nvidia-cuda-mps-control >/dev/null || { echo "rl-mps: nvidia-cuda-mps-control is not installed"; return 1; }
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
  mkdir -p /tmp/mps-pipe /tmp/mps-log
  nvidia-cuda-mps-control -d || return 1
  local rc=0
  RUNS=1 WARM=0 bash bench/gpu-rl.sh "$out/gpu-rl-mps.out" rl || rc=$?
  echo quit | nvidia-cuda-mps-control
  return $rc
}
[ -n "$rlmps" ] && { rl_mps; exit; }
# A process's kernel CPU grows with its host arena (about 1.9 s per GB,
# lease 10): how much of it is pinning, reading and writing files, and
# what the other ways of staging cost (bench/ctxinit/staging.cu).
staging() {
  local nv
  nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nv" -O2 -arch=sm_90 -o /tmp/staging bench/ctxinit/staging.cu || return 1
  local rc=0
  python3 bench/ctxinit/staging.py /tmp/staging 2>&1 | tee "$out/staging.out" || rc=$?
  rm -rf /dev/shm/cudaperf-staging
  return $rc
}
[ -n "$stagingmode" ] && { staging; exit; }
{ date -u; df -h /dev/shm /tmp 2>&1; free -g 2>&1; } >>"$out/steps.log"
step ctx 60 bash "$0" --ctx "$out"
step sandbox 120 bash bench/gpu-sandbox.sh "$out/gpu-sandbox.out"
step selftest-rl "${SELFTEST_RL_S:-240}" bash bench/gpu-selftest.sh rl "$out/gpu-selftest-rl.out"
step rl "${RL_S:-330}" env RUNS="${RUNS:-3}" bash bench/gpu-rl.sh "$out/gpu-rl.out" rl
# The driver's host buffers as they were before they were page-locked
# (bench/harness: cp_host_alloc), one cold run, to compare with rl.
step rl-pageable "${RL_PAGEABLE_S:-150}" env CUDAPERF_TEST_PAGEABLE=1 RUNS=1 WARM=0 bash bench/gpu-rl.sh "$out/gpu-rl-pageable.out" rl
# More candidate processes per GPU (CUDAPERF_GPU_SLOTS; default 8), one
# cold run: with contexts no longer slowed by NVML, do more slots help?
step rl-slots "${RL_SLOTS_S:-150}" env CUDAPERF_GPU_SLOTS="${SLOTS:-16}" RUNS=1 WARM=0 bash bench/gpu-rl.sh "$out/gpu-rl-slots.out" rl
step rl-mps "${RL_MPS_S:-150}" bash "$0" --rl-mps "$out"
# A time-boxed rl-mps leaves its daemon: nothing after it may be an MPS client.
case " $steps " in *" rl-mps "*) echo quit | CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe nvidia-cuda-mps-control 2>/dev/null ;; esac
step selftest-report "${SELFTEST_REPORT_S:-300}" bash bench/gpu-selftest.sh report "$out/gpu-selftest.out"
step report "${REPORT_S:-400}" env RUNS="${REPORT_RUNS:-1}" STRIDE="${REPORT_STRIDE:-1}" bash bench/gpu-rl.sh "$out/gpu-rl-report.out" report
# Nice'd candidate compiles (CUDAPERF_COMPILE_NICE) against none, RUNS
# cold runs each: do the candidate processes keep their rate while the
# batch's compiles run beside them (bench/RESULTS.md, lease 10)?
step rl-nice "${RL_NICE_S:-400}" bash -c 'for n in 0 10; do CUDAPERF_COMPILE_NICE=$n RUNS=${RUNS:-3} WARM=0 bash bench/gpu-rl.sh "$1/gpu-rl-nice$n.out" rl || exit; done' _ "$out"
step staging "${STAGING_S:-200}" bash "$0" --staging "$out"
# The driver's mapped staging (CUDAPERF_STAGING=mapped: inputs and outputs
# as registered file mappings, no arena copies; the RL profile's default
# since 2026-12-05) against the arena, RUNS cold runs each, and the RL
# self-test with it (anti-cheat unchanged?).
step rl-map "${RL_MAP_S:-500}" bash -c 'CUDAPERF_STAGING=arena RUNS=${RUNS:-3} WARM=0 bash bench/gpu-rl.sh "$1/gpu-rl-arena.out" rl || exit; CUDAPERF_STAGING=mapped RUNS=${RUNS:-3} WARM=0 bash bench/gpu-rl.sh "$1/gpu-rl-map.out" rl || exit; CUDAPERF_STAGING=mapped bash bench/gpu-selftest.sh rl "$1/gpu-selftest-rl-map.out"' _ "$out"
log "done"
if [ -n "${PACK:-}" ]; then
  # A device call returns at most 8 files: leave one.
  tar -czf "$PACK" -C "$out" . && rm -rf "$out" && echo "gpu-evaluator: everything is in $PACK" >&2
fi
