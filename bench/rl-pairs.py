#!/usr/bin/env python3
"""Compare settings of the RL batch by interleaved cold runs.

Two H200 machines lent in lease 11 ran the same code 16-22 % apart, and one
machine's runs of one setting spread by up to 35 % (bench/RESULTS.md), so a
setting is compared with the defaults run by run on one machine, the arms
taking turns: `bench/gpu-rl-pairs.sh` runs them, this reads the
`bench/gpu-rl.sh` outputs it leaves, named ARM-rROUND.out.

For each arm: its runs (candidates/min), their median, and against the
first arm (the control) the difference in each round, how many rounds it
won, and the exact one-sided Mann-Whitney p of its runs being faster. The
verdict follows the rule bench/RESULTS.md uses to change a default: a
setting wins when every one of its runs is faster than every run of the
control (beyond the runs' spread); otherwise it does not.

Usage: bench/rl-pairs.py DIR [CONTROL]   (CONTROL: the arm to compare
with, default the first in the order the runs were made)
"""

import glob
import itertools
import os
import re
import statistics
import sys

STARTED = re.compile(r"^# bench/gpu-rl\.sh .*\((\d{4}-\d\d-\d\dT[\d:]+Z)", re.M)
RATE = re.compile(r"^cold\d+\s+exit 0\s+\d+ results in [\d.]+ s = ([\d.]+) candidates/min", re.M)
NAME = re.compile(r"^(?P<arm>.+)-r(?P<round>\d+)\.out$")


def read(d):
    """{arm: {round: rate}} and the arms in the order their first runs were made."""
    runs, first = {}, {}
    for path in glob.glob(os.path.join(d, "*.out")):
        m = NAME.match(os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            text = f.read()
        rates = [float(x) for x in RATE.findall(text)]
        if not rates:
            continue  # the run failed or was cut off: its output says why
        arm, rnd = m["arm"], int(m["round"])
        runs.setdefault(arm, {})[rnd] = statistics.median(rates)
        started = STARTED.search(text)
        when = (rnd, started.group(1) if started else "")
        first[arm] = min(first.get(arm, when), when)
    order = sorted(runs, key=lambda a: first[a])
    return runs, order


def mann_whitney_p(a, b):
    """Exact one-sided p of a's values being larger than b's (U over every split)."""
    def u(x, y):
        return sum((xi > yi) + 0.5 * (xi == yi) for xi in x for yi in y)
    pooled, n = a + b, len(a)
    observed = u(a, b)
    splits = list(itertools.combinations(range(len(pooled)), n))
    hits = 0
    for idx in splits:
        x = [pooled[i] for i in idx]
        y = [pooled[i] for i in range(len(pooled)) if i not in idx]
        hits += u(x, y) >= observed
    return hits / len(splits)


def summarize(runs, order, control=None):
    control = control or order[0]
    base = runs[control]
    lines = ["| arm | runs (candidates/min) | median | paired difference with %s | rounds won | one-sided p | verdict |" % control,
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for arm in order:
        r = runs[arm]
        rates = [r[k] for k in sorted(r)]
        row = "| %s | %s | %.1f |" % (arm, ", ".join("%.1f" % x for x in rates), statistics.median(rates))
        if arm == control:
            lines.append(row + " | | | control |")
            continue
        common = sorted(set(r) & set(base))
        diffs = [r[k] - base[k] for k in common]
        won = sum(d > 0 for d in diffs)
        p = mann_whitney_p(rates, [base[k] for k in sorted(base)])
        wins = min(rates) > max(base.values())
        verdict = "wins beyond the spread" if wins else "not beyond the spread"
        lines.append(row + " %s | %d of %d | %.3f | %s |" % (
            ", ".join("%+.1f" % d for d in diffs), won, len(common), p, verdict))
    return "\n".join(lines)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-2])
    runs, order = read(argv[1])
    if not runs:
        sys.exit("rl-pairs: no ARM-rROUND.out with a finished run in %s: run bench/gpu-rl-pairs.sh first" % argv[1])
    control = argv[2] if len(argv) > 2 else None
    if control and control not in runs:
        sys.exit("rl-pairs: no arm %r in %s (arms: %s)" % (control, argv[1], ", ".join(order)))
    print(summarize(runs, order, control))


if __name__ == "__main__":
    main(sys.argv)
