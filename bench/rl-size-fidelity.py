#!/usr/bin/env python3
"""Would a smaller configuration rank candidates as the primary does?

Issue 10 lists "smaller RL configurations" among the ways to evaluate more
candidates a minute: a candidate process's time and kernel CPU grow with the
bytes it stages (bench/RESULTS.md). The RL reward ranks candidates of one
task by their speedup at the primary configuration, which for one task is
its time there up to a constant; so a smaller configuration could stand in
for the primary only if it orders the candidates as the primary does.

This reads report-profile measurements (every configuration timed, e.g.
bench/suites/c2cuda/measurements.jsonl) and, for each task with at least
--min accepted candidates, gives the Spearman rank correlation between the
candidates' median times at each other configuration and at the primary,
with a bootstrap 95% interval over candidates (--boot resamples, fixed
seed). Configurations whose candidates all tie are left out.

Usage: bench/rl-size-fidelity.py [--min N] [--boot B] MEASUREMENTS.jsonl[.gz]...
Prints a Markdown table: task, candidates, the primary's median time and
bandwidth floor (its bytes over the GPU's peak bandwidth, as the records
carry it), then per configuration how many times fewer bytes it moves than
the primary, the candidates' median time there and rho [2.5%, 97.5%].
"""
import argparse
import gzip
import json
import math
import random
import statistics
import sys


def ranks(xs):
    """Average ranks (ties share the mean of their positions)."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    """Spearman's rho of paired samples; nan when either side is constant."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den if den else float("nan")


def bootstrap(a, b, n, rng):
    """The 2.5 and 97.5 percentiles of rho over n resamples of the pairs."""
    vals = []
    for _ in range(n):
        idx = [rng.randrange(len(a)) for _ in a]
        v = spearman([a[i] for i in idx], [b[i] for i in idx])
        if not math.isnan(v):
            vals.append(v)
    if not vals:
        return float("nan"), float("nan")
    vals.sort()
    return vals[int(0.025 * (len(vals) - 1))], vals[int(0.975 * (len(vals) - 1))]


def load(paths):
    """Per task: (primary name, [{config: (median ms, floor ms)}]) of the
    accepted candidates timed at every configuration they ran."""
    tasks = {}
    for p in paths:
        with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                v = r.get("verdict") or {}
                if not v.get("accepted"):
                    continue
                times, primary = {}, None
                for c in v.get("configs") or []:
                    t = c.get("time") or {}
                    if "median_ms" not in t:
                        continue
                    # floor_ms is the configuration's bytes over the GPU's
                    # peak bandwidth: its size in the bytes it must move.
                    times[c["config"]] = (t["median_ms"], c.get("floor_ms", 0))
                    if c.get("primary"):
                        primary = c["config"]
                if primary is None or primary not in times:
                    continue
                tasks.setdefault(r["task"], (primary, []))[1].append(times)
    return tasks


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min", type=int, default=20, help="fewest accepted candidates a task needs (default 20)")
    ap.add_argument("--boot", type=int, default=1000, help="bootstrap resamples (default 1000)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    rng = random.Random(1)
    tasks = load(a.files)
    print("| task | candidates | primary, median ms (bandwidth floor ms) | configuration (bytes moved against the primary), median ms, rho [95% CI] |")
    print("| --- | --- | --- | --- |")
    shown = 0
    for name in sorted(tasks):
        primary, cands = tasks[name]
        if len(cands) < a.min:
            continue
        configs = [c for c in cands[0] if c != primary]
        cells = []
        for c in configs:
            pairs = [(t[c][0], t[primary][0]) for t in cands if c in t]
            small, big = [x for x, _ in pairs], [y for _, y in pairs]
            rho = spearman(small, big)
            if math.isnan(rho):
                continue
            lo, hi = bootstrap(small, big, a.boot, rng)
            fl, pfl = cands[0][c][1], cands[0][primary][1]
            ratio = "%.0fx smaller" % (pfl / fl) if fl else "size unknown"
            cells.append("%s (%s), %.4f ms, %.2f [%.2f, %.2f]" % (c, ratio, statistics.median(small), rho, lo, hi))
        pm = statistics.median(t[primary][0] for t in cands)
        print("| %s | %d | %s, %.4f ms (floor %.4f) | %s |" % (name, len(cands), primary, pm, cands[0][primary][1], "; ".join(cells)))
        shown += 1
    if not shown:
        print("no task has %d accepted candidates timed at its primary" % a.min, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
