"""paddle.nn.functional losses over sequences and structured outputs: CTC, RNN-T, hierarchical
sigmoid, adaptive log-softmax, multi-label margin, n-pair. Values, reductions and gradients
follow Paddle 3.3.1 as measured (see each op)."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ..._core import runtime_checks, trace_state
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._loss import _F, _PRIVATE, _reduce, check_reduction, loss_op

_INT = ("int32", "int64")


def _need_dtype(x, want: str, what: str, kernel: str) -> None:
    got = jnp.dtype(x.dtype).name
    if got != want:
        raise ValueError(
            f"(InvalidArgument) The type of data we are trying to retrieve ({want}) does not "
            f"match the type of data ({got}) currently contained in the container: {kernel}'s "
            f"{what} must be {want}."
        )


def _check_reduction_assert(reduction) -> None:
    # Paddle's ctc_loss and rnnt_loss check the reduction with an assert
    if reduction not in ("none", "mean", "sum"):
        raise AssertionError(f"reduction should be 'none', 'mean' or 'sum', got {reduction!r}")


# -- CTC --------------------------------------------------------------------------------------
@op(
    "ctc_loss",
    tensors=("log_probs", "labels", "input_lengths", "label_lengths"),
    **_F,
)
def ctc_loss(
    log_probs: jax.Array,
    labels: jax.Array,
    input_lengths: jax.Array,
    label_lengths: jax.Array,
    blank: int = 0,
    reduction: str = "mean",
    norm_by_times: bool = False,
    zero_infinity: bool = False,
) -> jax.Array:
    """Connectionist temporal classification loss (optax's forward algorithm).

    ``log_probs`` is [max_logit_length, batch, num_classes + 1] of unnormalized logits (Paddle's
    warpctc applies the softmax itself), ``labels`` int32 [batch, max_label_length], the
    lengths int64 [batch]. ``mean`` divides each loss by its label length, then averages;
    ``norm_by_times`` scales the gradient (not the value) by 1 / input length. An alignment
    that cannot fit (labels plus repeats longer than the input) gives loss 0 and gradient 0,
    as Paddle's kernel does, whatever ``zero_infinity`` says."""
    _check_reduction_assert(reduction)
    _need_dtype(labels, "int32", "Label", "warpctc")
    _need_dtype(input_lengths, "int64", "LogitsLength", "warpctc")
    _need_dtype(label_lengths, "int64", "LabelLength", "warpctc")
    t_max, _, _ = log_probs.shape
    l_max = labels.shape[1]
    il = input_lengths.astype(jnp.int32)
    ll = label_lengths.astype(jnp.int32)
    logits = jnp.transpose(log_probs, (1, 0, 2))
    logit_pad = (jnp.arange(t_max)[None, :] >= il[:, None]).astype(log_probs.dtype)
    label_pad = (jnp.arange(l_max)[None, :] >= ll[:, None]).astype(log_probs.dtype)
    lab = labels.astype(jnp.int32)
    loss = optax.ctc_loss(logits, logit_pad, lab, label_pad, blank_id=blank)
    loss = loss.astype(log_probs.dtype)  # optax promotes to float64 under jax_enable_x64
    # feasibility: each repeated label needs a blank between, so L + repeats frames at least
    rep = (lab[:, 1:] == lab[:, :-1]) & (jnp.arange(1, l_max)[None, :] < ll[:, None])
    need = ll + jnp.sum(rep, axis=1).astype(jnp.int32)
    loss = jnp.where(need <= il, loss, jnp.zeros((), loss.dtype))
    if norm_by_times:  # same value, gradient divided by the input length
        sg = jax.lax.stop_gradient(loss)
        loss = sg + (loss - sg) / jnp.maximum(il, 1).astype(loss.dtype)
    if reduction == "mean":
        return jnp.mean(loss / jnp.maximum(ll, 1).astype(loss.dtype))
    return _reduce(loss, reduction)


# -- RNN-T ------------------------------------------------------------------------------------
_NEG = -1e30


@op(
    "rnnt_loss",
    tensors=("input", "label", "input_lengths", "label_lengths"),
    **_F,
)
def rnnt_loss(
    input: jax.Array,  # noqa: A002
    label: jax.Array,
    input_lengths: jax.Array,
    label_lengths: jax.Array,
    blank: int = 0,
    fastemit_lambda: float = 0.001,
    reduction: str = "mean",
    name: str | None = None,
) -> jax.Array:
    """RNN transducer loss: input [batch, max_time, max_label + 1, vocab] holds log-probabilities
    as they are (Paddle 3.3.1's CPU kernel applies no log-softmax), label int32 [batch,
    max_label], lengths int32 [batch]. The forward variables run along anti-diagonals in one
    ``lax.scan``. FastEmit scales the gradient of the label emissions by 1 + fastemit_lambda and
    leaves the value unchanged; ``mean`` averages over the batch."""
    _check_reduction_assert(reduction)
    _need_dtype(label, "int32", "label", "warprnnt")
    _need_dtype(input_lengths, "int32", "input_lengths", "warprnnt")
    _need_dtype(label_lengths, "int32", "label_lengths", "warprnnt")
    b, t_max, u1, _ = input.shape
    u_max = u1 - 1
    lab = label.astype(jnp.int32)[:, :u_max]
    blank_lp = input[..., blank]  # [B, T, U+1]
    emit = jnp.take_along_axis(input[:, :, :u_max, :], lab[:, None, :, None], axis=3)[..., 0]
    if fastemit_lambda:
        lam = jnp.asarray(fastemit_lambda, input.dtype)
        emit = emit * (1 + lam) - jax.lax.stop_gradient(emit * lam)
    neg = jnp.asarray(_NEG, input.dtype)
    us = jnp.arange(u1)

    def at(a, t, u):  # a[b, t, u] for vectors t, u over u1; neg where out of range
        ok = (t >= 0) & (t < t_max) & (u >= 0) & (u < a.shape[2])
        v = a[:, jnp.clip(t, 0, t_max - 1), jnp.clip(u, 0, a.shape[2] - 1)]
        return jnp.where(ok[None, :], v, neg)

    def step(alpha, n):
        # alpha: diagonal n - 1 over u; alpha_n[u] = lae(alpha[u] + blank[n-1-u, u],
        #                                              alpha[u-1] + emit[n-u, u-1])
        from_t = alpha + at(blank_lp, n - 1 - us, us)
        prev = jnp.concatenate([jnp.full((b, 1), neg, input.dtype), alpha[:, :-1]], axis=1)
        from_u = prev + at(emit, n - us, us - 1)
        new = jnp.logaddexp(from_t, from_u)
        new = jnp.where(((n - us) >= 0)[None, :] & ((n - us) < t_max)[None, :], new, neg)
        return new, new

    alpha0 = jnp.where(us[None, :] == 0, jnp.zeros((), input.dtype), neg) * jnp.ones((b, 1))
    alpha0 = alpha0.astype(input.dtype)
    _, diags = jax.lax.scan(step, alpha0, jnp.arange(1, t_max + u_max))
    diags = jnp.concatenate([alpha0[None], diags], axis=0)  # [T+U, B, U+1]
    tl = input_lengths.astype(jnp.int32)
    ul = label_lengths.astype(jnp.int32)
    bi = jnp.arange(b)
    last = diags[tl - 1 + ul, bi, ul] + blank_lp[bi, tl - 1, ul]
    return _reduce(-last, reduction)


# -- margin / metric losses -------------------------------------------------------------------
@op("multi_label_margin_loss", tensors=("input", "label"), **_F)
def multi_label_margin_loss(
    input: jax.Array,  # noqa: A002
    label: jax.Array,
    reduction: str = "mean",
    name: str | None = None,
) -> jax.Array:
    """sum over target classes j and non-target classes k of max(0, 1 - x[j] + x[k]) / C; each
    row of ``label`` lists its target classes and ends at the first -1."""
    check_reduction(reduction, "multi_label_margin_loss")
    if input.ndim != 2:
        raise ValueError(f"Expected 2D input tensor, but got {input.ndim}D")
    if not jnp.issubdtype(label.dtype, jnp.integer):
        _need_dtype(label, "int64", "label", "multi_label_margin_loss")
    c = input.shape[1]
    lab = label.astype(jnp.int32)
    valid = jnp.cumprod(lab != -1, axis=1).astype(bool)  # [N, C]
    safe = jnp.where(valid, lab, 0)
    is_target = jnp.any(
        valid[:, :, None] & (safe[:, :, None] == jnp.arange(c)[None, None, :]), axis=1
    )
    xj = jnp.take_along_axis(input, safe, axis=1)  # [N, C] scores of the listed targets
    hinge = jnp.maximum(1 - xj[:, :, None] + input[:, None, :], jnp.zeros((), input.dtype))
    mask = valid[:, :, None] & ~is_target[:, None, :]
    loss = jnp.sum(jnp.where(mask, hinge, jnp.zeros((), input.dtype)), axis=(1, 2)) / c
    return _reduce(loss, reduction)


@loss_op("npair_loss", ("anchor", "positive", "labels"), ("labels",))
def npair_loss(
    anchor: jax.Array, positive: jax.Array, labels: jax.Array, l2_reg: float = 0.002
) -> jax.Array:
    """N-pair loss: softmax cross entropy of anchor @ positive.T against the row-normalized
    label-equality matrix, plus l2_reg / 4 times the mean squared norms of both inputs."""
    lab = jnp.reshape(labels, (-1,))
    eq = (lab[:, None] == lab[None, :]).astype(anchor.dtype)
    target = eq / jnp.sum(eq, axis=1, keepdims=True)
    sim = anchor @ positive.T
    ce = -jnp.sum(target * jax.nn.log_softmax(sim, axis=1), axis=1)
    reg = jnp.mean(jnp.sum(anchor * anchor, axis=1)) + jnp.mean(jnp.sum(positive**2, axis=1))
    return jnp.mean(ce) + 0.25 * l2_reg * reg


# -- hierarchical sigmoid ---------------------------------------------------------------------
def _default_paths(label, num_classes):
    """Paddle's default complete binary tree: class c has code c + num_classes; bit j of the
    code picks the branch at node (code >> (j + 1)) - 1, for j below the code's bit length - 1."""
    depth = int(2 * num_classes - 1).bit_length() - 1
    code = label.astype(jnp.int64) + num_classes
    j = jnp.arange(depth)
    table = (code[:, None] >> (j[None, :] + 1)) - 1  # a node exists while it stays >= 0
    bits = (code[:, None] >> j[None, :]) & 1
    return table, bits


@op(
    "hsigmoid_loss",
    amp="black",
    composite=True,
    **_F,
)
def hsigmoid_loss(
    input: Tensor,  # noqa: A002
    label: Tensor,
    num_classes: int,
    weight: Tensor,
    bias: Tensor | None = None,
    path_table: Tensor | None = None,
    path_code: Tensor | None = None,
    is_sparse: bool = False,
    name: str | None = None,
) -> Tensor:
    """Hierarchical sigmoid: sum along the class's tree path of softplus(pre) - bit * pre, with
    pre = x . w[node] + b[node] clipped to [-40, 40]; returns [N, 1]. Paddle's kernel also adds
    softplus(0) = log 2 for each step a path is shorter than the longest path (the default
    tree's depth, or path_table's width): so do we. A label at or above ``num_classes`` on the
    default tree is an error here (Paddle reads past the weight's rows)."""
    if num_classes < 2:
        raise ValueError(f"Expected num_classes >= 2 (got {num_classes})")
    if path_table is None:
        runtime_checks.check_in_range(
            label,
            1 - num_classes,
            num_classes,
            ValueError,
            "(InvalidArgument) hsigmoid_loss: label ({bad}) must be less than num_classes "
            "({hi}): its tree path would index a weight row past the last one",
            "(InvalidArgument) hsigmoid_loss: label ({bad}) must be at least 1 - num_classes "
            "({lo}) (Paddle's kernel crashes on it)",
        )
    return _hsigmoid(input, label, num_classes, weight, bias, path_table, path_code)


@op(
    "_nn_hsigmoid",
    tensors=("input", "label", "weight", "bias", "path_table", "path_code"),
    **_PRIVATE,
)
def _hsigmoid(input, label, num_classes, weight, bias, path_table, path_code):  # noqa: A002
    if path_table is None:
        table, bits = _default_paths(jnp.reshape(label, (-1,)), num_classes)
    else:
        if path_code is None:
            raise ValueError("hsigmoid_loss: path_code is required with path_table")
        table, bits = path_table.astype(jnp.int64), path_code.astype(jnp.int64)
    valid = table >= 0
    safe = jnp.where(valid, table, 0)
    w = weight[safe]  # [N, L, D]
    pre = jnp.einsum("nd,nld->nl", input, w.astype(input.dtype))
    if bias is not None:
        pre = pre + jnp.reshape(bias, (-1,))[safe].astype(input.dtype)
    zero = jnp.zeros((), input.dtype)
    pre = jnp.clip(jnp.where(valid, pre, zero), -40.0, 40.0)
    bit = jnp.where(valid, bits, 0).astype(input.dtype)
    loss = jnp.sum(jax.nn.softplus(pre) - bit * pre, axis=1, keepdims=True)
    return loss


# -- adaptive log-softmax ---------------------------------------------------------------------
def _tail_logprob(input, head_lp, tails, cutoffs, i):
    w1, w2 = tails[i]
    return jax.nn.log_softmax((input @ w1) @ w2, axis=-1) + head_lp[:, cutoffs[0] + i, None]


def adaptive_log_prob(input, head_weight, tails, cutoffs, head_bias):
    """Full [N, n_classes] log-probabilities (the Layer's ``log_prob``)."""
    head = input @ head_weight
    if head_bias is not None:
        head = head + head_bias
    head_lp = jax.nn.log_softmax(head, axis=-1)
    parts = [head_lp[:, : cutoffs[0]]]
    parts += [_tail_logprob(input, head_lp, tails, cutoffs, i) for i in range(len(tails))]
    return jnp.concatenate(parts, axis=-1)


@op(
    "_nn_adaptive_lsm",
    tensors=("input", "label", "head_weight", "tail_weights", "head_bias"),
    **_PRIVATE,
)
def _adaptive_lsm(input, label, head_weight, tail_weights, cutoffs, head_bias):  # noqa: A002
    # tail_weights[i] is None for a cluster no label falls in: Paddle computes only the
    # clusters it needs, so the unused tails get no gradient (grad None)
    squeeze = input.ndim == 1
    if squeeze:
        input, label = input[None], jnp.reshape(label, (1,))
    head = input @ head_weight
    if head_bias is not None:
        head = head + head_bias
    head_lp = jax.nn.log_softmax(head, axis=-1)
    lab = label.astype(jnp.int32)
    short = jnp.clip(lab, 0, cutoffs[0] - 1)
    out = jnp.take_along_axis(head_lp, short[:, None], axis=1)[:, 0]
    for i, tail in enumerate(tail_weights):
        if tail is None:
            continue
        lo, hi = cutoffs[i], cutoffs[i + 1]
        lp = _tail_logprob(input, head_lp, tail_weights, cutoffs, i)
        pick = jnp.take_along_axis(lp, jnp.clip(lab - lo, 0, hi - lo - 1)[:, None], axis=1)
        out = jnp.where((lab >= lo) & (lab < hi), pick[:, 0], out)
    loss = jnp.mean(-out)
    return (out[0] if squeeze else out), loss


@op("adaptive_log_softmax_with_loss", composite=True, **_F)
def adaptive_log_softmax_with_loss(
    input: Tensor,  # noqa: A002
    label: Tensor,
    head_weight: Tensor,
    tail_weights: Sequence[Sequence[Tensor]],
    cutoffs: Sequence[int],
    head_bias: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """Adaptive softmax (Grave et al.): the head scores the shortlist and one entry per tail
    cluster; tail i projects through tail_weights[i] = [W1 [in, h], W2 [h, size]]. ``cutoffs``
    ends with n_classes. Returns (log-probability of each label, mean negative of it)."""
    cut = [int(c) for c in cutoffs]
    ndim = len(input.shape)
    if ndim == 2 and len(label.shape) >= 1 and input.shape[0] != label.shape[0]:
        raise ValueError("Input and label should have the same size in the batch dimension.")
    if ndim not in (1, 2):
        raise ValueError(f"input should be 1-D or 2-D, got {ndim}-D")
    v = label._value
    lv = None if trace_state.is_tracer(v) else np.asarray(v)
    if lv is not None and lv.size and (lv.min() < 0 or lv.max() >= cut[-1]):
        raise ValueError(
            f"label values should be in [0, n_classes - 1], but values in range "
            f"[{lv.min()}, {lv.max()}] were found. "
        )
    # as Paddle: labels must lie below cutoffs[-1], and only len(cutoffs) - 1 tails are used
    # (its docstring example passes cutoffs=[2] with one tail: head only)
    tails = [list(t) for t in tail_weights][: len(cut) - 1]
    if lv is not None:  # only the clusters some label falls in, as Paddle computes
        lv = lv.reshape(-1)
        tails = [
            t if np.any((lv >= cut[i]) & (lv < cut[i + 1])) else None for i, t in enumerate(tails)
        ]
    return _adaptive_lsm(input, label, head_weight, tails, tuple(cut), head_bias)


@op(
    "_nn_adaptive_log_prob",
    tensors=("input", "head_weight", "tail_weights", "head_bias"),
    **_PRIVATE,
)
def _adaptive_log_prob(input, head_weight, tail_weights, cutoffs, head_bias):  # noqa: A002
    if input.ndim == 1:
        return adaptive_log_prob(input[None], head_weight, tail_weights, cutoffs, head_bias)[0]
    return adaptive_log_prob(input, head_weight, tail_weights, cutoffs, head_bias)
