#!/usr/bin/env bash
# Issue 15 on the GPU machine: one slice of the reward ablation per call.
# Every call continues from the checkpoints and stops between steps when
# BUDGET is spent (default 8m, under the machine's 10-minute call limit),
# then rewrites the results page. About 2–3 sessions of device time for the
# 9 runs; the config's init is the committed SFT start
# (bench/ablation/state/init). The results page carries the reading by hand,
# bench/ablation/READING.md, marked if the results change under it.
#
# Usage: bench/ablation/gpu-ablate.sh [CONFIG]   (default bench/ablation/ablation.yaml)
set -euo pipefail
cd "$(dirname "$0")/../.."
cfg=${1:-bench/ablation/ablation.yaml}
bin=${CUDAPERF:-bin/cudaperf}
[ -x "$bin" ] || { echo "gpu-ablate: no cudaperf at $bin: run make build (or set CUDAPERF)" >&2; exit 2; }
"$bin" ablate --config "$cfg" --resume --budget "${BUDGET:-8m}"
reading=()
[ -f bench/ablation/READING.md ] && reading=(--reading bench/ablation/READING.md)
"$bin" ablate report --config "$cfg" --out bench/ablation/RESULTS.md "${reading[@]}"
