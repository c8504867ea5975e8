#!/usr/bin/env python3
"""Where a candidate process's host-staging cost goes, by staging mode.

Runs bench/ctxinit/staging (see its header: a vector_add-shaped process,
two seeds, its host staging chosen by MODE) once alone and then ROUNDS
times K at once, as the evaluator runs candidates, for each MODE given,
and prints per mode:

  alone / K at once   process wall p50, kernel CPU p50 of the whole
                      process (getrusage of the child: exit's teardown
                      included), processes per second over the rounds
  phases              p50 over the K-at-once processes of each phase's
                      wall and kernel CPU (ms), as the program reports them

Usage: staging.py BINARY [--n N] [--k K] [--rounds R] [MODE...]
  defaults: N 33554433 (vector_add's primary), K 8, R 3, every mode.
The inputs are made once in /dev/shm/cudaperf-staging (like the
evaluator's, which stages in /dev/shm); outputs are removed after each
process.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time

MODES = ["pinned", "pageable", "register", "hugepage", "mapin", "mapout", "mapboth", "nofiles", "cpuonly"]
PHASES = ["context", "device_alloc", "host_setup", "read", "h2d", "kernel", "d2h", "write", "release"]


def make_inputs(d, n):
    os.makedirs(d, exist_ok=True)
    for i in range(2):
        p = os.path.join(d, "in%d" % i)
        if not os.path.exists(p) or os.path.getsize(p) != 4 * n:
            with open(p, "wb") as f:
                left = 4 * n
                while left:
                    k = min(left, 1 << 24)
                    f.write(os.urandom(k))
                    left -= k


def run_batch(binary, d, mode, n, k):
    """Starts k processes at once; returns [(wall s, rusage, report)]."""
    procs = []
    for _ in range(k):
        t0 = time.monotonic()
        p = subprocess.Popen([binary, d, mode, str(n)], stdout=subprocess.PIPE, text=True)
        procs.append((p, t0))
    out = []
    for p, t0 in procs:
        text = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        try:
            rep = json.loads(text.strip().splitlines()[-1]) if text.strip() else {"error": "no output"}
        except json.JSONDecodeError:
            rep = {"error": "unreadable output: " + text[:200]}
        if p.returncode and "error" not in rep:
            rep["error"] = "exit %d" % p.returncode
        out.append((wall, ru, rep))
    for f in glob.glob(os.path.join(d, "out-*")):
        os.remove(f)
    return out


def p50(xs):
    return statistics.median(xs) if xs else float("nan")


def summarize(mode, alone, rounds, elapsed, k):
    lines = []
    errors = [r["error"] for _, _, r in alone + rounds if "error" in r]
    if errors:
        lines.append("%-9s failed: %s (%d of %d processes)" % (mode, errors[0], len(errors), len(alone) + len(rounds)))
        return lines
    w1, s1 = alone[0][0], alone[0][1].ru_stime
    lines.append("%-9s alone: process %.3f s, kernel CPU %.3f s;  %d at once: process p50 %.3f s, kernel CPU p50 %.3f s, %.1f processes/s" % (
        mode, w1, s1, k, p50([w for w, _, _ in rounds]), p50([ru.ru_stime for _, ru, _ in rounds]),
        len(rounds) / elapsed if elapsed else float("nan")))
    cells = []
    for ph in PHASES:
        wall = p50([r[ph][0] for _, _, r in rounds if ph in r])
        sys_ms = p50([r[ph][1] for _, _, r in rounds if ph in r])
        cells.append("%s %.0f/%.0f" % (ph, wall, sys_ms))
    lines.append("          phases p50, wall/kernel ms: " + ", ".join(cells))
    return lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--n", type=int, default=33554433)
    ap.add_argument("--k", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dir", default="/dev/shm/cudaperf-staging")
    ap.add_argument("modes", nargs="*")
    a = ap.parse_intermixed_args(argv)
    modes = a.modes or MODES
    bad = [m for m in modes if m not in MODES]
    if bad:
        print("staging.py: unknown mode %s (modes: %s)" % (", ".join(bad), " ".join(MODES)), file=sys.stderr)
        return 2
    make_inputs(a.dir, a.n)
    print("# %s, N %d (%.0f MB per array), %d at once, %d rounds" % (a.binary, a.n, 4 * a.n / 1e6, a.k, a.rounds))
    failed = False
    for mode in modes:
        alone = run_batch(a.binary, a.dir, mode, a.n, 1)
        t0 = time.monotonic()
        rounds = []
        for _ in range(a.rounds):
            rounds += run_batch(a.binary, a.dir, mode, a.n, a.k)
        elapsed = time.monotonic() - t0
        lines = summarize(mode, alone, rounds, elapsed, a.k)
        failed = failed or "failed" in lines[0]
        print("\n".join(lines), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
