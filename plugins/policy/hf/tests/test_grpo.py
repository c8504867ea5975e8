"""The GRPO and SFT losses against hand-computed values."""

import math

import pytest
import torch

import grpo


def t(rows):
    return torch.tensor(rows, dtype=torch.float64)


def test_clipped_surrogate_each_case():
    # One token per row; ratios 1.5 and 0.5 with advantages +1 and -1.
    old = t([[0.0], [0.0], [0.0], [0.0]])
    logp = t([[math.log(1.5)], [math.log(0.5)], [math.log(1.5)], [math.log(0.5)]])
    adv = t([1.0, 1.0, -1.0, -1.0])
    mask = t([[1.0]] * 4)
    loss, st = grpo.grpo_token_loss(logp, old, adv, mask, clip_eps=0.2)
    # min(r A, clip(r) A): +A above 1+eps is capped at 1.2; +A below 1-eps keeps
    # r (0.5, no floor: pessimistic); -A above 1+eps keeps r (-1.5); -A below
    # 1-eps is floored at -0.8.
    assert loss[:, 0].tolist() == pytest.approx([-1.2, -0.5, 1.5, 0.8])
    assert st["clipped"][:, 0].tolist() == [1.0, 0.0, 0.0, 1.0]


def test_clipped_gradient_is_zero_where_clipped():
    logp = t([[math.log(1.5)], [math.log(0.5)]]).requires_grad_()
    loss, _ = grpo.grpo_token_loss(logp, t([[0.0], [0.0]]), t([1.0, -1.0]), t([[1.0], [1.0]]), clip_eps=0.2)
    loss.sum().backward()
    assert logp.grad[:, 0].tolist() == [0.0, 0.0]


def test_unclipped_gradient_is_minus_advantage():
    # ratio 1: d/dlogp of -(r A) = -A.
    logp = t([[0.3, -1.0]]).requires_grad_()
    loss, _ = grpo.grpo_token_loss(logp, logp.detach(), t([2.0]), t([[1.0, 1.0]]))
    loss.sum().backward()
    assert logp.grad[0].tolist() == pytest.approx([-2.0, -2.0])


def test_kl_k3_value():
    logp, ref = t([[-1.0]]), t([[-1.5]])
    loss, st = grpo.grpo_token_loss(logp, logp, t([0.0]), t([[1.0]]), kl_coef=0.1, ref_logp=ref)
    d = -0.5
    kl = math.exp(d) - d - 1  # 0.10653...
    assert st["kl"][0, 0].item() == pytest.approx(kl)
    assert loss[0, 0].item() == pytest.approx(0.1 * kl)
    # No reference or a zero weight: no KL term.
    loss0, st0 = grpo.grpo_token_loss(logp, logp, t([0.0]), t([[1.0]]), kl_coef=0.0, ref_logp=ref)
    assert loss0[0, 0].item() == 0.0 and st0["kl"][0, 0].item() == 0.0


def test_grpo_loss_means_per_sequence_then_over_all_rollouts():
    # Row 0 has 2 real tokens, row 1 has 1 (the second column is padding).
    logp = t([[0.0, 0.0], [0.0, 5.0]])
    mask = t([[1.0, 1.0], [1.0, 0.0]])
    adv = t([1.0, 3.0])
    # ratio 1 everywhere real: per-token loss = -A; sequence means -1 and -3;
    # this micro-batch is 2 of 4 rollouts: (-1 - 3) / 4.
    loss, st = grpo.grpo_loss(logp, logp, adv, mask, n_total=4)
    assert loss.item() == pytest.approx(-1.0)
    assert st["tokens"] == 3.0 and st["ratio_sum"] == pytest.approx(3.0) and st["clipped_sum"] == 0.0


def test_sft_loss_weights_tokens():
    logp = t([[-1.0, -3.0], [-2.0, 0.0]])
    mask = t([[1.0, 1.0], [1.0, 0.0]])
    w = t([1.0, 2.0])
    total = 1.0 * 2 + 2.0 * 1
    # (1 * (1 + 3) + 2 * 2) / 4 = 2
    assert grpo.sft_loss(logp * mask, mask, w, total).item() == pytest.approx(2.0)
