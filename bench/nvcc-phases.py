#!/usr/bin/env python3
"""Where a candidate compile's time goes, by nvcc phase, over the RL batch.

Compiles every source of bench/rlbatch/manifest.jsonl once, one at a time,
with the evaluator's flags (bench/nvcc: -arch=sm_90 -O3 -Xptxas -v and the
lean headers) and nvcc's `-time FILE`, and prints each phase's summed wall
time, its share and its mean per compile (sources that fail to compile
stop at their failing phase and are counted where they got). Candidate
compiles are the largest part of an RL batch's CPU (68-114 CPU-s of
150-250, bench/RESULTS.md); this says which tool to look at.

Usage: python3 bench/nvcc-phases.py   (CPU only, about a minute)
Needs: nvcc (as bench/nvcc finds it: $CUDAPERF_NVCC, PATH, .venv).
"""

import collections
import csv
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# nvcc's lookup and the evaluator's flags (-O aside) are nvcc-host-opt.py's.
_spec = importlib.util.spec_from_file_location("nvcc_host_opt", os.path.join(ROOT, "bench", "nvcc-host-opt.py"))
hostopt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hostopt)
FLAGS = ["-O3"] + hostopt.FLAGS


def phases(path):
    """Phase name -> ms from one `nvcc -time` file (its 'phase name' and
    'metric' columns; the driver's own line is left out)."""
    out = collections.Counter()
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return out
    head = [h.strip() for h in rows[0]]
    name, metric = head.index("phase name"), head.index("metric")
    for r in rows[1:]:
        if len(r) > metric and r[name].strip() != "nvcc (driver)":
            out[r[name].strip()] += float(r[metric])
    return out


def main():
    nvcc = hostopt.find_nvcc()
    with open(os.path.join(ROOT, "bench/rlbatch/manifest.jsonl")) as f:
        items = [json.loads(line) for line in f if line.strip() and not line.startswith("#")]
    tmp = tempfile.mkdtemp(prefix="nvcc-phases-")
    total, failed = collections.Counter(), 0
    try:
        for i, it in enumerate(items):
            src = os.path.join(ROOT, "bench/rlbatch", it["file"])
            timing = os.path.join(tmp, "%d.csv" % i)
            p = subprocess.run([nvcc] + FLAGS + ["-time", timing, "-I", ".", "-c", src, "-o", os.path.join(tmp, "%d.o" % i)],
                               cwd=os.path.dirname(src), capture_output=True)
            failed += p.returncode != 0
            if os.path.exists(timing):
                total.update(phases(timing))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    all_ms = sum(total.values())
    print("# %d sources (%d failed to compile), nvcc %s, one at a time" % (len(items), failed, nvcc))
    print("| phase | wall s | share | ms per compile |")
    print("| --- | --- | --- | --- |")
    for name, ms in total.most_common():
        print("| %s | %.1f | %.0f %% | %.0f |" % (name, ms / 1e3, 100 * ms / all_ms, ms / len(items)))
    print("| all | %.1f | 100 %% | %.0f |" % (all_ms / 1e3, all_ms / len(items)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
