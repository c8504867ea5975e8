"""GRPO and SFT losses on token log-probabilities (pure torch, no model, no proto).

Shapes: every per-token tensor is (batch, tokens) with a 0/1 float mask that
marks the completion's real tokens (padding is 0). Advantages and weights are
(batch,).

GRPO (Shao et al. 2024, DeepSeekMath), per token t of completion i:

    r   = exp(logp - old_logp)                      importance ratio
    s   = min(r * A_i, clip(r, 1 - eps, 1 + eps) * A_i)   clipped surrogate
    kl  = exp(ref - logp) - (ref - logp) - 1        k3 estimator of KL(pi || ref)
    l_t = -(s - beta * kl)

and the loss is the mean over tokens of each completion, then the mean over
completions (every completion counts the same whatever its length, as in the
paper). With old_logp equal to logp (one optimiser step per batch of samples)
r is 1 and the gradient is A_i * grad logp; the clip matters from the second
step on the same samples.
"""

import torch


def grpo_token_loss(logp, old_logp, advantages, mask, clip_eps=0.2, kl_coef=0.0, ref_logp=None):
    """Per-token GRPO loss and statistics.

    Returns (loss_per_token, stats) where loss_per_token is (batch, tokens),
    zero on padding, and stats holds detached per-token tensors: ratio, the
    clipped indicator and kl (zeros without a reference).
    """
    adv = advantages.unsqueeze(1)
    ratio = torch.exp(logp - old_logp)
    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * adv
    surrogate = torch.minimum(unclipped, clipped)
    if kl_coef and ref_logp is not None:
        d = ref_logp - logp
        kl = torch.exp(d) - d - 1.0
    else:
        kl = torch.zeros_like(logp)
    loss = -(surrogate - kl_coef * kl) * mask
    stats = {
        "ratio": ratio.detach(),
        "clipped": (clipped < unclipped).float().detach(),
        "kl": kl.detach(),
    }
    return loss, stats


def sequence_mean(per_token, mask):
    """Mean over each row's real tokens: (batch, tokens) -> (batch,). Empty rows give 0."""
    return (per_token * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)


def grpo_loss(logp, old_logp, advantages, mask, clip_eps=0.2, kl_coef=0.0, ref_logp=None, n_total=None):
    """The GRPO loss of a micro-batch, scaled for gradient accumulation.

    n_total is the number of completions in the whole Update (all micro-batches),
    so that summing the micro-batch losses gives the mean over completions.
    Returns (loss, stats) with stats as plain floats summed over the micro-batch
    (ratio_sum, clipped_sum, kl_sum over real tokens, and tokens).
    """
    per_token, st = grpo_token_loss(logp, old_logp, advantages, mask, clip_eps, kl_coef, ref_logp)
    n = n_total if n_total else logp.shape[0]
    loss = sequence_mean(per_token, mask).sum() / n
    stats = {
        "tokens": float(mask.sum()),
        "ratio_sum": float((st["ratio"] * mask).sum()),
        "clipped_sum": float((st["clipped"] * mask).sum()),
        "kl_sum": float((st["kl"] * mask).sum()),
    }
    return loss, stats


def sft_loss(logp, mask, weights, weighted_tokens_total):
    """Weighted negative log-likelihood of a micro-batch, for accumulation.

    Each token of completion i counts weights[i]; the sum over micro-batches is
    the weighted mean NLL per token when weighted_tokens_total is
    sum_i weights[i] * tokens_i over the whole Update. Token-level (not
    per-sequence) averaging, so a long kernel teaches as much per token as a
    short one.
    """
    nll = -(logp * mask).sum(dim=1)
    return (weights * nll).sum() / weighted_tokens_total
