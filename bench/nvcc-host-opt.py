#!/usr/bin/env python3
"""The CPU of compiling the RL batch (bench/rlbatch) at host optimisation
levels -O3 (the evaluator's), -O1 and -O0, interleaved, ROUNDS rounds.

nvcc's -O sets the host compiler's level only: the device code (cicc,
ptxas) is the same at every level (the script checks each candidate's
fatbin section, which holds the cubin and PTX, byte for byte). What a lower
level would save is the host compile's share of a candidate's compile.

Usage: python3 bench/nvcc-host-opt.py [ROUNDS]   (default 2; CPU only)
Needs: nvcc (bench/nvcc finds it the same way: $CUDAPERF_NVCC, PATH, .venv),
objcopy.
"""

import concurrent.futures as cf
import glob
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
LEVELS = ["-O3", "-O1", "-O0"]
FLAGS = ["-arch=sm_90", "-Xptxas", "-v", "-D_GLIBCXX_BITS_SPECFUN_H"]  # bench/nvcc DeviceFlags and LeanFlags, -O aside


def find_nvcc():
    for c in [os.environ.get("CUDAPERF_NVCC"), shutil.which("nvcc")] + glob.glob(
            os.path.join(ROOT, ".venv/lib/python3*/site-packages/nvidia/cu13/bin/nvcc")):
        if c and os.access(c, os.X_OK):
            return c
    sys.exit("nvcc-host-opt: no nvcc: set CUDAPERF_NVCC or run .ci/setup")


def fatbin(obj):
    """The object's .nv_fatbin section (the device code), or None."""
    out = obj + ".fatbin"
    r = subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", obj, out], capture_output=True)
    if r.returncode != 0 or not os.path.exists(out):
        return None
    with open(out, "rb") as f:
        return f.read()


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    nvcc = find_nvcc()
    with open(os.path.join(ROOT, "bench/rlbatch/manifest.jsonl")) as f:
        items = [json.loads(line) for line in f if line.strip() and not line.startswith("#")]
    tmp = tempfile.mkdtemp(prefix="nvcc-host-opt-")
    jobs = os.cpu_count() or 1
    device = {}  # candidate -> fatbin at the first level
    try:
        for r in range(1, rounds + 1):
            for level in LEVELS:
                out = os.path.join(tmp, level)
                os.makedirs(out, exist_ok=True)

                def compile_one(it):
                    src = os.path.join(ROOT, "bench/rlbatch", it["file"])
                    obj = os.path.join(out, it["file"].replace("/", "_") + ".o")
                    p = subprocess.run([nvcc, level] + FLAGS + ["-I", ".", "-c", src, "-o", obj],
                                       cwd=os.path.dirname(src), capture_output=True)
                    return it["file"], obj if p.returncode == 0 else None

                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.time()
                with cf.ThreadPoolExecutor(jobs) as ex:
                    done = list(ex.map(compile_one, items))
                wall = time.time() - t0
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                failed = sum(1 for _, obj in done if obj is None)
                for name, obj in done:
                    if obj is None:
                        continue
                    fb = fatbin(obj)
                    if name in device and device[name] != fb:
                        sys.exit(f"nvcc-host-opt: {name}: the device code differs at {level}")
                    device.setdefault(name, fb)
                print(f"round {r} host {level}: {len(items)} compiles ({failed} fail, as the batch says) "
                      f"in {wall:.1f} s wall, {cpu:.1f} CPU-s, {jobs} at once", flush=True)
        print(f"device code identical at every level for {len(device)} candidates")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
