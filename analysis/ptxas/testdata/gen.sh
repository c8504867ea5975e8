#!/bin/sh
# Regenerates the captured ptxas reports from kernels.cu with the nvcc of the
# project virtualenv (CUDA 13.0, compile only: no GPU needed).
#   sh analysis/ptxas/testdata/gen.sh
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-../../../.venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$NVCC" -arch=sm_90 -Xptxas -v -c kernels.cu -o "$out/a.o" > sm90.txt 2>&1
# Few registers force spills to local memory.
"$NVCC" -arch=sm_80 -maxrregcount=16 -Xptxas -v -c kernels.cu -o "$out/b.o" > sm80_spills.txt 2>&1
# Two targets in one compilation: one report per architecture.
"$NVCC" -gencode arch=compute_75,code=sm_75 -gencode arch=compute_86,code=sm_86 --resource-usage -c kernels.cu -o "$out/c.o" > multi_arch.txt 2>&1
