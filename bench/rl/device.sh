#!/usr/bin/env bash
# The device machine's side of bench/rl/prepare.sh. Everything lives under
# /tmp/rl (outside the repository copy, which each call replaces), and stays
# there while the machine is warm.
#
#   bash bench/rl/device.sh stage   move what this call carried (.rl/...) into
#                                   /tmp/rl: binaries unpacked, wheels
#                                   installed into /tmp/rl/site, model parts
#                                   kept, a carried .rl/results.tar.gz restored
#   bash bench/rl/device.sh run     once every part is there: join and check
#                                   the model, then bench/rl/gpu-rl.sh into
#                                   /tmp/rl/out, stopped in time to pack the
#                                   results into $OUT/rl-results.tar.gz.part-N (15 MiB
#                                   each; rejoin with cat)
#   bash bench/rl/device.sh ablate  issue 15: `cudaperf ablate` on
#                                   bench/ablation/ablation.yaml (ABLATION=
#                                   another), its runs under /tmp/rl/out/
#                                   ablation, from the latest SFT adapter
#                                   (INIT= another), for BUDGET (default
#                                   CALL_S less 45 s: a step starts only if
#                                   it should end within it);
#                                   then its report and the same packing
#   bash bench/rl/device.sh speed   issue 14's performance target: the decoding
#                                   attention alone (attn_bench.py; ATTN_BENCH=0
#                                   skips it), then SPEED_STEPS
#                                   (default 6) GRPO steps of 8 tasks x G 16 x
#                                   T 2 from the latest SFT adapter (INIT=
#                                   another) into /tmp/rl/out/speed-N, then
#                                   the seconds per stage of each step and
#                                   the steady steps' median (stages.py: a
#                                   step that met a new shape compiled) and
#                                   the packing
#   bash bench/rl/device.sh sft     the ablation's start alone: `cudaperf sft`
#                                   into /tmp/rl/out/sft with lease 2 of
#                                   2026-12-03's settings (EPOCHS 16,
#                                   SFT_FLAGS "--lr 5e-4 --max-chars 1500
#                                   --refine 0": that SFT predates --refine),
#                                   unless sft/epoch-EPOCHS is already there.
#                                   GPU training is not bit-reproducible: a
#                                   remade start is another adapter (lease 8
#                                   of 2026-12-04's README compares the two
#                                   logs), so an ablation restores its
#                                   committed start (bench/ablation/state)
#                                   rather than making one
#   bash bench/rl/device.sh model   join the parts (once) and print the model's path
# Environment for run: CALL_S (default 540) the seconds this call may spend
# before packing; PLUGIN_TIMEOUT (default 20m) the host's per-request limit; the rest (STEPS, EVAL_N, GROUP, TURNS, BATCH, EPOCHS, MODE,
# BUDGET) goes to gpu-rl.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
T=${RL_DIR:-/tmp/rl} # RL_DIR: elsewhere, for a dry run without a GPU
mkdir -p "$T/model" "$T/out" "$T/site"

stage() {
  if [ -f .rl/bin.tar.xz ]; then
    rm -rf "$T/bin" && tar -C "$T" -xJf .rl/bin.tar.xz
    echo "device: binaries in $T/bin"
  fi
  if compgen -G '.rl/whl/*.whl' >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$T/site" .rl/whl/*.whl
    echo "device: wheels in $T/site"
  fi
  for p in .rl/model/*; do
    [ -e "$p" ] && cp "$p" "$T/model/" && echo "device: have $(basename "$p")"
  done
  # Earlier results (pack's parts joined into .rl/results.tar.gz) continue a
  # run across leases: GRPO resumes from them.
  if [ -f .rl/results.tar.gz ] && [ ! -e "$T/out/.restored" ]; then
    tar -C "$T/out" -xzf .rl/results.tar.gz && touch "$T/out/.restored"
    echo "device: restored earlier results into $T/out"
  fi
  return 0
}

model() { # joins the parts once; prints the model's path
  [ -f "$T/model/SHA256" ] || { echo "device: no model parts staged (run stage with .rl/model parts first)" >&2; return 1; }
  local name
  name=$(awk '{print $2}' "$T/model/SHA256")
  if [ ! -f "$T/model/$name" ]; then
    cat "$T/model/$name".xz.part-* | xz -d >"$T/model/$name.tmp"
    if ! (cd "$T/model" && sed "s/$name\$/$name.tmp/" SHA256 | sha256sum -c --quiet -); then
      rm -f "$T/model/$name.tmp"
      echo "device: the joined model's SHA256 differs: a part is missing; staged parts: $(ls "$T/model")" >&2
      return 1
    fi
    mv "$T/model/$name.tmp" "$T/model/$name"
  fi
  echo "$T/model/$name"
}

last_sft() { # the SFT's last epoch folder, or nothing
  # (|| true: under pipefail a missing folder would end the script)
  find "$T/out/sft" -maxdepth 1 -name 'epoch-*' 2>/dev/null | sort -t- -k2 -n | tail -1 || true
}

pack() { # small results only: files of at most 16 MiB come back
  [ -n "${OUT:-}" ] || return 0
  # Of the adapters (9.8 MB each), only SFT's last epoch and each run's
  # latest checkpoint: with every epoch's, lease 9's file was 72 MB and did
  # not come back. An ablation run whose evaluations are all written needs
  # no checkpoint any more (runs go one after another, so at most one is
  # in progress).
  local ex=() d last latest ck run sides
  # The ablation's evaluated sides, read once (none: no run counts as done).
  sides=$(sed -n 's/^ *sides: *\[\([^]]*\)\].*/\1/p' "${ABLATION:-bench/ablation/ablation.yaml}" 2>/dev/null | tr ',' ' ') || true
  last=$(last_sft)
  for d in "$T/out/sft/epoch-"*; do
    [ -e "$d" ] && [ "$d" != "$last" ] && ex+=("--exclude=./sft/$(basename "$d")")
  done
  while IFS= read -r ck; do
    latest=$(cat "$ck/latest" 2>/dev/null || true)
    run=$(dirname "$ck")
    for d in "$ck"/*/; do
      [ -d "$d" ] || continue
      if [ "$(basename "$d")" != "$latest" ] || evaluated "$run" "$sides"; then
        ex+=("--exclude=./${d#"$T/out/"}")
      fi
    done
  done < <(find "$T/out" -type d -name checkpoints 2>/dev/null)
  # Packed outside $OUT and split there into parts of 15 MiB: a file over
  # 16 MiB does not come back (lease 1 of 2026-12-03 lost its 18.4 MB file
  # with both adapters); at most 8 files and 64 MiB come back in all.
  # Rejoin here with: cat rl-results.tar.gz.part-* > rl-results.tar.gz
  tar -C "$T/out" --exclude='*.pt' --exclude='model*.safetensors' --exclude='.restored' "${ex[@]/%\//}" -czf "$T/rl-results.tar.gz" .
  local n
  n=$(stat -c %s "$T/rl-results.tar.gz")
  rm -f "$OUT"/rl-results.tar.gz.part-*
  split -b 15M -d -a 1 "$T/rl-results.tar.gz" "$OUT/rl-results.tar.gz.part-"
  echo "device: packed $n bytes as $(ls "$OUT"/rl-results.tar.gz.part-* | wc -l) parts: $(cd "$OUT" && ls rl-results.tar.gz.part-* | tr '\n' ' ')"
  [ "$n" -le $((60 << 20)) ] || echo "device: WARNING: over 60 MiB, not every part will come back; prune $T/out" >&2
}

evaluated() { # evaluated RUN_DIR SIDES: an ablation run with every side's eval-SIDE.json
  local side
  [ -n "$2" ] || return 1
  for side in $2; do [ -f "$1/eval-$side.json" ] || return 1; done
}

setup() { # the model, the binaries, the sandbox preflight and Python's path
  local gguf
  gguf=$(model)
  [ -x "$T/bin/cudaperf" ] || { echo "device: no binaries staged (stage with .rl/bin.tar.xz first)" >&2; return 1; }
  # One batched Generate of 8 tasks x 16 samples took 109 s on the H200 (first
  # session), over the host's default 60 s request timeout.
  printf '#!/bin/sh\nexec "%s" --plugin-dir "%s" --plugin-timeout "%s" --plugin-start-timeout 2m "$@"\n' \
    "$T/bin/cudaperf" "$T/bin/plugins" "${PLUGIN_TIMEOUT:-20m}" >"$T/cudaperf"
  chmod +x "$T/cudaperf"
  export CUDAPERF="$T/cudaperf" CUDAPERF_HF_MODEL="$gguf"
  # Compiled decoding (static cache, CUDA graphs): 8.8 ms a decode step for
  # 64 rows against 35.5 ms eager bf16 (bench/h200/2026-12-03-lease2/gen),
  # about 40 s of compiling per shape; the engine pads every call to a few
  # shapes and falls back to eager decoding if compiling fails. Set both to
  # dynamic / 0 to generate as lease 2 did.
  export CUDAPERF_HF_GEN_CACHE=${CUDAPERF_HF_GEN_CACHE:-static} CUDAPERF_HF_GEN_COMPILE=${CUDAPERF_HF_GEN_COMPILE:-1}
  echo "device: hf generation: cache $CUDAPERF_HF_GEN_CACHE, compile $CUDAPERF_HF_GEN_COMPILE"
  # One line per Generate and Update of every plugin process (shape,
  # sampling and scoring seconds, whether the compiled path held): what the
  # step times are made of.
  export CUDAPERF_HF_STATS=${CUDAPERF_HF_STATS:-$T/out/hf-stats.jsonl}
  # The GGUF converted once per lease (36.5 s a plugin start otherwise).
  export CUDAPERF_HF_CACHE=${CUDAPERF_HF_CACHE:-$T/hf-cache}
  # Candidates must be able to use CUDA inside the sandbox: on the H200
  # machine they cannot under Landlock, and a first run without this scored
  # every compiled sample as "no CUDA device found" (lease 9).
  local bin=$T/bin/cudaperf
  . bench/preflight.sh
  preflight "$T/out/preflight.log" /tmp/rl-preflight || return 3
  echo "device: sandbox preflight passed${CUDAPERF_SANDBOX_SKIP:+ with CUDAPERF_SANDBOX_SKIP=$CUDAPERF_SANDBOX_SKIP}"
  export PYTHONPATH="$T/site${PYTHONPATH:+:$PYTHONPATH}"
  python3 -c 'import torch, transformers, peft, gguf; print("device: torch", torch.__version__, "cuda", torch.cuda.is_available(), "transformers", transformers.__version__, "peft", peft.__version__)'
}

run() {
  setup || return $?
  local rc=0
  timeout --signal=INT --kill-after=20 "${CALL_S:-540}" bash bench/rl/gpu-rl.sh "$T/out" || rc=$?
  pack
  [ $rc = 124 ] && echo "device: stopped at CALL_S=${CALL_S:-540}s; call run again to continue"
  return $rc
}

sft() { # the ablation's SFT start, made again where no adapter is staged
  setup || return $?
  local want=$T/out/sft/epoch-${EPOCHS:-16}
  if [ -d "$want" ]; then echo "device: sft: $want is there; not made again"; return 0; fi
  # shellcheck disable=SC2086 # SFT_FLAGS is a list of flags
  ( time timeout --signal=INT --kill-after=20 "${CALL_S:-540}" "$CUDAPERF" sft --policy hf --epochs "${EPOCHS:-16}" --few-shot 0 \
    ${SFT_FLAGS:---lr 5e-4 --max-chars 1500 --refine 0} --out "$T/out/sft" ) 2>&1 | tee "$T/out/sft.log"
  # A cut SFT leaves earlier epochs only: not the start (and last_sft would pick one).
  [ -d "$want" ] || { echo "device: sft: $want not written (see $T/out/sft.log); remove $T/out/sft and run again" >&2; return 1; }
}

watch_ps() { # FILE: the long-lived processes, every 20 s, until killed
  while sleep 20; do
    { echo "== $(date -u +%T)"; ps -eo pid,ppid,etimes,stat,wchan:24,args --sort=-etimes | awk 'NR == 1 || ($3 >= 60 && $1 != 2 && $2 != 2)' | cut -c1-220 | head -40; } >>"$1"
  done
}

ablate() { # issue 15: one budgeted slice of bench/ablation's runs, from the SFT adapter
  setup || return $?
  local cfg=${ABLATION:-bench/ablation/ablation.yaml} init=${INIT:-}
  [ -n "$init" ] || init=$(last_sft)
  [ -n "$init" ] || { echo "device: no SFT adapter in $T/out/sft: run the SFT first (run), or carry its results" >&2; return 1; }
  # The runs live under /tmp/rl/out (packed and carried across leases), not
  # in the repository copy that every call replaces.
  sed -e "s#^root:.*#root: $T/out/ablation#" -e "s#^init:.*#init: $init#" "$cfg" >"$T/ablation.yaml"
  echo "device: ablation $cfg from $init"
  local rc=0
  # The budget ends the slice between steps 45 s before the call's limit
  # (the report and the packing); the timeout is only the backstop.
  local call=${CALL_S:-540}
  # Every 20 s, the processes alive for a minute or more, into ps.log: what
  # a step that stalls is waiting on (lease 7 lost a call to one, unseen).
  mkdir -p "$T/out/ablation"
  watch_ps "$T/out/ablation/ps.log" & local watcher=$!
  timeout --signal=INT --kill-after=20 "$call" "$CUDAPERF" ablate --config "$T/ablation.yaml" --resume --budget "${BUDGET:-$((call - 45))s}" 2> >(tee -a "$T/out/ablation/ablate.log" >&2) || rc=$?
  kill $watcher 2>/dev/null
  "$CUDAPERF" ablate report --config "$T/ablation.yaml" --out "$T/out/ablation/RESULTS.md" || true
  pack
  return $rc
}

speed() { # issue 14: the seconds of a GRPO step of 8 tasks x 16 x 2 turns, per stage
  setup || return $?
  local init=${INIT:-} n dir
  [ -n "$init" ] || init=$(last_sft)
  [ -n "$init" ] || { echo "device: no SFT adapter in $T/out/sft: run the SFT first (run), or carry its results" >&2; return 1; }
  n=1
  while [ -e "$T/out/speed-$n" ]; do n=$((n + 1)); done
  dir=$T/out/speed-$n
  mkdir -p "$dir"
  # The GRPO run's settings (bench/rl/gpu-rl.sh) at the issue's size: 8 tasks x
  # G 16 = 128 candidates a turn. Seed 2: other tasks than the run's first steps.
  cat >"$dir/run.yaml" <<YAML
name: grpo
root: $dir
steps: ${SPEED_STEPS:-6}
batch: 8
group: 16
turns: 2
seed: 2
few_shot: 0
policy: {plugin: hf, init: $init}
benchmarker: {plugin: ${BENCHMARKER:-cudaperf-benchmarker}, concurrency: 16}
reward: {mode: both}
sampling: {max_tokens: 768, temperature: 0.8, top_p: 0.95}
YAML
  echo "device: speed: $dir from $init"
  # The decoding attention alone first (ATTN_BENCH=0 skips it): transformers'
  # SDPA against the hf plugin's packed attention at the step's shape.
  if [ "${ATTN_BENCH:-1}" != 0 ]; then
    PYTHONPATH=plugins/policy/hf timeout 150 python3 bench/rl/attn_bench.py --rows 128 --cache 4096 \
      --modes compiled --out "$dir/attn.jsonl" 2>&1 | grep -v Warning | tee "$dir/attn.log" || true
  fi
  local rc=0
  CUDAPERF_HF_STATS=$dir/hf-stats.jsonl timeout --signal=INT --kill-after=20 "${CALL_S:-540}" "$CUDAPERF" train --config "$dir/run.yaml" 2>&1 | tee "$dir/train.log" || rc=$?
  # Seconds per stage of each step, which steps paid a compile, and the
  # steady steps' median (bench/rl/stages.py).
  python3 bench/rl/stages.py "$dir/grpo/metrics.jsonl" "$dir/hf-stats.jsonl" | tee "$dir/stages.txt" || true
  pack
  return $rc
}

case "${1:-}" in
  stage) stage ;;
  run) run ;;
  model) model ;;
  ablate) ablate ;;
  speed) speed ;;
  sft) sft ;;
  *) echo "usage: bash bench/rl/device.sh stage|run|sft|ablate|speed|model" >&2; exit 2 ;;
esac
