#!/bin/sh
# Captures ptxas reports (sm_90) for the register-estimate test set: each
# X.cu gets X.ptxas.txt. The .cu files are copies of kernels from
# bench/suites/c2cuda. With a directory argument, captures that directory
# instead (see bench/perf/regestimate.sh).
#   sh analysis/passes/occupancy/testdata/regs/gen.sh [DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here}
NVCC=${NVCC:-$here/../../../../../.venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$dir"/*.cu; do
    "$NVCC" -arch=sm_90 -Xptxas -v -c "$f" -o "$tmp/a.o" > "${f%.cu}.ptxas.txt" 2>&1 || echo "gen.sh: $f did not compile" >&2
done
