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
pack=${1:-.device/t2c.tar.xz}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
ld="-s -w -X main.version=$(git describe --always --dirty 2>/dev/null || echo dev)"
go build -ldflags "$ld" -o "$d/bin/cudaperf" ./cmd/cudaperf
mkdir -p "$d/bin/plugins/benchmarker"
go build -ldflags "-s -w" -o "$d/bin/plugins/benchmarker/benchmarker" ./plugins/benchmarker
cp plugins/benchmarker/plugin.yaml "$d/bin/plugins/benchmarker/"
go test -c -ldflags "-s -w" -o "$d/torch2cuda.test" ./bench/torch2cuda
mkdir -p "$(dirname "$pack")"
tar -C "$d" -cf - bin torch2cuda.test | xz -T0 -6 > "$pack.tmp"
mv "$pack.tmp" "$pack"
echo "torch2cuda-pack: $pack $(du -h "$pack" | cut -f1) (cudaperf, plugins/benchmarker, torch2cuda.test)"
