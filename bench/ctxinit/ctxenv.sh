#!/usr/bin/env bash
# Which CUDA settings make a candidate process's context cheaper, measured
# as the evaluator runs candidates: N short processes (bench/ctxinit, each
# a context, a first kernel and MB MiB of device memory) with K always in
# flight, per setting, the settings taking turns for ROUNDS rounds. In the
# RL batch the GPU's 8 slots are the bound once the compiles are past (a
# warm batch, with no compiles, ends no sooner than 116 processes / 8
# slots allow) and the CUDA context is the largest part of a process
# (bench/RESULTS.md), so processes/s here is what a setting could give.
#
# Usage: bench/ctxinit/ctxenv.sh [SETTING...]
#   SETTING  NAME or NAME:VAR=VALUE[,VAR=VALUE...]; every setting runs with
#            CUDA_DEVICE_MAX_CONNECTIONS=1, the RL profile's default.
#            Default: base q25:CUDA_SCALE_LAUNCH_QUEUES=0.25x
#            copy1:CUDA_DEVICE_MAX_COPY_CONNECTIONS=1
#   N (48), K (8), MB (512), ROUNDS (3) from the environment.
# Prints per setting and round: processes/s and the context_ms median of
# its processes; then per setting the median over rounds. Needs nvcc and
# a GPU.
set -uo pipefail
cd "$(dirname "$0")/../.."
n=${N:-48} k=${K:-8} mb=${MB:-512} rounds=${ROUNDS:-3}
[ $# -gt 0 ] || set -- base q25:CUDA_SCALE_LAUNCH_QUEUES=0.25x copy1:CUDA_DEVICE_MAX_COPY_CONNECTIONS=1
bin=${TMPDIR:-/tmp}/ctxinit-env
nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nv" -O2 -arch=sm_90 -o "$bin" bench/ctxinit/ctxinit.cu || { echo "ctxenv: nvcc failed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# bench/ctxinit/ctxenv.sh: $n processes, $k in flight, $mb MiB each, $rounds rounds ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $(nproc) CPUs)"
for r in $(seq "$rounds"); do
  for s in "$@"; do
    name=${s%%:*} envs=(CUDA_DEVICE_MAX_CONNECTIONS=1)
    [ "$s" != "$name" ] && IFS=, read -r -a more <<<"${s#*:}" && envs+=("${more[@]}")
    t0=$(date +%s%N)
    seq "$n" | xargs -P "$k" -I{} env "${envs[@]}" CTXINIT_MB="$mb" "$bin" >"$tmp/$name-$r.jsonl"
    ms=$((($(date +%s%N) - t0) / 1000000))
    python3 - "$tmp/$name-$r.jsonl" "$name" "$r" "$n" "$ms" <<'EOF'
import json, statistics, sys
path, name, r, n, ms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rows = [json.loads(l) for l in open(path) if l.strip()]
bad = sum(1 for x in rows if x["error"])
ctx = statistics.median(x["context_ms"] for x in rows) if rows else float("nan")
print("%-8s round %s  %5.2f processes/s  context p50 %6.1f ms  errors %d of %d" % (name, r, n / (ms / 1000), ctx, bad, len(rows)))
EOF
  done
done | tee "$tmp/all.txt"
python3 - "$tmp/all.txt" <<'EOF'
import collections, statistics, sys
by = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    by[f[0]].append((float(f[3]), float(f[7])))
for name, v in by.items():
    print("%-8s median over %d rounds: %5.2f processes/s, context p50 %6.1f ms (rounds: %s)" % (
        name, len(v), statistics.median(x[0] for x in v), statistics.median(x[1] for x in v),
        ", ".join("%.2f" % x[0] for x in v)))
EOF
