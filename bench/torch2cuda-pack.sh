#!/usr/bin/env bash
# Builds what bench/gpu-torch2cuda.sh runs on the device machine (which has
# no Go): cudaperf, the benchmarker plugin and the torch2cuda test binary,
# stripped, packed into one file small enough to carry with the repository
# (the three are 59 MB stripped; packed with xz, about 17 MB):
#
#   bench/torch2cuda-pack.sh [PACK]        (default .device/t2c.tar.xz)
#
# gpu-torch2cuda.sh unpacks it (Python's tarfile) when $CUDAPERF_BIN is not
# set. .device/ is in .git/info/exclude: nothing of it is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bench/device-pack.sh "${1:-.device/t2c.tar.xz}" benchmarker -- ./bench/torch2cuda
