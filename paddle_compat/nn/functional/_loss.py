"""paddle.nn.functional losses. Reductions and the mean-with-weights conventions follow
Paddle 3.3.1 as measured (see cross_entropy)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import runtime_checks, trace_state
from ..._core.op_signature import public_signature
from ..._core.registry import check_dtype, op
from ..._core.tensor import Tensor

_F = dict(namespaces=("paddle.nn.functional",), method=None)
_PRIVATE = dict(namespaces=(), method=None)


def loss_op(
    name: str, tensors: tuple[str, ...], no_grad: tuple[str, ...] = (), amp: str = "promote"
):
    """Register ``fn`` as a private kernel plus the public composite ``name`` that detaches the
    ``no_grad`` inputs first: Paddle's loss kernels give labels (and some weights) no gradient,
    so their ``.grad`` stays None."""

    def deco(fn):
        kernel = op(f"_nn_{name}", tensors=tensors, **_PRIVATE)(fn)

        def public(**kw):
            for n in no_grad:
                t = kw.get(n)
                if isinstance(t, Tensor) and not t.stop_gradient:
                    kw[n] = t.detach()
            return kernel(**kw)

        public.__signature__ = public_signature(fn)  # Tensors in, as users call it
        public.__doc__ = fn.__doc__
        public.__name__ = name
        return op(name, composite=True, amp=amp, **_F)(public)

    return deco


def check_reduction(reduction, name, allowed=("sum", "mean", "none")):
    if reduction not in allowed:
        opts = ", ".join(f"'{a}'" for a in allowed[:-1]) + f" or '{allowed[-1]}'"
        raise ValueError(f"'reduction' in '{name}' should be {opts}, but received {reduction}.")


def _reduce(loss, reduction):
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss


# -- cross entropy ----------------------------------------------------------------------------
_LABEL_MSG = (
    "(OutOfRange) label value should less than the shape of axis dimension when label "
    "value({{bad}}) not equal to ignore_index({ignore}), But received label value as {{bad}} "
    "and shape of axis dimension is {{hi}}"
)


def _check_labels(label, n_classes, ignore_index, error=IndexError, message=_LABEL_MSG):
    """Paddle checks hard labels as its kernel runs (see ``_core/runtime_checks.py``)."""
    if not isinstance(label, Tensor):
        return
    v = label._value
    if trace_state.is_tracer(v):
        if not runtime_checks.is_staging():
            return
        a = jnp.where(v == ignore_index, 0, v).astype(jnp.int64)
    else:
        a = np.asarray(v)
        a = np.where(a == ignore_index, 0, a.astype(np.int64) if a.dtype.kind == "f" else a)
    msg = message.format(ignore=ignore_index)
    runtime_checks.check_in_range(a, 0, n_classes, error, msg)


def _log_probs(input, axis, use_softmax):
    return jax.nn.log_softmax(input, axis=axis) if use_softmax else jnp.log(input)


@op("_nn_ce_hard", tensors=("input", "label", "weight"), **_PRIVATE)
def _ce_hard(input, label, weight, ignore_index, reduction, axis, use_softmax):
    keep = label.ndim == input.ndim
    if keep:
        if label.shape[axis] != 1:
            raise ValueError(
                "(InvalidArgument) Input(Logits) and Input(Label) should in same "
                "shape in dimensions except axis."
            )
        label = jnp.squeeze(label, axis)
    exp_shape = input.shape[:axis] + input.shape[axis + 1 :]
    if tuple(label.shape) != tuple(exp_shape):
        raise ValueError(
            "(InvalidArgument) Input(Logits) and Input(Label) should in same "
            "shape in dimensions except axis."
        )
    lab = label.astype(jnp.int64)
    logp = _log_probs(input, axis, use_softmax)
    valid = lab != ignore_index
    safe = jnp.where(valid, lab, 0)
    nll = -jnp.squeeze(jnp.take_along_axis(logp, jnp.expand_dims(safe, axis), axis), axis)
    zero = jnp.zeros((), input.dtype)
    loss = jnp.where(valid, nll, zero)
    if weight is not None:
        wdt = _weight_dtype(input, weight)
        wi = jnp.where(valid, jnp.take(weight.astype(wdt), safe), jnp.zeros((), wdt))
        loss = loss.astype(wdt) * wi
    if reduction == "none":
        return jnp.expand_dims(loss, axis) if keep else loss
    if reduction == "sum":
        return jnp.sum(loss)
    if weight is not None:
        return jnp.sum(loss) / _nonzero(jnp.sum(wi))
    if ignore_index >= 0:
        return jnp.sum(loss) / _nonzero(jnp.sum(valid).astype(input.dtype))
    return jnp.mean(loss)


def _dt_name(t) -> str:
    return str(t.dtype).replace("paddle.", "")


def _weight_dtype(input, weight):
    """Paddle casts the loss to a float weight's dtype (float32 input, float64 weight ->
    float64 loss)."""
    return weight.dtype if jnp.issubdtype(weight.dtype, jnp.floating) else input.dtype


def _nonzero(den):
    """Paddle's mean divides by ``den + (den == 0)``: all labels ignored gives 0, not nan."""
    return jnp.where(den == 0, jnp.ones((), den.dtype), den)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _soft_xent(logits, label, axis):
    """-sum(label * log_softmax(logits)) over ``axis`` (kept). Paddle's kernel differentiates
    it as ``softmax - label``, exact only for labels that sum to 1 (measured: a soft label
    that does not gets that gradient too)."""
    return -jnp.sum(label * jax.nn.log_softmax(logits, axis=axis), axis=axis, keepdims=True)


def _soft_xent_fwd(logits, label, axis):
    return _soft_xent(logits, label, axis), (jax.nn.softmax(logits, axis=axis), label)


def _soft_xent_bwd(axis, res, g):
    sm, label = res
    return g * (sm - label), jnp.zeros_like(label)


_soft_xent.defvjp(_soft_xent_fwd, _soft_xent_bwd)


@op("_nn_ce_soft", tensors=("input", "label", "weight"), **_PRIVATE)
def _ce_soft(input, label, weight, reduction, axis, use_softmax, ignore_index):
    others = [i for i in range(input.ndim) if i != axis]
    if any(label.shape[i] != input.shape[i] for i in others):
        raise ValueError(
            "(InvalidArgument) Input(Logits) and Input(Label) should in same "
            "shape in dimensions except axis."
        )
    if label.shape[axis] != input.shape[axis]:
        raise ValueError(
            "(InvalidArgument) If Attr(soft_label) == true, the axis dimension of "
            f"Input(X) ({input.shape[axis]}) and Input(Label) ({label.shape[axis]}) should be equal."
        )
    label = label.astype(input.dtype)
    # Paddle's kernel gives the label no gradient; only the weight gather below does
    if use_softmax:
        loss = _soft_xent(input, jax.lax.stop_gradient(label), axis)
    else:
        loss = -jnp.sum(jax.lax.stop_gradient(label) * jnp.log(input), axis=axis, keepdims=True)
    wi = None
    if weight is not None:
        shape = [1] * input.ndim
        shape[axis] = input.shape[axis]
        wdt = _weight_dtype(input, weight)
        wi = jnp.sum(
            label.astype(wdt) * weight.astype(wdt).reshape(shape), axis=axis, keepdims=True
        )
        loss = loss.astype(wdt) * wi
    if reduction != "mean":
        return _reduce(loss, reduction)
    if ignore_index >= 0:  # Paddle counts the label *entries* that differ from ignore_index
        keep = (label != ignore_index).astype(loss.dtype)
        den = jnp.sum(keep if wi is None else keep * wi)
    elif wi is not None:
        den = jnp.sum(wi)
    else:
        return jnp.mean(loss)
    return jnp.sum(loss) / _nonzero(den)


@op("cross_entropy", amp="black", composite=True, **_F)
def cross_entropy(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    soft_label: bool = False,
    axis: int = -1,
    use_softmax: bool = True,
    label_smoothing: float = 0.0,
) -> Tensor:
    """Softmax (or, with use_softmax=False, plain log) cross entropy with hard int labels or
    soft labels. ``mean`` divides by the sum of the label weights when ``weight`` is given, by
    the number of non-ignored labels when ``ignore_index >= 0``, and by the element count
    otherwise (ignored entries count as 0), as Paddle does.

    ``label_smoothing > 0`` (Paddle 3.3.1, measured): an int label of the input's rank - 1 is
    one-hot encoded over ``input.shape[-1]`` (the *last* axis, whatever ``axis`` is), a float
    label of the input's shape is taken as is; either is smoothed and used as a soft label
    (``reduction='none'`` keeps the class axis, size 1; ``mean`` with ``ignore_index >= 0``
    divides by the number of smoothed label entries that differ from ``ignore_index``). A
    negative ``label_smoothing`` is ignored."""
    check_reduction(reduction, "softmax_cross_entropy")
    if ignore_index > 0 and soft_label:
        raise ValueError(
            "When soft_label == True, the value of 'ignore_index' in softmax_cross_entropy "
            f"should be '-100', but received {ignore_index}, which is not allowed."
        )
    nd = len(input.shape)
    if nd == 0:
        raise ValueError("The dimension of input should be larger than zero!")
    label_dims = len(label.shape)
    if label_dims not in (nd - 1, nd):
        raise ValueError(
            "Expected input_dims - 1 = label_dims or input_dims == label_dims "
            f"(got input_dims{nd}, label_dims{label_dims})"
        )
    axis = axis % nd
    n_classes = input.shape[axis]
    if weight is not None and weight.shape[0] != n_classes:
        raise ValueError(
            f"input's class_dimension({n_classes}) must equal to weight's class_dimension"
            f"({weight.shape[0]}) because they are all the number of classes"
        )
    if (soft_label or label_smoothing > 0) and weight is None and isinstance(label, Tensor):
        label = label.detach()  # Paddle: a soft label gets a gradient only via the weight
    if label_smoothing > 0:
        from ._common import label_smooth, one_hot

        if label_dims == nd - 1:
            check_dtype(label, ("int32", "int64"), "one_hot", arg="label")
            label = one_hot(label, input.shape[-1])
        else:
            check_dtype(label, ("float32", "float64"), "label_smooth", arg="label")
        label = label_smooth(label, epsilon=float(label_smoothing))
        soft_label = True
    if soft_label:
        if label_smoothing <= 0 and label.dtype != input.dtype:
            raise ValueError(
                f"(InvalidArgument) The type of data we are trying to retrieve ({_dt_name(input)}) "
                f"does not match the type of data ({_dt_name(label)}) currently contained in the "
                "container: a soft label must have the input's dtype."
            )
        if label_dims == nd - 1 and label_smoothing <= 0:
            label = label.unsqueeze(axis)  # Paddle adds the class axis back (size 1)
        return _ce_soft(input, label, weight, reduction, axis, bool(use_softmax), int(ignore_index))
    _check_labels(label, n_classes, ignore_index)
    return _ce_hard(input, label, weight, int(ignore_index), reduction, axis, bool(use_softmax))


@op("_nn_swce", tensors=("logits", "label"), **_PRIVATE)
def _swce(logits, label, soft_label, ignore_index, axis):
    logp = jax.nn.log_softmax(logits, axis=axis)
    if soft_label:
        loss = _soft_xent(logits, jax.lax.stop_gradient(label.astype(logits.dtype)), axis)
    else:
        if label.ndim != logits.ndim or label.shape[axis] != 1:
            raise ValueError(
                f"(InvalidArgument) The 'shape' in ReshapeOp is invalid: label of shape "
                f"{list(label.shape)} must have the rank of logits {list(logits.shape)} and "
                f"size 1 on axis {axis}"
            )
        lab = label.astype(jnp.int64)
        valid = lab != ignore_index
        nll = -jnp.take_along_axis(logp, jnp.where(valid, lab, 0), axis)
        loss = jnp.where(valid, nll, jnp.zeros((), logits.dtype))
    return loss, jax.lax.stop_gradient(jnp.exp(logp))  # Paddle: no gradient via the softmax


@op("softmax_with_cross_entropy", amp="black", composite=True, **_F)
def softmax_with_cross_entropy(
    logits: Tensor,
    label: Tensor,
    soft_label: bool = False,
    ignore_index: int = -100,
    numeric_stable_mode: bool = True,
    return_softmax: bool = False,
    axis: int = -1,
) -> Tensor | tuple[Tensor, Tensor]:
    """Legacy softmax cross entropy: per-sample loss with the class axis kept (size 1)."""
    axis = axis % len(logits.shape)
    if not soft_label:
        _check_labels(label, logits.shape[axis], ignore_index)
    elif isinstance(label, Tensor):
        label = label.detach()
    loss, sm = _swce(logits, label, bool(soft_label), int(ignore_index), axis)
    return (loss, sm) if return_softmax else loss


@op("_nn_nll", tensors=("input", "label", "weight"), **_PRIVATE)
def _nll(input, label, weight, ignore_index, reduction):
    if label.ndim == input.ndim and input.ndim == 2 and label.shape[1] == 1:
        label = label[:, 0]
    if input.ndim < 2 or tuple(label.shape) != (input.shape[0],) + tuple(input.shape[2:]):
        raise ValueError(
            f"Expected input of shape [N, C, ...] and label of shape [N, ...], got "
            f"{list(input.shape)} and {list(label.shape)}"
        )
    lab = label.astype(jnp.int64)
    valid = lab != ignore_index
    safe = jnp.where(valid, lab, 0)
    picked = -jnp.squeeze(jnp.take_along_axis(input, safe[:, None], 1), 1)
    zero = jnp.zeros((), input.dtype)
    w = (
        jnp.take(weight.astype(input.dtype), safe)
        if weight is not None
        else jnp.ones(lab.shape, input.dtype)
    )
    w = jnp.where(valid, w, zero)
    loss = picked * w
    if reduction == "none":
        return loss
    if reduction == "sum":
        return jnp.sum(loss)
    return jnp.sum(loss) / jnp.sum(w)


@op("nll_loss", amp="black", composite=True, **_F)
def nll_loss(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
) -> Tensor:
    """Negative log likelihood of log-probabilities [N, C, ...] at int labels [N, ...];
    ``mean`` divides by the total weight of the non-ignored labels."""
    check_reduction(reduction, "nll_loss")
    n = input.shape[1] if len(input.shape) > 1 else 0
    msg = "(InvalidArgument) label should not be out of bounds."
    _check_labels(label, n, ignore_index, ValueError, msg)
    if isinstance(weight, Tensor):
        weight = weight.detach()  # Paddle's nll kernel gives the weight no gradient
    return _nll(input, label, weight, int(ignore_index), reduction)


# -- regression losses ------------------------------------------------------------------------
_PAIR = dict(tensors=("input", "label"), **_F)


@op("mse_loss", amp="black", **_PAIR)
def mse_loss(input: jax.Array, label: jax.Array, reduction: str = "mean") -> jax.Array:
    """(input - label)^2, reduced."""
    check_reduction(reduction, "mse_loss")
    return _reduce(jnp.square(input - label.astype(input.dtype)), reduction)


@op("l1_loss", **_PAIR)
def l1_loss(input: jax.Array, label: jax.Array, reduction: str = "mean") -> jax.Array:
    """|input - label|, reduced."""
    check_reduction(reduction, "l1_loss")
    return _reduce(jnp.abs(input - label.astype(input.dtype)), reduction)


@op("square_error_cost", amp="black", **_PAIR)
def square_error_cost(input: jax.Array, label: jax.Array) -> jax.Array:
    """(input - label)^2 elementwise."""
    return jnp.square(input - label.astype(input.dtype))


@op("smooth_l1_loss", amp="black", **_PAIR)
def smooth_l1_loss(
    input: jax.Array,
    label: jax.Array,
    reduction: str = "mean",
    delta: float = 1.0,
    is_huber: bool = True,
) -> jax.Array:
    """Huber loss (is_huber) or smooth L1 with threshold ``delta``."""
    check_reduction(reduction, "smooth_l1_loss")
    d = jnp.abs(input - label.astype(input.dtype))
    dl = jnp.asarray(delta, input.dtype)
    if is_huber:
        loss = jnp.where(d < dl, 0.5 * d * d, dl * (d - 0.5 * dl))
    else:
        loss = jnp.where(d < dl, 0.5 * d * d / dl, d - 0.5 * dl)
    return _reduce(loss, reduction)


@loss_op("log_loss", ("input", "label"), ("label",), amp="black")
def log_loss(input: jax.Array, label: jax.Array, epsilon: float = 0.0001) -> jax.Array:
    """-label * log(input + eps) - (1 - label) * log(1 - input + eps); input is [N, 1]."""
    if input.ndim != 2 or input.shape[1] != 1:
        raise ValueError(
            f"(InvalidArgument) Each row of Input(Predicted) contains a real value, so the 2nd "
            f"dimension of Input(X) must be 1, but got shape {list(input.shape)}"
        )
    e = jnp.asarray(epsilon, input.dtype)
    return -label * jnp.log(input + e) - (1 - label) * jnp.log(1 - input + e)


# -- binary / probabilistic losses ------------------------------------------------------------
@loss_op("binary_cross_entropy", ("input", "label", "weight"), ("label",))
def binary_cross_entropy(
    input: jax.Array, label: jax.Array, weight: jax.Array | None = None, reduction: str = "mean"
) -> jax.Array:
    """-(label * log(p) + (1 - label) * log(1 - p)) with logs clamped at -100."""
    check_reduction(reduction, "binary_cross_entropy")
    if input.shape != label.shape:
        raise ValueError(
            f"(InvalidArgument) Input(X) and Input(Label) shapes must be equal, "
            f"got {list(input.shape)} and {list(label.shape)}"
        )
    lo = jnp.asarray(-100.0, input.dtype)
    y = label.astype(input.dtype)
    loss = -(y * jnp.maximum(jnp.log(input), lo) + (1 - y) * jnp.maximum(jnp.log1p(-input), lo))
    if weight is not None:
        loss = loss * weight.astype(input.dtype)
    return _reduce(loss, reduction)


@loss_op(
    "binary_cross_entropy_with_logits",
    ("logit", "label", "weight", "pos_weight"),
    ("label", "pos_weight"),
    amp="black",
)
def binary_cross_entropy_with_logits(
    logit: jax.Array,
    label: jax.Array,
    weight: jax.Array | None = None,
    reduction: str = "mean",
    pos_weight: jax.Array | None = None,
) -> jax.Array:
    """Sigmoid + binary cross entropy computed stably from logits; ``pos_weight`` scales the
    positive term."""
    check_reduction(reduction, "binary_cross_entropy_with_logits")
    y = label.astype(logit.dtype)
    soft = jnp.log1p(jnp.exp(-jnp.abs(logit))) + jnp.maximum(-logit, 0)
    if pos_weight is not None:
        lw = 1 + (pos_weight.astype(logit.dtype) - 1) * y
        loss = (1 - y) * logit + lw * soft
    else:
        loss = (1 - y) * logit + soft
    if weight is not None:
        loss = loss * weight.astype(logit.dtype)
    return _reduce(loss, reduction)


@loss_op("kl_div", ("input", "label"), ("label",))
def kl_div(
    input: jax.Array, label: jax.Array, reduction: str = "mean", log_target: bool = False
) -> jax.Array:
    """label * (log(label) - input) (input holds log-probabilities); 'batchmean' divides the
    sum by the batch size."""
    check_reduction(reduction, "kl_div", ("sum", "mean", "none", "batchmean"))
    y = label.astype(input.dtype)
    if log_target:
        loss = jnp.exp(y) * (y - input)
    else:
        safe = jnp.where(y > 0, y, jnp.ones((), y.dtype))
        loss = jnp.where(y > 0, y * (jnp.log(safe) - input), jnp.zeros((), y.dtype))
    if reduction == "batchmean":
        return jnp.sum(loss) / (input.shape[0] if input.ndim > 0 else 1)
    return _reduce(loss, reduction)


@op("margin_ranking_loss", tensors=("input", "other", "label"), aliases={"other": "other"}, **_F)
def margin_ranking_loss(
    input: jax.Array,
    other: jax.Array,
    label: jax.Array,
    margin: float = 0.0,
    reduction: str = "mean",
) -> jax.Array:
    """max(0, -label * (input - other) + margin)."""
    check_reduction(reduction, "margin_ranking_loss")
    loss = jnp.maximum(-label * (input - other) + margin, 0)
    return _reduce(loss.astype(input.dtype), reduction)


@loss_op("cosine_embedding_loss", ("input1", "input2", "label"), ("label",))
def cosine_embedding_loss(
    input1: jax.Array,
    input2: jax.Array,
    label: jax.Array,
    margin: float = 0,
    reduction: str = "mean",
) -> jax.Array:
    """1 - cos(x1, x2) for label 1, max(0, cos(x1, x2) - margin) for label -1."""
    check_reduction(reduction, "cosine_embedding_loss")
    eps = jnp.asarray(1e-12, input1.dtype)
    prod = jnp.sum(input1 * input2, axis=-1)
    m1 = jnp.sum(input1 * input1, axis=-1) + eps
    m2 = jnp.sum(input2 * input2, axis=-1) + eps
    cos = prod / jnp.sqrt(m1 * m2)
    zero = jnp.zeros((), input1.dtype)
    loss = jnp.where(label == 1, 1 - cos, jnp.maximum(cos - margin, zero))
    return _reduce(loss, reduction)


@loss_op("hinge_embedding_loss", ("input", "label"), ("label",))
def hinge_embedding_loss(
    input: jax.Array, label: jax.Array, margin: float = 1.0, reduction: str = "mean"
) -> jax.Array:
    """input where label is 1, max(0, margin - input) where label is -1."""
    check_reduction(reduction, "hinge_embedding_loss")
    zero = jnp.zeros((), input.dtype)
    loss = jnp.where(label == 1.0, input, zero) + jnp.where(
        label == -1.0, jnp.maximum(margin - input, zero), zero
    )
    return _reduce(loss, reduction)


@op("soft_margin_loss", tensors=("input", "label"), **_F)
def soft_margin_loss(input: jax.Array, label: jax.Array, reduction: str = "mean") -> jax.Array:
    """log(1 + exp(-label * input))."""
    check_reduction(reduction, "soft_margin_loss")
    return _reduce(jnp.logaddexp(0, -label.astype(input.dtype) * input), reduction)


@op("multi_label_soft_margin_loss", tensors=("input", "label", "weight"), **_F)
def multi_label_soft_margin_loss(
    input: jax.Array, label: jax.Array, weight: jax.Array | None = None, reduction: str = "mean"
) -> jax.Array:
    """Per-class binary logistic loss averaged over classes."""
    check_reduction(reduction, "multi_label_soft_margin_loss")
    y = label.astype(input.dtype)
    loss = -(y * jax.nn.log_sigmoid(input) + (1 - y) * jax.nn.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight.astype(input.dtype)
    return _reduce(jnp.mean(loss, axis=-1), reduction)


@op("sigmoid_focal_loss", tensors=("logit", "label", "normalizer"), **_F)
def sigmoid_focal_loss(
    logit: jax.Array,
    label: jax.Array,
    normalizer: jax.Array | None = None,
    alpha: float = 0.25,
    gamma: float = 2.0,
    reduction: str = "sum",
) -> jax.Array:
    """Focal loss: bce_with_logits * (1 - p_t)^gamma * alpha_t, divided by ``normalizer``."""
    check_reduction(reduction, "sigmoid_focal_loss")
    y = label.astype(logit.dtype)
    p = jax.nn.sigmoid(logit)
    ys = jax.lax.stop_gradient(y)  # the bce term gives the label no gradient
    ce = (1 - ys) * logit + jnp.log1p(jnp.exp(-jnp.abs(logit))) + jnp.maximum(-logit, 0)
    p_t = p * y + (1 - p) * (1 - y)
    loss = ce * (1 - p_t) ** gamma
    if alpha >= 0:
        loss = (alpha * y + (1 - alpha) * (1 - y)) * loss
    if normalizer is not None:
        loss = loss / normalizer.astype(logit.dtype)
    return _reduce(loss, reduction)


@op("poisson_nll_loss", tensors=("input", "label"), **_F)
def poisson_nll_loss(
    input: jax.Array,
    label: jax.Array,
    log_input: bool = True,
    full: bool = False,
    epsilon: float = 1e-8,
    reduction: str = "mean",
) -> jax.Array:
    """Poisson negative log likelihood (with the Stirling term when ``full``)."""
    check_reduction(reduction, "poisson_nll_loss")
    if epsilon <= 0:
        raise ValueError(
            f"The value of `epsilon` in poisson_nll_loss should be positive, but received {epsilon}"
        )
    y = label.astype(input.dtype)
    if log_input:
        loss = jnp.exp(input) - y * input
    else:
        loss = input - y * jnp.log(input + epsilon)
    if full:
        safe = jnp.where(y > 1, y, jnp.ones((), y.dtype))
        st = safe * jnp.log(safe) - safe + 0.5 * jnp.log(2 * math.pi * safe)
        loss = loss + jnp.where(y > 1, st, jnp.zeros((), y.dtype))
    return _reduce(loss, reduction)


@loss_op("gaussian_nll_loss", ("input", "label", "variance"), ("variance",))
def gaussian_nll_loss(
    input: jax.Array,
    label: jax.Array,
    variance: jax.Array,
    full: bool = False,
    epsilon: float = 1e-6,
    reduction: str = "mean",
) -> jax.Array:
    """0.5 * (log(var) + (input - label)^2 / var) (+ 0.5 * log(2 pi) when ``full``)."""
    check_reduction(reduction, "gaussian_nll_loss")
    var = jnp.maximum(variance.astype(input.dtype), jnp.asarray(epsilon, input.dtype))
    loss = 0.5 * (jnp.log(var) + jnp.square(input - label) / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def _pdist(x, y, p, eps):
    d = jnp.abs(x - y + eps)
    if p == float("inf"):
        return jnp.max(d, axis=-1)
    return jnp.sum(d**p, axis=-1) ** (1.0 / p)


@op("triplet_margin_loss", amp="black", tensors=("input", "positive", "negative"), **_F)
def triplet_margin_loss(
    input: jax.Array,
    positive: jax.Array,
    negative: jax.Array,
    margin: float = 1.0,
    p: float = 2,
    epsilon: float = 1e-6,
    swap: bool = False,
    reduction: str = "mean",
) -> jax.Array:
    """max(d(a, p) - d(a, n) + margin, 0) with p-norm distances."""
    check_reduction(reduction, "triplet_margin_loss")
    d_pos = _pdist(input, positive, p, epsilon)
    d_neg = _pdist(input, negative, p, epsilon)
    if swap:
        d_neg = jnp.minimum(d_neg, _pdist(positive, negative, p, epsilon))
    loss = jnp.maximum(d_pos - d_neg + margin, jnp.zeros((), input.dtype))
    return _reduce(loss, reduction)


@loss_op("dice_loss", ("input", "label"), ("label",))
def dice_loss(input: jax.Array, label: jax.Array, epsilon: float = 1e-05) -> jax.Array:  # noqa: A002
    """1 - 2 |X ∩ Y| / (|X| + |Y|) per sample, averaged; input holds class probabilities in the
    last axis and label the int class ids (last axis of size 1)."""
    if input.ndim < 2 or label.ndim != input.ndim or label.shape[-1] != 1:
        raise ValueError(
            f"dice_loss expects label of shape [..., 1] with the rank of input, "
            f"got {list(input.shape)} and {list(label.shape)}"
        )
    onehot = jax.nn.one_hot(label[..., 0].astype(jnp.int64), input.shape[-1], dtype=input.dtype)
    axes = tuple(range(1, input.ndim))
    inse = jnp.sum(input * onehot, axis=axes)
    denom = jnp.sum(input, axis=axes) + jnp.sum(onehot, axis=axes)
    return jnp.mean(1 - inse * 2 / (denom + epsilon))


@loss_op("multi_margin_loss", ("input", "label", "weight"))
def multi_margin_loss(
    input: jax.Array,
    label: jax.Array,
    p: int = 1,
    margin: float = 1.0,  # noqa: A002
    weight: jax.Array | None = None,
    reduction: str = "mean",
) -> jax.Array:
    """sum over j != y of max(0, margin - x[y] + x[j])^p / C (times weight[y])."""
    check_reduction(reduction, "multi_margin_loss")
    lab = label.astype(jnp.int64).reshape(-1)
    c = input.shape[1]
    xy = jnp.take_along_axis(input, lab[:, None], axis=1)
    m = jnp.maximum(margin - xy + input, jnp.zeros((), input.dtype)) ** p
    m = jnp.where(jnp.arange(c)[None, :] == lab[:, None], jnp.zeros((), input.dtype), m)
    loss = jnp.sum(m, axis=1) / c
    if weight is not None:
        loss = loss * jnp.take(weight.astype(input.dtype), lab)
    return _reduce(loss, reduction)


@op("triplet_margin_with_distance_loss", composite=True, **_F)
def triplet_margin_with_distance_loss(
    input: Tensor,
    positive: Tensor,
    negative: Tensor,  # noqa: A002
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """max(d(a, p) - d(a, n) + margin, 0) with a user distance (default pairwise 2-norm)."""
    from ._common import pairwise_distance

    check_reduction(reduction, "triplet_margin_with_distance_loss")
    dist = distance_function or pairwise_distance
    d_pos, d_neg = dist(input, positive), dist(input, negative)
    if swap:
        from ..._core.registry import call_op

        d_neg = call_op("minimum", d_neg, dist(positive, negative))
    return _triplet_tail(d_pos, d_neg, float(margin), reduction)


@op("_nn_triplet_tail", tensors=("d_pos", "d_neg"), **_PRIVATE)
def _triplet_tail(d_pos, d_neg, margin, reduction):
    loss = jnp.maximum(d_pos - d_neg + margin, jnp.zeros((), d_pos.dtype))
    return _reduce(loss, reduction)
