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
#   EVAL_BASE  0: skip evaluating the base model (default 1)
#   BUDGET  stop GRPO between steps after this long (e.g. 8m; default none)
#   EVAL_TRAIN_TASKS  the train tasks evaluated in distribution (default 8
#           simple ones; all 43 at 10 samples would be 430 candidates per
#           evaluation, several minutes of GPU each); the test side is
#           evaluated whole (9 tasks)
#   EVAL_PROFILE  the benchmarker profile of the evaluations (default rl:
#           the primary and an odd size; report for every configuration)
#   MAX_TOKENS  tokens per completion, evaluations and GRPO (default 768)
#   EVAL_TURNS  attempts per evaluated sample (default 1, as every earlier
#           run; 2 also measures the refinement turn: `cudaperf eval --turns`)
#   TEMP, TOP_P GRPO's sampling (default 0.8 and 0.95, as `cudaperf eval`
#               samples: GRPO then trains on the distribution the evaluations
#               measure. At the loop's own default, 1.0 and 1.0, the lease-1
#               run of 2026-12-03 got no code block in 26 and 20 of 64
#               samples against 1 of 32 in the SFT evaluation at 0.8/0.95)
#   SFT_FLAGS   `cudaperf sft` flags (default "--max-chars 1500": answers
#               that fit 768 tokens: the default model's tokenizer makes
#               2.42 characters of a variant a token at the median, 1.76 at
#               worst, and the longest variant under 1500 characters is 687
#               tokens (counted 2026-12-02 over every variant); the
#               lease-9 run taught 664 examples, 600 of them long sweep
#               instances, and its samples were cut off at the limit).
#               sft's own default --refine 2 adds refinement turns (lease 2's
#               model, taught first attempts only, compiled 1 of 512
#               refinements); add --refine-from FILES to teach logged ones
#   FEW_SHOT    example kernels per prompt (default 0: SFT teaches the form,
#               and a long example invites imitating its length)
#   BENCHMARKER  the benchmarker plugin (default cudaperf-benchmarker; a dry
#           run without a GPU: recorded, with CUDAPERF_HF_MODEL set to a
#           tiny model from plugins/policy/hf/tiny.py)
#
# Dry run of every phase without a GPU (checks the commands and configs,
# not the numbers: the tiny model writes no code), 1.5 min on a 2-core VM:
#   .venv/bin/python plugins/policy/hf/tiny.py /tmp/tiny   # then raise
#   max_position_embeddings in /tmp/tiny/config.json to 8192 (bytes are tokens)
#   CUDAPERF_HF_MODEL=/tmp/tiny CUDAPERF_HF_DEVICE=cpu BENCHMARKER=recorded FEW_SHOT=0 \
#   STEPS=2 GROUP=2 BATCH=1 TURNS=1 EVAL_N=1 EPOCHS=1 MAX_TOKENS=64 EVAL_TRAIN_TASKS="gelu row_sum" \
#   SFT_FLAGS="--top 1 --max-chars 1200" bash bench/rl/gpu-rl.sh /tmp/dry
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench/rl/gpu-rl.sh OUT}
mkdir -p "$out"
bin=${CUDAPERF:-bin/cudaperf}
[ -x "$bin" ] || { echo "gpu-rl: no cudaperf at $bin: run make build (or set CUDAPERF)" >&2; exit 2; }
STEPS=${STEPS:-30} EVAL_N=${EVAL_N:-10} GROUP=${GROUP:-16} TURNS=${TURNS:-2} BATCH=${BATCH:-8} EPOCHS=${EPOCHS:-4} MODE=${MODE:-both}
FEW_SHOT=${FEW_SHOT:-0} BENCHMARKER=${BENCHMARKER:-cudaperf-benchmarker} EVAL_PROFILE=${EVAL_PROFILE:-rl} MAX_TOKENS=${MAX_TOKENS:-768}
EVAL_TRAIN_TASKS=${EVAL_TRAIN_TASKS:-clamp_scale gelu matrix_add2d rgb_to_gray row_sum transpose dot_product sum_reduce}
phase() { # phase NAME COMMAND...: run once, log to $out/NAME.log
  local name=$1; shift
  if [ -e "$out/$name.done" ]; then echo "gpu-rl: $name: done before"; return; fi
  echo "gpu-rl: $name: $*"
  ( time "$@" ) 2>&1 | tee "$out/$name.log"
  touch "$out/$name.done"
}
evals() { # evals LABEL [--load DIR]
  local label=$1 t; shift
  local train=()
  for t in $EVAL_TRAIN_TASKS; do train+=(--task "$t"); done
  local ks=() k
  for k in 1 3 5; do [ "$k" -le "$EVAL_N" ] && ks+=(--k "$k"); done # pass@k needs n >= k
  local common=(--policy hf "$@" --benchmarker "$BENCHMARKER" --profile "$EVAL_PROFILE" -n "$EVAL_N" "${ks[@]}" --max-tokens "$MAX_TOKENS" --few-shot "$FEW_SHOT" --turns "${EVAL_TURNS:-1}")
  phase "eval-$label-train" "$bin" eval "${common[@]}" --side train "${train[@]}" --out "$out/eval-$label-train.json" --samples "$out/eval-$label-train.samples.jsonl"
  phase "eval-$label-test" "$bin" eval "${common[@]}" --side test --out "$out/eval-$label-test.json" --samples "$out/eval-$label-test.samples.jsonl"
}
# EVAL_BASE=0 skips the base model's evaluations (measured 2026-12-02:
# bench/h200/2026-12-02-lease8/rl; about 200 s of device time).
[ "${EVAL_BASE:-1}" = 0 ] || evals base
# shellcheck disable=SC2086 # SFT_FLAGS is a list of flags
phase sft "$bin" sft --policy hf --epochs "$EPOCHS" --few-shot "$FEW_SHOT" ${SFT_FLAGS:---max-chars 1500} --out "$out/sft"
evals sft --load "$out/sft/epoch-$EPOCHS"
cat > "$out/run.yaml" <<YAML
name: grpo
root: $out
steps: $STEPS
batch: $BATCH
group: $GROUP
turns: $TURNS
seed: 1
few_shot: $FEW_SHOT
policy: {plugin: hf, init: $out/sft/epoch-$EPOCHS}
benchmarker: {plugin: $BENCHMARKER, concurrency: 16}
reward: {mode: $MODE}
sampling: {max_tokens: $MAX_TOKENS, temperature: ${TEMP:-0.8}, top_p: ${TOP_P:-0.95}}
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
