#!/usr/bin/env python3
"""Markdown tables of torch2cuda results (bench.Result JSON lines).

  report.py suite RESULTS.jsonl... --command CMD      the suite table
  report.py kernelbench RESULTS.jsonl... --command CMD

Where a candidate was measured more than once, its latest record counts
(records are appended; a rerun after a deadline adds the rest). The
command that measured them is printed above the table.
"""

import argparse
import json
import sys


def load(paths):
    latest = {}
    for p in paths:
        try:
            f = open(p, encoding="utf-8")
        except FileNotFoundError:
            continue
        with f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    continue
                key = (r.get("suite"), r.get("task"), r.get("candidate"))
                if key not in latest or r.get("time", "") >= latest[key].get("time", ""):
                    latest[key] = r
    return [latest[k] for k in sorted(latest, key=lambda k: tuple(x or "" for x in k))]


def config(r):
    cs = (r.get("verdict") or {}).get("configs") or [{}]
    return cs[0]


def ms(t):
    return "%.4f" % t["median_ms"] if t and "median_ms" in t else "-"


def x(v):
    return "%.2f" % v if v else "-"


def outcome(r):
    v = r.get("verdict") or {}
    if r.get("error"):
        return "error: " + r["error"].strip().splitlines()[0][:120]
    if not v:
        return "not run"
    if v.get("accepted"):
        return "accepted"
    return "rejected: " + ", ".join(x["id"] for x in v.get("reasons", []))


def suite_table(recs, command):
    recs = [r for r in recs if r.get("suite") == "torch2cuda"]
    print("# torch2cuda suite: measurements\n")
    print(f"Measured with `{command}`. Times are medians of CUDA-event timings (ms) with L2")
    print("flushed before every call; speedups are eager PyTorch's and torch.compile's median")
    print("over the variant's, from the same run. Records: `measurements.jsonl` (latest per variant).\n")
    ok = sum(1 for r in recs if (r.get("verdict") or {}).get("accepted"))
    print(f"{ok} of {len(recs)} variants accepted.\n")
    print("| task | variant | result | ms | eager ms | compile ms | x eager | x compile |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in recs:
        c = config(r)
        print(f"| {r['task']} | {r['candidate']} | {outcome(r)} | {ms(c.get('time'))} | {ms(c.get('ref_time'))} | "
              f"{ms(c.get('compiled_time'))} | {x(c.get('speedup'))} | {x(c.get('speedup_compiled'))} |")


def kernelbench_table(recs, command):
    rows = {}
    for r in recs:
        row = rows.setdefault(r["task"], {})
        c = config(r)
        if r.get("kind") == "reference":
            row["eager"] = "error" if r.get("error") else ms(c.get("ref_time"))
            row["compile"] = "-" if r.get("error") else (ms(c.get("compiled_time")) if c.get("compiled_time") else "failed")
        else:
            o = outcome(r)
            row["cand"] = ms(c.get("time")) if o == "accepted" else o
            row["x"] = x(c.get("speedup"))
    print("# KernelBench level 1, run unchanged\n")
    print(f"Measured with `{command}` (the problems of `bench/kernelbench/subset.txt`; median ms,")
    print("CUDA events, L2 flushed; team candidates in `bench/kernelbench/candidates/`). Records: `level1.jsonl`.\n")
    print("| problem | eager ms | torch.compile ms | team candidate ms | x eager |")
    print("| --- | --- | --- | --- | --- |")
    for t in sorted(rows, key=lambda t: (int(t.split("_")[0]) if t.split("_")[0].isdigit() else 1 << 30, t)):
        row = rows[t]
        print(f"| {t} | {row.get('eager', '-')} | {row.get('compile', '-')} | {row.get('cand', '-')} | {row.get('x', '-')} |")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("table", choices=["suite", "kernelbench"])
    p.add_argument("results", nargs="+")
    p.add_argument("--command", required=True, help="the command that measured the records (printed above the table)")
    a = p.parse_args(argv)
    recs = load(a.results)
    (suite_table if a.table == "suite" else kernelbench_table)(recs, a.command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
