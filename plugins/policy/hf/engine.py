"""The model side of the hf policy: loading, batched sampling, GRPO and SFT steps, Save/Load.

Plain Python data in and out (chat messages as (role, content) pairs,
Sample and Example objects): the proto types stay in main.py.
"""

import copy
import dataclasses
import json
import math
import os
import shutil
import sys
import tempfile
import threading
import time

import torch

import attention
import grpo
import settings as settings_mod

# ChatML, the format SmolLM2-Instruct (and Qwen) were tuned on; used when the
# checkpoint's tokenizer carries no chat template.
_CHATML_START, _CHATML_END = "<|im_start|>", "<|im_end|>"

ADAPTER_FILE = "adapter_model.safetensors"
# The KL reference's adapter (the run's start), saved beside the adapter so
# that a resumed run keeps the reference its first steps had.
REFERENCE_FILE = "reference_adapter.safetensors"
OPTIMIZER_FILE = "optimizer.pt"
STATE_FILE = "policy_state.json"
# The finish_reason of the empty completions of a prompt that leaves no room
# for the requested completion tokens in the model's context.
CONTEXT_FINISH = "context"


@dataclasses.dataclass
class Sample:
    """One sampled completion."""
    text: str
    token_ids: list
    tokens: list          # each token's text
    logprobs: list        # log-probability of each token under the model at the sampling temperature (1 if greedy)
    finish_reason: str    # "stop" (end token or stop string) or "length"
    prompt_tokens: int


@dataclasses.dataclass
class Example:
    """One completion to learn from (a GRPO rollout or an SFT example)."""
    messages: list                 # [(role, content), ...]
    completion: str
    advantage: float = 0.0
    weight: float = 1.0
    token_ids: list = None         # the sampled tokens, when known (GRPO)
    old_logprobs: list = None      # their log-probabilities at sampling time


class InputError(ValueError):
    """Bad request data (the message says which input and what to do)."""


# Under a static KV cache (settings.gen_cache) every Generate call is padded
# to one of a few shapes: the cache length (prompt width + max_tokens) to one
# of these, the rows to a power of two. A compiled decoding step is specific
# to its shape and took about 40 s to compile on the H200 (2026-12-03, lease
# 2: bench/h200/2026-12-03-lease2/gen), while it decodes 4× faster than the
# eager bf16 step; padding the prompts to a multiple of 256 tokens instead
# gave a new cache length, and a new compile, on most GRPO refinement turns.
STATIC_CACHE_LENGTHS = (1024, 2048, 4096, 8192, 16384, 32768)


def static_shape(width, max_tokens, rows, context=0):
    """(prompt width, rows) padded for a static cache: the width so that
    width + max_tokens is the smallest STATIC_CACHE_LENGTHS entry that holds
    it (and fits the context), the rows to the next power of two. A call no
    entry fits keeps its own width."""
    padded_rows = 1 << max(0, int(rows) - 1).bit_length()
    for n in STATIC_CACHE_LENGTHS:
        if context and n > context:
            break
        if n >= width + max_tokens:
            return n - max_tokens, padded_rows
    return width, padded_rows


class Engine:
    """A causal LM with an optional LoRA adapter, its tokenizer and optimiser.

    One lock serialises every use of the model: gRPC serves requests on
    several threads, and generation, evaluation and training never overlap.
    """

    def __init__(self, cfg: settings_mod.Settings):
        self.cfg = cfg
        self.lock = threading.Lock()
        self.device = torch.device(cfg.resolved_device())
        self.optimizer = None
        self.steps = 0
        self._ref_model = None  # full fine-tuning's frozen reference, loaded when KL is asked for
        # LoRA: the adapter of the run's start (a weights_only Load), the KL
        # reference; None: the base model (the adapter disabled).
        self._ref_adapter = None
        t0 = time.monotonic()
        self.tokenizer, base = _load(cfg)
        self.load_seconds = time.monotonic() - t0
        self.end_ids = _end_ids(self.tokenizer)
        self.pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else self.end_ids[0]
        self.context = int(getattr(base.config, "max_position_embeddings", 0) or 0)
        base.to(self.device)
        self._gen = None  # the sampling copy (settings.gen_copy); None: sample from self.model
        self.compile_failures = 0  # compiled generate calls that failed and were repeated eagerly
        self._timing = {}  # the current generate call's phases, for cfg.stats
        gen_dtype = cfg.gen_copy_dtype(self.device.type)
        if gen_dtype:
            self._gen = copy.deepcopy(base).to(getattr(torch, gen_dtype))
            self._gen.requires_grad_(False)
            self._gen.eval()
            if cfg.gen_attention == "packed":
                attention.use_packed(self._gen)
        if cfg.mode == "lora":
            import peft
            base.requires_grad_(False)
            torch.manual_seed(cfg.seed)  # the adapter's random initialisation
            if cfg.lora_targets != "all-linear":
                # PEFT drops a name that matches no module without a word
                # (q_proj,vproj adapted q_proj alone). A target matches as
                # PEFT matches it: a module's full name or its dotted suffix
                # (self_attn.q_proj), of a layer LoRA can adapt.
                from transformers.pytorch_utils import Conv1D  # GPT-2's linear layers
                adaptable = [name for name, m in base.named_modules()
                             if isinstance(m, (torch.nn.Linear, torch.nn.Embedding, Conv1D)) and name]
                unknown = [t for t in cfg.lora_targets
                           if not any(name == t or name.endswith("." + t) for name in adaptable)]
                if unknown:
                    raise settings_mod.SettingsError(
                        f"{settings_mod.ENV_PREFIX}LORA_TARGETS names {', '.join(unknown)}, which names no layer of the model "
                        f"that LoRA can adapt; its linear layers: {', '.join(sorted(_linear_names(base)))} (or all-linear)")
            lcfg = peft.LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha, lora_dropout=0.0,
                                   target_modules=cfg.lora_targets, task_type="CAUSAL_LM")
            self.model = peft.get_peft_model(base, lcfg)
        else:
            self.model = base
        if cfg.resolved_grad_checkpoint(self.device.type):
            # Only training (model.train()) recomputes activations; sampling
            # and scoring without gradients are unchanged.
            # (transformers 5.2x names it activation checkpointing and
            # deprecates the old name; earlier 5.x have only the old one.)
            if hasattr(self.model, "activation_checkpointing_enable"):
                self.model.activation_checkpointing_enable(activation_checkpointing_kwargs={"use_reentrant": False})
            else:
                self.model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        self.model.eval()

    # ---- prompts -------------------------------------------------------

    def encode_prompt(self, messages):
        """Token ids of a chat prompt, ending where the assistant's answer starts."""
        msgs = [{"role": r, "content": c} for r, c in messages]
        tok = self.tokenizer
        if getattr(tok, "chat_template", None):
            text = tok.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True)
        else:
            text = "".join(f"{_CHATML_START}{m['role']}\n{m['content']}{_CHATML_END}\n" for m in msgs)
            text += f"{_CHATML_START}assistant\n"
        return tok(text, add_special_tokens=False)["input_ids"]

    def _check_context(self, what, n_prompt, n_more):
        if self.context and n_prompt + n_more > self.context:
            raise InputError(
                f"{what}: {n_prompt} prompt tokens + {n_more} completion tokens exceed the model's "
                f"context of {self.context} tokens; shorten the prompt (fewer few-shot examples) or lower max_tokens")

    # ---- generation ----------------------------------------------------

    def generate(self, prompts, group_size=1, temperature=1.0, top_p=1.0, max_tokens=0, seed=0, stop=(), prompt_names=None):
        """Samples group_size completions for each prompt in one batched generate call.

        prompts: list of message lists. Returns a list (per prompt) of lists of
        Sample. Log-probabilities are recomputed by a teacher-forced forward
        pass over the sampled tokens, the same computation Update does (at
        the sampling temperature, which the host sends Update as its
        "temperature"), so the first GRPO step on fresh samples has a ratio
        of exactly 1 (up to floating point).
        """
        if not prompts:
            return []
        group_size = max(1, int(group_size))
        max_tokens = int(max_tokens) if max_tokens and max_tokens > 0 else self.cfg.default_max_tokens
        names = prompt_names or [f"prompt {i}" for i in range(len(prompts))]
        ids = [self.encode_prompt(p) for p in prompts]
        # A prompt too long for max_tokens more (a refinement turn quotes the
        # previous answer and its feedback, and grows) is sampled alone with
        # the room the context leaves, and one with no room at all gets
        # empty completions (finish_reason "context") that the host scores as
        # failed attempts and Update leaves out: one such prompt failed the
        # whole batch, and a resumed run made it again and failed again.
        room = [self.context - len(x) if self.context else max_tokens for x in ids]
        if any(r < max_tokens for r in room):
            short = [f"{n} ({len(x)} tokens)" for n, x, r in zip(names, ids, room) if r < max_tokens]
            print(f"hf policy: {len(short)} prompt(s) leave less than max_tokens {max_tokens} in the model's "
                  f"context of {self.context}: {', '.join(short)}; each is sampled alone with the room left "
                  f"(none left: empty completions, finish_reason {CONTEXT_FINISH})", file=sys.stderr, flush=True)
            kept = [k for k, r in enumerate(room) if r >= max_tokens]
            done = dict(zip(kept, self.generate([prompts[k] for k in kept], group_size, temperature, top_p, max_tokens,
                                                seed, stop, [names[k] for k in kept]) if kept else []))
            out = []
            for k, r in enumerate(room):
                if k in done:
                    out.append(done[k])
                elif r > 0:
                    out.append(self.generate([prompts[k]], group_size, temperature, top_p, r, seed, stop, [names[k]])[0])
                else:
                    out.append([Sample(text="", token_ids=[], tokens=[], logprobs=[], finish_reason=CONTEXT_FINISH,
                                       prompt_tokens=len(ids[k])) for _ in range(group_size)])
            return out
        width = max(len(x) for x in ids)
        static = self._gen is not None and self.cfg.gen_cache == "static"
        rows = len(ids) * group_size
        if static:  # few distinct shapes: a compiled step is reused
            width, rows = static_shape(width, max_tokens, rows, self.context)
        input_ids = torch.full((len(ids), width), self.pad_id, dtype=torch.long)
        attn = torch.zeros((len(ids), width), dtype=torch.long)
        for i, x in enumerate(ids):  # left padding: every prompt ends at the same column
            input_ids[i, width - len(x):] = torch.tensor(x)
            attn[i, width - len(x):] = 1
        input_ids, attn = input_ids.to(self.device), attn.to(self.device)
        do_sample = temperature is not None and temperature > 0
        # Rows repeated here rather than num_return_sequences, which greedy decoding refuses.
        input_ids, attn = input_ids.repeat_interleave(group_size, 0), attn.repeat_interleave(group_size, 0)
        if rows > input_ids.shape[0]:  # filler rows (copies of the last), dropped from the output
            extra = rows - input_ids.shape[0]
            input_ids = torch.cat([input_ids, input_ids[-1:].expand(extra, -1)])
            attn = torch.cat([attn, attn[-1:].expand(extra, -1)])
        score_t = float(temperature) if do_sample else 1.0  # the policy that samples
        kwargs = dict(max_new_tokens=max_tokens, do_sample=do_sample,
                      eos_token_id=self.end_ids, pad_token_id=self.pad_id)
        if do_sample:
            kwargs["temperature"] = float(temperature)
            kwargs["top_p"] = float(top_p) if top_p and 0 < top_p < 1 else 1.0
            kwargs["top_k"] = 0
        if static:
            kwargs.update(cache_implementation="static", disable_compile=not self.cfg.gen_compile)
            if self.cfg.gen_compile:
                # One graph per shape (a few: static_shape), each specialised:
                # transformers' default (dynamic=None) turns the second shape
                # a process sees into a dynamic-shape graph for all later ones.
                from transformers import CompileConfig
                kwargs["compile_config"] = CompileConfig(dynamic=False)
        stop = [s for s in stop if s]
        if stop:
            kwargs.update(stop_strings=stop, tokenizer=self.tokenizer)
        with self.lock:
            t0 = time.monotonic()
            failures = self.compile_failures
            self._timing = {}
            result = self._generate_locked(prompts, ids, input_ids, attn, group_size, stop, seed, kwargs, score_t)
            self._log_stats(
                call="generate", prompts=len(prompts), rows=len(prompts) * group_size,
                padded_rows=int(input_ids.shape[0]), width=int(input_ids.shape[1]), max_tokens=max_tokens,
                cache="static" if static else "dynamic",
                attention=getattr(self._gen.config, "_attn_implementation", "") if self._gen is not None else "",
                # compiling asked for (transformers compiles on a GPU) and no fallback in this call
                compile=bool(static and not kwargs.get("disable_compile", True) and self.compile_failures == failures),
                compile_failures=self.compile_failures, **self._timing,
                completion_tokens=sum(len(s.token_ids) for g in result for s in g),
                seconds=round(time.monotonic() - t0, 3))
            return result

    def _log_stats(self, **fields):
        """Appends one JSON line to cfg.stats (if set). A failure to write
        is said once on stderr and never fails the call it describes."""
        if not self.cfg.stats:
            return
        fields = {"time": round(time.time(), 3), **fields}
        try:
            with open(self.cfg.stats, "a") as f:
                f.write(json.dumps(fields) + "\n")
        except OSError as e:
            print(f"hf policy: cannot append to {settings_mod.ENV_PREFIX}STATS={self.cfg.stats}: {e}; "
                  f"no more statistics are written", file=sys.stderr, flush=True)
            self.cfg.stats = ""

    def _generate_locked(self, prompts, ids, input_ids, attn, group_size, stop, seed, kwargs, score_t):
        width = input_ids.shape[1]
        if seed:
            torch.manual_seed(int(seed))
        if self._gen is not None:
            self._refresh_gen()
            t = time.monotonic()
            out = self._generate_copy(input_ids, attn, kwargs)
            self._sync()
            self._timing.update(sample_s=round(time.monotonic() - t, 3), decode_steps=int(out.shape[1] - width))
            return self._finish_generate(prompts, ids, out[:len(ids) * group_size], width, group_size, stop, score_t)
        # Sampling with the adapter merged into the base weights: decoding is
        # bound by per-layer overheads, and unmerged LoRA adds four small
        # kernels to each of the 7 linear layers of every block. Unmerging
        # afterwards restores the weights up to float32 rounding.
        merge = self.cfg.mode == "lora" and self.cfg.merge_for_generate
        if merge:
            with torch.no_grad():
                self.model.base_model.merge_adapter()
        t = time.monotonic()
        try:
            with torch.inference_mode(), self._autocast():
                out = self.model.generate(input_ids=input_ids, attention_mask=attn, **kwargs)
        finally:
            if merge:
                with torch.no_grad():
                    self.model.base_model.unmerge_adapter()
        self._sync()
        self._timing.update(sample_s=round(time.monotonic() - t, 3), decode_steps=int(out.shape[1] - width))
        return self._finish_generate(prompts, ids, out, width, group_size, stop, score_t)

    def _sync(self):
        """Waits for the GPU, so that a phase's seconds are its own."""
        if self.device.type == "cuda":
            torch.cuda.synchronize()

    def _generate_copy(self, input_ids, attn, kwargs):
        """generate on the sampling copy. A compiled decoding step that fails
        (an inductor or CUDA-graph error) turns compilation off for the rest
        of the process and the call is repeated eagerly: a run must not end
        because an optimisation did."""
        # transformers sizes a static cache to the longest cache this model
        # has had (_previous_max_cache_length), so after one refinement turn
        # of a 4,096-token shape every call decoded over 4,096 positions: at
        # 128 rows a turn-1 call (2,048 would do) took as long as a turn-2
        # call (lease 4, bench/h200/2026-12-03-lease4). Each call gets its
        # own shape's cache; each shape is compiled once per process either
        # way.
        self._gen.__dict__.pop("_previous_max_cache_length", None)
        try:
            with torch.inference_mode():
                return self._gen.generate(input_ids=input_ids, attention_mask=attn, **kwargs)
        except Exception as e:  # noqa: BLE001 -- any failure of the compiled path
            if kwargs.get("disable_compile", True):
                raise
            print(f"hf policy: compiled generation failed ({type(e).__name__}: {str(e)[:300]}); "
                  f"generating without compiling from now on (unset {settings_mod.ENV_PREFIX}GEN_COMPILE "
                  f"to skip the attempt)", file=sys.stderr, flush=True)
            self.cfg.gen_compile = False
            self.compile_failures += 1
            torch.compiler.reset()
            kwargs = dict(kwargs, disable_compile=True)
            with torch.inference_mode():
                return self._gen.generate(input_ids=input_ids, attention_mask=attn, **kwargs)

    def _refresh_gen(self):
        """Brings the sampling copy up to the trained weights, in its dtype.

        LoRA: each adapted layer's weight becomes base + delta, computed in
        float32 and rounded once (the frozen rest was copied at start). Full
        fine-tuning: every parameter is copied. The trained model itself is
        not touched, unlike merge_adapter/unmerge_adapter.
        """
        with torch.no_grad():
            if self.cfg.mode == "lora":
                import peft
                gen_modules = dict(self._gen.named_modules())
                for name, mod in self.model.base_model.model.named_modules():
                    if isinstance(mod, peft.tuners.lora.LoraLayer) and hasattr(mod, "base_layer"):
                        w = mod.base_layer.weight
                        for a in mod.active_adapters:
                            if a in mod.lora_A:
                                w = w + mod.get_delta_weight(a)
                        gen_modules[name].weight.copy_(w)
            else:
                gen_params = dict(self._gen.named_parameters())
                for name, p in self.model.named_parameters():
                    gen_params[name].copy_(p)

    def _finish_generate(self, prompts, ids, out, width, group_size, stop, score_t):
        """Samples from generate's output: completions cut, log-probabilities by _score."""
        gen = out[:, width:].tolist()
        rows = []
        for row in gen:
            n, reason = self._completion_length(row, stop)
            rows.append((row[:n], reason))
        # Log-probabilities of the kept tokens, by the shared scoring path.
        t = time.monotonic()
        examples = []
        for r, (toks, _) in enumerate(rows):
            examples.append((ids[r // group_size], toks))
        with torch.inference_mode():
            logps = []
            # Without gradients the CPU's memory limit on training does not
            # apply: MICRO_BATCH when set, else 8 (as before it had an auto).
            for batch in _chunks(list(range(len(examples))), self.cfg.micro_batch or 8):
                lp, mask = self._score([examples[k] for k in batch], temperature=score_t)
                lp = lp.float().cpu()
                for j, k in enumerate(batch):
                    logps.append(lp[j, :len(examples[k][1])].tolist())
        self._timing["score_s"] = round(time.monotonic() - t, 3)
        result = []
        for p in range(len(prompts)):
            group = []
            for g in range(group_size):
                r = p * group_size + g
                toks, reason = rows[r]
                group.append(Sample(
                    text=self.tokenizer.decode(toks, skip_special_tokens=True),
                    token_ids=toks,
                    tokens=[self.tokenizer.decode([t]) for t in toks],
                    logprobs=logps[r],
                    finish_reason=reason,
                    prompt_tokens=len(ids[p])))
            result.append(group)
        return result

    def _completion_length(self, row, stop):
        """How many sampled tokens belong to the completion, and why it ended.

        The end token is kept (its probability is part of what GRPO trains);
        a stop string ends the completion at the token that completes it.
        Anything after is padding.
        """
        n, reason = len(row), "length"
        for i, t in enumerate(row):
            if t in self.end_ids:
                n, reason = i + 1, "stop"
                break
        if stop:
            text = self.tokenizer.decode(row[:n], skip_special_tokens=True)
            if any(s in text for s in stop):
                lo, hi = 1, n  # the shortest prefix whose text holds a stop string
                while lo < hi:
                    mid = (lo + hi) // 2
                    if any(s in self.tokenizer.decode(row[:mid], skip_special_tokens=True) for s in stop):
                        hi = mid
                    else:
                        lo = mid + 1
                n, reason = lo, "stop"
        return n, reason

    # ---- scoring -------------------------------------------------------

    def _autocast(self):
        if self.device.type == "cuda":
            return torch.autocast("cuda", dtype=torch.bfloat16)
        return torch.autocast("cpu", enabled=False)

    def _score(self, pairs, model=None, temperature=1.0):
        """Log-probabilities of completion tokens given their prompts.

        pairs: [(prompt_ids, completion_ids)]. Each row is its prompt then its
        completion, right-padded: every padded position comes after the
        row's real tokens, so under causal attention no real token ever
        sees padding and no row is left with nothing to attend to. (Left
        padding leaves a prompt's padded positions fully masked, which an
        attention kernel may answer with NaN: a suspect, not a proven
        cause, for the NaN loss of an SFT run on the H200.) Only the
        positions from the earliest completion on go through the LM head.
        temperature divides the logits (the tempered policy that sampled).
        Returns (logp, mask), both (batch, longest completion).
        """
        model = model or self.model
        b = len(pairs)
        width = max(len(p) + len(c) for p, c in pairs)
        cw = max(max(len(c) for _, c in pairs), 1)
        first = min(len(p) for p, _ in pairs)
        keep = width - first + 1  # logits of columns first-1 .. width-1
        input_ids = torch.full((b, width), self.pad_id, dtype=torch.long)
        attn = torch.zeros((b, width), dtype=torch.long)
        targets = torch.full((b, cw), self.pad_id, dtype=torch.long)
        mask = torch.zeros((b, cw), dtype=torch.float32)
        # Column len(p)+j-1 predicts completion token j; in the kept logits
        # that is index len(p)+j-first (clamped for padding, masked anyway).
        index = torch.zeros((b, cw), dtype=torch.long)
        for i, (p, c) in enumerate(pairs):
            n = len(p) + len(c)
            input_ids[i, :n] = torch.tensor(list(p) + list(c), dtype=torch.long)
            attn[i, :n] = 1
            if c:
                targets[i, :len(c)] = torch.tensor(c, dtype=torch.long)
                mask[i, :len(c)] = 1
            index[i] = (torch.arange(cw) + len(p) - first).clamp(max=keep - 1)
        pos = torch.arange(width).unsqueeze(0).expand(b, -1)
        input_ids, attn, pos, targets, mask, index = (t.to(self.device) for t in (input_ids, attn, pos, targets, mask, index))
        with self._autocast():
            logits = model(input_ids=input_ids, attention_mask=attn, position_ids=pos,
                           logits_to_keep=keep, use_cache=False).logits
        logits = logits.gather(1, index.unsqueeze(-1).expand(-1, -1, logits.shape[-1])).float()
        if temperature != 1.0:
            logits = logits / temperature
        logp = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1) - torch.logsumexp(logits, dim=-1)
        # where, not a product: a non-finite value at a padded position
        # (-inf times 0 is NaN) must not reach the loss.
        return torch.where(mask > 0, logp, torch.zeros_like(logp)), mask

    # ---- training ------------------------------------------------------

    def _pairs(self, examples, sft):
        pairs = []
        for k, ex in enumerate(examples):
            p = self.encode_prompt(ex.messages)
            if not sft and not ex.token_ids and not ex.completion and self.context and len(p) >= self.context:
                # Generate's empty answer to a prompt that left no room
                # (finish_reason "context"): nothing was sampled to learn from.
                pairs.append(None)
                continue
            if ex.token_ids:
                c = list(ex.token_ids)
            else:
                # Text only (an SFT example, or a rollout from a policy that
                # returned no tokens): tokenize it and add the end token, so the
                # model also learns where to stop.
                c = self.tokenizer(ex.completion, add_special_tokens=False)["input_ids"] + [self.end_ids[0]]
            if ex.old_logprobs and len(ex.old_logprobs) != len(c):
                raise InputError(f"rollout {k}: {len(ex.old_logprobs)} logprobs for {len(c)} tokens; "
                                 "send the logprobs Generate returned, with their token ids, or none")
            self._check_context(f"rollout {k}", len(p), len(c))
            pairs.append((p, c))
        return pairs

    def update(self, examples, objective="grpo", hyper=None):
        """One optimiser step on examples (gradients accumulated over micro-batches).

        hyper: learning_rate, clip (epsilon), kl_coef, max_grad_norm,
        micro_batch_size, weight_decay; missing keys take the defaults in
        settings.py. Returns statistics (floats).
        """
        h = self.cfg.hyper(hyper or {}, self.device.type)
        if not examples:
            raise InputError("Update got no rollouts; send at least one")
        t0 = time.monotonic()
        sft = objective == "sft"
        pairs = self._pairs(examples, sft)
        # Rollouts whose prompt left no room in the context sampled nothing
        # (generate's finish_reason "context"): they are left out, and n
        # below still counts them, as rollouts that add nothing to the loss.
        n = len(pairs)
        skipped = sum(1 for x in pairs if x is None)
        if skipped:
            keep = [k for k, x in enumerate(pairs) if x is not None]
            examples, pairs = [examples[k] for k in keep], [pairs[k] for k in keep]
        if not pairs:
            stats = {"loss": 0.0, "grad_norm": 0.0, "tokens": 0.0, "rollouts": float(n), "micro_batches": 0.0,
                     "learning_rate": h["learning_rate"], "skipped_over_context": float(skipped),
                     "seconds": time.monotonic() - t0}
            self._log_stats(call="update", **stats)
            return stats
        # Shorter-first order keeps padding small inside each micro-batch.
        order = sorted(range(len(pairs)), key=lambda k: (len(pairs[k][0]) + len(pairs[k][1])))
        weights = [ex.weight if ex.weight else 1.0 for ex in examples]
        if sft:
            if any(w < 0 for w in weights):
                raise InputError("SFT weights must be >= 0")
            total_w = sum(w * len(c) for w, (_, c) in zip(weights, pairs))
            if total_w <= 0:
                raise InputError("SFT examples have zero total weight; give some a positive weight")
        with self.lock:
            opt = self._optimizer(h)
            self.model.train()
            opt.zero_grad(set_to_none=True)
            loss_sum, acc = 0.0, {"tokens": 0.0, "ratio_sum": 0.0, "clipped_sum": 0.0, "kl_sum": 0.0}
            mbs = 0
            batches = list(_chunks(order, int(h["micro_batch_size"])))
            refs = [None] * len(batches)
            if not sft and h["kl_coef"]:
                # Before any forward pass that builds a graph: the start's
                # adapter is swapped in for these, which must not touch
                # weights that a pending backward saved.
                with torch.no_grad():
                    refs = [self._ref_logp([pairs[k] for k in b], h["temperature"]) for b in batches]
            for bi, batch in enumerate(batches):
                mbs += 1
                logp, mask = self._score([pairs[k] for k in batch], temperature=1.0 if sft else h["temperature"])
                if sft:
                    w = torch.tensor([weights[k] for k in batch], device=logp.device)
                    loss = grpo.sft_loss(logp, mask, w, total_w)
                    acc["tokens"] += float(mask.sum())
                else:
                    old = torch.zeros_like(logp)
                    for j, k in enumerate(batch):
                        ol = examples[k].old_logprobs
                        if ol:
                            old[j, :len(ol)] = torch.tensor(ol, dtype=old.dtype)
                        else:
                            old[j] = logp[j].detach()
                    adv = torch.tensor([examples[k].advantage for k in batch], device=logp.device, dtype=logp.dtype)
                    loss, st = grpo.grpo_loss(logp, old, adv, mask, h["clip"], h["kl_coef"], refs[bi], n_total=n)
                    for key in acc:
                        acc[key] += st[key]
                loss.backward()
                loss_sum += float(loss.detach())
            params = [p for p in self.model.parameters() if p.requires_grad]
            gn = torch.nn.utils.clip_grad_norm_(params, h["max_grad_norm"] if h["max_grad_norm"] > 0 else float("inf"))
            # A non-finite loss or gradient would make every weight NaN from
            # here on (an SFT run on the H200 went from loss 1.14 to NaN for
            # good in one update): skip the step and say so instead.
            finite = math.isfinite(loss_sum) and bool(torch.isfinite(gn))
            if finite:
                opt.step()
            opt.zero_grad(set_to_none=True)
            self.model.eval()
            self.steps += 1
        stats = {"loss": loss_sum, "grad_norm": float(gn), "tokens": acc["tokens"], "rollouts": float(n),
                 "micro_batches": float(mbs), "learning_rate": h["learning_rate"],
                 "seconds": time.monotonic() - t0}
        if not finite:
            stats["skipped_nonfinite"] = 1.0
            stats["longest_prompt"] = float(max(len(p) for p, _ in pairs))
            stats["shortest_prompt"] = float(min(len(p) for p, _ in pairs))
            stats["longest_completion"] = float(max(len(c) for _, c in pairs))
            print(f"hf: update {self.steps}: non-finite loss {loss_sum} or gradient norm {float(gn)}; "
                  f"step skipped, weights unchanged ({n} rollouts, prompts {int(stats['shortest_prompt'])}-"
                  f"{int(stats['longest_prompt'])} tokens, completions up to {int(stats['longest_completion'])})",
                  file=sys.stderr, flush=True)
        if skipped:
            stats["skipped_over_context"] = float(skipped)
        if not sft and acc["tokens"]:
            stats.update(ratio_mean=acc["ratio_sum"] / acc["tokens"], clip_fraction=acc["clipped_sum"] / acc["tokens"],
                         kl=acc["kl_sum"] / acc["tokens"])
        self._log_stats(call="sft" if sft else "update", **stats)
        return stats

    def _ref_logp(self, pairs, temperature=1.0):
        """Log-probabilities under the reference policy: LoRA, the run's start
        (the adapter a weights_only Load gave) or, without one, the base
        model; full fine-tuning, the model file as loaded. Call it with no
        graph pending: the start's adapter is swapped in and out in place."""
        if self.cfg.mode == "lora":
            if self._ref_adapter is None:
                with self.model.disable_adapter():
                    lp, _ = self._score(pairs, temperature=temperature)
                return lp
            import peft
            cur = {k: v.detach().clone() for k, v in peft.get_peft_model_state_dict(self.model).items()}
            peft.set_peft_model_state_dict(self.model, self._ref_adapter)
            try:
                lp, _ = self._score(pairs, temperature=temperature)
            finally:
                peft.set_peft_model_state_dict(self.model, cur)
            return lp
        if self._ref_model is None:
            _, ref = _load(self.cfg)
            ref.requires_grad_(False)
            self._ref_model = ref.to(self.device).eval()
        lp, _ = self._score(pairs, self._ref_model, temperature)
        return lp

    def _optimizer(self, h):
        if self.optimizer is None:
            params = [p for p in self.model.parameters() if p.requires_grad]
            self.optimizer = torch.optim.AdamW(params, lr=h["learning_rate"], weight_decay=h["weight_decay"])
        for g in self.optimizer.param_groups:
            g["lr"] = h["learning_rate"]
            g["weight_decay"] = h["weight_decay"]
        return self.optimizer

    def logprob_of(self, messages, token_ids):
        """Sum of the log-probabilities of token_ids after the prompt (for tests and probes)."""
        with self.lock, torch.inference_mode():
            lp, _ = self._score([(self.encode_prompt(messages), list(token_ids))])
        return float(lp.sum())

    # ---- checkpoints ---------------------------------------------------

    def save(self, path):
        """Writes the trainable state under path, atomically (a folder replaced whole).

        LoRA: the adapter (adapter_config.json, adapter_model.safetensors:
        small, it crosses machines) and the optimiser state (optimizer.pt,
        for an exact resume; optional on Load). Full: the whole model.
        """
        if not path:
            raise InputError("Save needs a path")
        path = os.path.abspath(path)
        parent = os.path.dirname(path)
        os.makedirs(parent, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=os.path.basename(path) + ".tmp-", dir=parent)
        try:
            with self.lock:
                self.model.save_pretrained(tmp, safe_serialization=True)
                card = os.path.join(tmp, "README.md")  # PEFT's empty model card
                if os.path.exists(card):
                    os.remove(card)
                if self.optimizer is not None:
                    torch.save(self.optimizer.state_dict(), os.path.join(tmp, OPTIMIZER_FILE))
                if self._ref_adapter is not None:
                    from safetensors.torch import save_file
                    save_file(self._ref_adapter, os.path.join(tmp, REFERENCE_FILE))
                with open(os.path.join(tmp, STATE_FILE), "w") as f:
                    state = {"mode": self.cfg.mode, "model": self.cfg.model_name(), "steps": self.steps,
                             "lora_r": self.cfg.lora_r if self.cfg.mode == "lora" else 0}
                    if self.cfg.mode == "lora":
                        state.update(lora_alpha=self.cfg.lora_alpha, lora_targets=self.cfg.lora_targets)
                    json.dump(state, f, indent=1)
            old = None
            if os.path.exists(path):
                old = tempfile.mkdtemp(prefix=os.path.basename(path) + ".old-", dir=parent)
                os.rmdir(old)
                os.rename(path, old)
            os.rename(tmp, path)
            if old:
                shutil.rmtree(old, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    def load(self, path, weights_only=False):
        """Restores what save wrote: the weights, and to resume (weights_only
        false) the optimiser state when it is there and the update count.

        A start (a run's policy.init, eval --load) is weights_only: a GRPO
        run started from an SFT result had kept SFT's AdamW moments, so its
        first steps moved the policy even with every advantage 0."""
        from safetensors.torch import load_file
        state_path = os.path.join(path, STATE_FILE)
        if not os.path.isfile(state_path):
            raise InputError(f"{path}: no {STATE_FILE}; give a folder written by this policy's Save")
        with open(state_path) as f:
            st = json.load(f)
        if st.get("mode") != self.cfg.mode:
            raise InputError(f"{path} holds a {st.get('mode')} checkpoint but the policy runs in {self.cfg.mode} mode; "
                             f"set CUDAPERF_HF_MODE={st.get('mode')}")
        if st.get("model") and st["model"] != self.cfg.model_name():
            # Weights of one model's shape load into another's without an
            # error: a different policy would run under the same name.
            raise InputError(f"{path} was saved by a policy on model {st['model']}, this one runs "
                             f"{self.cfg.model_name()}; set CUDAPERF_HF_MODEL to that model")
        if self.cfg.mode == "lora":
            # Checkpoints since these were recorded; older ones hold rank only.
            for key, env, now in (("lora_alpha", "LORA_ALPHA", self.cfg.lora_alpha),
                                  ("lora_targets", "LORA_TARGETS", self.cfg.lora_targets)):
                same = (st.get(key) == now if key != "lora_targets" or isinstance(now, str) or not isinstance(st.get(key), list)
                        else sorted(st[key]) == sorted(now))  # a list of targets is a set
                if key in st and not same:
                    shown = ",".join(st[key]) if isinstance(st[key], list) else st[key]
                    raise InputError(f"{path}: the adapter was trained with {key} {st[key]}, this policy has {now}; "
                                     f"set {settings_mod.ENV_PREFIX}{env}={shown}")
        with self.lock:
            if self.cfg.mode == "lora":
                import peft
                if st.get("lora_r") != self.cfg.lora_r:
                    raise InputError(f"{path}: adapter rank {st.get('lora_r')}, policy rank {self.cfg.lora_r}; "
                                     f"set CUDAPERF_HF_LORA_R={st.get('lora_r')}")
                weights = load_file(os.path.join(path, ADAPTER_FILE), device=str(self.device))
                own = set(peft.get_peft_model_state_dict(self.model))
                if set(weights) != own:
                    # Checked before anything is replaced (set_peft_model_state_dict
                    # had already swapped the weights when the optimiser refused).
                    raise InputError(f"{path}: the adapter adapts other modules than this policy "
                                     f"({len(weights)} tensors against {len(own)}); set "
                                     f"{settings_mod.ENV_PREFIX}LORA_TARGETS as when it was trained")
                res = peft.set_peft_model_state_dict(self.model, weights)
                # The KL reference: a start is its own reference; a resume
                # keeps the one its run started with (none: the base model).
                ref = os.path.join(path, REFERENCE_FILE)
                if weights_only:
                    self._ref_adapter = {k: v.detach().clone() for k, v in weights.items()}
                else:
                    self._ref_adapter = load_file(ref, device=str(self.device)) if os.path.isfile(ref) else None
                missing = [k for k in getattr(res, "unexpected_keys", []) if "lora" in k]
                if missing:
                    raise InputError(f"{path}: adapter weights do not fit this model ({missing[:3]} ...)")
            else:
                sd = {}
                for name in sorted(os.listdir(path)):
                    if name.endswith(".safetensors"):
                        sd.update(load_file(os.path.join(path, name), device=str(self.device)))
                if not sd:
                    raise InputError(f"{path}: no .safetensors weights")
                try:
                    missing, unexpected = self.model.load_state_dict(sd, strict=False)
                except RuntimeError as e:  # size mismatches: another model's weights
                    raise InputError(f"{path}: the weights do not fit this model (another model's?): "
                                     f"{str(e).splitlines()[0]}; set CUDAPERF_HF_MODEL to the model they were saved from")
                missing = [k for k in missing if not k.endswith("lm_head.weight")]  # tied to the embeddings
                if missing or unexpected:
                    raise InputError(f"{path}: weights do not fit this model (missing {missing[:3]}, unexpected {unexpected[:3]})")
            self.optimizer = None
            opt_path = os.path.join(path, OPTIMIZER_FILE)
            if not weights_only and os.path.isfile(opt_path):
                opt = self._optimizer(self.cfg.hyper({}, self.device.type))
                opt.load_state_dict(torch.load(opt_path, map_location=self.device, weights_only=True))
            self.steps = 0 if weights_only else int(st.get("steps", 0))
            self.model.eval()


def _linear_names(model):
    """The names of the model's linear layers (what LoRA can adapt)."""
    import torch.nn as nn
    return {name.rsplit(".", 1)[-1] for name, m in model.named_modules() if isinstance(m, nn.Linear) and name}


def _chunks(xs, n):
    n = max(1, int(n))
    for i in range(0, len(xs), n):
        yield xs[i:i + n]


def _end_ids(tok):
    """The tokens that end an answer: <|im_end|> for chat models (the SmolLM2
    GGUF's metadata names <|endoftext|> instead, which the Instruct model
    never emits after an answer), and the tokenizer's own end token."""
    ids = []
    im_end = tok.convert_tokens_to_ids(_CHATML_END)
    if isinstance(im_end, int) and im_end != tok.unk_token_id and im_end is not None:
        ids.append(im_end)
    if tok.eos_token_id is not None and tok.eos_token_id not in ids:
        ids.append(tok.eos_token_id)
    if not ids:
        raise InputError("the tokenizer has no end token (<|im_end|> or eos); use a chat model")
    return ids


def _load(cfg):
    """(tokenizer, model) from a Hugging Face folder or a .gguf file, in float32.

    A .gguf file is converted once into a folder under cfg.cache_dir() and
    read from there afterwards (see Settings.cache)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer
    path = cfg.model_path()
    if path.endswith(".gguf"):
        cached = gguf_cache_folder(path, cfg.cache_dir())
        if cached and os.path.isfile(os.path.join(cached, "config.json")):
            path = cached
        else:
            folder, name = os.path.split(path)
            tok = AutoTokenizer.from_pretrained(folder, gguf_file=name)
            model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
            if cached:
                save_converted(tok, model, cached)
            return tok, model
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    return tok, model


def gguf_cache_folder(path, root):
    """Where the conversion of the GGUF file at path is kept under root
    (None: no cache). The name holds the file's size and modification time,
    so a replaced file is converted again."""
    if not root:
        return None
    st = os.stat(path)
    stem = os.path.basename(path)[:-len(".gguf")]
    return os.path.join(root, f"{stem}-{st.st_size}-{st.st_mtime_ns}")


def save_converted(tok, model, dest):
    """Writes a GGUF-loaded model as a float32 Hugging Face folder, atomically
    (a folder renamed into place, so a crash leaves no half-written model).
    A cache that cannot be written is reported and skipped: the model
    already loaded is used either way."""
    import safetensors.torch
    tmp = None
    try:
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".converting-", dir=os.path.dirname(dest))
        conf = copy.deepcopy(model.config)
        if hasattr(conf, "quantization_config"):
            del conf.quantization_config  # the weights are plain float32 now
        conf.save_pretrained(tmp)
        model.generation_config.save_pretrained(tmp)
        safetensors.torch.save_model(model, os.path.join(tmp, "model.safetensors"))  # tied weights once
        tok.save_pretrained(tmp)
        os.rename(tmp, dest)
        tmp = None
    except OSError as e:
        if not os.path.isfile(os.path.join(dest, "config.json")):  # not another process's win
            print(f"hf policy: could not keep the converted model in {dest} ({e}); loading the .gguf "
                  f"again next time (set {settings_mod.ENV_PREFIX}CACHE to a writable folder, or off)",
                  file=sys.stderr, flush=True)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
