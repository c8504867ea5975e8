"""Decoding attention for the sampling copy: grouped-query attention over
the key/value heads as they are, without repeating them.

SmolLM2-135M has 9 query heads and 3 key/value heads. Under torch.compile,
with a mask (always present: prompts are left-padded), transformers' SDPA
path (integrations/sdpa_attention.py) repeats every layer's cached keys and
values to 9 heads before the attention kernel: its own single-query
packing is turned off while compiling. That is 3x the key/value reads and
a write of the repeated copy per layer and decoding step, growing with
rows x cache length.

How much of a step it costs is not measured yet. In lease 4 (2026-12-03,
bench/h200/2026-12-03-lease4) every call after a process's first
refinement turn decoded over a 4,096-token cache (transformers kept the
longest; engine.py no longer lets it), and a step took 16-18 ms at 64 rows
and 26-27 ms at 128: about 10 ms more per 64 rows of 4,096 positions,
what reading 9 repeated heads would cost at the H200's bandwidth.
bench/rl/attn_bench.py measures the attention of a step alone, both ways.

For one query token the 9 query heads of a group can instead stand in as 3
query positions against their group's key/value head: q (rows, 9, 1, d)
viewed as (rows, 3, 3, d). The mask, shared by all heads, broadcasts. The
result is the same attention (each query position attends independently),
computed on the unrepeated cache. Prefill (more than one query token) and
models without grouped heads use transformers' SDPA unchanged.
"""

import sys

import torch

NAME = "cudaperf_packed_sdpa"


def packed_sdpa_forward(module, query, key, value, attention_mask, dropout=0.0, scaling=None, **kwargs):
    """An attention function of transformers' AttentionInterface: query
    (rows, heads, q_len, d), key and value (rows, kv_heads, kv_len, d);
    returns ((rows, q_len, heads, d), None)."""
    groups = getattr(module, "num_key_value_groups", 1)
    rows, heads, q_len, dim = query.shape
    if groups <= 1 or q_len != 1 or kwargs.get("position_bias") is not None:
        from transformers.integrations.sdpa_attention import sdpa_attention_forward
        return sdpa_attention_forward(module, query, key, value, attention_mask,
                                      dropout=dropout, scaling=scaling, **kwargs)
    kv_heads = heads // groups
    q = query.reshape(rows, kv_heads, groups, dim)
    mask = attention_mask
    if mask is not None and mask.shape[1] != 1:  # a mask per head: (rows, heads, 1, kv_len)
        mask = mask.reshape(mask.shape[0], kv_heads, groups, mask.shape[-1])
    out = torch.nn.functional.scaled_dot_product_attention(
        q, key, value, attn_mask=mask, dropout_p=dropout, scale=scaling, is_causal=False)
    # (rows, kv_heads, groups, d) is (rows, heads, 1, d) in head order
    return out.reshape(rows, 1, heads, dim), None


def use_packed(model):
    """Switches model (a transformers causal LM) to the packed attention.
    Returns the name of the attention it runs with afterwards. A
    transformers that refuses (another version's interfaces) keeps what it
    had, said once on stderr: sampling must not fail for an optimisation."""
    try:
        from transformers import AttentionInterface
        from transformers.masking_utils import AttentionMaskInterface, sdpa_mask
        AttentionInterface.register(NAME, packed_sdpa_forward)
        AttentionMaskInterface.register(NAME, sdpa_mask)  # the same masks SDPA gets
        model.set_attn_implementation(NAME)
    except Exception as e:  # noqa: BLE001 -- any failure: keep transformers' attention
        print(f"hf policy: packed attention unavailable ({type(e).__name__}: {str(e)[:200]}); "
              f"decoding with {getattr(model.config, '_attn_implementation', 'the default attention')} "
              f"(set CUDAPERF_HF_GEN_ATTENTION=sdpa to skip the attempt)", file=sys.stderr, flush=True)
    return getattr(model.config, "_attn_implementation", "")
