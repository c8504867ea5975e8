"""The packed decoding attention (attention.py) against transformers' SDPA
with repeated key/value heads, and in the engine's sampling copy."""

import pytest
import torch

import attention
import settings
from .test_engine import PROMPT, PROMPT2, make


class _Module:
    def __init__(self, groups):
        self.num_key_value_groups = groups
        self.is_causal = True


def _reference(query, key, value, mask, scaling):
    groups = query.shape[1] // key.shape[1]
    k = key.repeat_interleave(groups, dim=1)
    v = value.repeat_interleave(groups, dim=1)
    out = torch.nn.functional.scaled_dot_product_attention(query, k, v, attn_mask=mask, scale=scaling)
    return out.transpose(1, 2)


@pytest.mark.parametrize("per_head_mask", [False, True])
def test_packed_decoding_step_equals_attention_over_repeated_heads(per_head_mask):
    torch.manual_seed(0)
    rows, heads, kv_heads, dim, kv_len = 4, 9, 3, 16, 12
    q = torch.randn(rows, heads, 1, dim)
    k = torch.randn(rows, kv_heads, kv_len, dim)
    v = torch.randn(rows, kv_heads, kv_len, dim)
    mask = torch.ones(rows, 1, 1, kv_len, dtype=torch.bool)
    mask[1, ..., :5] = False  # left padding of row 1
    mask[3, ..., -2:] = False  # unfilled static-cache slots
    if per_head_mask:
        mask = mask.expand(rows, heads, 1, kv_len).clone()
        mask[0, 4, 0, :3] = False  # one head sees less
    out, weights = attention.packed_sdpa_forward(_Module(heads // kv_heads), q, k, v, mask, scaling=0.3)
    assert weights is None and out.shape == (rows, 1, heads, dim)
    torch.testing.assert_close(out, _reference(q, k, v, mask, 0.3))


def test_prefill_and_ungrouped_models_keep_transformers_sdpa():
    torch.manual_seed(1)
    q = torch.randn(2, 6, 5, 8)
    k = torch.randn(2, 2, 5, 8)
    v = torch.randn(2, 2, 5, 8)
    mask = torch.tril(torch.ones(5, 5, dtype=torch.bool)).expand(2, 1, 5, 5)
    out, _ = attention.packed_sdpa_forward(_Module(3), q, k, v, mask, scaling=None)
    torch.testing.assert_close(out, _reference(q, k, v, mask, None))


def test_the_sampling_copy_decodes_with_packed_attention_and_samples_the_same(tiny_model):
    """The copy runs the packed attention (a copy still on transformers'
    SDPA would make this comparison vacuous), and greedy decoding with it
    equals decoding with GEN_ATTENTION=sdpa, under both caches."""
    packed = make(tiny_model, gen_copy="float32")
    plain = make(tiny_model, gen_copy="float32", gen_attention="sdpa")
    assert packed._gen.config._attn_implementation == attention.NAME
    assert plain._gen.config._attn_implementation == "sdpa"
    calls = []
    real = attention.packed_sdpa_forward

    def counting(module, query, *a, **kw):
        calls.append(query.shape[2])
        return real(module, query, *a, **kw)
    from transformers import AttentionInterface
    AttentionInterface.register(attention.NAME, counting)
    try:
        for cache in ("dynamic", "static"):
            packed.cfg.gen_cache = plain.cfg.gen_cache = cache
            a = packed.generate([PROMPT, PROMPT2], group_size=2, temperature=0, max_tokens=12)
            b = plain.generate([PROMPT, PROMPT2], group_size=2, temperature=0, max_tokens=12)
            assert [[s.token_ids for s in g] for g in a] == [[s.token_ids for s in g] for g in b]
    finally:
        AttentionInterface.register(attention.NAME, real)
    assert 1 in calls and any(n > 1 for n in calls)  # decoding steps and the prefill went through it


def test_gen_attention_setting():
    assert settings.Settings().gen_attention == "packed"
    with pytest.raises(settings.SettingsError, match="GEN_ATTENTION='flash': use packed or sdpa"):
        settings.Settings(gen_attention="flash").validate()


def test_attn_bench_compares_both_paths(tmp_path, monkeypatch, capsys):
    """bench/rl/attn_bench.py (the H200 measurement of this attention) runs
    and finds the paths equal on the CPU, at a small shape."""
    import importlib.util
    import os
    import sys
    path = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "bench", "rl", "attn_bench.py")
    spec = importlib.util.spec_from_file_location("attn_bench", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "attn.jsonl"
    monkeypatch.setattr(sys, "argv", ["attn_bench", "--rows", "2", "--cache", "64", "--iters", "1",
                                      "--modes", "eager", "--out", str(out)])
    mod.main()
    import json
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["path"] for x in lines] == ["sdpa", "packed"]
    assert all(x["rows"] == 2 and x["cache"] == 64 and x["ms_per_step"] > 0 for x in lines)
    assert lines[1]["max_abs_diff"] < 1e-5


def test_a_transformers_that_refuses_keeps_sdpa_and_says_so(tiny_model, monkeypatch, capsys):
    from transformers import PreTrainedModel

    def refuse(self, name, *a, **kw):
        raise ValueError(f"{name} is not a valid attention implementation")
    monkeypatch.setattr(PreTrainedModel, "set_attn_implementation", refuse)
    e = make(tiny_model, gen_copy="float32")
    assert e._gen.config._attn_implementation == "sdpa"
    assert "packed attention unavailable (ValueError" in capsys.readouterr().err
    assert len(e.generate([PROMPT], group_size=2, temperature=0, max_tokens=4)[0]) == 2
