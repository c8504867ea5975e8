#!/usr/bin/env python3
"""cudaperf's torch2cuda runner (embedded in the Go package bench/torch2cuda).

It runs one KernelBench-format problem and candidate with the GPU machine's
python3 and torch, and writes what it measured as JSON lines to --records
(never stdout: a candidate may print). It decides nothing: the Go side
(bench/torch2cuda.Judge) turns the records into a verdict, so that the
decision logic is tested in CI on recorded runs.

Commands:
  validate  import the problem (and candidate) and check their format; CPU only
  build     import the candidate, which builds its load_inline extension into
            $TORCH_EXTENSIONS_DIR (the Go side runs several builds in parallel)
  run       correctness over the given seeds, anti-cheat observations, kernel
            lists and CUDA-event timings of the candidate, eager PyTorch and
            torch.compile; without --candidate, the eager and torch.compile
            timings only (the baseline)

Record types (every record has "type" and "schema"):
  validate  {ok, errors: [..]}
  build     {ok, seconds, error}
  device    {name, l2_bytes, torch, cuda}
  check     one per seed: {seed, outputs: [compare], early: [compare],
            inputs_modified: [..], same_as_previous, ref_same_as_previous,
            overwrote_previous, error}
  kernels   {who: candidate|eager, kernels: [{name, ms, calls}], error}
  timing    {who: candidate|eager|compile, ms: [..], tail_ms: [..], error}
  done      {seconds}
  error     {stage, error}: the run stopped there

Floats that are not finite are written as the strings "inf", "-inf", "nan".
"""

import argparse
import contextlib
import importlib.util
import json
import math
import os
import sys
import time
import traceback

SCHEMA = 1
RECORDS = None


def num(x):
    """A JSON-safe float (what Go's verdict.Float reads)."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def emit(rec):
    rec["schema"] = SCHEMA
    line = json.dumps(rec, allow_nan=False)
    if RECORDS is None:
        print(line, flush=True)
        return
    RECORDS.write(line + "\n")
    RECORDS.flush()


class GpuLock:
    """Lets several runner processes share one GPU without disturbing each
    other's timings: a stage that times or profiles holds the lock file
    $CUDAPERF_TORCH_GPU_LOCK exclusively, a stage that only checks results
    holds it shared (flock). A second file is a turnstile: a process waiting
    for the exclusive lock holds it, so new shared holders queue behind it
    and the timed stages are never starved. Without the variable (one run at
    a time) both are no-ops."""

    def __init__(self, path):
        self.path = path
        self.main = self.turn = None

    def _open(self):
        if self.main is None:
            self.main = open(self.path, "a")
            self.turn = open(self.path + ".turnstile", "a")

    def shared(self):
        return self._hold(exclusive=False)

    def exclusive(self):
        return self._hold(exclusive=True)

    @contextlib.contextmanager
    def _hold(self, exclusive):
        if not self.path:
            yield
            return
        import fcntl

        self._open()
        fcntl.flock(self.turn, fcntl.LOCK_EX)
        try:
            fcntl.flock(self.main, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        finally:
            if not exclusive:
                fcntl.flock(self.turn, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(self.main, fcntl.LOCK_UN)
            if exclusive:
                fcntl.flock(self.turn, fcntl.LOCK_UN)


GPU = GpuLock(os.environ.get("CUDAPERF_TORCH_GPU_LOCK", ""))


def short_tb(limit=4000):
    s = traceback.format_exc()
    return s[-limit:]


def load_module(path, name):
    """Imports a Python file as module name; its folder is importable too."""
    path = os.path.abspath(path)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path}: not a Python file python3 can import")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def validate_problem(mod, path):
    """Errors of a problem module, each naming the file and the fix."""
    import torch.nn as nn

    errs = []
    m = getattr(mod, "Model", None)
    if m is None:
        errs.append(f"{path}: defines no class Model (a torch.nn.Module whose forward is the reference)")
    elif not (isinstance(m, type) and issubclass(m, nn.Module)):
        errs.append(f"{path}: Model is not a torch.nn.Module subclass")
    for fn in ("get_inputs", "get_init_inputs"):
        f = getattr(mod, fn, None)
        if f is None:
            what = "forward's arguments" if fn == "get_inputs" else "Model's constructor arguments"
            errs.append(f"{path}: defines no {fn}() (it returns a list of the {what})")
        elif not callable(f):
            errs.append(f"{path}: {fn} is not a function")
    return errs


def validate_candidate(mod, path):
    import torch.nn as nn

    m = getattr(mod, "ModelNew", None)
    if m is None:
        return [f"{path}: defines no class ModelNew (the torch.nn.Module that replaces Model, with the same constructor and forward arguments)"]
    if not (isinstance(m, type) and issubclass(m, nn.Module)):
        return [f"{path}: ModelNew is not a torch.nn.Module subclass"]
    return []


def call_list(mod, fn, path):
    v = getattr(mod, fn)()
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"{path}: {fn}() returned {type(v).__name__}; it must return a list")
    return list(v)


def to_device(xs, device):
    import torch

    return [x.to(device) if isinstance(x, torch.Tensor) else x for x in xs]


def clone_all(xs):
    import torch

    return [x.clone() if isinstance(x, torch.Tensor) else x for x in xs]


def as_outputs(out):
    """A forward's result as a list of tensors (a tensor, or a tuple/list)."""
    import torch

    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)) and all(isinstance(o, torch.Tensor) for o in out):
        return list(out)
    raise TypeError(f"forward returned {type(out).__name__}; want a tensor or a tuple of tensors")


def dtype_name(dt):
    return str(dt).replace("torch.", "")


def compare(ref, got, tolerances):
    """Compares one output with the reference under the tolerance of the
    reference's dtype: an element passes when |got - ref| <= atol + rtol*|ref|;
    NaN passes only where the reference has NaN, an infinity only where the
    reference has the same infinity; integer and bool types compare exactly
    when their tolerance is [0, 0]."""
    import torch

    name = dtype_name(ref.dtype)
    rec = {"dtype": name, "got_dtype": dtype_name(got.dtype), "shape": list(ref.shape),
           "got_shape": list(got.shape), "elements": ref.numel()}
    if name not in tolerances:
        rec.update(error=f"no tolerance for dtype {name}", mismatches=ref.numel(), max_abs="inf", max_rel="inf")
        return rec
    rtol, atol = tolerances[name]
    rec.update(rtol=rtol, atol=atol)
    if list(ref.shape) != list(got.shape):
        rec.update(error=f"shape {list(got.shape)}, want {list(ref.shape)}", mismatches=ref.numel(), max_abs="inf", max_rel="inf")
        return rec
    if ref.numel() == 0:
        rec.update(mismatches=0, max_abs=0.0, max_rel=0.0)
        return rec
    # On the reference's device: a float64 copy of a 1 GB output compares in
    # milliseconds on the GPU and in seconds on the CPU.
    r = ref.detach().to(torch.float64)
    g = got.detach().to(ref.device, torch.float64)
    d = (g - r).abs()
    same = (g == r) | (torch.isnan(g) & torch.isnan(r))
    ok = same | (d <= atol + rtol * r.abs())
    bad = int((~ok).sum())
    finite = torch.isfinite(d)
    max_abs = float(d[finite].max()) if bool(finite.any()) else 0.0
    if bool((~finite & ~same).any()):
        max_abs = math.inf
    rel = d / r.abs().clamp_min(1e-30)
    relf = torch.isfinite(rel) & ~same
    max_rel = float(rel[relf].max()) if bool(relf.any()) else 0.0
    if bool((~torch.isfinite(rel) & ~same).any()):
        max_rel = math.inf
    rec.update(mismatches=bad, max_abs=num(max_abs), max_rel=num(max_rel))
    if bad:
        rec["first_bad"] = int((~ok).flatten().nonzero()[0])
    return rec


def compare_all(refs, gots, tolerances):
    if len(refs) != len(gots):
        return [{"error": f"{len(gots)} outputs, want {len(refs)}", "mismatches": sum(r.numel() for r in refs),
                 "elements": sum(r.numel() for r in refs), "max_abs": "inf", "max_rel": "inf"}]
    return [compare(r, g, tolerances) for r, g in zip(refs, gots)]


def bitwise_equal(a, b):
    import torch

    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point() or a.is_complex():
        # Bytes, not values: NaN == NaN and -0.0 != 0.0 here.
        # reshape(-1): a 0-dim tensor (a loss) cannot be viewed as bytes.
        return bool(torch.equal(a.contiguous().reshape(-1).view(torch.uint8), b.contiguous().reshape(-1).view(torch.uint8)))
    return bool(torch.equal(a, b))


def modified_inputs(before, after):
    """Names (input index) of tensor inputs whose bytes changed."""
    import torch

    out = []
    for i, (b, a) in enumerate(zip(before, after)):
        if isinstance(b, torch.Tensor) and not bitwise_equal(b, a):
            out.append(f"input {i}")
    return out


def all_equal(xs, ys):
    return len(xs) == len(ys) and all(bitwise_equal(x, y) for x, y in zip(xs, ys))


def check_seeds(problem, ref, new, seeds, device, tolerances, sync):
    """One check record per seed. The candidate's outputs are also copied on
    the caller's stream before any synchronisation ("early"): a kernel left
    running on another stream shows there as wrong values."""
    prev_got, prev_kept, prev_ref = None, None, None
    for seed in seeds:
        rec = {"type": "check", "seed": seed}
        try:
            import torch

            torch.manual_seed(seed)
            inputs = to_device(call_list(problem, "get_inputs", "problem"), device)
            with torch.no_grad():
                refs = as_outputs(ref(*clone_all(inputs)))
                refs = [r.detach().clone() for r in refs]
                sync()
                before = clone_all(inputs)
                got = as_outputs(new(*inputs))
                early = [g.detach().clone() for g in got]
                sync()
            rec["outputs"] = compare_all(refs, got, tolerances)
            rec["early"] = compare_all(refs, early, tolerances)
            rec["inputs_modified"] = modified_inputs(before, inputs)
            kept = [g.detach().clone() for g in got]
            if prev_got is not None:
                rec["same_as_previous"] = all_equal(kept, prev_kept)
                rec["ref_same_as_previous"] = all_equal(refs, prev_ref)
                # The previous call's returned tensors changed under the caller.
                rec["overwrote_previous"] = not all_equal(prev_got, prev_kept)
            prev_got, prev_kept, prev_ref = got, kept, refs
        except Exception as e:  # the candidate's failure is its record
            rec["error"] = f"{type(e).__name__}: {e}"
            rec["traceback"] = short_tb()
        emit(rec)


def kernel_list(fn, inputs):
    """The CUDA kernels one call launches, by name, with device time."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    with torch.no_grad():
        fn(*inputs)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn(*inputs)
            torch.cuda.synchronize()
    out = {}
    for ev in prof.events():
        if str(getattr(ev, "device_type", "")).endswith("CUDA"):
            k = out.setdefault(ev.name, {"name": ev.name, "ms": 0.0, "calls": 0})
            t = getattr(ev, "device_time_total", None)
            if t is None:
                t = getattr(ev, "cuda_time_total", 0)
            k["ms"] += t / 1e3
            k["calls"] += 1
    return sorted(out.values(), key=lambda k: -k["ms"])


def time_calls(fn, inputs, warmup, repeats, flush):
    """CUDA-event times of repeats calls, each after an L2 flush, and the
    wait of a device-wide synchronisation after each end event completed
    (work the events did not see)."""
    import torch

    ms, tail = [], []
    with torch.no_grad():
        for _ in range(warmup):
            fn(*inputs)
        torch.cuda.synchronize()
        for _ in range(repeats):
            flush()
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn(*inputs)
            end.record()
            end.synchronize()
            t0 = time.perf_counter()
            torch.cuda.synchronize()
            tail.append((time.perf_counter() - t0) * 1e3)
            ms.append(start.elapsed_time(end))
    return ms, tail


def prepare_compiled(problem, init, init_seed, device, inputs):
    """torch.compile(Model) after one call (dynamo and inductor compile
    then, seconds of CPU), done before the timed section so that it holds
    no other run's timing up; an exception is returned, to be recorded."""
    import torch

    try:
        with GPU.shared():
            torch.manual_seed(init_seed)
            fn = torch.compile(problem.Model(*init).to(device).eval())
            with torch.no_grad():
                fn(*clone_all(inputs))
            torch.cuda.synchronize()
        return fn
    except Exception as e:
        return e


def timing_record(who, fn, inputs, args, flush):
    rec = {"type": "timing", "who": who}
    try:
        if isinstance(fn, Exception):
            raise fn
        ms, tail = time_calls(fn, clone_all(inputs), args.warmup, args.repeats, flush)
        rec.update(ms=ms, tail_ms=tail)
    except Exception as e:
        rec["error"] = f"{type(e).__name__}: {e}"
    return rec


def cmd_validate(args):
    import torch  # noqa: F401  (a problem imports it; say so plainly if it is missing)

    errs = []
    try:
        problem = load_module(args.problem, "cudaperf_problem")
        errs += validate_problem(problem, args.problem)
        if not errs:
            torch.manual_seed(0)
            call_list(problem, "get_init_inputs", args.problem)
    except Exception as e:
        errs.append(f"{args.problem}: {type(e).__name__}: {e}")
    if args.candidate and not errs:
        try:
            cand = load_module(args.candidate, "cudaperf_candidate")
            errs += validate_candidate(cand, args.candidate)
        except Exception as e:
            errs.append(f"{args.candidate}: {type(e).__name__}: {e}")
    emit({"type": "validate", "ok": not errs, "errors": errs})
    return 0


def cmd_build(args):
    # A build yields the CPU to runs being timed (its compilers inherit
    # this): builds and timed runs may overlap (bench/gpu-torch2cuda.sh).
    try:
        os.nice(10)
    except OSError:
        pass
    t0 = time.time()
    try:
        cand = load_module(args.candidate, "cudaperf_candidate")
        errs = validate_candidate(cand, args.candidate)
        emit({"type": "build", "ok": not errs, "seconds": time.time() - t0, "error": "; ".join(errs)})
    except Exception as e:
        emit({"type": "build", "ok": False, "seconds": time.time() - t0, "error": f"{type(e).__name__}: {e}",
              "traceback": short_tb()})
    return 0


def cmd_run(args):
    import torch

    tolerances = {k: tuple(v) for k, v in json.loads(args.tolerance).items()}
    seeds = [int(s) for s in args.seeds.split(",")]
    stage = "load"
    try:
        if not torch.cuda.is_available():
            emit({"type": "error", "stage": "device", "error": "torch sees no CUDA device (torch.cuda.is_available() is False)"})
            return 0
        device = torch.device("cuda")
        props = torch.cuda.get_device_properties(device)
        l2 = int(getattr(props, "L2_cache_size", 0)) or 64 << 20
        emit({"type": "device", "name": props.name, "l2_bytes": l2, "torch": torch.__version__, "cuda": torch.version.cuda})
        problem = load_module(args.problem, "cudaperf_problem")
        if not args.candidate:
            return run_baseline(args, problem, device, l2)
        stage = "build"
        t0 = time.time()
        try:
            cand = load_module(args.candidate, "cudaperf_candidate")
        except Exception as e:
            emit({"type": "build", "ok": False, "seconds": time.time() - t0, "error": f"{type(e).__name__}: {e}", "traceback": short_tb()})
            return 0
        emit({"type": "build", "ok": True, "seconds": time.time() - t0})
        errs = validate_candidate(cand, args.candidate)
        if errs:
            emit({"type": "validate", "ok": False, "errors": errs})
            return 0
        stage = "init"
        torch.manual_seed(args.init_seed)
        init = call_list(problem, "get_init_inputs", args.problem)
        torch.manual_seed(args.init_seed)
        ref = problem.Model(*init).to(device).eval()
        torch.manual_seed(args.init_seed)
        new = cand.ModelNew(*init).to(device).eval()
        stage = "check"
        with GPU.shared():
            check_seeds(problem, ref, new, seeds, device, tolerances, torch.cuda.synchronize)
        if args.check_only:
            emit({"type": "done"})
            return 0
        torch.manual_seed(seeds[0])
        inputs = to_device(call_list(problem, "get_inputs", args.problem), device)
        stage = "compile"
        compiled = None if args.no_compile else prepare_compiled(problem, init, args.init_seed, device, inputs)
        scratch = torch.empty(2 * l2 // 4, dtype=torch.int32, device=device)
        flush = scratch.zero_
        with GPU.exclusive():
            stage = "kernels"
            for who, fn in (("candidate", new), ("eager", ref)):
                try:
                    emit({"type": "kernels", "who": who, "kernels": kernel_list(fn, clone_all(inputs))})
                except Exception as e:
                    emit({"type": "kernels", "who": who, "error": f"{type(e).__name__}: {e}"})
            stage = "timing"
            for who, fn in (("candidate", new), ("eager", ref), ("compile", compiled)):
                if who == "compile" and args.no_compile:
                    continue
                emit(timing_record(who, fn, inputs, args, flush))
        emit({"type": "done"})
    except Exception as e:
        emit({"type": "error", "stage": stage, "error": f"{type(e).__name__}: {e}", "traceback": short_tb()})
    return 0


def run_baseline(args, problem, device, l2):
    """No candidate: time eager Model and torch.compile(Model) only (the
    KernelBench table's reference columns)."""
    import torch

    stage = "init"
    try:
        torch.manual_seed(args.init_seed)
        init = call_list(problem, "get_init_inputs", args.problem)
        torch.manual_seed(args.init_seed)
        ref = problem.Model(*init).to(device).eval()
        torch.manual_seed(int(args.seeds.split(",")[0]))
        inputs = to_device(call_list(problem, "get_inputs", args.problem), device)
        stage = "compile"
        compiled = None if args.no_compile else prepare_compiled(problem, init, args.init_seed, device, inputs)
        stage = "timing"
        scratch = torch.empty(2 * l2 // 4, dtype=torch.int32, device=device)
        with GPU.exclusive():
            emit(timing_record("eager", ref, inputs, args, scratch.zero_))
            if not args.no_compile:
                emit(timing_record("compile", compiled, inputs, args, scratch.zero_))
        emit({"type": "done"})
    except Exception as e:
        emit({"type": "error", "stage": "reference " + stage, "error": f"{type(e).__name__}: {e}", "traceback": short_tb()})
    return 0


def main(argv=None):
    global RECORDS
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["validate", "build", "run"])
    p.add_argument("--problem", help="the problem file (Model, get_inputs, get_init_inputs)")
    p.add_argument("--candidate", help="the candidate file (ModelNew)")
    p.add_argument("--records", help="JSON-lines output file (default stdout)")
    p.add_argument("--seeds", default="1,2,3,4,5", help="comma-separated input seeds (the first is timed)")
    p.add_argument("--init-seed", type=int, default=42, help="seed before Model(...) and ModelNew(...)")
    p.add_argument("--tolerance", default="{}", help='JSON {"float32": [rtol, atol], ...}')
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument("--no-compile", action="store_true", help="skip the torch.compile baseline")
    p.add_argument("--check-only", action="store_true", help="correctness and anti-cheat checks, no timing")
    args = p.parse_args(argv)
    need = {"validate": ["problem"], "build": ["candidate"], "run": ["problem"]}[args.command]
    for n in need:
        if not getattr(args, n):
            p.error(f"{args.command} needs --{n}")
    if args.records:
        RECORDS = open(args.records, "a", encoding="utf-8")
    for n in ("problem", "candidate"):
        v = getattr(args, n)
        if v:
            sys.path.insert(0, os.path.dirname(os.path.abspath(v)))
    return {"validate": cmd_validate, "build": cmd_build, "run": cmd_run}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
