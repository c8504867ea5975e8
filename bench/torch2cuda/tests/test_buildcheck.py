"""Compile-check of every committed torch2cuda candidate (the suite, the
self-test's honest and cheating candidates, the KernelBench candidates):
buildcheck.py compiles their CUDA with nvcc for sm_90 and their C++ with the
bindings load_inline would generate, in two translation units, without a
GPU (about 2 minutes of CPU on a 2-core machine). Skips where torch or nvcc
is missing."""

import os
import sys

import pytest

pytest.importorskip("torch", reason="buildcheck needs torch's headers (.venv has them: .ci/setup)")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import buildcheck  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def test_every_candidate_compiles(capsys):
    if not buildcheck.find_nvcc(None):
        pytest.skip("no nvcc (set $CUDA_HOME or install the pip CUDA toolkit: .ci/setup)")
    dirs = [os.path.join(ROOT, "bench", "suites", "torch2cuda"), os.path.join(ROOT, "bench", "suites", "torch2cuda-selftest"),
            os.path.join(ROOT, "bench", "kernelbench", "candidates")]
    rc = buildcheck.main(dirs)
    out = capsys.readouterr()
    assert rc == 0, out.out + out.err[-20000:]
    assert "candidates" in out.out


def test_combine_names_each_candidate(tmp_path):
    """Each candidate's code sits in its own namespace under a #line naming
    its file; its macros are #undef'd after it; includes are hoisted once."""
    kw = {"name": "a", "cpp_sources": "torch::Tensor f(torch::Tensor x);", "functions": ["f"], "no_implicit_headers": True,
          "cuda_sources": "#include <cuda_runtime.h>\n#define TS 16\n__global__ void k() {}\n"}
    cu, cpp, flags = buildcheck.combine([("x/a.py", kw), ("x/b.py", dict(kw, name="b"))])
    assert cu.count("#include <cuda_runtime.h>") == 1
    assert "namespace cand0 {" in cu and "namespace cand1 {" in cu
    assert cu.count("#undef TS") == 2
    assert '#line 1 "x/b.py (cuda_sources)"' in cu
    assert "torch::wrap_pybind_function(cand1::f)" in cpp
    assert cpp.startswith("#include <torch/extension.h>")


def test_capture_reports_a_missing_load_inline(tmp_path):
    p = tmp_path / "c.py"
    p.write_text("x = 1\n")
    with pytest.raises(RuntimeError, match="no load_inline"):
        buildcheck.capture(str(p))
