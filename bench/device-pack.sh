#!/usr/bin/env bash
# Packs what a GPU script runs on the device machine, which has no Go: the
# cudaperf CLI, the plugins named, and test binaries, stripped and
# xz-compressed into one file small enough to carry beside the repository
# (one device call carries at most 64 MiB, the repository's files about
# 28 MB of it).
#
#   bench/device-pack.sh PACK [PLUGIN...] [-- TESTPKG...]
#
#   PLUGIN   a plugin of `make build` to keep (benchmarker, analyzer, hf,
#            recorded, replay, openai); default: benchmarker
#   TESTPKG  a Go package whose test binary goes in as NAME.test (NAME: the
#            package's last element), e.g. ./bench/torch2cuda
#
# On the device: tar -C DIR -xJf PACK, then DIR/bin/cudaperf finds its
# plugins in DIR/bin/plugins. Python plugins run with the device's python3.
# Used by bench/torch2cuda-pack.sh, bench/gpu-dataset.sh build,
# bench/rl/prepare.sh and for bench/gpu-evaluator.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
pack=${1:?usage: bench/device-pack.sh PACK [PLUGIN...] [-- TESTPKG...]}
shift
plugins=() tests=()
while [ $# -gt 0 ]; do
  [ "$1" = -- ] && { shift; tests=("$@"); break; }
  plugins+=("$1")
  shift
done
[ ${#plugins[@]} -gt 0 ] || plugins=(benchmarker)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
version=$(git describe --always --dirty 2>/dev/null || echo dev)
make -s build BIN="$d/bin" LDFLAGS="-s -w -X main.version=$version" >&2
for p in "$d"/bin/plugins/*; do
  name=$(basename "$p")
  case " ${plugins[*]} " in *" $name "*) ;; *) rm -rf "$p" ;; esac
  # The recorded interpreter is this machine's; the device uses python3.
  rm -f "$p/python-path"
done
for p in "${plugins[@]}"; do
  [ -d "$d/bin/plugins/$p" ] || { echo "device-pack: no plugin $p in make build (have: $(ls "$d/bin/plugins" 2>/dev/null | tr '\n' ' '))" >&2; exit 2; }
done
files=(bin)
for t in ${tests[@]+"${tests[@]}"}; do
  name=$(basename "$t").test
  CGO_ENABLED=1 go test -c -ldflags "-s -w" -o "$d/$name" "$t"
  files+=("$name")
done
mkdir -p "$(dirname "$pack")"
tar -C "$d" -cf - "${files[@]}" | xz -T0 -9 >"$pack.tmp"
mv "$pack.tmp" "$pack"
echo "device-pack: $pack $(du -h "$pack" | cut -f1): cudaperf, plugins ${plugins[*]}${tests[*]:+, tests ${tests[*]}}" >&2
