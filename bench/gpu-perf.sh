#!/usr/bin/env bash
# Performance of the benchmark harness on a GPU (numbers for bench/RESULTS.md):
#
#  1. throughput: 60 distinct candidates of the small selftest task saxpy
#     (each a variant with a unique comment, so each is a cold compile: a
#     fresh compile cache is used) evaluated by one `cudaperf bench`
#     invocation: candidates per minute, end to end (compile, reference,
#     runs, checks);
#  2. stability: 5 repeated `cudaperf bench --task gemm` invocations; for each
#     variant, the coefficient of variation of the primary configuration's
#     reported median across the invocations (the gemm variants run
#     >= 100 us on an H200).
#
# Usage: bench/gpu-perf.sh [OUTPUT]   (default bench/gpu-perf.out)
# The cudaperf binary is found as in gpu-selftest.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/gpu-perf.out}
bin=${CUDAPERF:-}
for b in bin/cudaperf .device/cudaperf; do [ -z "$bin" ] && [ -x "$b" ] && bin=$b; done
[ -n "$bin" ] || { echo "gpu-perf: no cudaperf binary; set \$CUDAPERF" >&2; exit 2; }
work=$(mktemp -d)
N=${N:-60}
{
  echo "# bench/gpu-perf.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1); $(nproc) CPUs"
  mkdir -p "$work/cands"
  args=()
  for i in $(seq 1 "$N"); do
    src=bench/suites/selftest/saxpy/variants/naive.cu
    [ $((i % 2)) -eq 0 ] && src=bench/suites/selftest/saxpy/variants/grid_stride.cu
    f="$work/cands/cand$i.cu"
    { cat "$src"; echo "// candidate $i"; } >"$f"
    args+=(--candidate "$f")
  done
  echo "## throughput: $N candidates of selftest/saxpy, cold compile cache"
  start=$(date +%s.%N)
  XDG_CACHE_HOME="$work/cache" "$bin" bench --suite selftest --task saxpy "${args[@]}" \
    --format json --runs-dir "$work/runs1" >"$work/throughput.jsonl" 2>"$work/throughput.err"
  rc=$?
  end=$(date +%s.%N)
  python3 - "$work/throughput.jsonl" "$start" "$end" "$rc" <<'PY'
import json, sys
path, start, end, rc = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
rs = [json.loads(l) for l in open(path) if l.strip()]
acc = sum(1 for r in rs if r.get("verdict", {}).get("accepted"))
wall = end - start
run = sum(r.get("run_seconds", 0) for r in rs)
print(f"candidates {len(rs)}, accepted {acc}, exit status {rc}")
print(f"wall {wall:.1f} s -> {len(rs) / wall * 60:.1f} candidates per minute")
print(f"time in candidate processes {run:.1f} s ({run / max(len(rs), 1):.2f} s each)")
PY
  tail -3 "$work/throughput.err"
  echo "## stability: 5 x cudaperf bench --suite selftest --task gemm (default --repeats 20 --warmup 3)"
  for i in 1 2 3 4 5; do
    "$bin" bench --suite selftest --task gemm --format json --runs-dir "$work/runs2" >"$work/gemm$i.jsonl" 2>>"$work/gemm.err" || echo "run $i exit status $?"
  done
  python3 - "$work"/gemm?.jsonl <<'PY'
import json, sys, statistics
med = {}
for path in sys.argv[1:]:
    for l in open(path):
        if not l.strip():
            continue
        r = json.loads(l)
        for c in (r.get("verdict") or {}).get("configs", []):
            if c.get("primary") and c.get("time"):
                med.setdefault(r["candidate"], []).append(c["time"]["median_ms"])
for cand, ms in sorted(med.items()):
    cv = statistics.stdev(ms) / statistics.mean(ms) if len(ms) > 1 else float("nan")
    print(f"{cand}: medians {', '.join(f'{m:.4f}' for m in ms)} ms; CV across invocations {100 * cv:.2f}%")
PY
} 2>&1 | tee "$out"
