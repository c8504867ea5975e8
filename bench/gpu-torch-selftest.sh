#!/usr/bin/env bash
# GPU self-test of the torch2cuda benchmarker (bench/torch2cuda): every
# variant of bench/suites/torch2cuda-selftest and bench/suites/torch2cuda
# must be accepted and every cheat rejected with the reason its first line
# names. Needs a GPU, python3 with torch and nvcc (load_inline builds).
# Not run yet: the session that wrote it had no GPU time.
#
#   bench/gpu-torch-selftest.sh [OUT_DIR]     (default bench/)
#   TORCH2CUDA_TEST=.device/torch2cuda.test bench/gpu-torch-selftest.sh   (no Go there)
#
# bench/gpu-torch2cuda.sh runs this self-test, the suite and KernelBench in
# one time-boxed call.
#
# Writes OUT_DIR/gpu-torch-selftest.out (the test log: one line per
# candidate with its reasons and speedups over eager and torch.compile) and
# OUT_DIR/gpu-torch-selftest.jsonl (the bench.Result records).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export CUDAPERF_TORCH_SELFTEST=1
export CUDAPERF_TORCH_SELFTEST_OUT="$out/gpu-torch-selftest.jsonl"
export CUDAPERF_PYTHON=${CUDAPERF_PYTHON:-python3}
"$CUDAPERF_PYTHON" -c 'import torch; assert torch.cuda.is_available(), "torch sees no GPU"; print("torch", torch.__version__, torch.cuda.get_device_name())'
# With $TORCH2CUDA_TEST (a binary of `go test -c -o FILE ./bench/torch2cuda`)
# no Go is needed on the GPU machine; it runs from the package folder.
if [ -n "${TORCH2CUDA_TEST:-}" ]; then
  testbin=$(cd "$(dirname "$TORCH2CUDA_TEST")" && pwd)/$(basename "$TORCH2CUDA_TEST")
  {
    echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null) CUDAPERF_TORCH_SELFTEST=1 $TORCH2CUDA_TEST -test.run TestGPUSelfTest -test.v"
    (cd bench/torch2cuda && "$testbin" -test.run 'TestGPUSelfTest' -test.count 1 -test.v -test.timeout 60m)
  } 2>&1 | tee "$out/gpu-torch-selftest.out"
  exit "${PIPESTATUS[0]}"
fi
{
  echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) CUDAPERF_TORCH_SELFTEST=1 go test ./bench/torch2cuda -run TestGPUSelfTest -v"
  go test ./bench/torch2cuda -run 'TestGPUSelfTest' -count 1 -v -timeout 60m
} 2>&1 | tee "$out/gpu-torch-selftest.out"
