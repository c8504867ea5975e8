"""bench/rl/rollout_stats.py on a hand-made run: the per-turn table and
the refinements by the outcome of the attempt they refine."""

import gzip
import json
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "rollout_stats.py")


def row(step, group, turn, member, has_code, compiled, correct, tokens=100):
    return {"step": step, "group": f"{group}:t{turn}", "turn": turn, "member": member, "task": group.split(":")[0],
            "prompt": {"messages": [{"role": "user", "content": "x" * (100 * (turn + 1))}]},
            "completion": "", "has_code": has_code, "compiled": compiled, "correct": correct,
            "completion_tokens": tokens, "reward": {"ver": -1.0, "str_used": 0.0}}


def test_refinements_are_counted_by_the_attempt_they_refine(tmp_path):
    rows = [
        # member 0: did not compile, then correct; member 1: correct, then no code;
        # member 2: no code (cut), then did not compile
        row(1, "t:s1:b0", 0, 0, True, False, False), row(1, "t:s1:b0", 1, 0, True, True, True),
        row(1, "t:s1:b0", 0, 1, True, True, True), row(1, "t:s1:b0", 1, 1, False, False, False),
        row(1, "t:s1:b0", 0, 2, False, False, False, tokens=768), row(1, "t:s1:b0", 1, 2, True, False, False),
        # another step, same group name: must not pair with step 1
        row(2, "t:s1:b0", 0, 0, True, True, False), row(2, "t:s1:b0", 1, 0, True, True, False),
    ]
    with gzip.open(tmp_path / "step-000001.jsonl.gz", "wt") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    out = subprocess.run([sys.executable, SCRIPT, str(tmp_path)], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    table = lines[lines.index("turn  attempt refined     n     code  compiled  correct") + 1:]
    got = {tuple(x.split()[1:-4]): x.split()[-4:] for x in table[:4]}
    assert got == {
        ("compiled,", "wrong"): ["1", "1", "1", "0"],
        ("correct",): ["1", "0", "0", "0"],
        ("did", "not", "compile"): ["1", "1", "1", "1"],
        ("no", "code"): ["1", "1", "0", "0"],
    }
    assert "no code block: 2, of which cut at the limit: 1" in out


def test_export_writes_each_distinct_code_block(tmp_path):
    rows = []
    for i, completion in enumerate([
        "```cuda\n__global__ void a() {}\n```",
        "```cuda\n__global__ void a() {}\n```",  # the same code again: one file
        "plan\n```python\nprint(1)\n```\nand\n```cu\n__global__ void b() {}\n```",  # the last CUDA block
        "```cuda\n__global__ void cut_off() {",  # unterminated: no code
        "no code at all",
    ]):
        r = row(1, "t:s1:b0", 0, i, True, False, False)
        r["completion"] = completion
        rows.append(r)
    runs = tmp_path / "rollouts"
    runs.mkdir()
    with gzip.open(runs / "step-000001.jsonl.gz", "wt") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    out = tmp_path / "src"
    res = subprocess.run([sys.executable, SCRIPT, "--export", str(out), str(runs)], capture_output=True, text=True, check=True)
    assert "2 of 5 rollouts' 2 distinct code blocks" in res.stdout
    texts = sorted(p.read_text() for p in out.iterdir())
    assert texts == ["__global__ void a() {}\n", "__global__ void b() {}\n"]
    assert all(p.name.startswith("t-") and p.suffix == ".cu" for p in out.iterdir())
    subprocess.run([sys.executable, SCRIPT, "--export", str(tmp_path / "one"), "--sample", "1", str(runs)], check=True, capture_output=True)
    assert len(list((tmp_path / "one").iterdir())) == 1
