"""CPU tests of runner.py: format validation, the comparison and the
anti-cheat observations on CPU tensors, and the record schema. What needs
CUDA (builds, profiler kernels, event timing) skips with a message; the GPU
self-test (bench/gpu-torch-selftest.sh) covers it."""

import json
import os
import sys

import pytest

torch = pytest.importorskip("torch", reason="runner.py's tests need torch (.venv has it: .ci/setup)")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import runner  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RELU = os.path.join(ROOT, "bench", "suites", "torch2cuda", "relu")
TOL = {"float32": (1e-4, 1e-4), "float64": (1e-7, 1e-7), "int64": (0, 0), "bool": (0, 0)}


@pytest.fixture
def records(monkeypatch):
    out = []
    monkeypatch.setattr(runner, "emit", lambda rec: out.append(json.loads(json.dumps(dict(rec, schema=runner.SCHEMA), allow_nan=False))))
    return out


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_validate_problem_ok(records):
    runner.main(["validate", "--problem", os.path.join(RELU, "problem.py")])
    assert records == [{"type": "validate", "ok": True, "errors": [], "schema": 1}]


def test_validate_problem_errors(records, tmp_path):
    p = write(tmp_path, "p.py", "import torch.nn as nn\nclass Model:\n    pass\nget_inputs = 3\n")
    runner.main(["validate", "--problem", p])
    (r,) = records
    assert not r["ok"]
    assert any("Model is not a torch.nn.Module subclass" in e for e in r["errors"])
    assert any("get_inputs is not a function" in e for e in r["errors"])
    assert any("defines no get_init_inputs()" in e for e in r["errors"])


def test_validate_import_error(records, tmp_path):
    p = write(tmp_path, "p.py", "import no_such_module_here\n")
    runner.main(["validate", "--problem", p])
    assert "ModuleNotFoundError" in records[0]["errors"][0] and p in records[0]["errors"][0]


def test_validate_candidate_without_modelnew(records, tmp_path):
    c = write(tmp_path, "c.py", "class Model:\n    pass\n")
    runner.main(["validate", "--problem", os.path.join(RELU, "problem.py"), "--candidate", c])
    assert records[0]["errors"] == [f"{c}: defines no class ModelNew (the torch.nn.Module that replaces Model, with the same constructor and forward arguments)"]


def test_compare_tolerance():
    ref = torch.tensor([1.0, 100.0, 0.0, float("nan"), float("inf")])
    ok = ref + torch.tensor([5e-5, 5e-3, 9e-5, 0.0, 0.0])
    r = runner.compare(ref, ok, TOL)
    assert r["mismatches"] == 0 and r["rtol"] == 1e-4 and r["atol"] == 1e-4, r
    bad = ref + torch.tensor([2e-4, 0.0, 0.0, 0.0, 0.0])
    r = runner.compare(ref, bad, TOL)
    assert r["mismatches"] == 1 and r["first_bad"] == 0
    nan = ref.clone()
    nan[0] = float("nan")
    r = runner.compare(ref, nan, TOL)
    assert r["mismatches"] == 1 and r["max_abs"] == "inf"
    r = runner.compare(ref, ref[:4], TOL)
    assert r["mismatches"] == 5 and "shape [4], want [5]" in r["error"]
    r = runner.compare(torch.tensor([3, 4]), torch.tensor([3, 5]), TOL)
    assert r["mismatches"] == 1 and r["dtype"] == "int64"
    r = runner.compare(ref.half(), ref.half(), TOL)
    assert r["error"] == "no tolerance for dtype float16"


def test_bitwise_equal():
    a = torch.tensor([0.0, float("nan")])
    assert runner.bitwise_equal(a, a.clone())
    assert not runner.bitwise_equal(a, torch.tensor([-0.0, float("nan")]))
    assert not runner.bitwise_equal(a, a.double())
    loss = torch.tensor(1.5)  # 0-dim, as KernelBench's loss problems return
    assert runner.bitwise_equal(loss, loss.clone()) and not runner.bitwise_equal(loss, torch.tensor(1.25))
    assert runner.compare(loss, torch.tensor(1.501), TOL)["mismatches"] == 1


class Problem:
    """A problem module: y = x * w + 1."""

    class Model(torch.nn.Module):
        def forward(self, x):
            return x * 2 + 1

    @staticmethod
    def get_inputs():
        return [torch.randn(64)]

    @staticmethod
    def get_init_inputs():
        return []


class Honest(torch.nn.Module):
    def forward(self, x):
        return x * 2 + 1


class Cached(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.out = None

    def forward(self, x):
        if self.out is None:
            self.out = x * 2 + 1
        return self.out.clone()


class InPlace(torch.nn.Module):
    def forward(self, x):
        return x.mul_(2).add_(1)


class Reused(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.buf = None

    def forward(self, x):
        if self.buf is None:
            self.buf = torch.empty_like(x)
        torch.mul(x, 2, out=self.buf).add_(1)
        return self.buf


def check(model, records):
    runner.check_seeds(Problem, Problem.Model(), model, [1, 2, 3, 4, 5], "cpu", TOL, lambda: None)
    assert [r["seed"] for r in records] == [1, 2, 3, 4, 5]
    return records


def test_check_honest(records):
    for r in check(Honest(), records):
        assert "error" not in r
        assert [o["mismatches"] for o in r["outputs"]] == [0] and r["inputs_modified"] == []
        if r["seed"] > 1:
            assert r["same_as_previous"] is False and r["overwrote_previous"] is False


def test_check_cached(records):
    recs = check(Cached(), records)
    assert all(r["same_as_previous"] and not r["ref_same_as_previous"] for r in recs[1:])
    assert recs[0]["outputs"][0]["mismatches"] == 0 and recs[1]["outputs"][0]["mismatches"] > 0


def test_check_in_place(records):
    recs = check(InPlace(), records)
    assert all(r["inputs_modified"] == ["input 0"] for r in recs)


def test_check_reused_buffer(records):
    recs = check(Reused(), records)
    assert all(r["overwrote_previous"] for r in recs[1:])
    assert all(o["mismatches"] == 0 for r in recs for o in r["outputs"])


def test_check_error_is_recorded(records):
    class Boom(torch.nn.Module):
        def forward(self, x):
            raise RuntimeError("boom")

    recs = check(Boom(), records)
    assert all(r["error"] == "RuntimeError: boom" for r in recs)


def test_records_file(tmp_path):
    """--records appends JSON lines with the schema number."""
    out = tmp_path / "r.jsonl"
    runner.RECORDS = None
    try:
        runner.main(["validate", "--problem", os.path.join(RELU, "problem.py"), "--records", str(out)])
    finally:
        if runner.RECORDS is not None:
            runner.RECORDS.close()
        runner.RECORDS = None
    (line,) = out.read_text().splitlines()
    assert json.loads(line) == {"type": "validate", "ok": True, "errors": [], "schema": runner.SCHEMA}


def test_run_without_gpu(records):
    if torch.cuda.is_available():
        pytest.skip("a GPU is present: the no-GPU path is not taken (bench/gpu-torch-selftest.sh tests the GPU path)")
    runner.main(["run", "--problem", os.path.join(RELU, "problem.py"), "--candidate", os.path.join(RELU, "variants", "naive.py"),
                 "--tolerance", json.dumps({"float32": [1e-4, 1e-4]})])
    assert records == [{"type": "error", "stage": "device", "error": "torch sees no CUDA device (torch.cuda.is_available() is False)", "schema": 1}]


def test_timing_needs_cuda():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device: event timing, L2 flush and profiler kernel lists are tested by bench/gpu-torch-selftest.sh on a GPU machine")
    ms, tail = runner.time_calls(lambda x: x * 2, [torch.randn(1 << 20, device="cuda")], 1, 3, lambda: None)
    assert len(ms) == 3 and len(tail) == 3 and all(m > 0 for m in ms)


def test_gpu_lock_exclusive_waits_for_shared(tmp_path):
    """A timed stage (exclusive) waits while another process checks
    (shared); two shared holders do not wait for each other."""
    import subprocess
    import time

    path = str(tmp_path / "gpu.lock")
    child = ("import sys, time; sys.path.insert(0, %r); import runner; l = runner.GpuLock(%r)\n"
             "t = time.time()\nwith l.%s(): pass\nprint(time.time() - t)") % (os.path.dirname(HERE), path, "%s")
    lock = runner.GpuLock(path)
    with lock.shared():
        shared = subprocess.run([sys.executable, "-c", child % "shared"], capture_output=True, text=True, timeout=60)
        p = subprocess.Popen([sys.executable, "-c", child % "exclusive"], stdout=subprocess.PIPE, text=True)
        time.sleep(1.5)
        assert p.poll() is None, "the exclusive holder did not wait for the shared one"
    out, _ = p.communicate(timeout=60)
    assert float(out) >= 1.0
    assert float(shared.stdout) < 1.0, shared.stderr


def test_gpu_lock_without_path_is_a_no_op():
    lock = runner.GpuLock("")
    with lock.exclusive():
        with lock.shared():
            pass
