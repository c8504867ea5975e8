"""The engine on a tiny randomly initialised SmolLM2-shaped model (CPU, no download)."""

import json
import os

import pytest
import torch

import engine
import settings

PROMPT = [("user", "Write a CUDA kernel that adds two vectors.")]
PROMPT2 = [("system", "You write CUDA."), ("user", "Reduce an array: sum of x[i] for i < n, as fast as you can.")]


def make(tiny_model, **kw):
    cfg = settings.Settings(model=tiny_model, device="cpu", micro_batch=3, **kw)
    cfg.validate()
    torch.manual_seed(0)
    return engine.Engine(cfg)


@pytest.fixture(scope="module")
def eng(tiny_model):
    return make(tiny_model)


def reference_logprobs(e, messages, token_ids):
    """Per-token log-probabilities by a plain unpadded forward pass."""
    p = e.encode_prompt(messages)
    ids = torch.tensor([p + list(token_ids)])
    with torch.no_grad():
        logits = e.model(input_ids=ids).logits[0].float()
    lp = torch.log_softmax(logits, -1)
    return [lp[len(p) - 1 + j, t].item() for j, t in enumerate(token_ids)]


def test_generate_shapes_and_logprobs_match_a_forward_pass(eng):
    out = eng.generate([PROMPT, PROMPT2], group_size=3, temperature=1.0, max_tokens=12, seed=7)
    assert [len(g) for g in out] == [3, 3]
    lengths = set()
    for msgs, group in zip([PROMPT, PROMPT2], out):
        for s in group:
            assert 1 <= len(s.token_ids) <= 12
            assert len(s.logprobs) == len(s.tokens) == len(s.token_ids)
            assert s.prompt_tokens == len(eng.encode_prompt(msgs))
            assert s.finish_reason == ("stop" if s.token_ids[-1] in eng.end_ids else "length")
            assert all(lp <= 0 for lp in s.logprobs)
            # Left padding (the prompts differ in length) must not change them.
            assert s.logprobs == pytest.approx(reference_logprobs(eng, msgs, s.token_ids), abs=1e-4)
            lengths.add(len(s.token_ids))
    assert out[0][0].text == eng.tokenizer.decode(out[0][0].token_ids, skip_special_tokens=True)


def test_generate_is_reproducible_with_a_seed_and_greedy_is_deterministic(eng):
    a = eng.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=8, seed=3)
    b = eng.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=8, seed=3)
    assert [s.token_ids for s in a[0]] == [s.token_ids for s in b[0]]
    g = eng.generate([PROMPT], group_size=2, temperature=0, max_tokens=8)
    assert g[0][0].token_ids == g[0][1].token_ids


def test_completion_length_keeps_the_end_token_and_cuts_at_stop_strings(eng):
    tok = eng.tokenizer
    ids = tok("ab```cd", add_special_tokens=False)["input_ids"]
    end = eng.end_ids[0]
    assert eng._completion_length(ids + [end, end, end], []) == (len(ids) + 1, "stop")
    assert eng._completion_length(ids, []) == (len(ids), "length")
    # "```" is complete at the 5th byte token.
    assert eng._completion_length(ids + [end], ["```"]) == (5, "stop")


def test_prompts_too_long_for_max_tokens_do_not_fail_the_batch(eng, capsys):
    """A prompt with less room than max_tokens is sampled alone with the
    room it has; one with none gets empty completions (finish_reason
    "context") that Update leaves out. Either had failed the whole batch,
    and a resumed run made the same prompt and failed again."""
    over = [("user", "x" * 3000)]
    assert len(eng.encode_prompt(over)) >= eng.context
    tight = [("user", "y " * 600)]
    n_tight = len(eng.encode_prompt(tight))
    room = eng.context - n_tight
    assert 0 < room < 2000 - len(eng.encode_prompt(PROMPT))
    max_tokens = room + 40
    a, b, c = eng.generate([PROMPT, tight, over], group_size=2, temperature=1.0, max_tokens=max_tokens, seed=5,
                           prompt_names=["short", "tight", "over"])
    assert all(len(s.token_ids) <= max_tokens for s in a)
    assert all(0 < len(s.token_ids) <= room and s.prompt_tokens == n_tight for s in b)
    assert [(s.text, s.token_ids, s.finish_reason) for s in c] == [("", [], engine.CONTEXT_FINISH)] * 2
    assert "tight (" in capsys.readouterr().err
    st = eng.update(rollouts(eng, PROMPT, a, [1.0, -1.0]) + rollouts(eng, over, c, [-1.0, -1.0]), "grpo",
                    {"learning_rate": 1e-3})
    assert st["skipped_over_context"] == 2.0 and st["rollouts"] == 4.0 and st["tokens"] > 0
    # Only unsampled ones: the same prompt with a completion is still an error.
    with pytest.raises(engine.InputError, match="exceed the model's context of 2048"):
        eng.update([engine.Example(messages=over, completion="x", advantage=1.0)], "grpo", {})
    st = eng.update(rollouts(eng, over, c, [-1.0, 1.0]), "grpo", {})
    assert st["skipped_over_context"] == 2.0 and st["tokens"] == 0.0


def rollouts(e, prompt, group, advantages):
    return [engine.Example(messages=prompt, completion=s.text, advantage=a, token_ids=s.token_ids,
                           old_logprobs=s.logprobs) for s, a in zip(group, advantages)]


@pytest.mark.parametrize("mode,lr", [("lora", 2e-2), ("full", 2e-3)])
def test_update_raises_logprob_of_positive_advantage_completions(tiny_model, mode, lr):
    e = make(tiny_model, mode=mode)
    (group,) = e.generate([PROMPT], group_size=4, temperature=1.0, max_tokens=10, seed=11)
    adv = [1.0, -1.0, 1.0, -1.0]
    before = [e.logprob_of(PROMPT, s.token_ids) for s in group]
    first = e.update(rollouts(e, PROMPT, group, adv), "grpo", {"learning_rate": lr})
    # Fresh samples: the sampling policy is the current one, so the ratio is 1.
    assert first["ratio_mean"] == pytest.approx(1.0, abs=1e-4)
    assert first["clip_fraction"] == 0.0 and first["micro_batches"] == 2.0
    for _ in range(3):
        st = e.update(rollouts(e, PROMPT, group, adv), "grpo", {"learning_rate": lr})
    # Later steps on the same samples move away from them: the clip can bite.
    assert st["ratio_mean"] != pytest.approx(1.0, abs=1e-6)
    after = [e.logprob_of(PROMPT, s.token_ids) for s in group]
    for a, b0, b1 in zip(adv, before, after):
        assert (b1 > b0) if a > 0 else (b1 < b0), (mode, a, b0, b1)


def test_zero_advantages_leave_the_model_unchanged(tiny_model):
    e = make(tiny_model)
    (group,) = e.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=6, seed=5)
    before = e.logprob_of(PROMPT, group[0].token_ids)
    st = e.update(rollouts(e, PROMPT, group, [0.0, 0.0]), "grpo", {"learning_rate": 1e-1})
    assert st["grad_norm"] == 0.0
    assert e.logprob_of(PROMPT, group[0].token_ids) == pytest.approx(before, abs=1e-6)


def test_kl_term_is_zero_at_the_start_and_grows_with_training(tiny_model):
    e = make(tiny_model)
    (group,) = e.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=6, seed=5)
    h = {"learning_rate": 5e-2, "kl_coef": 0.1}
    first = e.update(rollouts(e, PROMPT, group, [1.0, -1.0]), "grpo", h)
    assert first["kl"] == pytest.approx(0.0, abs=1e-7)  # LoRA starts as the identity
    later = e.update(rollouts(e, PROMPT, group, [1.0, -1.0]), "grpo", h)
    assert later["kl"] > 1e-6


def test_kl_reference_is_the_runs_start_and_survives_a_resume(tiny_model, tmp_path):
    """From a start (a weights_only Load of an SFT result) the KL term is 0
    at the first step: the reference is that start, not the base model (it
    was, and pulled towards the model before SFT). A resume keeps it."""
    a = make(tiny_model)
    for _ in range(3):
        a.update([engine.Example(messages=PROMPT, completion="abc")], "sft", {"learning_rate": 3e-2})
    start = str(tmp_path / "sft")
    a.save(start)
    b = make(tiny_model)
    b.load(start, weights_only=True)
    (group,) = b.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=6, seed=5)
    h = {"learning_rate": 5e-2, "kl_coef": 0.1}
    first = b.update(rollouts(b, PROMPT, group, [1.0, -1.0]), "grpo", h)
    assert first["kl"] == pytest.approx(0.0, abs=1e-7)
    b.update(rollouts(b, PROMPT, group, [1.0, -1.0]), "grpo", h)
    ck = str(tmp_path / "step2")
    b.save(ck)
    assert os.path.isfile(os.path.join(ck, engine.REFERENCE_FILE))
    c = make(tiny_model)
    c.load(ck)  # a resume
    nb = b.update(rollouts(b, PROMPT, group, [1.0, -1.0]), "grpo", h)
    nc = c.update(rollouts(c, PROMPT, group, [1.0, -1.0]), "grpo", h)
    assert nb["kl"] > 1e-6 and nc["kl"] == pytest.approx(nb["kl"], rel=1e-4)
    # The resumed policy took the same step: the reference, swapped in
    # and out for the KL term, left the trained weights as they were.
    assert c.logprob_of(PROMPT, group[0].token_ids) == pytest.approx(b.logprob_of(PROMPT, group[0].token_ids), abs=1e-5)


def test_sft_lowers_the_loss_and_weights_count(tiny_model):
    e = make(tiny_model)
    good = engine.Example(messages=PROMPT, completion="__global__ void add(float*a){a[0]+=1;}", weight=4.0)
    plain = engine.Example(messages=PROMPT2, completion="__global__ void sum(){}", weight=0.5)
    nll = lambda ex: -e.logprob_of(ex.messages, e.tokenizer(ex.completion, add_special_tokens=False)["input_ids"] + [e.end_ids[0]])
    g0, p0 = nll(good), nll(plain)
    losses = [e.update([good, plain], "sft", {"learning_rate": 3e-3})["loss"] for _ in range(6)]
    assert all(b < a for a, b in zip(losses, losses[1:])) and losses[-1] < losses[0] - 0.1, losses
    assert nll(good) < g0 and nll(plain) < p0
    # The heavier example improved more per token.
    ng = len(e.tokenizer(good.completion)["input_ids"]) + 1
    npl = len(e.tokenizer(plain.completion)["input_ids"]) + 1
    assert (g0 - nll(good)) / ng > (p0 - nll(plain)) / npl


def test_gradient_checkpointing_changes_memory_not_the_update(tiny_model):
    # The CPU trains with checkpointing and one example per pass by default
    # (a 24 GiB machine ran out of memory without); the update must be the
    # one it would be without either, to float tolerance.
    exs = [engine.Example(messages=PROMPT, completion="__global__ void add(float*a){a[0]+=1;}"),
           engine.Example(messages=PROMPT2, completion="__global__ void sum(float*s){atomicAdd(s,1.f);}", weight=2.0)]
    stats = {}
    for gc, mb in (("off", 3), ("on", 1)):
        torch.manual_seed(0)
        cfg = settings.Settings(model=tiny_model, device="cpu", micro_batch=mb, grad_checkpoint=gc)
        cfg.validate()
        e = engine.Engine(cfg)
        on = getattr(e.model, "is_activation_checkpointing", None)
        assert (e.model.is_gradient_checkpointing if on is None else on) == (gc == "on")
        stats[gc] = e.update(exs, "sft", {"learning_rate": 1e-2})
        stats[gc]["after"] = -e.logprob_of(PROMPT, e.tokenizer(exs[0].completion, add_special_tokens=False)["input_ids"])
    for k in ("loss", "grad_norm", "tokens", "after"):
        assert stats["on"][k] == pytest.approx(stats["off"][k], rel=1e-4), k
    assert stats["on"]["micro_batches"] == 2 and stats["off"]["micro_batches"] == 1


def test_training_memory_settings():
    cfg = settings.Settings.from_env({})
    assert (cfg.micro_batch, cfg.grad_checkpoint) == (0, "auto")
    assert cfg.resolved_micro_batch("cuda") == 8 and cfg.resolved_micro_batch("cpu") == 1
    assert cfg.resolved_grad_checkpoint("cpu") and not cfg.resolved_grad_checkpoint("cuda")
    assert cfg.hyper({}, "cpu")["micro_batch_size"] == 1 and cfg.hyper({}, "cuda")["micro_batch_size"] == 8
    assert cfg.hyper({"learning_rate": 3e-4}, "cpu")["learning_rate"] == 3e-4
    with pytest.raises(settings.SettingsError, match="unknown learning_rat; the hf policy takes .*learning_rate"):
        cfg.hyper({"learning_rat": 3e-4}, "cpu")
    set_ = settings.Settings.from_env({"CUDAPERF_HF_MICRO_BATCH": "4", "CUDAPERF_HF_GRAD_CHECKPOINT": "off"})
    assert set_.resolved_micro_batch("cpu") == 4 and not set_.resolved_grad_checkpoint("cpu")
    with pytest.raises(settings.SettingsError, match="GRAD_CHECKPOINT='yes': use auto, on or off"):
        settings.Settings.from_env({"CUDAPERF_HF_GRAD_CHECKPOINT": "yes"})
    with pytest.raises(settings.SettingsError, match="MICRO_BATCH=-1: must be >= 1, or 0"):
        settings.Settings.from_env({"CUDAPERF_HF_MICRO_BATCH": "-1"})
    with pytest.raises(settings.SettingsError, match="DEVICE='tpu': use auto, cpu, cuda or cuda:N"):
        settings.Settings.from_env({"CUDAPERF_HF_DEVICE": "tpu"})
    assert settings.Settings.from_env({"CUDAPERF_HF_DEVICE": "cuda:1"}).resolved_device() == "cuda:1"


def test_a_non_finite_loss_skips_the_step_and_leaves_the_weights(tiny_model, monkeypatch):
    # On the H200 one SFT update's loss turned NaN and its step made every
    # weight NaN for good; the step must be skipped and reported instead.
    e = make(tiny_model)
    ex = engine.Example(messages=PROMPT, completion="__global__ void add(float*a){a[0]+=1;}", weight=1.0)
    ids = e.tokenizer(ex.completion, add_special_tokens=False)["input_ids"] + [e.end_ids[0]]
    before = e.logprob_of(PROMPT, ids)
    score = e._score

    def poisoned(pairs, model=None, temperature=1.0):
        logp, mask = score(pairs, model, temperature)
        return logp * float("nan"), mask

    monkeypatch.setattr(e, "_score", poisoned)
    st = e.update([ex], "sft", {"learning_rate": 1e-1})
    assert st["skipped_nonfinite"] == 1.0 and st["longest_completion"] == len(ids)
    monkeypatch.setattr(e, "_score", score)
    after = e.logprob_of(PROMPT, ids)
    assert after == pytest.approx(before, abs=1e-6)
    # The next, finite update trains as usual.
    st = e.update([ex], "sft", {"learning_rate": 1e-2})
    assert "skipped_nonfinite" not in st and e.logprob_of(PROMPT, ids) > after


def test_padding_cannot_bring_nan_into_the_log_probabilities(eng):
    # Two prompts of very different lengths: the shorter is left-padded and
    # the shorter completion right-padded; padded positions must read 0.
    long = [("user", "Write a CUDA kernel. " * 20)]
    p1, p2 = eng.encode_prompt(PROMPT), eng.encode_prompt(long)
    lp, mask = eng._score([(p1, [10, 11, 12, 13]), (p2, [10])])
    assert torch.isfinite(lp).all() and lp[1, 1:].abs().sum() == 0 and mask[1].sum() == 1
    # Batched with padding, each row scores as it does alone.
    assert lp[0].tolist() == pytest.approx(reference_logprobs(eng, PROMPT, [10, 11, 12, 13]), abs=1e-4)
    assert lp[1, 0].item() == pytest.approx(reference_logprobs(eng, long, [10])[0], abs=1e-4)


def test_sft_rejects_negative_weights(tiny_model):
    e = make(tiny_model)
    with pytest.raises(engine.InputError, match=">= 0"):
        e.update([engine.Example(messages=PROMPT, completion="x", weight=-1.0)], "sft")


def test_mismatched_logprobs_are_rejected(tiny_model):
    e = make(tiny_model)
    ex = engine.Example(messages=PROMPT, completion="ab", advantage=1.0, token_ids=[10, 11], old_logprobs=[-1.0])
    with pytest.raises(engine.InputError, match="1 logprobs for 2 tokens"):
        e.update([ex], "grpo")


def test_save_load_round_trip_resumes_exactly(tiny_model, tmp_path):
    a = make(tiny_model)
    (group,) = a.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=6, seed=2)
    ro = rollouts(a, PROMPT, group, [1.0, -1.0])
    h = {"learning_rate": 1e-2}
    a.update(ro, "grpo", h)
    ck = str(tmp_path / "ck")
    a.save(ck)
    a.save(ck)  # replacing an existing checkpoint works
    assert sorted(os.listdir(ck)) == ["adapter_config.json", "adapter_model.safetensors", "optimizer.pt",
                                      "policy_state.json"]
    assert sorted(os.listdir(tmp_path)) == ["ck"]  # no temporary folders left behind
    b = make(tiny_model)
    assert b.logprob_of(PROMPT, group[0].token_ids) != pytest.approx(a.logprob_of(PROMPT, group[0].token_ids), abs=1e-6)
    b.load(ck)
    assert b.steps == 1
    assert b.logprob_of(PROMPT, group[0].token_ids) == pytest.approx(a.logprob_of(PROMPT, group[0].token_ids), abs=1e-6)
    # The optimiser state came along: the next step is the same on both.
    a.update(ro, "grpo", h)
    b.update(ro, "grpo", h)
    assert b.logprob_of(PROMPT, group[1].token_ids) == pytest.approx(a.logprob_of(PROMPT, group[1].token_ids), abs=1e-6)


def test_a_start_loads_the_weights_not_the_optimiser(tiny_model, tmp_path):
    """A run's start (policy.init: weights_only) is the weights alone: with
    SFT's AdamW moments a zero-advantage GRPO step still moved the policy."""
    a = make(tiny_model)
    for _ in range(3):
        a.update([engine.Example(messages=PROMPT, completion="abc")], "sft", {"learning_rate": 1e-2})
    ck = str(tmp_path / "sft")
    a.save(ck)
    (group,) = a.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=6, seed=4)
    moved = {}
    for weights_only in (False, True):
        b = make(tiny_model)
        b.load(ck, weights_only=weights_only)
        assert b.steps == (0 if weights_only else 3)
        before = b.logprob_of(PROMPT, group[0].token_ids)
        assert before == pytest.approx(a.logprob_of(PROMPT, group[0].token_ids), abs=1e-6)
        b.update(rollouts(b, PROMPT, group, [0.0, 0.0]), "grpo", {"learning_rate": 1e-2})
        moved[weights_only] = abs(b.logprob_of(PROMPT, group[0].token_ids) - before)
    assert moved[True] < 1e-6 < moved[False], moved


def test_full_mode_save_load(tiny_model, tmp_path):
    a = make(tiny_model, mode="full")
    a.update([engine.Example(messages=PROMPT, completion="abc")], "sft", {"learning_rate": 1e-2})
    a.save(str(tmp_path / "full"))
    b = make(tiny_model, mode="full")
    b.load(str(tmp_path / "full"))
    ids = [40, 41, 42]
    assert b.logprob_of(PROMPT, ids) == pytest.approx(a.logprob_of(PROMPT, ids), abs=1e-6)


def test_load_errors_name_the_fix(tiny_model, tmp_path):
    e = make(tiny_model)
    with pytest.raises(engine.InputError, match="written by this policy's Save"):
        e.load(str(tmp_path / "missing"))
    full = make(tiny_model, mode="full")
    full.save(str(tmp_path / "f"))
    with pytest.raises(engine.InputError, match="CUDAPERF_HF_MODE=full"):
        e.load(str(tmp_path / "f"))


def test_load_refuses_another_adapter_or_model(tiny_model, tmp_path):
    """A checkpoint loads only into the policy it was made by: the same
    alpha, targets and model (another alpha loaded silently and ran another
    policy; other targets swapped the weights, then failed as a plugin bug;
    another model of the same shape loaded without a word)."""
    a = make(tiny_model)
    ck = str(tmp_path / "ck")
    a.save(ck)
    with pytest.raises(engine.InputError, match="lora_alpha 16.0, this policy has 64.0; set CUDAPERF_HF_LORA_ALPHA=16.0"):
        make(tiny_model, lora_alpha=64.0).load(ck)
    qv = make(tiny_model, lora_targets=["q_proj", "v_proj"])
    qv.save(str(tmp_path / "qv"))
    make(tiny_model, lora_targets=["v_proj", "q_proj"]).load(str(tmp_path / "qv"))  # the same set of targets
    other = make(tiny_model, lora_targets=["q_proj", "v_proj"])
    before = {k: v.clone() for k, v in other.model.state_dict().items()}
    with pytest.raises(engine.InputError, match="lora_targets all-linear, this policy has"):
        other.load(ck)
    state = json.load(open(os.path.join(ck, engine.STATE_FILE)))
    del state["lora_targets"]  # as a checkpoint from before targets were recorded
    json.dump(state, open(os.path.join(ck, engine.STATE_FILE), "w"))
    with pytest.raises(engine.InputError, match="adapts other modules than this policy"):
        other.load(ck)
    assert all(torch.equal(v, before[k]) for k, v in other.model.state_dict().items())
    state["model"] = "another-model"
    json.dump(state, open(os.path.join(ck, engine.STATE_FILE), "w"))
    with pytest.raises(engine.InputError, match="saved by a policy on model another-model"):
        a.load(ck)


def test_lora_settings_that_train_nothing_are_refused(tiny_model):
    with pytest.raises(settings.SettingsError, match="LORA_ALPHA=0.0: must be > 0"):
        make(tiny_model, lora_alpha=0.0)
    with pytest.raises(settings.SettingsError, match="LORA_TARGETS names vproj, which names no layer of the model"):
        make(tiny_model, lora_targets=["q_proj", "vproj"])
    with pytest.raises(settings.SettingsError, match="LORA_TARGETS names mlp, which names no layer"):
        make(tiny_model, lora_targets=["mlp"])  # a module, but not one LoRA adapts
    make(tiny_model, lora_targets=["self_attn.q_proj"])  # a dotted suffix, as PEFT matches


def test_settings_from_env_errors(tmp_path):
    with pytest.raises(settings.SettingsError, match="not a .gguf file nor a Hugging Face"):
        settings.Settings.from_env({"CUDAPERF_HF_MODEL": "/nonexistent"})
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(settings.SettingsError, match="the folder has no tokenizer"):
        settings.Settings.from_env({"CUDAPERF_HF_MODEL": str(tmp_path)})
    with pytest.raises(settings.SettingsError, match="use lora or full"):
        settings.Settings.from_env({"CUDAPERF_HF_MODEL": "/nonexistent", "CUDAPERF_HF_MODE": "qlora"})
    with pytest.raises(settings.SettingsError, match="LORA_R='x' is not a valid int"):
        settings.Settings.from_env({"CUDAPERF_HF_LORA_R": "x"})


def test_sampling_with_the_adapter_merged_matches_unmerged_and_restores_the_weights(tiny_model):
    e = make(tiny_model)
    (group,) = e.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=6, seed=4)
    e.update(rollouts(e, PROMPT, group, [1.0, -1.0]), "grpo", {"learning_rate": 1e-2})  # a non-zero adapter
    base = {k: v.clone() for k, v in e.model.state_dict().items() if "lora" not in k}
    merged = e.generate([PROMPT, PROMPT2], group_size=1, temperature=0, max_tokens=10)
    for k, v in e.model.state_dict().items():
        if "lora" not in k:
            assert torch.allclose(v, base[k], atol=1e-6), k
    e.cfg.merge_for_generate = False
    plain = e.generate([PROMPT, PROMPT2], group_size=1, temperature=0, max_tokens=10)
    assert [g[0].token_ids for g in merged] == [g[0].token_ids for g in plain]
    assert merged[1][0].logprobs == pytest.approx(plain[1][0].logprobs, abs=1e-6)


@pytest.mark.parametrize("mode", ["lora", "full"])
def test_sampling_copy_follows_the_trained_weights(tiny_model, mode):
    """The sampling copy (GEN_COPY) must sample what the trained model would:
    after an update that moves the weights, greedy tokens and log-probabilities
    equal those of sampling from the model itself (float32 copy: exact)."""
    e = make(tiny_model, mode=mode, gen_copy="float32")
    assert e._gen is not None
    (group,) = e.generate([PROMPT], group_size=2, temperature=1.0, max_tokens=6, seed=4)
    before = e.generate([PROMPT, PROMPT2], group_size=1, temperature=0, max_tokens=10)
    e.update(rollouts(e, PROMPT, group, [1.0, -1.0]), "grpo", {"learning_rate": 5e-2})
    copied = e.generate([PROMPT, PROMPT2], group_size=1, temperature=0, max_tokens=10)
    gen, e._gen = e._gen, None
    own = e.generate([PROMPT, PROMPT2], group_size=1, temperature=0, max_tokens=10)
    e._gen = gen
    assert [g[0].token_ids for g in copied] == [g[0].token_ids for g in own]
    assert copied[1][0].logprobs == pytest.approx(own[1][0].logprobs, abs=1e-6)
    # The update changed what greedy decoding produces or scores: a copy
    # that was never refreshed would still give the first answer.
    assert ([g[0].token_ids for g in copied] != [g[0].token_ids for g in before]
            or copied[0][0].logprobs != pytest.approx(before[0][0].logprobs, abs=1e-4))
    # A sampled group from the copy is reproducible with its seed.
    a = e.generate([PROMPT], group_size=3, temperature=1.0, max_tokens=8, seed=9)
    b = e.generate([PROMPT], group_size=3, temperature=1.0, max_tokens=8, seed=9)
    assert [s.token_ids for s in a[0]] == [s.token_ids for s in b[0]]


def test_gen_copy_setting():
    s = settings.Settings(model="", gen_copy="auto")
    assert s.gen_copy_dtype("cuda") == "bfloat16" and s.gen_copy_dtype("cpu") is None
    assert settings.Settings(gen_copy="off").gen_copy_dtype("cuda") is None
    assert settings.Settings(gen_copy="float32").gen_copy_dtype("cpu") == "float32"
    with pytest.raises(settings.SettingsError, match="GEN_COPY='int8': use one of auto, off"):
        settings.Settings.from_env({"CUDAPERF_HF_GEN_COPY": "int8"})


def test_static_cache_samples_what_the_dynamic_cache_samples(tiny_model):
    """GEN_CACHE=static (prompts padded to a fixed cache length, rows to a
    power of two with filler rows) must not change what greedy decoding
    produces, nor the log-probabilities, and the filler rows must not reach
    the answer."""
    e = make(tiny_model, gen_copy="float32")
    dyn = e.generate([PROMPT, PROMPT2], group_size=3, temperature=0, max_tokens=10)
    e.cfg.gen_cache = "static"
    st = e.generate([PROMPT, PROMPT2], group_size=3, temperature=0, max_tokens=10)
    assert [len(g) for g in st] == [3, 3]  # 6 rows were padded to 8
    assert [[s.token_ids for s in g] for g in st] == [[s.token_ids for s in g] for g in dyn]
    assert st[1][2].logprobs == pytest.approx(dyn[1][2].logprobs, abs=1e-5)


def test_static_shapes_are_few():
    """A compiled decoding step is specific to (rows, cache length): GRPO's
    first turns and refinement turns, and eval's batches, must map onto a
    handful of shapes, and padding must never exceed the model's context."""
    shape = engine.static_shape
    assert shape(1111, 768, 64, 8192) == (2048 - 768, 64)    # a first turn
    assert shape(1200, 768, 64, 8192) == (2048 - 768, 64)    # another: same shape
    assert shape(2400, 768, 64, 8192) == (4096 - 768, 64)    # refinement turns
    assert shape(3000, 768, 64, 8192) == (4096 - 768, 64)
    assert shape(900, 768, 36, 8192) == (2048 - 768, 64)     # eval: 9 tasks × 4
    assert shape(900, 768, 32, 8192) == (2048 - 768, 32)
    assert shape(10, 10, 1) == (1024 - 10, 1)
    assert shape(7000, 768, 3, 8192) == (8192 - 768, 4)      # the last length that fits
    assert shape(7500, 768, 3, 8192) == (7500, 4)            # none fits: the call's own width
    assert shape(9000, 768, 3, 0) == (16384 - 768, 4)        # unknown context: no cap


def test_failed_compiled_generation_falls_back_to_eager(tiny_model, capsys):
    """A compiled generate that raises (an inductor error, a CUDA-graph
    failure) is repeated without compiling, compilation stays off, and the
    run gets the same samples an eager call gives; a failure of the eager
    path itself is not hidden."""
    e = make(tiny_model, gen_copy="float32", gen_cache="static")
    want = e.generate([PROMPT], group_size=2, temperature=0, max_tokens=8)
    real = e._gen.generate
    calls = []

    def flaky(**kw):
        calls.append(kw["disable_compile"])
        if not kw["disable_compile"]:
            raise RuntimeError("InductorError: compile blew up")
        return real(**kw)

    e._gen.generate = flaky
    e.cfg.gen_compile = True
    got = e.generate([PROMPT], group_size=2, temperature=0, max_tokens=8)
    assert [s.token_ids for s in got[0]] == [s.token_ids for s in want[0]]
    assert calls == [False, True] and e.compile_failures == 1 and not e.cfg.gen_compile
    assert "compiled generation failed (RuntimeError: InductorError" in capsys.readouterr().err
    e.generate([PROMPT], group_size=1, temperature=0, max_tokens=8)
    assert calls[-1] is True  # not attempted again

    def broken(**kw):
        raise RuntimeError("CUDA out of memory")
    e._gen.generate = broken
    with pytest.raises(RuntimeError, match="out of memory"):
        e.generate([PROMPT], group_size=1, temperature=0, max_tokens=8)
    with pytest.raises(settings.SettingsError, match="GEN_COMPILE=1 needs"):
        settings.Settings.from_env({"CUDAPERF_HF_GEN_COMPILE": "1"})


def test_stats_lines_say_what_each_call_cost(tiny_model, tmp_path, capsys):
    """CUDAPERF_HF_STATS: one JSON line per Generate and Update, with the
    call's shape, its phases and whether compiling was asked for and kept;
    a file that cannot be written is said once and fails nothing."""
    path = tmp_path / "stats.jsonl"
    e = make(tiny_model, gen_copy="float32", gen_cache="static", stats=str(path))
    out = e.generate([PROMPT, PROMPT2], group_size=3, temperature=1.0, max_tokens=8, seed=3)
    e.update(rollouts(e, PROMPT, out[0], [1.0, -1.0, 0.0]), "grpo", {"learning_rate": 1e-3})
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["call"] for x in lines] == ["generate", "update"]
    g = lines[0]
    assert (g["prompts"], g["rows"], g["padded_rows"], g["max_tokens"], g["cache"]) == (2, 6, 8, 8, "static")
    assert g["compile"] is False and g["compile_failures"] == 0  # compiling not asked for
    assert 1 <= g["decode_steps"] <= 8 and g["width"] + 8 <= 1024
    assert g["completion_tokens"] == sum(len(s.token_ids) for grp in out for s in grp)
    assert 0 <= g["sample_s"] <= g["seconds"] and 0 <= g["score_s"] <= g["seconds"]
    assert lines[1]["rollouts"] == 3 and lines[1]["seconds"] > 0

    # Compiling asked for and failing: the line says it fell back.
    real = e._gen.generate

    def flaky(**kw):
        if not kw["disable_compile"]:
            raise RuntimeError("InductorError")
        return real(**kw)
    e._gen.generate = flaky
    e.cfg.gen_compile = True
    e.generate([PROMPT], group_size=1, temperature=0, max_tokens=4)
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["compile"] is False and last["compile_failures"] == 1

    e.cfg.stats = str(tmp_path / "missing" / "stats.jsonl")
    e.generate([PROMPT], group_size=1, temperature=0, max_tokens=4)
    e.generate([PROMPT], group_size=1, temperature=0, max_tokens=4)
    assert capsys.readouterr().err.count("cannot append to CUDAPERF_HF_STATS=") == 1 and e.cfg.stats == ""


def test_gguf_cache_folder_and_an_unwritable_cache(tmp_path, capsys):
    """The cache folder's name follows the file (size and time), no cache
    gives no folder, and a cache that cannot be written is reported, not
    fatal: the loaded model is used anyway."""
    f = tmp_path / "m.gguf"
    f.write_bytes(b"x" * 10)
    a = engine.gguf_cache_folder(str(f), str(tmp_path / "c"))
    assert os.path.dirname(a) == str(tmp_path / "c") and os.path.basename(a).startswith("m-10-")
    os.utime(f, ns=(1, 2))
    assert engine.gguf_cache_folder(str(f), str(tmp_path / "c")) != a
    assert engine.gguf_cache_folder(str(f), None) is None
    assert settings.Settings(cache="off").cache_dir() is None
    assert settings.Settings(cache=str(tmp_path)).cache_dir() == str(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    engine.save_converted(None, None, str(blocker / "sub" / "m"))
    assert "could not keep the converted model" in capsys.readouterr().err


def test_logprobs_are_those_of_the_tempered_policy_that_sampled(tiny_model):
    """Samples drawn at temperature T report log-probabilities of the
    tempered policy (logits / T), and Update told the same temperature
    starts from a ratio of 1; told another, the ratio is off (what GRPO
    would silently correct for before)."""
    e = make(tiny_model)
    (group,) = e.generate([PROMPT], group_size=3, temperature=0.7, max_tokens=8, seed=5)
    s = group[0]
    ids = e.encode_prompt(PROMPT)
    with torch.inference_mode():
        t07, _ = e._score([(ids, s.token_ids)], temperature=0.7)
        t1, _ = e._score([(ids, s.token_ids)])
    assert s.logprobs == pytest.approx(t07[0, :len(s.token_ids)].tolist(), abs=1e-5)
    assert s.logprobs != pytest.approx(t1[0, :len(s.token_ids)].tolist(), abs=1e-3)
    same = e.update(rollouts(e, PROMPT, group, [1.0, -1.0, 0.5]), "grpo", {"learning_rate": 1e-9, "temperature": 0.7})
    assert same["ratio_mean"] == pytest.approx(1.0, abs=1e-4)
    other = e.update(rollouts(e, PROMPT, group, [1.0, -1.0, 0.5]), "grpo", {"learning_rate": 1e-9})
    assert other["ratio_mean"] != pytest.approx(1.0, abs=1e-3)
    # Greedy samples are scored untempered.
    (greedy,) = e.generate([PROMPT], group_size=1, temperature=0, max_tokens=8)
    with torch.inference_mode():
        g1, _ = e._score([(ids, greedy[0].token_ids)])
    assert greedy[0].logprobs == pytest.approx(g1[0, :len(greedy[0].token_ids)].tolist(), abs=1e-5)


def test_each_static_call_gets_its_own_cache_length(tiny_model, monkeypatch):
    """A short call after a long one decodes over its own shape's cache,
    not the longest so far (transformers keeps the maximum by default)."""
    import transformers.generation.utils as gen_utils
    lengths = []
    real = gen_utils.StaticCache

    class Spy(real):
        def __init__(self, *a, **kw):
            lengths.append(kw.get("max_cache_len"))
            super().__init__(*a, **kw)
    monkeypatch.setattr(gen_utils, "StaticCache", Spy)
    e = make(tiny_model, gen_copy="float32", gen_cache="static")
    long_prompt = [("user", "Sum the array. " * 90)]  # over 1,024 - 8 tokens
    assert len(e.encode_prompt(long_prompt)) > 1024
    for p in (PROMPT, long_prompt, PROMPT):
        e.generate([p], group_size=2, temperature=0, max_tokens=8)
    assert lengths == [1023, 2047, 1023]  # (transformers: the cache holds all but the last token)
