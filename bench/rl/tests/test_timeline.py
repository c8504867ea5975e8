"""bench/rl-timeline.py: a run's process timeline is rebuilt from the
latency parts of its records, and the rates it reports are the processes'
completions in each phase."""

import gzip
import importlib.util
import json
import os

SPEC = importlib.util.spec_from_file_location(
    "rl_timeline", os.path.join(os.path.dirname(__file__), "..", "..", "rl-timeline.py"))
timeline = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(timeline)


def record(build, ref, slot, run, ran=True, sent="2026-12-04T21:00:00Z"):
    r = {"time": sent, "task": "t", "candidate": "c", "ran": ran, "build_seconds": build,
         "reference_wait_seconds": ref, "slot_wait_seconds": slot,
         "eval_seconds": build + ref + slot + run + 0.1}
    if ran:
        r.update(run_seconds=run, context_seconds=0.5)
    return r


def write(path, recs, zipped=False):
    with (gzip.open(path, "wt") if zipped else open(path, "w")) as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")


def test_phases(tmp_path, capsys):
    # Two processes end while compiles run (the last build at 6 s), three
    # after; one candidate did not compile; one request came a second late.
    recs = [
        record(1, 1, 0, 2),            # runs 2-4
        record(1, 1, 1, 2),            # runs 3-5
        record(6, 0, 0, 1),            # the last build; runs 6-7
        record(2, 1, 4, 2),            # runs 7-9
        record(2, 1, 5, 2, sent="2026-12-04T21:00:01Z"),  # sent at 1 s: runs 9-11
        record(0.5, 0, 0, 0, ran=False),
    ]
    path = tmp_path / "run.jsonl.gz"
    write(path, recs, zipped=True)
    assert timeline.main([str(path), "--alive"]) == 0
    out = capsys.readouterr().out
    assert "6 results, the last at 11.1 s; first process started at 2.00 s; last build at 6.0 s" in out
    assert "while compiling: 2 ended in 4.0 s = 0.5/s" in out
    assert "after the last build: 3 ended in 5.0 s = 0.6/s" in out
    assert "3:2 " in out and "10:1 " in out
    # Builds end at 1, 1, 6, 2 and 3 s (the last sent at 1 s); ready to
    # run 1 s later but for the last build, whose reference was done.
    assert "ramp: built, the first at 1.00 s and the 5th at 6.00 s; ready to run (built, reference done), 2.00 s and 6.00 s" in out


def test_old_records_have_no_timeline(tmp_path, capsys):
    r = record(1, 1, 0, 2)
    del r["build_seconds"]
    path = tmp_path / "old.jsonl"
    write(path, [r])
    assert timeline.main([str(path)]) == 0
    assert "no build_seconds" in capsys.readouterr().out


def test_by_task(tmp_path, capsys):
    # Two tasks: medians per task, sorted by kernel CPU.
    big = [dict(record(1, 0, 0, 3), task="big", cpu_sys_seconds=s, exit_seconds=0.3) for s in (1.0, 1.2, 1.1)]
    small = [dict(record(1, 0, 0, 1.5), task="small", cpu_sys_seconds=0.5, exit_seconds=0.1)]
    path = tmp_path / "run.jsonl"
    write(path, big + small)
    assert timeline.main(["--by-task", str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith("by task, 4 processes of 1 files"))
    assert lines[i + 2].split() == ["small", "1", "1.500", "0.500", "0.100", "0.500", "0.000"]
    assert lines[i + 3].split() == ["big", "3", "3.000", "0.500", "0.300", "1.100", "0.000"]


def test_last_result_and_slowest_judging(tmp_path, capsys):
    # The batch's last result is the one judged longest (a wrong output
    # compared in full): the line names it, its task and both judgings.
    early = dict(record(1, 0, 0, 2), candidate="suite/t/early.cu", judge_seconds=0.1)
    late = dict(record(1, 0, 0, 2), candidate="suite/w/w08_slow.cu", task="rgb", judge_seconds=4.2)
    late["eval_seconds"] += 4.2
    path = tmp_path / "run.jsonl"
    write(path, [early, late])
    assert timeline.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "the last result: w08_slow.cu (rgb), judging 4.20 s; the slowest judging 4.20 s" in out


def test_help_and_unknown_option(capsys):
    # --help teaches (exit 0, on stdout); a mistyped option is named, not
    # opened as a records file.
    assert timeline.main(["--help"]) == 0
    assert "Usage: bench/rl-timeline.py" in capsys.readouterr().out
    assert timeline.main(["--by_task", "x.jsonl"]) == 2
    assert "unknown option --by_task" in capsys.readouterr().err


def test_longest_hold(tmp_path, capsys):
    # A hang holds the GPU alone 1 s while two processes run beside it and
    # wait for the gate; a later process's wait is the batch's, not its.
    hang = dict(record(1, 0, 0, 1.5), candidate="suite/t/x_hang.cu", gate_exclusive_seconds=1.0, gate_wait_seconds=0)
    beside = [dict(record(1, 0, 0.2, 1.5), gate_exclusive_seconds=0.01, gate_wait_seconds=w) for w in (0.8, 0.7)]
    later = dict(record(5, 0, 0, 1), gate_exclusive_seconds=0.01, gate_wait_seconds=0.25)
    path = tmp_path / "run.jsonl"
    write(path, [hang] + beside + [later])
    assert timeline.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "the longest hold of the GPU alone: x_hang.cu (t) 1.00 s; the gate waits of the processes beside it 1.5 s, of all 1.8 s" in out
