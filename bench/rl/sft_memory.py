"""The peak memory and time of one SFT update of the hf policy, on this machine.

Why: on a 2-core, 24 GiB machine without a GPU, `cudaperf sft --policy hf`
was killed by the kernel's OOM killer in its first update (2026-12-04).
This loads the policy as the plugin does (its settings from the
CUDAPERF_HF_* environment, e.g. CUDAPERF_HF_MICRO_BATCH) and runs one
update of 16 SFT examples as long as `cudaperf sft --max-chars 1500` lets
through (a prompt of about 1,300 tokens and an answer of about 900), then
prints the update's statistics, its seconds and the process's peak RSS.
CUDAPERF_HF_GRAD_CHECKPOINT=on/off overrides the plugin's choice.

Usage: .venv/bin/python bench/rl/sft_memory.py
"""
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "policy", "hf"))
import engine  # noqa: E402
import settings  # noqa: E402


def main():
    cfg = settings.Settings.from_env()
    e = engine.Engine(cfg)
    gc = cfg.resolved_grad_checkpoint(e.device.type)
    prompt = ("Translate this C function to CUDA.\n"
              + "float f(float *a, int n) { for (int i = 0; i < n; i++) a[i] = a[i] * 2.0f + 1.0f; }\n" * 25)
    answer = ("```cuda\n"
              + "__global__ void k(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = a[i] * 2.0f + 1.0f; }\n" * 14
              + "```")
    print(f"device {e.device}, attention {getattr(e.model.config, '_attn_implementation', '?')}, "
          f"micro-batch {cfg.resolved_micro_batch(e.device.type)}, "
          f"gradient checkpointing {gc}; prompt {len(e.encode_prompt([('user', prompt)]))} tokens, "
          f"answer {len(e.tokenizer(answer)['input_ids'])} tokens", flush=True)
    examples = [engine.Example(messages=[("user", prompt)], completion=answer) for _ in range(16)]
    t = time.monotonic()
    st = e.update(examples, objective="sft")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"update: {time.monotonic() - t:.1f} s, peak RSS {peak:.2f} GiB, "
          + ", ".join(f"{k} {v:.4g}" for k, v in st.items()), flush=True)


if __name__ == "__main__":
    main()
