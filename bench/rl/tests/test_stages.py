"""bench/rl/stages.py: which steps paid a compile, and the steady steps'
median, on hand-made metrics and plugin statistics."""

import json
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "stages.py")
T0 = 1796305700.0  # Unix seconds; step k ends at T0 + 100 k


def write(tmp_path, name, rows):
    p = tmp_path / name
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(p)


def step(k, step_s):
    import datetime
    end = datetime.datetime.fromtimestamp(T0 + 100 * k, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"step": k, "time": end, "candidates": 256, "completion_tokens": 1000,
            "stage": {"generate_s": step_s / 2, "evaluate_s": step_s / 4, "update_s": step_s / 8, "step_s": step_s}}


def gen(k, turn, width, compile=True):
    return {"time": T0 + 100 * (k - 1) + 10 + 40 * turn, "call": "generate", "rows": 128, "padded_rows": 128,
            "width": width, "compile": compile, "decode_steps": 768, "sample_s": 1.0, "score_s": 0.5}


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, check=True).stdout


def test_a_step_compiles_only_when_a_shape_is_new(tmp_path):
    metrics = write(tmp_path, "metrics.jsonl", [step(1, 100), step(2, 80), step(3, 60), step(4, 50)])
    # Step 1 decodes at 3328 twice; step 2 meets 1280; steps 3 and 4 reuse both.
    calls = [gen(1, 0, 3328), gen(1, 1, 3328), gen(2, 0, 1280), gen(2, 1, 3328),
             gen(3, 0, 1280), gen(3, 1, 3328), {"time": T0 + 395, "call": "update"},
             gen(4, 0, 3328), gen(4, 1, 1280)]
    out = run(metrics, write(tmp_path, "hf.jsonl", calls))
    rows = {line.split()[0]: line for line in out.splitlines()[1:5]}
    assert rows["1"].endswith("128×3328")
    assert rows["2"].endswith("128×1280")
    assert rows["3"].rstrip().endswith("60.0") and rows["4"].rstrip().endswith("50.0")
    assert "steady steps (no new shape to compile): 2 of 4; step median 55.0 s (min 50.0, max 60.0)" in out
    assert "medians: generate 27.5, evaluate 13.8, update 6.9 s" in out


def test_eager_calls_compile_nothing(tmp_path):
    metrics = write(tmp_path, "metrics.jsonl", [step(1, 90), step(2, 70)])
    calls = [gen(1, 0, 1280, False), gen(1, 1, 3328, False), gen(2, 0, 1280, False), gen(2, 1, 3328, False)]
    out = run(metrics, write(tmp_path, "hf.jsonl", calls))
    assert "steady steps (no new shape to compile): 2 of 2; step median 80.0 s" in out


def test_without_plugin_statistics_the_first_step_is_taken_to_compile(tmp_path):
    out = run(write(tmp_path, "metrics.jsonl", [step(1, 90), step(2, 70), step(3, 72)]), str(tmp_path / "absent.jsonl"))
    assert "steady steps (no new shape to compile): 2 of 3; step median 71.0 s (min 70.0, max 72.0)" in out
    one = run(write(tmp_path, "one.jsonl", [step(1, 90)]))
    assert "none of 1: run more steps" in one
