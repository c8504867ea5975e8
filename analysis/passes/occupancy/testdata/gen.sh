#!/bin/sh
# Regenerates the ptxas reports of the test cases that have one, with the
# nvcc of the project virtualenv (CUDA 13.0, compile only).
#   sh analysis/passes/occupancy/testdata/gen.sh
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-../../../../.venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in src/*/; do
    [ -f "$dir/ptxas.txt" ] || [ -f "$dir/arch" ] || continue
    arch=$(cat "$dir/arch" 2>/dev/null || echo sm_90)
    "$NVCC" -arch="$arch" -Xptxas -v -c "$dir/a.cu" -o "$tmp/a.o" > "$dir/ptxas.txt" 2>&1
done
