#!/usr/bin/env bash
# The whole GPU part of issue 16 in one time-boxed device call (one H200,
# 16 cores, no Go, no network):
#
#   1. the torch2cuda self-test: every honest candidate of
#      bench/suites/torch2cuda-selftest accepted, every cheat rejected with
#      the reason its first line names;
#   2. every variant of bench/suites/torch2cuda measured (correctness over 5
#      seeds, anti-cheat, CUDA-event times of the variant, eager PyTorch and
#      torch.compile, speedups);
#   3. KernelBench level 1, unchanged, on the problems of
#      bench/kernelbench/subset.txt (copied into .kb/ by
#      bench/kernelbench/subset.sh): eager and torch.compile times, and the
#      team's candidates of bench/kernelbench/candidates/.
#
# It runs prebuilt binaries (paths from the environment):
#   T2C_PACK         bench/torch2cuda-pack.sh's file; default .device/t2c.tar.xz,
#                    unpacked under /tmp when CUDAPERF_BIN is not set
#   CUDAPERF_BIN     folder of `make build BIN=...` (cudaperf, plugins/benchmarker)
#   TORCH2CUDA_TEST  `go test -c -o ... ./bench/torch2cuda`
#   KERNELBENCH      the KernelBench copy; default .kb
#   BUDGET           seconds the whole script may take; default 500 (the script ends within about 15 s of it)
#
#   bench/gpu-torch2cuda.sh OUT_DIR
#
# Schedule: everything starts at once. The torch extension builds run 14
# at a time at nice 19, in the suites' task order (cached under /tmp by
# torch; runner.py's builds run at nice 10 too), so that they yield the CPU
# to timed runs; 4 test processes (task shards) each run a candidate as
# soon as it is built, and 2 cudaperf processes run the KernelBench
# shards. Runs overlap their checking, but a timed or profiled stage holds
# $CUDAPERF_TORCH_GPU_LOCK exclusively (runner.py), so no timing shares
# the GPU with other work. Every result is appended as it is made; at the
# deadline nothing new starts and the stragglers are stopped, so a cut-
# short run keeps what it measured. A rerun skips what the committed
# records already hold (bench/suites/torch2cuda/measurements.jsonl,
# bench/gpu-torch-selftest.jsonl, bench/kernelbench/level1.jsonl, after
# bench/torch2cuda-results.sh has merged OUT_DIR here).
#
# Writes to OUT_DIR (7 files): torch2cuda.jsonl (suite and self-test
# results), gpu-torch-selftest.out (the test log), kernelbench.jsonl,
# kernelbench.log, builds.tsv (candidate, 1 if built, wall time), timeline.log,
# device.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$(date +%s)
budget=${BUDGET:-500}
deadline=$((start + budget))
pack=${T2C_PACK:-.device/t2c.tar.xz}
if [ -z "${CUDAPERF_BIN:-}" ] && [ -f "$pack" ]; then
  rm -rf /tmp/t2c-dev && mkdir -p /tmp/t2c-dev
  python3 -c 'import sys, tarfile; t = tarfile.open(sys.argv[1]); t.extractall(sys.argv[2], filter="data")' "$pack" /tmp/t2c-dev
  CUDAPERF_BIN=/tmp/t2c-dev/bin
  TORCH2CUDA_TEST=${TORCH2CUDA_TEST:-/tmp/t2c-dev/torch2cuda.test}
fi
bin=$(cd "${CUDAPERF_BIN:-.device/bin}" 2>/dev/null && pwd) || bin=
testbin=${TORCH2CUDA_TEST:-.device/torch2cuda.test}
[ -x "$testbin" ] && testbin=$(cd "$(dirname "$testbin")" && pwd)/$(basename "$testbin")
kb=${KERNELBENCH:-.kb}
log() { echo "$(date -u +%T) +$(($(date +%s) - start))s $*" | tee -a "$out/timeline.log"; }
left() { local l=$((deadline - $(date +%s))); echo $((l > 20 ? l : 20)); }

# Shared by every process: the extension cache, the GPU lock, one arch.
export XDG_CACHE_HOME=/tmp/t2c-cache
export CUDAPERF_TORCH_CACHE=$XDG_CACHE_HOME/cudaperf
export CUDAPERF_TORCH_GPU_LOCK=/tmp/t2c-gpu.lock
export TORCH_CUDA_ARCH_LIST=9.0
export CUDAPERF_PYTHON=${CUDAPERF_PYTHON:-python3}
export PYTHONDONTWRITEBYTECODE=1
# Inductor compiles in-process: a worker pool costs seconds per process and
# these graphs have a few kernels.
export TORCHINDUCTOR_COMPILE_THREADS=1
ext=$CUDAPERF_TORCH_CACHE/torch2cuda/extensions
mkdir -p "$ext"
# This call's records only (a warm machine keeps /tmp; the extension cache
# stays, so a rerun there builds nothing).
rm -rf /tmp/t2c-suite* /tmp/t2c-kb*
: > "$CUDAPERF_TORCH_GPU_LOCK"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  "$CUDAPERF_PYTHON" -c 'import torch, sys; assert torch.cuda.is_available(), "torch sees no GPU"; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name())'
  echo "cores $(nproc); repo $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $("$bin/cudaperf" version 2>/dev/null | head -1); budget ${budget}s"
} > "$out/device.txt" 2>&1 || { cat "$out/device.txt"; echo "gpu-torch2cuda: no usable GPU or torch" >&2; exit 3; }
cat "$out/device.txt"
[ -x "$testbin" ] || { echo "gpu-torch2cuda: no test binary $testbin: run bench/torch2cuda-pack.sh here and carry .device/t2c.tar.xz (or set TORCH2CUDA_TEST)" >&2; exit 2; }
[ -n "$bin" ] && [ -x "$bin/cudaperf" ] || { echo "gpu-torch2cuda: no cudaperf in ${CUDAPERF_BIN:-.device/bin}: run bench/torch2cuda-pack.sh here and carry .device/t2c.tar.xz (or set CUDAPERF_BIN)" >&2; exit 2; }

# The candidate files (stdin) that the committed records do not hold a
# judged result of: a rerun builds only what it will run.
unmeasured() {
  python3 -c '
import json, os, sys
done = set()
for f in ("bench/suites/torch2cuda/measurements.jsonl", "bench/gpu-torch-selftest.jsonl", "bench/kernelbench/level1.jsonl"):
    if os.path.exists(f):
        for line in open(f):
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r.get("verdict") and not r.get("error"):
                suite = r.get("suite") if str(r.get("suite", "")).startswith("torch2cuda") else "kernelbench"
                done.add((suite, r.get("task"), r.get("candidate")))
for line in sys.stdin:
    p = line.strip()
    parts = p.split("/")
    cand = os.path.splitext(parts[-1])[0]
    key = (parts[-4], parts[-3], cand) if "suites" in parts else ("kernelbench", cand, cand)
    if p and key not in done:
        print(p)
'
}

# 1. Builds: every candidate file, the KernelBench ones first, then in the
# order of the suites' tasks (task i is in shard i % 4: round robin).
builds() {
  local files
  files=$( (ls bench/kernelbench/candidates/*.py; ls -d bench/suites/torch2cuda-selftest/*/ bench/suites/torch2cuda/*/ |
    while read -r d; do ls "$d"variants/*.py "$d"cheats/*.py; done) 2>/dev/null | unmeasured)
  log "builds: $(echo "$files" | wc -l) candidates"
  echo "$files" | TORCH_EXTENSIONS_DIR=$ext MAX_JOBS=1 DEADLINE=$deadline nice -n 19 xargs -P 14 -I{} bash -c '
    t0=$(date +%s%N); rec=$(mktemp); lim=$((DEADLINE - $(date +%s))); [ "$lim" -lt 1 ] && lim=1
    timeout "$lim" "$CUDAPERF_PYTHON" bench/torch2cuda/runner.py --records "$rec" build --candidate "{}" >/dev/null 2>&1
    ok=$(grep -c "\"ok\": true" "$rec"); rm -f "$rec"
    printf "%s\t%s\t%s\n" "{}" "$ok" "$(( ($(date +%s%N) - t0) / 1000000 ))ms"' >> "$out/builds.tsv"
  log "builds done: $(awk -F'\t' '$2==1' "$out/builds.tsv" | wc -l) ok of $(wc -l < "$out/builds.tsv")"
}

# 2. KernelBench, two shards at once (baselines need no build; a
# candidate's build is a cache hit or waits on torch's build lock).
kernelbench() {
  if [ ! -d "$kb" ]; then
    log "kernelbench: no $kb (bench/kernelbench/subset.sh makes it); skipped"
    return
  fi
  local k
  for k in 0 1; do
    (timeout --signal=INT --kill-after=10 $(($(left) - 15)) "$bin/cudaperf" bench --kernelbench "$kb" --level 1 \
      --kernelbench-candidates bench/kernelbench/candidates --shard "$((k + 1))/2" \
      --skip-measured bench/kernelbench/level1.jsonl --format json --runs-dir "/tmp/t2c-kb$k" \
      > "/tmp/t2c-kb$k.jsonl" 2> "/tmp/t2c-kb$k.log"; echo "exit $?" >> "/tmp/t2c-kb$k.log") &
  done
  wait
  log "kernelbench done"
}

# 3. The suites, four task shards at once, each building 2 at a time
# (mostly finding what step 1 built) and running as builds finish.
suites() {
  local k
  for k in 0 1 2 3; do
    (cd bench/torch2cuda && CUDAPERF_TORCH_SELFTEST=1 CUDAPERF_TORCH_SHARD=$k/4 CUDAPERF_TORCH_JOBS=2 \
      CUDAPERF_TORCH_SKIP="$root/bench/suites/torch2cuda/measurements.jsonl $root/bench/gpu-torch-selftest.jsonl" \
      CUDAPERF_TORCH_DEADLINE=$((deadline - 25)) CUDAPERF_TORCH_SELFTEST_OUT=/tmp/t2c-suite$k.jsonl \
      timeout --kill-after=10 $(($(left) - 10)) "$testbin" -test.run 'TestGPUSelfTest' -test.v -test.count 1 -test.timeout 15m \
      > "/tmp/t2c-suite$k.log" 2>&1; echo "exit $?" >> "/tmp/t2c-suite$k.log") &
  done
  wait
  log "suites done"
}

collect() {
  cat /tmp/t2c-suite*.jsonl > "$out/torch2cuda.jsonl" 2>/dev/null
  {
    echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null) bench/gpu-torch2cuda.sh: torch2cuda.test -test.run TestGPUSelfTest in 4 task shards (CUDAPERF_TORCH_SHARD=k/4)"
    cat "$out/device.txt"
    for f in /tmp/t2c-suite*.log; do echo "## $(basename "$f")"; cat "$f"; done
  } > "$out/gpu-torch-selftest.out" 2>/dev/null
  cat /tmp/t2c-kb*/bench-*/results.jsonl > "$out/kernelbench.jsonl" 2>/dev/null
  for f in /tmp/t2c-kb*.log; do echo "## $(basename "$f")"; tail -c 200000 "$f"; done > "$out/kernelbench.log" 2>/dev/null
}

log "start: budget ${budget}s"
builds &
kernelbench &
suites &
wait
collect
log "end: $(wc -l < "$out/torch2cuda.jsonl") suite/self-test records, $(wc -l < "$out/kernelbench.jsonl") KernelBench records"
grep -E -- '^(--- |ok|FAIL|PASS)|deadline reached' /tmp/t2c-suite*.log | tail -20
exit 0
