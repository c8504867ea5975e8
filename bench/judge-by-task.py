#!/usr/bin/env python3
"""Where the judge's time goes in one run of the RL batch, by task.

Reads a run's records (bench/gpu-rl.sh keeps them as OUT-NAME.jsonl, and
bench/h200 holds them gzipped) and prints, per task, the accepted
candidates' configurations, the output elements compared, how many
configurations matched the reference bit for bit (max_abs_err 0: the
comparison's memory-compare path) and the summed judge_seconds (wall time
of judging, outputs read and compared).

Usage: bench/judge-by-task.py RUN.jsonl[.gz]
"""

import collections
import gzip
import json
import sys


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    rows = collections.OrderedDict()
    with opener(path, "rt") as f:
        for line in f:
            d = json.loads(line)
            v = d.get("verdict") or {}
            if not v.get("accepted"):
                continue
            r = rows.setdefault(d["task"], [0, 0, 0, 0.0])
            for c in v.get("configs", []):
                r[0] += 1
                r[1] += c.get("elements", 0)
                r[2] += c.get("max_abs_err", 1) == 0
            r[3] += d.get("judge_seconds", 0)
    print("| task | configurations | elements | bit-identical | judge s |")
    print("| --- | --- | --- | --- | --- |")
    for t, (n, el, same, js) in rows.items():
        print("| %s | %d | %.0fM | %d | %.2f |" % (t, n, el / 1e6, same, js))
    tot = [sum(r[i] for r in rows.values()) for i in range(4)]
    print("| all | %d | %.0fM | %d | %.2f |" % (tot[0], tot[1] / 1e6, tot[2], tot[3]))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: bench/judge-by-task.py RUN.jsonl[.gz]")
    main(sys.argv[1])
