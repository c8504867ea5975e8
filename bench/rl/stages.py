#!/usr/bin/env python3
"""The seconds of each GRPO step by stage, and which steps paid compiles.

Usage: python3 bench/rl/stages.py RUN/metrics.jsonl [hf-stats.jsonl]

metrics.jsonl is `cudaperf train`'s per-step record; hf-stats.jsonl is the
hf policy plugin's own account of each call (CUDAPERF_HF_STATS). A compiled
decoding step is specific to its shape (padded rows × prompt width), so a
plugin process pays torch's compile on the first Generate of each shape.
A step is "steady" when every Generate inside it reused a shape the process
had already decoded: those steps are what the ≤ 60 s target is about, and
their median and range are printed at the end. Without hf-stats every step
after the first counts as steady (nothing says otherwise).

bench/rl/device.sh speed writes this as stages.txt.
"""

import datetime
import json
import statistics
import sys


def load_jsonl(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except OSError:
        return []


def epoch(t):
    """A metrics time (RFC 3339, as Go writes it) or an hf-stats time (Unix
    seconds) as Unix seconds."""
    if isinstance(t, (int, float)):
        return float(t)
    return datetime.datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp()


def steps_with_calls(metrics, calls):
    """Each step with the Generate calls made during it (by time: a step's
    calls end after the previous step's record and by its own)."""
    gens = [c for c in calls if c.get("call") == "generate"]
    out, prev = [], float("-inf")
    for m in metrics:
        end = epoch(m["time"])
        out.append((m, [c for c in gens if prev < epoch(c["time"]) <= end]))
        prev = end
    return out


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    metrics = load_jsonl(sys.argv[1])
    if not metrics:
        sys.exit(f"stages: no steps in {sys.argv[1]}: did the run make one? (see its train.log)")
    calls = load_jsonl(sys.argv[2]) if len(sys.argv) == 3 else []
    seen = set()
    steady = []
    print("step  candidates  rows a turn  completion tokens  generate  evaluate  update  step (s)  compiles")
    for i, (m, gens) in enumerate(steps_with_calls(metrics, calls)):
        # Only a compiled call compiles; eager decoding has no shapes to pay for.
        shapes = [(c["padded_rows"], c["width"]) for c in gens if c.get("compile")]
        new = list(dict.fromkeys(s for s in shapes if s not in seen))
        seen.update(shapes)
        compiles = bool(new) if calls else i == 0
        if not compiles:
            steady.append(m)
        s = m["stage"]
        turns = max(1, len(gens)) if calls else 2
        what = ", ".join(f"{r}×{w}" for r, w in new) if new else ("yes" if compiles else "")
        print(f"{m['step']:<5} {m['candidates']:<11} {m['candidates'] // turns:<12} {m['completion_tokens']:<18} "
              f"{s.get('generate_s', 0):<9.1f} {s.get('evaluate_s', 0):<9.1f} {s.get('update_s', 0):<7.1f} "
              f"{s['step_s']:<9.1f} {what}")
    if steady:
        def med(key):
            return statistics.median(m["stage"].get(key, 0) for m in steady)
        secs = [m["stage"]["step_s"] for m in steady]
        print(f"\nsteady steps (no new shape to compile): {len(steady)} of {len(metrics)}; "
              f"step median {statistics.median(secs):.1f} s (min {min(secs):.1f}, max {max(secs):.1f}); "
              f"medians: generate {med('generate_s'):.1f}, evaluate {med('evaluate_s'):.1f}, update {med('update_s'):.1f} s")
    else:
        print(f"\nsteady steps (no new shape to compile): none of {len(metrics)}: run more steps")
    if calls:
        print("\ngenerate calls: rows (padded)  prompt width  decode steps  sampling s  scoring s  compiled  attention")
        for c in calls:
            if c.get("call") == "generate":
                print(f"  {c['rows']:>4} ({c['padded_rows']:>4})  {c['width']:>12}  {c.get('decode_steps', 0):>12}  "
                      f"{c.get('sample_s', 0):>10.1f}  {c.get('score_s', 0):>9.1f}  {str(c['compile']):<8}  {c.get('attention', '')}")


if __name__ == "__main__":
    main()
