"""Tests of the Python plugin SDK, with real plugin processes."""

import os
import signal
import subprocess
import sys
import time

import grpc
import pytest

from conftest import SDK_ROOT, cudaperf_bin  # noqa: F401 (fixture)
from cudaperf_plugin.testing import host_request
from cudaperf_plugin import Analyzer, LineIndex, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, pb
from cudaperf_plugin import server as serve_mod
from cudaperf.plugin.v1 import analyzer_pb2_grpc

EXAMPLE = os.path.join(SDK_ROOT, "examples", "synccount", "main.py")
KERNELS = os.path.join(SDK_ROOT, "..", "..", "examples", "kernels")


def test_line_index():
    x = LineIndex("ab\n\ncdé\nx".encode())
    assert x.position(0) == (1, 1)
    assert x.position(3) == (2, 1)
    assert x.position(7) == (3, 4)
    assert x.position(99) == (4, 2)
    r = x.range("f.cu", 4, 6)
    assert (r.file, r.start_line, r.start_column, r.end_line, r.end_column) == ("f.cu", 3, 1, 3, 3)


def test_analyze_isolates_a_failing_file():
    class Flaky(Analyzer):
        def analyze_file(self, request, file):
            if file.path == "bad.cu":
                raise ValueError("cannot handle this one")
            return pb.FileResult(features=[pb.Feature(name="n", value=len(file.content))])

    req = pb.AnalyzeRequest(files=[pb.SourceFile(path="a.cu", content=b"xy"), pb.SourceFile(path="bad.cu"),
                                   pb.SourceFile(path="c.cu", content=b"z")])
    resp = Flaky().analyze(req)
    assert [f.path for f in resp.files] == ["a.cu", "bad.cu", "c.cu"]
    assert resp.files[0].features[0].value == 2 and not resp.files[0].error
    assert "cannot handle this one" in resp.files[1].error
    assert resp.files[2].features[0].value == 1


def test_health_wire_format():
    # HealthCheckRequest{service: "plugin"}: field 1, wire type 2.
    assert serve_mod._parse_health_request(b"\x0a\x06plugin") == "plugin"
    assert serve_mod._parse_health_request(b"") == ""
    # HealthCheckResponse{status: SERVING (1)}.
    assert serve_mod._health_response(1) == b"\x08\x01"


def start_plugin(env_extra=None):
    env = dict(os.environ, PYTHONPATH=SDK_ROOT, **{MAGIC_COOKIE_KEY: MAGIC_COOKIE_VALUE})
    env.update(env_extra or {})
    proc = subprocess.Popen([sys.executable, EXAMPLE], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    line = proc.stdout.readline().decode().strip()
    return proc, line


def test_handshake_describe_analyze_shutdown(cudaperf_bin):
    proc, line = start_plugin()
    try:
        core, proto, net, addr, kind = line.split("|")
        assert (core, proto, net, kind) == ("1", "1", "tcp", "grpc")
        assert addr.startswith("127.0.0.1:")
        ch = grpc.insecure_channel(addr)
        health = ch.unary_unary("/grpc.health.v1.Health/Check", request_serializer=bytes, response_deserializer=bytes)
        assert health(b"\x0a\x06plugin", timeout=5) == b"\x08\x01"

        stub = analyzer_pb2_grpc.AnalyzerServiceStub(ch)
        d = stub.Describe(pb.DescribeAnalyzerRequest(), timeout=5)
        assert d.plugin.name == "synccount-py" and d.checks[0].id == "SC001"

        req = host_request([os.path.join(KERNELS, "reduction_divergent.cu")], cudaperf_bin)
        resp = stub.Analyze(req, timeout=5)
        (fr,) = resp.files
        assert [(x.kernel, x.name, x.value) for x in fr.features] == [("reduce_divergent", "syncthreads", 2)]
        assert [(x.check, x.range.start_line) for x in fr.diagnostics] == [("SC001", 18)]

        shutdown = ch.unary_unary("/plugin.GRPCController/Shutdown", request_serializer=bytes, response_deserializer=bytes)
        shutdown(b"", timeout=5)
        assert proc.wait(timeout=3) == 0
        # Logs are JSON lines on stderr; nothing else went to stdout.
        assert proc.stdout.read() == b""
    finally:
        proc.kill()
        proc.wait()


def test_refuses_to_run_without_the_cookie():
    env = {k: v for k, v in os.environ.items() if k != MAGIC_COOKIE_KEY}
    env["PYTHONPATH"] = SDK_ROOT
    res = subprocess.run([sys.executable, EXAMPLE], capture_output=True, env=env, timeout=30)
    assert res.returncode == 1
    assert res.stdout == b""
    assert b"started by cudaperf, not by hand" in res.stderr


def test_exits_when_the_host_dies():
    # A stand-in host starts the plugin and is then killed with SIGKILL.
    host_code = (
        "import os, subprocess, sys, time\n"
        f"env = dict(os.environ, PYTHONPATH={SDK_ROOT!r}, {MAGIC_COOKIE_KEY}={MAGIC_COOKIE_VALUE!r}, CUDAPERF_HOST_PID=str(os.getpid()))\n"
        f"p = subprocess.Popen([sys.executable, {EXAMPLE!r}], stdout=subprocess.PIPE, env=env, start_new_session=True)\n"
        "p.stdout.readline()\n"
        "print(p.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    host = subprocess.Popen([sys.executable, "-c", host_code], stdout=subprocess.PIPE)
    plugin_pid = int(host.stdout.readline())
    os.kill(host.pid, signal.SIGKILL)
    host.wait()
    deadline = time.time() + 5
    while time.time() < deadline:
        try:
            os.kill(plugin_pid, 0)
        except ProcessLookupError:
            return
        # A zombie of ours would also count as gone, but the plugin's
        # parent is the (dead) host, so init reaps it.
        time.sleep(0.05)
    os.kill(plugin_pid, signal.SIGKILL)
    pytest.fail(f"plugin {plugin_pid} outlived its host")


def test_register_serves_the_subclassed_kind():
    from concurrent import futures

    from cudaperf_plugin import Benchmarker, Policy

    class P(Policy):
        pass

    class B(Benchmarker):
        pass

    class A(Analyzer):
        pass

    for impl, kind in ((P(), "policy"), (B(), "benchmarker"), (A(), "analyzer")):
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=1))
        assert serve_mod._register(impl, server) == kind
        server.stop(None)
    with pytest.raises(TypeError, match="not an Analyzer, Benchmarker or Policy"):
        serve_mod._register(object(), grpc.server(futures.ThreadPoolExecutor(max_workers=1)))
