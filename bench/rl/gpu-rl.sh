#!/usr/bin/env bash
# The GPU half of issue 14: evaluate the base model, SFT, evaluate, GRPO,
# evaluate, in and out of distribution. Run on the GPU machine with the hf
# policy plugin installed (bin/plugins/hf) and its default model available
# (see plugins/policy/hf). Every phase leaves a marker in $OUT, so a call
# cut at the machine's time limit is continued by running the script
# again; GRPO itself resumes from its last checkpoint.
#
# Usage: bench/rl/gpu-rl.sh OUT
#   STEPS   GRPO steps (default 30)      EVAL_N  samples per task (default 10)
#   GROUP   G (default 16)               TURNS   T (default 2)
#   BATCH   tasks per step (default 8)   EPOCHS  SFT epochs (default 4)
#   MODE    reward mode (default both; ver if no ranker is built in)
#   BUDGET  stop GRPO between steps after this long (e.g. 8m; default none)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench/rl/gpu-rl.sh OUT}
mkdir -p "$out"
bin=${CUDAPERF:-bin/cudaperf}
[ -x "$bin" ] || { echo "gpu-rl: no cudaperf at $bin: run make build (or set CUDAPERF)" >&2; exit 2; }
STEPS=${STEPS:-30} EVAL_N=${EVAL_N:-10} GROUP=${GROUP:-16} TURNS=${TURNS:-2} BATCH=${BATCH:-8} EPOCHS=${EPOCHS:-4} MODE=${MODE:-both}
phase() { # phase NAME COMMAND...: run once, log to $out/NAME.log
  local name=$1; shift
  if [ -e "$out/$name.done" ]; then echo "gpu-rl: $name: done before"; return; fi
  echo "gpu-rl: $name: $*"
  ( time "$@" ) 2>&1 | tee "$out/$name.log"
  touch "$out/$name.done"
}
evals() { # evals LABEL [--load DIR]
  local label=$1; shift
  for side in train test; do
    phase "eval-$label-$side" "$bin" eval --policy hf "$@" --side "$side" -n "$EVAL_N" --out "$out/eval-$label-$side.json"
  done
}
evals base
phase sft "$bin" sft --policy hf --epochs "$EPOCHS" --out "$out/sft"
evals sft --load "$out/sft/epoch-$EPOCHS"
cat > "$out/run.yaml" <<YAML
name: grpo
root: $out
steps: $STEPS
batch: $BATCH
group: $GROUP
turns: $TURNS
seed: 1
policy: {plugin: hf, init: $out/sft/epoch-$EPOCHS}
benchmarker: {plugin: cudaperf-benchmarker, concurrency: 16}
reward: {mode: $MODE}
YAML
resume=()
[ -e "$out/grpo/config.yaml" ] && resume=(--resume)
if [ ! -e "$out/grpo.done" ]; then
  ( time "$bin" train --config "$out/run.yaml" "${resume[@]}" ) 2>&1 | tee -a "$out/grpo.log"
  n=$(wc -l < "$out/grpo/metrics.jsonl")
  [ "$n" -ge "$STEPS" ] && touch "$out/grpo.done"
fi
[ -e "$out/grpo.done" ] || { echo "gpu-rl: GRPO not finished ($out/grpo/metrics.jsonl); run again"; exit 0; }
last=$(cat "$out/grpo/checkpoints/latest")
evals grpo --load "$out/grpo/checkpoints/$last/policy"
echo "gpu-rl: all phases done in $out"
