"""The attention part of one decoding step of SmolLM2-135M, alone: what the
packed attention (plugins/policy/hf/attention.py) saves against
transformers' SDPA path, at GRPO's batch shapes, without the model.

One "step" is the attention of all 30 layers for one new query token per
row, against each layer's own cached keys and values (rows, 3 heads, cache
length, 64) in bf16, with a left-padding mask, as in the hf plugin's
compiled static-cache decoding. Two paths, each eager and compiled (one
layer's attention compiled by torch.compile, default mode, and called for
each layer: compiling 30 layers at once took 77 s on the CPU for the sdpa
path; the per-layer launch overhead, a few µs a layer, is the same for both
paths and is not in the model's CUDA-graphed step):

  sdpa    transformers' sdpa_attention_forward, called under compile (so it
          repeats the 3 key/value heads to 9, the path a compiled decoding
          step takes)
  packed  attention.packed_sdpa_forward

Prints one JSON line per (path, mode, rows, cache length): median ms per
step over --iters timed steps (CUDA events), and the largest difference
from the sdpa path's output.

Usage (GPU machine):
  PYTHONPATH=plugins/policy/hf python3 bench/rl/attn_bench.py [--rows 64,128] [--cache 2048,4096]
"""

import argparse
import json
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "plugins", "policy", "hf"))

import attention  # noqa: E402

LAYERS, HEADS, KV_HEADS, DIM = 30, 9, 3, 64  # SmolLM2-135M


class Layer:
    num_key_value_groups = HEADS // KV_HEADS
    is_causal = True


def inputs(rows, cache, device, dtype):
    g = torch.Generator(device="cpu").manual_seed(0)
    torch.manual_seed(0)  # the big tensors drawn on the device: GBs drawn on the CPU take long
    q = torch.randn(LAYERS, rows, HEADS, 1, DIM, device=device, dtype=dtype)
    k = torch.randn(LAYERS, rows, KV_HEADS, cache, DIM, device=device, dtype=dtype)
    v = torch.randn(LAYERS, rows, KV_HEADS, cache, DIM, device=device, dtype=dtype)
    # left padding up to a quarter of the cache, and the unfilled tail of a static cache
    pos = torch.arange(cache)
    pad = torch.randint(0, cache // 4, (rows,), generator=g)
    filled = cache - torch.randint(0, cache // 4, (rows,), generator=g)
    mask = (pos[None, :] >= pad[:, None]) & (pos[None, :] < filled[:, None])
    return q, k, v, mask[:, None, None, :].to(device)


def step_fn(path, compiled):
    from transformers.integrations.sdpa_attention import sdpa_attention_forward
    fwd = attention.packed_sdpa_forward if path == "packed" else sdpa_attention_forward
    layer = Layer()

    def one(q, k, v, mask):
        return fwd(layer, q, k, v, mask, scaling=DIM ** -0.5)[0]
    if compiled:
        one = torch.compile(one, fullgraph=True, dynamic=False)

    def step(q, k, v, mask):
        return torch.stack([one(q[i], k[i], v[i], mask) for i in range(LAYERS)])
    return step


def timed(fn, args, iters, device):
    for _ in range(3):  # warm-up (and compiling)
        out = fn(*args)
    if device.type != "cuda":
        t = []
        for _ in range(iters):
            t0 = time.perf_counter()
            fn(*args)
            t.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(t), out
    times = []
    for _ in range(iters):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        out = fn(*args)
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", default="64,128")
    ap.add_argument("--cache", default="2048,4096")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--modes", default="eager,compiled")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    lines = []
    for rows in [int(x) for x in args.rows.split(",")]:
        for cache in [int(x) for x in args.cache.split(",")]:
            data = inputs(rows, cache, device, dtype)
            ref = None
            for mode in args.modes.split(","):
                for path in ("sdpa", "packed"):
                    torch.compiler.reset()
                    t0 = time.monotonic()
                    fn = step_fn(path, mode == "compiled")
                    with torch.inference_mode():
                        ms, out = timed(fn, data, args.iters, device)
                    if ref is None:
                        ref = out.float()
                    line = dict(path=path, mode=mode, rows=rows, cache=cache, layers=LAYERS,
                                ms_per_step=round(ms, 3), first_s=round(time.monotonic() - t0, 1),
                                max_abs_diff=float((out.float() - ref).abs().max()),
                                device=torch.cuda.get_device_name() if device.type == "cuda" else "cpu",
                                torch=torch.__version__)
                    print(json.dumps(line), flush=True)
                    lines.append(line)
            del data
            if device.type == "cuda":
                torch.cuda.empty_cache()
    if args.out:
        with open(args.out, "w") as f:
            f.writelines(json.dumps(x) + "\n" for x in lines)


if __name__ == "__main__":
    main()
