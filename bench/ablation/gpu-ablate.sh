#!/usr/bin/env bash
# Issue 15 on the GPU machine: one slice of the reward ablation per call.
# Every call continues from the checkpoints and stops between steps when
# BUDGET is spent (default 8m, under the machine's 10-minute call limit),
# then rewrites the results page. About 2–3 sessions of device time for the
# 9 runs; runs/sft/epoch-4 must hold the SFT start (bench/rl/gpu-rl.sh).
#
# Usage: bench/ablation/gpu-ablate.sh [CONFIG]   (default bench/ablation/ablation.yaml)
set -euo pipefail
cd "$(dirname "$0")/../.."
cfg=${1:-bench/ablation/ablation.yaml}
bin=${CUDAPERF:-bin/cudaperf}
[ -x "$bin" ] || { echo "gpu-ablate: no cudaperf at $bin: run make build (or set CUDAPERF)" >&2; exit 2; }
"$bin" ablate --config "$cfg" --resume --budget "${BUDGET:-8m}"
"$bin" ablate report --config "$cfg" --out bench/ablation/RESULTS.md
