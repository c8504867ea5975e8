"""bench/ctxinit/staging.py: runs the staging program alone and K at once per
mode and summarizes what it reports (here with a stand-in program; the real
one needs a GPU and runs in bench/gpu-evaluator.sh's staging step)."""

import importlib.util
import os
import stat

SPEC = importlib.util.spec_from_file_location(
    "staging", os.path.join(os.path.dirname(__file__), "..", "..", "ctxinit", "staging.py"))
staging = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(staging)

# Reports 10 ms of kernel time per phase (100 for reading), writes an
# output as the real one does, and fails in mode "mapin" as a GPU without
# read-only registration would.
STAND_IN = """#!/bin/sh
[ "$2" = mapin ] && { echo '{"error":"cudaHostRegister read-only: operation not supported"}'; exit 1; }
: > "$1/out-$$-0"
printf '{"mode":"%s","n":%s' "$2" "$3"
for p in context device_alloc host_setup h2d kernel d2h write release; do printf ',"%s":[20,10,1]' $p; done
printf ',"read":[200,100,1]}\\n'
"""


def test_modes(tmp_path, capsys):
    exe = tmp_path / "staging"
    exe.write_text(STAND_IN)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    d = tmp_path / "shm"
    rc = staging.main([str(exe), "--n", "16", "--k", "3", "--rounds", "2", "--dir", str(d), "pinned", "mapin"])
    out = capsys.readouterr().out
    assert rc == 1, out  # one mode failed
    assert os.path.getsize(d / "in0") == 64 and os.path.getsize(d / "in1") == 64
    assert not list(d.glob("out-*")), "outputs are removed after each batch"
    lines = out.splitlines()
    pinned = [l for l in lines if l.startswith("pinned ")][0]
    assert "3 at once" in pinned and "processes/s" in pinned
    phases = [l for l in lines if "phases p50" in l][0]
    assert "read 200/100" in phases and "context 20/10" in phases
    assert "mapin     failed: cudaHostRegister read-only: operation not supported (7 of 7 processes)" in out


def test_unknown_mode(tmp_path, capsys):
    assert staging.main(["/bin/true", "--dir", str(tmp_path), "bogus"]) == 2
    assert "unknown mode bogus" in capsys.readouterr().err
