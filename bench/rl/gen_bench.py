"""Decoding speed of the hf policy on a GPU, by configuration: where a GRPO
step's generation time goes, measured instead of guessed.

Runs the engine's own Generate (the path the plugin serves) on prompts built
from the suite's reference C sources, at fixed decode lengths (the end token
is suppressed, so every row runs max_tokens steps), for:

  off       the trained float32 model under bf16 autocast, LoRA merged
            (CUDAPERF_HF_GEN_COPY=off: the path of every run before 2026-12-03)
  bfloat16  the bf16 sampling copy (CUDAPERF_HF_GEN_COPY=auto on a GPU)
  static    the bf16 copy with a static KV cache (CUDAPERF_HF_GEN_CACHE=static:
            prompts padded to a multiple of 256 tokens; not compiled)
  compiled  the same, compiled by generate (CUDAPERF_HF_GEN_COMPILE=1:
            torch.compile of the decoding step, CUDA graphs): the first call's compile time and whether a
            second call with longer prompts recompiles, measured apart, and
            greedy tokens compiled against eager (a broken compiled path
            diverges at the first token)

and prints one JSON line per (configuration, batch), then a torch.profiler
table of the slowest operators of a short run per configuration.

Usage (GPU machine; CUDAPERF_HF_MODEL is the model, as for the plugin):
  PYTHONPATH=plugins/policy/hf:/tmp/rl/site python3 bench/rl/gen_bench.py \
      --batches 16,64,128 --tokens 256 --prompt-chars 2500 [--out FILE]
"""

import argparse
import glob
import json
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "plugins", "policy", "hf"))

import engine as engine_mod  # noqa: E402
import settings as settings_mod  # noqa: E402


def prompts(n_tasks, chars):
    """Chat prompts shaped like the loop's: the task's C reference, cut to chars."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "bench", "suites", "c2cuda", "*", "reference.c")))[:n_tasks]:
        with open(path) as f:
            src = f.read()[:chars]
        out.append([("system", "You write fast, correct CUDA kernels."),
                    ("user", "Write a CUDA kernel for this C function. Answer with one ```cuda block.\n\n" + src)])
    return out


def timed_generate(eng, ps, group, tokens, static=False, compiled=False):
    scored = [0.0]
    inner = eng._score

    def score(*a, **k):  # the log-probability pass, timed apart
        t = time.monotonic()
        r = inner(*a, **k)
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        scored[0] += time.monotonic() - t
        return r

    eng._score = score
    # The engine's own settings (CUDAPERF_HF_GEN_CACHE, _GEN_COMPILE).
    eng.cfg.gen_cache = "static" if (static or compiled) else "dynamic"
    eng.cfg.gen_compile = compiled
    # Every row decodes `tokens` steps: the end tokens are never sampled.
    end_ids, eng.end_ids = eng.end_ids, [eng.tokenizer.vocab_size + 10]
    try:
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        t = time.monotonic()
        groups = eng.generate(ps, group_size=group, temperature=1.0, max_tokens=tokens, seed=1)
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        wall = time.monotonic() - t
    finally:
        eng.end_ids = end_ids
        eng._score = inner
        eng.cfg.gen_cache, eng.cfg.gen_compile = "dynamic", False
    n = sum(len(s.token_ids) for g in groups for s in g)
    steps = max(len(s.token_ids) for g in groups for s in g)
    return {"wall_s": round(wall, 3), "score_s": round(scored[0], 3), "tokens": n, "steps": steps,
            "ms_per_step": round(1000 * (wall - scored[0]) / max(steps, 1), 2),
            "tokens_per_s": round(n / max(wall, 1e-9), 1)}


def emit(r, sink):
    """One result: a JSON line on stdout, and in --out's file when given."""
    line = json.dumps(r)
    print(line, flush=True)
    if sink:
        sink.write(line + "\n")
        sink.flush()


def profile(eng, ps, group, tokens):
    from torch.profiler import ProfilerActivity, profile as prof
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if torch.cuda.is_available() else [])
    with prof(activities=acts) as p:
        timed_generate(eng, ps, group, tokens)
    key = "self_cuda_time_total" if torch.cuda.is_available() else "self_cpu_time_total"
    return p.key_averages().table(sort_by=key, row_limit=14, max_name_column_width=48)


class CompileTimeout(BaseException):
    """The time limit of the compiled measurement: a BaseException, so that
    the engine's eager fallback (which catches Exception) does not take it
    for a failed compile and go on measuring the eager path."""


def greedy(eng, ps, group, tokens, compiled):
    """Greedy tokens per row under the static cache, compiled or eager."""
    eng.cfg.gen_cache, eng.cfg.gen_compile = "static", compiled
    try:
        groups = eng.generate(ps, group_size=group, temperature=0, max_tokens=tokens)
    finally:
        eng.cfg.gen_cache, eng.cfg.gen_compile = "dynamic", False
    return [s.token_ids for g in groups for s in g]


def agreement(a, b):
    """How alike two decodings are: the rows identical throughout, and the
    mean length of the common prefix. bf16 kernels that differ (compiled
    against eager) may flip a near-tie and diverge from there; a broken
    compiled path diverges at once."""
    same = sum(1 for x, y in zip(a, b) if x == y)
    prefix = []
    for x, y in zip(a, b):
        n = 0
        while n < min(len(x), len(y)) and x[n] == y[n]:
            n += 1
        prefix.append(n)
    return {"rows": len(a), "identical_rows": same, "mean_common_prefix": round(sum(prefix) / max(len(prefix), 1), 1),
            "mean_tokens": round(sum(len(x) for x in a) / max(len(a), 1), 1)}


def compiled(eng, copy, ps, a, sink):
    """Three calls of 64 rows: the first compiles, the second reuses, the
    third has longer prompts (a new cache length); then greedy decoding of
    the first shape compiled and eager, compared token by token; under a
    time limit."""
    import signal

    def stop(*_):
        raise CompileTimeout(f"compiled: over {a.compile_s} s")

    eng._gen = copy
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(a.compile_s)
    try:
        for i, (chars, label) in enumerate([(a.prompt_chars, "first"), (a.prompt_chars, "again"),
                                            (a.prompt_chars * 2, "longer prompts")]):
            qs = prompts(8, chars)
            r = timed_generate(eng, qs, 8, a.tokens, compiled=True)
            if eng.compile_failures:  # the engine fell back: what was timed is eager decoding
                raise RuntimeError("compiled generation failed and the engine fell back to eager (see stderr)")
            r.update(config="compiled", call=label, rows=64,
                     prompt_tokens_max=max(len(eng.encode_prompt(p)) for p in qs),
                     padded_width_rows=list(engine_mod.static_shape(max(len(eng.encode_prompt(p)) for p in qs),
                                                              a.tokens, 64, eng.context)))
            emit(r, sink)
            if label == "again":  # the same shape: no new compile
                c, e = greedy(eng, ps, 8, a.tokens, True), greedy(eng, ps, 8, a.tokens, False)
                emit(dict(agreement(c, e), config="compiled", call="greedy, compiled against eager"), sink)
    except (Exception, CompileTimeout) as e:
        print(json.dumps({"config": "compiled", "error": f"{type(e).__name__}: {e}"[:400]}), flush=True)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batches", default="16,64,128", help="rows per generate call (tasks x group)")
    ap.add_argument("--tokens", type=int, default=256, help="decode steps per call")
    ap.add_argument("--prompt-chars", type=int, default=2500, help="characters of C source per prompt")
    ap.add_argument("--configs", default="off,bfloat16,static", help="of off, bfloat16, static, compiled")
    ap.add_argument("--no-profile", action="store_true")
    ap.add_argument("--compile-s", type=int, default=0,
                    help="also try the compiled configuration, for at most this many seconds")
    ap.add_argument("--out", default="", help="also append the JSON lines to this file")
    a = ap.parse_args()
    cfg = settings_mod.Settings.from_env()
    cfg.gen_copy = "bfloat16" if torch.cuda.is_available() else "float32"
    t = time.monotonic()
    eng = engine_mod.Engine(cfg)
    print(f"gen_bench: loaded {cfg.model_name()} on {eng.device} in {time.monotonic() - t:.1f} s "
          f"(torch {torch.__version__})", flush=True)
    ps = prompts(8, a.prompt_chars)
    plen = [len(eng.encode_prompt(p)) for p in ps]
    print(f"gen_bench: {len(ps)} prompts of {min(plen)}-{max(plen)} tokens", flush=True)
    copy = eng._gen
    sink = open(a.out, "a") if a.out else None
    for name in [c for c in a.configs.split(",") if c != "compiled"]:
        eng._gen = None if name == "off" else copy
        try:
            timed_generate(eng, ps[:2], 2, 8, static=name == "static")  # warm-up
            for b in [int(x) for x in a.batches.split(",")]:
                r = timed_generate(eng, ps, max(1, b // len(ps)), a.tokens, static=name == "static")
                r.update(config=name, rows=len(ps) * max(1, b // len(ps)), prompt_tokens_max=max(plen))
                emit(r, sink)
        except Exception as e:  # one configuration failing must not hide the others
            print(json.dumps({"config": name, "error": f"{type(e).__name__}: {e}"[:400]}), flush=True)
    if "compiled" in a.configs.split(",") or a.compile_s > 0:
        compiled(eng, copy, ps, a, sink)
    if not a.no_profile:
        for name in ("off", "bfloat16"):
            eng._gen = None if name == "off" else copy
            print(f"gen_bench: profile of {name}, 64 rows x 32 steps", flush=True)
            print(profile(eng, ps, 8, 32), flush=True)
    eng._gen = copy


if __name__ == "__main__":
    main()
