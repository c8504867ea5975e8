"""bench/rl-size-fidelity.py: rank agreement between a configuration and the
primary, over the accepted candidates of each task."""

import gzip
import importlib.util
import json
import os

SPEC = importlib.util.spec_from_file_location(
    "rl_size_fidelity", os.path.join(os.path.dirname(__file__), "..", "..", "rl-size-fidelity.py"))
fid = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(fid)


def rec(task, times, accepted=True):
    """times: config -> (median ms, floor ms); the first is the primary."""
    configs = []
    for i, (name, (ms, floor)) in enumerate(times.items()):
        c = {"config": name, "time": {"median_ms": ms}, "floor_ms": floor}
        if i == 0:
            c["primary"] = True
        configs.append(c)
    return {"task": task, "verdict": {"accepted": accepted, "configs": configs}}


def test_agreement_and_reversal(tmp_path, capsys):
    recs = []
    for i in range(25):
        t = 1.0 + i
        # "same" orders like the primary, "rev" in reverse, "flat" ties all.
        recs.append(rec("t", {"large": (t, 0.8), "same": (t / 10, 0.1), "rev": (100 - t, 0.2), "flat": (0.007, 0.1)}))
    recs.append(rec("t", {"large": (0.001, 0.8), "same": (500, 0.1), "rev": (0, 0.2), "flat": (1, 0.1)}, accepted=False))
    recs += [rec("few", {"large": (1, 1), "small": (1, 1)}) for _ in range(3)]
    path = tmp_path / "m.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.writelines(json.dumps(r) + "\n" for r in recs)
    assert fid.main(["--boot", "50", str(path)]) == 0
    out = capsys.readouterr().out
    row = [l for l in out.splitlines() if l.startswith("| t |")]
    assert row, out
    assert "| t | 25 | large, 13.0000 ms (floor 0.8000) |" in row[0]
    assert "same (8x smaller), 1.3000 ms, 1.00 [1.00, 1.00]" in row[0]
    assert "rev (4x smaller), 87.0000 ms, -1.00 [-1.00, -1.00]" in row[0]
    assert "flat" not in row[0]  # all tied: no ranking to compare
    assert "| few |" not in out  # under --min candidates


def test_nothing_to_show(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(rec("few", {"large": (1, 1), "small": (2, 1)})) + "\n")
    assert fid.main([str(path)]) == 1


def test_ranks_share_ties():
    assert fid.ranks([3, 1, 3, 2]) == [2.5, 0, 2.5, 1]
