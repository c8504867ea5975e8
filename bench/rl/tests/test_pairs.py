"""bench/rl-pairs.py and bench/gpu-rl-pairs.sh: interleaved runs of the RL
batch are compared with the control round by round, and a setting wins only
beyond the runs' spread."""

import importlib.util
import os
import subprocess

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
SPEC = importlib.util.spec_from_file_location("rl_pairs", os.path.join(ROOT, "bench", "rl-pairs.py"))
pairs = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(pairs)

LEASE11 = os.path.join(ROOT, "bench", "h200", "2026-12-05-lease11")


def out(path, started, rate):
    with open(path, "w") as f:
        f.write("# bench/gpu-rl.sh %s rl   (%s, cudaperf test)\n" % (path, started))
        if rate is not None:
            f.write("cold1  exit 0  128 results in 20.0 s = %.1f candidates/min  latency p50 1 s\n" % rate)


def test_lease11_records():
    # Call 4 ran the arena and mapped staging in turns: mapped won every
    # round and every mapped run beat every arena run.
    runs, order = pairs.read(os.path.join(LEASE11, "call4"))
    assert order == ["arena", "mapped"]
    assert runs["mapped"] == {1: 310.5, 2: 299.9, 3: 318.8}
    table = pairs.summarize(runs, order)
    assert "| mapped | 310.5, 299.9, 318.8 | 310.5 | +59.5, +39.6, +29.9 | 3 of 3 | 0.050 | wins beyond the spread |" in table
    # Call 3: nice 19 won one round of three.
    runs, order = pairs.read(os.path.join(LEASE11, "call3"))
    assert order == ["base", "n10", "n19"]
    assert "| n19 | 402.7, 316.2, 290.8 | 316.2 | +82.7, -5.7, -9.1 | 1 of 3 | 0.650 | not beyond the spread |" in pairs.summarize(runs, order)


def test_a_failed_run_and_the_order(tmp_path):
    # The control ran first in each round although its name sorts last; a
    # run cut off before its result line is left out of its arm.
    out(tmp_path / "zbase-r1.out", "2026-12-05T01:00:00Z", 300)
    out(tmp_path / "alt-r1.out", "2026-12-05T01:01:00Z", 310)
    out(tmp_path / "zbase-r2.out", "2026-12-05T01:02:00Z", 305)
    out(tmp_path / "alt-r2.out", "2026-12-05T01:03:00Z", None)
    runs, order = pairs.read(str(tmp_path))
    assert order == ["zbase", "alt"] and runs["alt"] == {1: 310.0}
    assert "| alt | 310.0 | 310.0 | +10.0 | 1 of 1 |" in pairs.summarize(runs, order)


def test_mann_whitney():
    assert pairs.mann_whitney_p([3, 4, 5], [0, 1, 2]) == 0.05
    assert pairs.mann_whitney_p([0, 1, 2], [3, 4, 5]) == 1.0


def test_runner_refuses_bad_arguments(tmp_path):
    script = os.path.join(ROOT, "bench", "gpu-rl-pairs.sh")
    for args, want in [([str(tmp_path), "3", "base"], "at least one arm"),
                       ([str(tmp_path), "x", "base", "alt"], "ROUNDS x"),
                       ([str(tmp_path), "2", "base", "a/b:X=1"], "arm name 'a/b'")]:
        p = subprocess.run(["bash", script] + args, capture_output=True, text=True)
        assert p.returncode == 2 and want in p.stderr, (args, p.stderr)
