#!/usr/bin/env python3
"""Compile-checks the CUDA and C++ of torch2cuda candidates without a GPU.

Each candidate file is executed with torch.utils.cpp_extension.load_inline
replaced by a recorder, so its module-level load_inline(...) call hands over
exactly the sources and flags it would build. Then, instead of one torch
build per candidate (about 20 s of CPU each for a candidate whose .cu holds
no torch headers, 100 s for one that includes torch/extension.h), all
candidates are compiled together in two translation units:

  - one .cu (nvcc -c, sm_90 by default, torch's nvcc flags plus each
    candidate's extra_cuda_cflags), each candidate's CUDA inside its own
    namespace, preceded by the headers load_inline would prepend;
  - one .cpp (c++ -c, torch's include paths) with torch/extension.h once,
    each candidate's C++ in its own namespace, and the pybind11 bindings
    load_inline would generate for its `functions`.

#line directives name the candidate in every diagnostic; macros a candidate
defines are #undef'd after it. Nothing is linked (no CUDA runtime library is
needed) and nothing runs.

  buildcheck.py [--arch sm_90] [--nvcc PATH] [--keep DIR] FILE_OR_DIR...

A directory means every */variants/*.py and */cheats/*.py below it. Exit
status 0: everything compiled; 1: a compile failed (the compiler's output
names the candidate); 2: a candidate could not be read (its load_inline
call failed or never happened).
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

INCLUDE_RE = re.compile(r"^\s*#\s*include\s*[<\"][^>\"]+[>\"]\s*$", re.M)
DEFINE_RE = re.compile(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)


class Captured(Exception):
    pass


def capture(path):
    """The keyword arguments of the candidate's load_inline call."""
    import torch.utils.cpp_extension as ce

    seen = {}

    def fake_load_inline(name, cpp_sources, cuda_sources=None, functions=None, **kw):
        seen.update(kw, name=name, cpp_sources=cpp_sources, cuda_sources=cuda_sources, functions=functions)
        raise Captured()

    real = ce.load_inline
    ce.load_inline = fake_load_inline
    try:
        src = open(path, encoding="utf-8").read()
        try:
            exec(compile(src, path, "exec"), {"__name__": "buildcheck_candidate", "__file__": path})
        except Captured:
            pass
    finally:
        ce.load_inline = real
    if not seen:
        raise RuntimeError(f"{path}: no load_inline(...) call ran when the file was executed")
    return seen


def as_list(x):
    if x is None:
        return []
    return [x] if isinstance(x, str) else list(x)


def split_includes(src):
    """(the #include lines, the source without them)."""
    return INCLUDE_RE.findall(src), INCLUDE_RE.sub("", src)


def block(ns, label, src):
    """src inside namespace ns, its macros #undef'd after it."""
    undefs = "".join(f"#undef {m}\n" for m in sorted(set(DEFINE_RE.findall(src))))
    return f'#line 1 "{label}"\nnamespace {ns} {{\n{src}\n}}  // namespace {ns}\n{undefs}'


def combine(cands):
    """The combined .cu and .cpp sources and the union of extra flags."""
    cu_inc, cu_body, cpp_inc, cpp_body, binds = [], [], ["#include <torch/extension.h>"], [], []
    cuda_flags = []
    for i, (path, kw) in enumerate(cands):
        ns = f"cand{i}"
        label = os.path.relpath(path)
        cuda = as_list(kw.get("cuda_sources"))
        implicit = not kw.get("no_implicit_headers", False)
        if cuda:
            if implicit:
                cu_inc += ["#include <torch/types.h>", "#include <cuda.h>", "#include <cuda_runtime.h>"]
            inc, body = split_includes("\n".join(cuda))
            cu_inc += inc
            cu_body.append(block(ns, label + " (cuda_sources)", body))
            for f in as_list(kw.get("extra_cuda_cflags")):
                if f not in cuda_flags:
                    cuda_flags.append(f)
        inc, body = split_includes("\n".join(as_list(kw.get("cpp_sources"))))
        cpp_inc += inc
        cpp_body.append(block(ns, label + " (cpp_sources)", body))
        fns = kw.get("functions") or []
        if isinstance(fns, str):
            fns = [fns]
        if fns:
            defs = "".join(f'  m.def("{f}", torch::wrap_pybind_function({ns}::{f}), "{f}");\n' for f in fns)
            binds.append(f"PYBIND11_MODULE({ns}_module, m) {{\n{defs}}}\n")
    uniq = lambda xs: "\n".join(dict.fromkeys(xs))
    cu = uniq(cu_inc) + "\n\n" + "\n".join(cu_body)
    cpp = uniq(cpp_inc) + "\n\n" + "\n".join(cpp_body) + '\n#line 1 "pybind11 bindings (what load_inline generates)"\n' + "\n".join(binds)
    return cu, cpp, cuda_flags


def find_nvcc(explicit):
    if explicit:
        return explicit
    for env in ("CUDAPERF_NVCC",):
        if os.environ.get(env):
            return os.environ[env]
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home and os.path.exists(os.path.join(home, "bin", "nvcc")):
        return os.path.join(home, "bin", "nvcc")
    try:
        import nvidia  # the pip CUDA toolkit (.venv)

        for root in nvidia.__path__:
            for p in glob.glob(os.path.join(root, "cu*", "bin", "nvcc")):
                return p
    except ImportError:
        pass
    return shutil.which("nvcc")


def candidates(args):
    out = []
    for a in args:
        if os.path.isdir(a):
            out += sorted(glob.glob(os.path.join(a, "**", "variants", "*.py"), recursive=True))
            out += sorted(glob.glob(os.path.join(a, "**", "cheats", "*.py"), recursive=True))
            out += sorted(p for p in glob.glob(os.path.join(a, "*.py")) if not os.path.basename(p).startswith("_") and os.path.basename(p) != "problem.py")
        else:
            out.append(a)
    return list(dict.fromkeys(out))


def run(cmd, what):
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t0
    ok = r.returncode == 0
    print(f"buildcheck: {what}: {'ok' if ok else 'FAILED'} in {secs:.1f} s", flush=True)
    if not ok:
        print(" ".join(cmd), file=sys.stderr)
        print((r.stdout + r.stderr)[-20000:], file=sys.stderr)
    return ok


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", help="candidate files, or folders of tasks (*/variants/*.py, */cheats/*.py)")
    p.add_argument("--arch", default="sm_90", help="GPU architecture for nvcc (default sm_90, the H200's)")
    p.add_argument("--nvcc", help="nvcc to use (default $CUDAPERF_NVCC, $CUDA_HOME/bin, the pip CUDA toolkit, PATH)")
    p.add_argument("--cxx", default=os.environ.get("CXX", "c++"), help="C++ compiler (default $CXX or c++)")
    p.add_argument("--keep", help="write the combined sources to this folder (default: a temporary one, removed)")
    args = p.parse_args(argv)

    nvcc = find_nvcc(args.nvcc)
    if not nvcc or not os.path.exists(nvcc):
        print("buildcheck: no nvcc found: pass --nvcc, set $CUDA_HOME, or install the pip CUDA toolkit (.ci/setup)", file=sys.stderr)
        return 2
    # torch reads CUDA_HOME when cpp_extension is imported (its include
    # paths); the pip toolkit has no install root torch would find.
    os.environ.setdefault("CUDA_HOME", os.path.dirname(os.path.dirname(os.path.abspath(nvcc))))
    import torch.utils.cpp_extension as ce

    if ce.CUDA_HOME is None:
        ce.CUDA_HOME = os.environ["CUDA_HOME"]
    files = candidates(args.paths)
    if not files:
        print(f"buildcheck: no candidate .py files under {' '.join(args.paths)}", file=sys.stderr)
        return 2
    cands, bad = [], 0
    for f in files:
        try:
            cands.append((f, capture(f)))
        except Exception as e:  # the candidate's own failure, named
            print(f"buildcheck: {f}: {type(e).__name__}: {e}", file=sys.stderr)
            bad += 1
    if bad:
        return 2
    names = {}
    for f, kw in cands:
        if kw["name"] in names:
            print(f"buildcheck: {names[kw['name']]} and {f} both build extension {kw['name']!r}", file=sys.stderr)
            bad += 1
        names[kw["name"]] = f
    if bad:
        return 2
    cu, cpp, cuda_flags = combine(cands)
    work = args.keep or tempfile.mkdtemp(prefix="buildcheck-")
    os.makedirs(work, exist_ok=True)
    cu_path, cpp_path = os.path.join(work, "all.cu"), os.path.join(work, "all.cpp")
    open(cu_path, "w").write(cu)
    open(cpp_path, "w").write(cpp)
    incs = []
    for d in ce.include_paths(device_type="cuda") + [sysconfig.get_paths()["include"]]:
        incs += ["-isystem", d]
    defs = ["-DTORCH_EXTENSION_NAME=buildcheck", "-DTORCH_API_INCLUDE_EXTENSION_H"]
    arch = args.arch.replace("sm_", "")
    nvcc_cmd = [nvcc, *defs, *incs, *ce.COMMON_NVCC_FLAGS, f"-gencode=arch=compute_{arch},code=sm_{arch}",
                "--compiler-options", "-fPIC", "-std=c++17", *cuda_flags, "-c", cu_path, "-o", os.path.join(work, "all.cu.o")]
    cxx_cmd = [args.cxx, *defs, *incs, "-fPIC", "-std=c++17", "-c", cpp_path, "-o", os.path.join(work, "all.cpp.o")]
    print(f"buildcheck: {len(cands)} candidates; nvcc {nvcc}", flush=True)
    ok = run(nvcc_cmd, f"CUDA of {len(cands)} candidates ({args.arch})")
    ok = run(cxx_cmd, f"C++ and bindings of {len(cands)} candidates") and ok
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
