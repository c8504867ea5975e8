#!/usr/bin/env bash
# Settings of the RL batch against a control, by interleaved cold runs on
# one machine (two H200 machines ran the same code 16-22 % apart in lease
# 11, so only runs of one machine, taking turns, compare): each round runs
# every arm once (bench/gpu-rl.sh, RUNS=1, no warm run), then
# bench/rl-pairs.py prints each arm's runs, median, paired differences with
# the control (the first arm) and whether it wins beyond the runs' spread.
#
# Usage: bench/gpu-rl-pairs.sh OUTDIR ROUNDS ARM...
#   ARM   NAME or NAME:VAR=VALUE[,VAR=VALUE...]; the first is the control,
#         e.g. base nice0:CUDAPERF_COMPILE_NICE=0
#         s12r1:CUDAPERF_GPU_SLOTS=12,CUDAPERF_REF_THREADS=1
#   RUN_S each run's time box in seconds (default 90)
# Needs what bench/gpu-rl.sh needs (CUDAPERF_BIN, a GPU). Writes
# OUTDIR/NAME-rROUND.out (and the run's records beside it) and
# OUTDIR/pairs.md.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bench/gpu-rl-pairs.sh OUTDIR ROUNDS ARM...}
rounds=${2:?usage: bench/gpu-rl-pairs.sh OUTDIR ROUNDS ARM...}
shift 2
[ $# -ge 2 ] || { echo "gpu-rl-pairs: give a control and at least one arm to compare with it" >&2; exit 2; }
case $rounds in ''|*[!0-9]*|0) echo "gpu-rl-pairs: ROUNDS $rounds: give a whole number of rounds, 1 or more" >&2; exit 2 ;; esac
for arm in "$@"; do
  case ${arm%%:*} in ''|*[!A-Za-z0-9_]*) echo "gpu-rl-pairs: arm name '${arm%%:*}': letters, digits and _ only (it names the output files)" >&2; exit 2 ;; esac
done
mkdir -p "$out"
for r in $(seq "$rounds"); do
  for arm in "$@"; do
    name=${arm%%:*} envs=()
    [ "$arm" != "$name" ] && IFS=, read -r -a envs <<<"${arm#*:}"
    echo "gpu-rl-pairs: round $r, $name ${envs[*]:-}" >&2
    env "${envs[@]}" RUNS=1 WARM=0 timeout "${RUN_S:-90}" bash bench/gpu-rl.sh "$out/$name-r$r.out" rl >/dev/null 2>&1 ||
      echo "gpu-rl-pairs: round $r, $name: exit $? (see $out/$name-r$r.out)" >&2
  done
done
python3 bench/rl-pairs.py "$out" | tee "$out/pairs.md"
