"""The parse in the contract, the Plugin class and the test harness."""

import json
import os

import pytest

from conftest import SDK_ROOT, cudaperf_bin  # noqa: F401 (fixture)
from cudaperf_plugin import Plugin, pb
from cudaperf_plugin.parsed import NotParsed, parse
from cudaperf_plugin.testing import expectations, run
from google.protobuf import json_format

REPO = os.path.abspath(os.path.join(SDK_ROOT, "..", ".."))
ROUNDTRIP = os.path.join(REPO, "plugins", "sdk", "testdata", "roundtrip")
SYNCCOUNT = os.path.join(SDK_ROOT, "examples", "synccount")


def load_example():
    import importlib.util
    spec = importlib.util.spec_from_file_location("synccount_main", os.path.join(SYNCCOUNT, "main.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_roundtrip_matches_the_host():
    """The Python SDK sees every node with the host's kind, field, parent
    and spans (goldens written by the Go SDK's TestParsedRoundTrip from the
    host's own tree), the same S-expression, kernels and launches."""
    for name in sorted(os.listdir(ROUNDTRIP)):
        if not name.endswith(".cu"):
            continue
        base = os.path.join(ROUNDTRIP, name[:-3])
        with open(base + ".sourcefile.json") as fh:
            sf = json_format.Parse(fh.read(), pb.SourceFile())
        with open(base + ".host.json") as fh:
            host = json.load(fh)
        f = parse(pb.SourceFile.FromString(sf.SerializeToString()))
        assert len(f.nodes) == len(host["nodes"])
        for n, h in zip(f.nodes, host["nodes"]):
            parent = n.parent.index if n.parent else -1
            got = {"kind": n.kind, "field": n.field, "parent": parent, "named": n.is_named,
                   "start": [n.start_byte, *n.start], "end": [n.end_byte, *n.end]}
            assert got == h, f"node {n.index}"
        assert f.root.sexp() == host["sexp"]
        kernels = []
        for k in f.kernels:
            lb = " launch_bounds=" + ",".join(k.launch_bounds.args) if k.launch_bounds else ""
            kernels.append(f"{k.name}{lb} name@{k.name_node.text}")
        assert kernels == host["kernels"]
        assert [f"{l.callee} grid={l.grid[0]} block={l.block[0]}" for l in f.launches] == host["launches"]


def test_parse_objects():
    with open(os.path.join(ROUNDTRIP, "kernels.sourcefile.json")) as fh:
        f = parse(json_format.Parse(fh.read(), pb.SourceFile()))
    scale = f.kernel("scale")
    assert scale.launch_bounds.max_threads == 256
    assert [p.name for p in scale.params] == ["out", "in", "a", "n"] and scale.params[0].restrict and scale.params[1].const
    assert len(scale.launches) == 2 and scale.launches[0].block[0].known and scale.launches[0].block[0].value == 256
    assert not scale.launches[1].block[0].known and scale.launches[1].block[0].text == "c / 2"
    assert scale.launches[0].kernel is scale and scale.launches[0].caller == "host"
    calls = f.kernel("tiled").body.find("call_expression")
    assert [c.child_by_field("function").text for c in calls] == ["__syncthreads"]
    assert calls[0].ancestor("function_definition") is f.kernel("tiled").node
    r = calls[0].range()
    assert (r.start_line, r.start_column) == (15, 5)


def test_parse_refuses_missing_or_foreign_format():
    with pytest.raises(NotParsed):
        parse(pb.SourceFile(path="a.cu"))
    with pytest.raises(ValueError, match="format 2"):
        parse(pb.SourceFile(path="a.cu", parsed=pb.ParsedFile(format=2)))


def test_example_passes_its_testdata(cudaperf_bin):
    run(load_example().SyncCount(), os.path.join(SYNCCOUNT, "testdata"), cudaperf=cudaperf_bin)


def test_example_option(cudaperf_bin):
    run(load_example().SyncCount(), os.path.join(SYNCCOUNT, "testdata", "switch_off"),
        options={"SC001.include-switch": "false"}, cudaperf=cudaperf_bin)


def test_harness_reports_mismatches(cudaperf_bin, tmp_path):
    (tmp_path / "k.cu").write_text('__global__ void k(float *x) { x[0] = 1; }  // want kernel=k params:"2" "no such finding"\n')

    class Bad(Plugin):
        name = "bad"
        features = [pb.FeatureInfo(name="params", per_kernel=True)]

        def run(self, p):
            for k in p.file.kernels:
                p.kernel_feature(k.name, "params", len(k.params))
                p.report("undeclared", k.name, k.name_node, "unexpected finding")

    with pytest.raises(AssertionError) as e:
        run(Bad(), str(tmp_path), cudaperf=cudaperf_bin)
    msg = str(e.value)
    for want in ["params of kernel k = 1, want 2", "no diagnostic matching 'no such finding'",
                 "unexpected diagnostic: unexpected finding", "undeclared check 'undeclared'"]:
        assert want in msg


def test_want_comment_syntax(cudaperf_bin, tmp_path):
    (tmp_path / "w.cu").write_text('int x;  // want kernel=k a:"1.5±0.5" b:"none" `re.*x` "q\\"t"\n')
    from cudaperf_plugin.testing import host_request
    f = parse(host_request([str(tmp_path / "w.cu")], cudaperf_bin).files[0])
    diags, feats = expectations(f)
    assert [p.pattern for _, p in diags] == ["re.*x", 'q"t']
    assert feats == [(1, "k", "a", 1.5, 0.5, False), (1, "k", "b", None, None, True)]


def test_sdk_builds_as_a_wheel(tmp_path):
    """`pip install plugins/python` works: the wheel holds the SDK and the
    contract, and both import from it (docs/plugins.md, pip route)."""
    import shutil
    import subprocess
    import sys
    src = tmp_path / "src"
    shutil.copytree(SDK_ROOT, src, ignore=shutil.ignore_patterns("tests", "examples", "__pycache__", "build", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path / "w"), str(src)],
                   check=True, capture_output=True)
    (wheel,) = (tmp_path / "w").glob("cudaperf_plugin_sdk-*.whl")
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    code = ("import sys; sys.path.insert(0, %r); import cudaperf_plugin.parsed, cudaperf_plugin.testing; "
            "from cudaperf.plugin.v1 import analyzer_pb2; "
            "assert cudaperf_plugin.parsed.__file__.startswith(%r)") % (str(site), str(site))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)
