#!/usr/bin/env python3
"""CPU of linking a candidate's executable: nvcc's link against the host
compiler's with nvcc's static runtime (what bench/nvcc.LinkCUDA does where
it finds the runtime; CUDAPERF_LINK=nvcc for nvcc's).

Compiles the RL batch without a GPU (`cudaperf bench --compile-only`, a
fresh cache), then links up to N honest candidates' objects with their
task's driver object both ways, one after the other, and prints the
median and summed CPU seconds (user and system) and median wall time of
each way. Both ways must link every pair.

Usage: bench/link-cpu.py [N]   (default 48; needs bin/cudaperf, nvcc, g++)
"""

import glob
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile


def cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def main(n):
    nvcc = shutil.which("nvcc") or os.environ.get("CUDAPERF_NVCC")
    if not nvcc:
        sys.exit("link-cpu: no nvcc on PATH: put its bin folder on PATH (.ci/setup installs it)")
    # The folders bench/nvcc.CUDARTDir searches (the ones a CUDA 13 install uses).
    top = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    lib = next((d for d in (os.path.join(top, s) for s in ("lib64", "lib", "targets/x86_64-linux/lib"))
                if os.path.exists(os.path.join(d, "libcudart_static.a"))), None)
    if not lib:
        sys.exit("link-cpu: no libcudart_static.a beside %s" % nvcc)
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "cache")
        subprocess.run(["bin/cudaperf", "bench", "--batch", "bench/rlbatch/manifest.jsonl", "--profile", "rl",
                        "--compile-only", "--cache", cache, "--runs-dir", os.path.join(tmp, "runs"),
                        "--format", "json"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        drivers, cands = [], []
        for meta in glob.glob(os.path.join(cache, "compile", "*", "*", "meta.json")):
            cmd = json.load(open(meta)).get("command", "")
            obj = os.path.join(os.path.dirname(meta), "obj.o")
            if not os.path.exists(obj):
                continue
            if " -c driver.cu " in cmd:
                drivers.append(obj)
            elif " -c h" in cmd:  # honest candidates are h<NNN>_*.cu
                cands.append(obj)
        host = lambda out, objs: ["g++", "-o", out] + objs + ["-L" + lib, "-lcudart_static", "-lrt", "-lpthread", "-ldl", "-lm"]
        via = lambda out, objs: [nvcc, "-arch=sm_90", "-o", out] + objs + ["-lm"]
        res = {"nvcc": [], "host": []}
        for obj in sorted(cands):
            drv = next((d for d in drivers
                        if subprocess.run(host(os.path.join(tmp, "probe"), [d, obj]), capture_output=True).returncode == 0), None)
            if drv is None:
                continue
            for name, cmd in (("nvcc", via(os.path.join(tmp, "a.out"), [drv, obj])), ("host", host(os.path.join(tmp, "b.out"), [drv, obj]))):
                c0, w0 = cpu(), os.times().elapsed
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode != 0:
                    sys.exit("link-cpu: %s link of %s failed:\n%s" % (name, obj, r.stderr))
                res[name].append((cpu() - c0, os.times().elapsed - w0))
            if len(res["host"]) >= n:
                break
        for name, v in res.items():
            print("%s link: %d links, CPU median %.3f s, sum %.2f s; wall median %.3f s" % (
                name, len(v), statistics.median(x[0] for x in v), sum(x[0] for x in v), statistics.median(x[1] for x in v)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 48)
