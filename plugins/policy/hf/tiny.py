"""A tiny randomly initialised SmolLM2-shaped checkpoint, for tests and CPU benchmarks.

Same architecture and settings as SmolLM2-135M (Llama: grouped-query
attention with 3 query heads per key/value head, SiLU MLP, RMSNorm, rope
theta 100000, tied embeddings, ChatML special tokens 0-2 and chat template);
only the sizes shrink. The tokenizer is byte-level BPE without merges (one
token per byte), so nothing is downloaded.

    python tiny.py DIR      writes the checkpoint folder
"""

import sys

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]

# SmolLM2-Instruct's chat template (a system prompt is added when none is given).
CHAT_TEMPLATE = (
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}"
    "{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast
    vocab = {s: i for i, s in enumerate(SPECIALS)}
    for ch in sorted(pre_tokenizers.ByteLevel.alphabet()):
        vocab[ch] = len(vocab)
    tk = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tk.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tk.decoder = decoders.ByteLevel()
    tk.add_special_tokens(SPECIALS)
    tok = PreTrainedTokenizerFast(tokenizer_object=tk, bos_token="<|im_start|>", eos_token="<|im_end|>",
                                  pad_token="<|im_end|>", unk_token="<|endoftext|>")
    tok.chat_template = CHAT_TEMPLATE
    return tok


def config(vocab_size):
    from transformers import LlamaConfig
    return LlamaConfig(
        vocab_size=vocab_size, hidden_size=48, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=6, num_key_value_heads=2, head_dim=8, max_position_embeddings=2048,
        rope_theta=100000.0, rms_norm_eps=1e-5, hidden_act="silu", tie_word_embeddings=True,
        bos_token_id=1, eos_token_id=2, pad_token_id=2, attention_bias=False, mlp_bias=False,
    )


def write(path, seed=0):
    """Writes a tiny checkpoint (model and tokenizer) into the folder path."""
    import torch
    from transformers import LlamaForCausalLM
    tok = tokenizer()
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config(len(tok)))
    model.save_pretrained(path, safe_serialization=True)
    tok.save_pretrained(path)
    return path


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tiny.py DIR")
    print(write(sys.argv[1]))
