#!/bin/sh
# Measures the occupancy pass's register estimate against ptxas (sm_90) on
# every kernel of the c2cuda suite: compiles each variant with the
# virtualenv's nvcc (compile only, no GPU), then runs the estimate test on
# the captures. Prints the error summary and the per-kernel table.
#   sh bench/perf/regestimate.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for f in "$root"/bench/suites/c2cuda/*/variants/*.cu; do
    task=$(basename "$(dirname "$(dirname "$f")")")
    cp "$f" "$dir/${task}__$(basename "$f")"
done
sh "$root/analysis/passes/occupancy/testdata/regs/gen.sh" "$dir"
cd "$root"
CUDAPERF_REGDATA=$dir go test ./analysis/passes/occupancy -run TestEstimateAccuracy -count=1 -v | sed -n 's/^ *estimate_test.go:[0-9]*: //p; s/^        |/|/p'
