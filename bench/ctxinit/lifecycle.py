#!/usr/bin/env python3
"""How many candidate processes per minute one GPU sustains (issue 10).

Runs bench/ctxinit/lifecycle (a stand-in for a candidate process of the RL
profile: context, inputs read from files and copied in, 6 timed calls and
one more, outputs and inputs copied back, output written, memory freed)
many times, K at once, in two ways:

  fresh     each process is started when a slot frees, as the evaluator
            does today: its context is made while others work;
  prestart  P more processes are kept started, their contexts made, each
            waiting for a byte on stdin; a free slot wakes one (a pool of
            pre-started processes, still one candidate per process).

Usage: lifecycle.py BINARY [MODE:K[:P][:SIZES]...]   (LIFECYCLE_N processes each, default 64)
  e.g. lifecycle.py /tmp/lifecycle fresh:8 prestart:8:8 fresh:8:0:1000003
Each line printed: the mode, processes, wall time, processes per minute and
the median context and work times the processes reported.
"""
import json
import os
import statistics
import subprocess
import sys
import time

N = int(os.environ.get("LIFECYCLE_N", "64"))
DEFAULT_SIZES = [1000003, 16777216]
DIR = "/dev/shm/cudaperf-lifecycle"


def inputs(sizes):
    os.makedirs(DIR, exist_ok=True)
    for n in sizes:
        for k in "ab":
            p = os.path.join(DIR, "%s_%d.bin" % (k, n))
            if not os.path.exists(p):
                with open(p, "wb") as f:
                    f.write(os.urandom(4 * n))


def run(binary, mode, k, p, sizes):
    argv = [binary, DIR] + [str(n) for n in sizes]
    env = dict(os.environ)
    if mode == "prestart":
        env["LIFECYCLE_WAIT"] = "1"
    started, active, ready, outs = 0, [], [], []

    def spawn():
        nonlocal started
        started += 1
        return subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    t0 = time.monotonic()
    if mode == "prestart":
        ready = [spawn() for _ in range(min(p + k, N))]
    while len(outs) < N:
        while len(active) < k and (started < N or ready):
            if mode == "prestart":
                if not ready:
                    break
                proc = ready.pop(0)
                proc.stdin.write("g")
                proc.stdin.flush()
                active.append(proc)
                if started < N:
                    ready.append(spawn())
            else:
                active.append(spawn())
        time.sleep(0.002)
        for proc in list(active):
            if proc.poll() is not None:
                active.remove(proc)
                line = proc.stdout.read().strip().splitlines()
                outs.append(json.loads(line[-1]) if line else {"error": "no output"})
    wall = time.monotonic() - t0
    errs = [o["error"] for o in outs if "error" in o]
    med = lambda key: statistics.median([o[key] for o in outs if key in o] or [float("nan")])
    print("%-8s K=%-2d P=%-2d sizes=%s  %d processes in %.1f s = %.0f/min  context p50 %.0f ms  work p50 %.0f ms  main p50 %.0f ms  errors %d %s" % (
        mode, k, p, ",".join(map(str, sizes)), len(outs), wall, len(outs) * 60 / wall, med("context_ms"), med("work_ms"), med("main_ms"), len(errs), errs[:2]), flush=True)


def main():
    binary = sys.argv[1]
    for spec in sys.argv[2:] or ["fresh:8"]:
        parts = spec.split(":")
        mode, k = parts[0], int(parts[1])
        p = int(parts[2]) if len(parts) > 2 else 0
        sizes = [int(x) for x in parts[3].split(",")] if len(parts) > 3 else DEFAULT_SIZES
        inputs(sizes)
        run(binary, mode, k, p, sizes)


if __name__ == "__main__":
    main()
