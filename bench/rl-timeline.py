#!/usr/bin/env python3
"""Where a batch's wall time went: the timeline of one `cudaperf bench` run.

Reads the result records of one run (results.jsonl, as bench/gpu-rl.sh
keeps them) and rebuilds, for every candidate that ran, when its process
started and ended: request time + build_seconds + reference_wait_seconds +
slot_wait_seconds, then run_seconds. Records carry their request time to
the second only, so this is exact only when the whole batch was sent at
once (the default of `cudaperf bench`, 8 requests in flight per CPU).

Prints, per file: when the last build and the last result came, when the
first process started (the ramp: the first compiles and the first task's
reference program), the candidate processes' completion rate while
compiles were still running and after the last build, their median
process time and CUDA context time in each phase, the ramp (when the
first and the eighth candidate that ran had built, and when they were
ready to run: built, their task's reference done), which candidate gave
the last result and how long it and the slowest were judged, the
longest hold of the GPU alone (a hang's, when the batch has one) and the
other processes' gate waits beside it, and with --alive the
number of processes alive in each second. --by-task pools every file's
processes by task: their count and median process, context and
after-the-last-record times and kernel and user CPU, which show what a
process's cost grows with (the tasks' arrays differ in size).

Usage: bench/rl-timeline.py [--alive] [--by-task] RESULTS.jsonl[.gz]...   (-h, --help: this text)
"""
import datetime
import gzip
import json
import statistics
import sys


def parse(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        recs = [json.loads(l) for l in f if l.strip()]
    t0 = min(datetime.datetime.fromisoformat(r["time"].replace("Z", "+00:00")) for r in recs)
    procs = []
    for r in recs:
        sent = (datetime.datetime.fromisoformat(r["time"].replace("Z", "+00:00")) - t0).total_seconds()
        r["_sent"] = sent
        if r.get("ran"):
            start = sent + r.get("build_seconds", 0) + r.get("reference_wait_seconds", 0) + r.get("slot_wait_seconds", 0)
            procs.append((start, start + r["run_seconds"], r))
    return recs, procs


def phase(name, procs, t_from, t_to):
    if not procs or t_to <= t_from:
        return "%s: none" % name
    med = lambda k: statistics.median(r.get(k, 0) for _, _, r in procs)
    return "%s: %d ended in %.1f s = %.1f/s (process p50 %.2f s, context p50 %.2f s)" % (
        name, len(procs), t_to - t_from, len(procs) / (t_to - t_from), med("run_seconds"), med("context_seconds"))


def ramp(procs, k=8):
    """The batch's start: when the first and the k-th candidate that ran
    had built, and when they were ready to run (built and their task's
    reference done), before any wait for a GPU slot (8 by default)."""
    built = sorted(r["_sent"] + r.get("build_seconds", 0) for _, _, r in procs)
    ready = sorted(r["_sent"] + r.get("build_seconds", 0) + r.get("reference_wait_seconds", 0) for _, _, r in procs)
    k = min(k, len(procs))
    return "ramp: built, the first at %.2f s and the %s at %.2f s; ready to run (built, reference done), %.2f s and %.2f s" % (
        built[0], ordinal(k), built[k - 1], ready[0], ready[k - 1])


def longest_hold(procs):
    """The process that held the GPU alone longest (its timed calls:
    gate_exclusive_seconds; a hang holds it until its limit) and the gate
    waits of the processes alive beside it, against all of the batch's."""
    s, e, r = max(procs, key=lambda p: p[2].get("gate_exclusive_seconds", 0))
    beside = sum(q.get("gate_wait_seconds", 0) for qs, qe, q in procs if q is not r and qs < e and qe > s)
    return "the longest hold of the GPU alone: %s (%s) %.2f s; the gate waits of the processes beside it %.1f s, of all %.1f s" % (
        r.get("candidate", "?").rsplit("/", 1)[-1], r.get("task", "?"), r.get("gate_exclusive_seconds", 0), beside,
        sum(q.get("gate_wait_seconds", 0) for _, _, q in procs))


def ordinal(n):
    return "%d%s" % (n, "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def by_task(procs):
    """Lines of per-task medians over the processes given."""
    tasks = {}
    for _, _, r in procs:
        tasks.setdefault(r["task"], []).append(r)
    med = lambda rs, k: statistics.median(r.get(k, 0) for r in rs)
    out = ["task                  processes  process  context  after-last  kernel CPU  user CPU   (medians, s)"]
    for name in sorted(tasks, key=lambda t: med(tasks[t], "cpu_sys_seconds")):
        rs = tasks[name]
        out.append("%-21s %9d %8.3f %8.3f %11.3f %11.3f %9.3f" % (
            name, len(rs), med(rs, "run_seconds"), med(rs, "context_seconds"), med(rs, "exit_seconds"),
            med(rs, "cpu_sys_seconds"), med(rs, "cpu_user_seconds")))
    return out


def main(argv):
    alive = "--alive" in argv
    tasks = "--by-task" in argv
    if "-h" in argv or "--help" in argv:
        print(__doc__.strip())
        return 0
    files = [a for a in argv if a not in ("--alive", "--by-task")]
    unknown = [a for a in files if a.startswith("-")]
    if unknown:
        print("rl-timeline: unknown option %s: the options are --alive and --by-task (--help says more)" % unknown[0],
              file=sys.stderr)
        return 2
    if not files:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pooled = []
    for path in files:
        recs, procs = parse(path)
        pooled += procs
        if not procs:
            print("%s: no candidate ran" % path)
            continue
        if not any("build_seconds" in r for r in recs):
            print("%s: the records have no build_seconds (written before 2026-12-04): no timeline" % path)
            continue
        last_build = max(r["_sent"] + r.get("build_seconds", 0) for r in recs)
        # The last result, and what it waited for: a long judging there (a
        # wrong output compared in full, lease 13) holds the batch's end.
        tail = max(recs, key=lambda r: r["_sent"] + r.get("eval_seconds", 0))
        last = tail["_sent"] + tail.get("eval_seconds", 0)
        first = min(s for s, _, _ in procs)
        end = max(e for _, e, _ in procs)
        during = [p for p in procs if p[1] <= last_build]
        after = [p for p in procs if p[1] > last_build]
        print("%s: %d results, the last at %.1f s; first process started at %.2f s; last build at %.1f s" % (
            path, len(recs), last, first, last_build))
        print("  " + phase("while compiling", during, first, last_build))
        print("  " + phase("after the last build", after, last_build, end))
        print("  " + ramp(procs))
        print("  the last result: %s (%s), judging %.2f s; the slowest judging %.2f s" % (
            tail.get("candidate", "?").rsplit("/", 1)[-1], tail.get("task", "?"), tail.get("judge_seconds", 0),
            max(r.get("judge_seconds", 0) for r in recs)))
        print("  " + longest_hold(procs))
        if alive:
            print("  processes alive, by second: " + " ".join(
                "%d:%d" % (t, sum(1 for s, e, _ in procs if s <= t + 0.5 < e)) for t in range(int(last) + 1)))
    if tasks and pooled:
        print("by task, %d processes of %d files:" % (len(pooled), len(files)))
        for line in by_task(pooled):
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
