#!/usr/bin/env bash
# KernelBench level 1, run unchanged (issue 16, deliverable 4): the eager
# PyTorch and torch.compile time of each problem, and of a team-written
# candidate where CANDIDATES holds one named like the problem. Needs a GPU,
# python3 with torch, and a KernelBench checkout (not committed here):
#
#   git clone https://github.com/ScalingIntelligence/KernelBench ~/KernelBench
#   make build && bench/kernelbench/gpu-kernelbench.sh ~/KernelBench [LIMIT] [CANDIDATES]
#
# Writes bench/kernelbench/level1.jsonl (the results) and
# bench/kernelbench/RESULTS.md (the table, with this command). Not run
# yet: the session that wrote it had no GPU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
kb=${1:?usage: $0 KERNELBENCH_DIR [LIMIT] [CANDIDATES_DIR]}
limit=${2:-20}
cands=${3:-}
out=bench/kernelbench
args=(bench --kernelbench "$kb" --level 1 --limit "$limit" --format json --runs-dir "$(mktemp -d)")
[ -n "$cands" ] && args+=(--kernelbench-candidates "$cands")
bin/cudaperf "${args[@]}" > "$out/level1.jsonl" || true
python3 - "$out/level1.jsonl" "$kb" "$limit" "${cands:--}" > "$out/RESULTS.md" <<'PY'
import json, sys, subprocess
path, kb, limit, cands = sys.argv[1:]
rows = {}
for line in open(path):
    r = json.loads(line)
    row = rows.setdefault(r["task"], {})
    c = ((r.get("verdict") or {}).get("configs") or [{}])[0]
    med = lambda t: "%.4f" % t["median_ms"] if t else "-"
    if r["kind"] == "reference":
        row["eager"] = med(c.get("ref_time")) if not r.get("error") else "error"
        row["compile"] = med(c.get("compiled_time")) if not r.get("error") else "-"
    else:
        v = r.get("verdict") or {}
        if r.get("error"):
            row["cand"] = "error: " + r["error"].splitlines()[0]
        elif v.get("accepted"):
            row["cand"] = med(c.get("time"))
        else:
            row["cand"] = "rejected: " + ", ".join(x["id"] for x in v.get("reasons", []))
head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
print("# KernelBench level 1, run unchanged\n")
print(f"Measured with `bench/kernelbench/gpu-kernelbench.sh {kb} {limit} {cands}` at {head} (first {limit} problems; median ms, CUDA events, L2 flushed).\n")
print("| problem | eager ms | torch.compile ms | team candidate ms |")
print("| --- | --- | --- | --- |")
for t, row in rows.items():
    print(f"| {t} | {row.get('eager', '-')} | {row.get('compile', '-')} | {row.get('cand', '-')} |")
PY
cat "$out/RESULTS.md"
