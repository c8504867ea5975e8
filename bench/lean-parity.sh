#!/usr/bin/env bash
# Does compiling with nvcc.LeanFlags and LeanInclude (bench/nvcc/lean.h)
# change anything a candidate is judged by? Compiles each source twice,
# as the evaluator does (nvcc -arch=sm_90 -O3 -c), with and without the
# flags, and compares the exit status, the
# host code (objdump -d of .text) and the device code (the .nv_fatbin
# section, cubin and PTX, byte for byte). A source that fails only with
# the flags is one the evaluator compiles again with the full headers
# (bench/nvcc: leanMissed); such a line says whether that retry happens.
# A source that fails both ways but whose lean log matches leanMissed is
# "same(retried_in_vain)": the evaluator's second compile gains nothing.
# Also sums the CPU time of each side. Needs nvcc (CUDAPERF_NVCC, PATH or
# .venv) and binutils, no GPU.
#
#   bench/lean-parity.sh [OUT] [SOURCE...]
#
# Default sources: the 128 of bench/rlbatch and every 16th .cu file of
# bench/suites in sorted order. Output (default bench/lean-parity.out):
# one line per source, then the counts and CPU sums. What an RL policy
# writes (bench/lean-parity-rollouts.out):
#   python3 bench/rl/rollout_stats.py --export /tmp/rc2 --sample 240 bench/h200/*/*/*/rollouts
#   bench/lean-parity.sh bench/lean-parity-rollouts.out /tmp/rc2/*.cu
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/lean-parity.out}
shift || true
nvcc=${CUDAPERF_NVCC:-$(command -v nvcc || ls .venv/lib/python3*/site-packages/nvidia/cu13/bin/nvcc 2>/dev/null | head -1)}
nvcc=$(realpath "$nvcc" 2>/dev/null || true)
[ -x "$nvcc" ] || { echo "lean-parity: no nvcc: set CUDAPERF_NVCC or run .ci/setup" >&2; exit 2; }
flags=$(sed -n 's/^var LeanFlags = \[\]string{"\(.*\)"}$/\1/p' bench/nvcc/nvcc.go)
[ -n "$flags" ] || { echo "lean-parity: cannot read LeanFlags from bench/nvcc/nvcc.go" >&2; exit 2; }
# LeanInclude: the evaluator writes bench/nvcc/lean.h into each compile's
# folder; here it is named where it lies (a path without commas).
grep -q '^var LeanInclude = \[\]string{"-Xcompiler", "-include,{lean}"}$' bench/nvcc/nvcc.go ||
  { echo "lean-parity: LeanInclude in bench/nvcc/nvcc.go is not the one this script knows: update it" >&2; exit 2; }
flags="$flags -Xcompiler -include,$PWD/bench/nvcc/lean.h"
if [ $# -gt 0 ]; then
  srcs=("$@")
else
  mapfile -t srcs < <(find bench/rlbatch/candidates -name '*.cu' | sort; find bench/suites -name '*.cu' | sort | awk 'NR % 16 == 1')
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
retries() { # retries SOURCE LOG: does the evaluator compile it again? (bench/nvcc: leanMissed)
  python3 bench/nvcc/lean_retry.py bench/nvcc/nvcc.go "$1" "$2"
}
one() { # one SOURCE: prints "VERDICT lean=RC full=RC cpu=LEAN/FULL SOURCE"
  local f=$1 d rl rf st cl cf
  d=$(mktemp -d -p "$tmp")
  (cd "$(dirname "$f")" && /usr/bin/time -f %U+%S -o "$d/l.t" "$nvcc" -arch=sm_90 -O3 -c $flags "$(basename "$f")" -o "$d/l.o" >"$d/l.log" 2>&1) && rl=0 || rl=$?
  (cd "$(dirname "$f")" && /usr/bin/time -f %U+%S -o "$d/f.t" "$nvcc" -arch=sm_90 -O3 -c "$(basename "$f")" -o "$d/f.o" >"$d/f.log" 2>&1) && rf=0 || rf=$?
  st=same
  if [ "$rl" = 0 ] && [ "$rf" = 0 ]; then
    for k in l f; do
      objdump -d -j .text "$d/$k.o" | tail -n +4 >"$d/$k.text"
      objcopy -O binary --only-section=.nv_fatbin "$d/$k.o" "$d/$k.fatbin"
    done
    cmp -s "$d/l.text" "$d/f.text" || st=host_code_differs
    cmp -s "$d/l.fatbin" "$d/f.fatbin" || st=device_code_differs
  elif [ "$rl" != "$rf" ]; then
    st=status_differs
    if retries "$f" "$d/l.log"; then st="$st(retried)"; else st="$st(NOT_retried)"; fi
  elif retries "$f" "$d/l.log"; then
    # Both fail, but the lean log looks like the flags' doing: the
    # evaluator compiles it a second time for the same answer.
    st="same(retried_in_vain)"
  fi
  cl=$(tail -1 "$d/l.t" | bc) cf=$(tail -1 "$d/f.t" | bc)
  echo "$st lean=$rl full=$rf cpu=$cl/$cf $f"
  rm -rf "$d"
}
export -f one retries
export nvcc flags tmp
{
  echo "# bench/lean-parity.sh: nvcc -arch=sm_90 -O3 -c with and without '$flags' ($("$nvcc" --version | tail -1); $(g++ --version | head -1))"
  printf '%s\n' "${srcs[@]}" | xargs -P "$(nproc)" -I{} bash -c 'one "$1"' _ {} | sort -k5
} >"$tmp/out"
{
  cat "$tmp/out"
  awk '!/^#/ { n++; c[$1]++; split($4, t, "[=/]"); l += t[2]; f += t[3] }
    END { printf "# %d sources:", n; for (k in c) printf " %s %d", k, c[k]; printf "\n# compile CPU: %.1f s with the flags, %.1f s without (%.3f against %.3f s a source, %.0f %% less)\n", l, f, l / n, f / n, 100 * (1 - l / f) }' "$tmp/out"
} >"$out"
tail -2 "$out"
