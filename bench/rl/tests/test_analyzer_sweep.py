"""bench/rl/analyzer_sweep.py: which code blocks it takes from rollouts, and
that a lint that overruns its limit is split down to the file that does,
with a stand-in for cudaperf that sleeps on one file."""

import gzip
import json
import os
import stat
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "analyzer_sweep.py")


def rollouts(tmp_path, completions):
    d = tmp_path / "runs" / "r" / "rollouts"
    d.mkdir(parents=True)
    with gzip.open(d / "step-000001.jsonl.gz", "wt") as f:
        for c in completions:
            f.write(json.dumps({"completion": c}) + "\n")
    return str(tmp_path / "runs")


def test_blocks_deduplicated_and_overrunning_file_found(tmp_path):
    slow = "__global__ void slow() {}  // sleep\n"
    completions = [
        "```cuda\n__global__ void a() {}\n```",
        "text first\n```cuda\n__global__ void a() {}\n```\n```cuda\nsecond block ignored\n```",  # same first block
        "```\n" + slow + "```",
        "```cpp\n__global__ void b() {}\n",  # unclosed fence: taken to the end
        "no code at all",
        "```cuda\n   \n```",  # empty block: not taken
    ]
    runs = rollouts(tmp_path, completions)
    # A stand-in for cudaperf: sleeps when a file it is given holds "sleep".
    fake = tmp_path / "cudaperf"
    fake.write_text("#!/bin/sh\nshift 4\nfor f in \"$@\"; do grep -q sleep \"$f\" && sleep 5; done\nexit 0\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    keep = tmp_path / "blocks"
    r = subprocess.run([sys.executable, SCRIPT, "--cudaperf", str(fake), "--batch", "2", "--limit", "1",
                        "--keep", str(keep), runs], capture_output=True, text=True)
    assert "1 rollout files, 3 distinct code blocks" in r.stdout, r.stdout + r.stderr
    assert sorted(p.read_text() for p in keep.iterdir()) == sorted(
        ["__global__ void a() {}\n", slow, "__global__ void b() {}"])
    over = [l for l in r.stdout.splitlines() if l.startswith("OVERRUNS ALONE")]
    assert len(over) == 1 and open(over[0].split(": ", 1)[1]).read() == slow, r.stdout
    assert r.returncode == 1


def test_no_rollouts_is_a_clear_error(tmp_path):
    r = subprocess.run([sys.executable, SCRIPT, str(tmp_path)], capture_output=True, text=True)
    assert r.returncode != 0 and "no rollout files" in r.stderr


def test_a_cut_steps_pending_candidates_are_swept(tmp_path):
    """The candidates grpo writes before judging a step (pending/) are read
    with the rollouts: the step that hung the analyzer never wrote any."""
    runs = rollouts(tmp_path, ["```cuda\n__global__ void a() {}\n```"])
    d = tmp_path / "runs" / "r" / "pending"
    d.mkdir()
    with gzip.open(d / "step-000002-turn-0.jsonl.gz", "wt") as f:
        f.write(json.dumps({"step": 2, "turn": 0, "index": 0, "task": "t", "text": "```cuda\n__global__ void p() {}\n```"}) + "\n")
    fake = tmp_path / "cudaperf"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    keep = tmp_path / "blocks"
    r = subprocess.run([sys.executable, SCRIPT, "--cudaperf", str(fake), "--keep", str(keep), runs],
                       capture_output=True, text=True)
    assert "2 rollout files, 2 distinct code blocks" in r.stdout, r.stdout + r.stderr
    assert "__global__ void p() {}\n" in [p.read_text() for p in keep.iterdir()]
    assert r.returncode == 0
