#!/usr/bin/env python3
"""Run the analyzers over every code block a policy ever wrote, to find
inputs they hang or fail on.

Usage: python3 bench/rl/analyzer_sweep.py [--cudaperf BIN] [--batch N]
           [--limit SECONDS] [--keep DIR] ROLLOUTS...

ROLLOUTS are rollout files (`runs/<name>/rollouts/step-N.jsonl.gz`, and
the candidates of a step that never ended, `runs/<name>/pending/`) or
folders searched for them. The first fenced code block of each completion
is taken, whether or not the training loop's extraction would have used it
(a wider net: lease 3's completion that hung the analyzer had no usable
block), and distinct blocks are written once, named by their hash, into
--keep (default: a temporary folder). They are linted with
`cudaperf lint --format json --no-score` in batches of --batch files under
a --limit wall-time limit each; a batch that overruns it is split until the
files that overrun alone are found. Prints each batch's seconds and every
such file; exits 1 when there is one.

Lease 7 (bench/h200/2026-12-03-lease7), over bench/h200's rollouts and
lease 7's: 8,764 distinct blocks. With the binaries of 516a0b2 one overran
(`--limit 10`: analysis/driver/testdata/macro_recursion.cu); with those of
b592671 none did, the 500-file batches taking 0.6-3.5 s on the 2-core VM.
"""

import argparse
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"```[A-Za-z0-9+]*\n(.*?)(?:```|$)", re.S)


def rollout_files(paths):
    """The rollout files named or found under the folders named."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                out += [os.path.join(root, f) for f in files
                        if f.endswith(".jsonl.gz") and os.path.basename(root) in ("rollouts", "pending")]
        else:
            out.append(p)
    return sorted(out)


def code_blocks(lines):
    """The first fenced code block of each rollout record, deduplicated, by
    the first 12 hex digits of its SHA-1."""
    out = {}
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        # A rollout's "completion"; a pending candidate's "text" (grpo.Pending).
        m = FENCE.search(rec.get("completion") or rec.get("text") or "")
        if not m or not m.group(1).strip():
            continue
        code = m.group(1)
        out.setdefault(hashlib.sha1(code.encode()).hexdigest()[:12], code)
    return out


def lint(cudaperf, files, cwd, limit):
    """Seconds taken, or None when the lint overran limit."""
    start = time.monotonic()
    try:
        subprocess.run([cudaperf, "lint", "--format", "json", "--no-score"] + files, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    return time.monotonic() - start


def stuck(cudaperf, files, cwd, limit):
    """The files that overrun limit alone, found by halving."""
    if lint(cudaperf, files, cwd, limit) is not None:
        return []
    if len(files) == 1:
        return files
    half = len(files) // 2
    return stuck(cudaperf, files[:half], cwd, limit) + stuck(cudaperf, files[half:], cwd, limit)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cudaperf", default="bin/cudaperf", help="the cudaperf binary (default bin/cudaperf)")
    ap.add_argument("--batch", type=int, default=500, help="files per lint (default 500)")
    ap.add_argument("--limit", type=float, default=60, help="seconds a batch may take (default 60)")
    ap.add_argument("--keep", help="write the blocks here (default: a temporary folder)")
    ap.add_argument("rollouts", nargs="+")
    a = ap.parse_args(argv)
    cudaperf = os.path.abspath(a.cudaperf)
    files = rollout_files(a.rollouts)
    if not files:
        sys.exit("analyzer_sweep: no rollout files in %s: name runs/<name>/rollouts folders or files" % " ".join(a.rollouts))
    blocks = {}
    for f in files:
        with gzip.open(f, "rt") as fh:
            for h, code in code_blocks(fh).items():
                blocks.setdefault(h, code)
    out = a.keep or tempfile.mkdtemp(prefix="analyzer-sweep-")
    os.makedirs(out, exist_ok=True)
    names = []
    for h, code in sorted(blocks.items()):
        with open(os.path.join(out, h + ".cu"), "w") as fh:
            fh.write(code)
        names.append(h + ".cu")
    print("%d rollout files, %d distinct code blocks in %s" % (len(files), len(names), out))
    bad = []
    for i in range(0, len(names), a.batch):
        part = names[i:i + a.batch]
        s = lint(cudaperf, part, out, a.limit)
        print("batch %d (%d files): %s" % (i // a.batch + 1, len(part), "%.2f s" % s if s is not None else "over %g s" % a.limit))
        if s is None:
            bad += stuck(cudaperf, part, out, a.limit)
    for f in bad:
        print("OVERRUNS ALONE: %s" % os.path.join(out, f))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
