#!/usr/bin/env bash
# CUDA under the sandbox, on a GPU machine: runs TestCUDAInitConfined (a
# small CUDA program under the full sandbox, with each mechanism left out,
# and with Landlock alone with and without its signal scoping; any
# violation the CUDA runtime causes fails it) and writes what it saw.
# Then run bench/gpu-selftest.sh, with CUDAPERF_SANDBOX_SKIP=landlock if
# the full sandbox failed here.
#
# Usage: bench/gpu-sandbox.sh [OUTPUT]   (default bench/gpu-sandbox.out)
# The test binary is $SANDBOX_TEST, else .device/sandbox.test, else it is
# built with go (build it elsewhere with
# `CGO_ENABLED=1 go test -c -o .device/sandbox.test ./bench/sandbox`).
# nvcc must be findable (PATH, $CUDAPERF_NVCC, /usr/local/cuda or .venv).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/gpu-sandbox.out}
case $out in /*) ;; *) out=$PWD/$out ;; esac
bin=${SANDBOX_TEST:-}
[ -z "$bin" ] && [ -x .device/sandbox.test ] && bin=$PWD/.device/sandbox.test
if [ -z "$bin" ]; then
  command -v go >/dev/null || { echo "gpu-sandbox: no test binary and no go; set \$SANDBOX_TEST" >&2; exit 2; }
  mkdir -p .device && CGO_ENABLED=1 go test -c -o .device/sandbox.test ./bench/sandbox || exit 2
  bin=$PWD/.device/sandbox.test
fi
{
  echo "# bench/gpu-sandbox.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1); kernel $(uname -r); uid $(id -u)"
  echo "# command: (cd bench/sandbox && $bin -test.run 'TestCUDAInitConfined|TestHonest|TestEscapes|TestCUDARuntime' -test.v)"
  (cd bench/sandbox && "$bin" -test.run 'TestCUDAInitConfined|TestHonest|TestEscapes|TestCUDARuntime' -test.v 2>&1)
  echo "# exit status $?"
} | tee "$out"
grep -q '^# exit status 0$' "$out"
