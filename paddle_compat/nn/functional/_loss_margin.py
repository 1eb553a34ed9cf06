"""paddle.nn.functional margin-based classification: ``margin_cross_entropy`` (ArcFace /
CosFace / SphereFace logits, Paddle 3.3.1 ships a GPU kernel only) and ``class_center_sample``
(PartialFC's class-center sampling, Paddle's CPU kernel). Single device: a group of more than
one rank is refused where Paddle would shard the classes across it."""

from __future__ import annotations

import os

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import random as _random
from ..._core import runtime_checks, trace_state
from ..._core.host_random import integers
from ..._core.mt19937 import MT19937_64
from ..._core.registry import check_dtype, op
from ..._core.tensor import Tensor, to_device
from ._loss import _F, _PRIVATE

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _nranks(group) -> int | None:
    """Paddle's group argument: None (all ranks), False (this rank only) or a Group; None
    back when this rank is not in the group (Paddle's op then returns None)."""
    if not (group is False or group is None or hasattr(group, "is_member")):
        raise ValueError(
            "Expected group is False, None or instance of paddle.distributed.collective.Group "
            f"(got group: {group})"
        )
    if hasattr(group, "is_member") and not group.is_member():
        return None
    if group is False:
        return 1
    if group is None:
        from ... import distributed

        return int(distributed.get_world_size())
    return int(group.nranks)


# -- margin_cross_entropy ---------------------------------------------------------------------
def _f32(v: float) -> float:
    return float(np.float32(v))  # Paddle's margins and scale are float attributes


@op("_nn_margin_ce", tensors=("logits", "label"), **_PRIVATE)
def _margin_ce(logits, label, margin1, margin2, margin3, scale):
    dt = logits.dtype
    x = logits.astype(jnp.float32) if dt == jnp.bfloat16 else logits
    lab = label.astype(jnp.int64)  # [..., 1]
    # the target logit alone goes through acos: a non-target entry outside [-1, 1] stays finite
    t = jnp.take_along_axis(x, lab, axis=-1)
    if abs(margin1 - 1.0) > 1e-8 or abs(margin2) > 1e-8:  # the kernel's own thresholds
        theta = jnp.arccos(t)
        if abs(margin1 - 1.0) > 1e-8:
            theta = theta * margin1
        if abs(margin2) > 1e-8:
            theta = theta + margin2
        t = jnp.cos(theta)
    if abs(margin3) > 1e-8:
        t = t - margin3
    hit = lab == jnp.arange(x.shape[-1])
    z = jnp.where(hit, t, x) * jnp.asarray(scale, x.dtype)
    logp = jax.nn.log_softmax(z, axis=-1)
    loss = -jnp.take_along_axis(logp, lab, axis=-1)
    # Paddle's backward reads only the loss gradient: the softmax output carries none
    softmax = jax.lax.stop_gradient(jnp.exp(logp))
    return loss.astype(dt), softmax.astype(dt)


@op("margin_cross_entropy", amp="black", composite=True, **_F)
def margin_cross_entropy(
    logits: Tensor,
    label: Tensor,
    margin1: float = 1.0,
    margin2: float = 0.5,
    margin3: float = 0.0,
    scale: float = 64.0,
    group: object = None,
    return_softmax: bool = False,
    reduction: str | None = "mean",
) -> Tensor | tuple[Tensor, Tensor] | None:
    """Softmax cross entropy of ``scale * logits`` after the target logit ``cos(theta)``
    becomes ``cos(margin1 * theta + margin2) - margin3`` (Paddle's GPU kernel, measured from
    its documented example; Paddle 3.3.1 on CPU raises RuntimeError instead). ``logits`` are
    [..., num_classes] cosines, ``label`` int [...] or [..., 1]; the loss is [..., 1] for
    reduction None/'none'; ``return_softmax`` also returns the softmax of the adjusted logits
    (no gradient flows through it). A label outside [0, num_classes) raises OSError, as the
    GPU kernel's failed check does. ``group``: None or False on one rank; a group of several
    ranks (classes sharded across them) raises NotImplementedError."""
    if reduction not in ("mean", "sum", "none", None):
        raise AssertionError(
            f"margin_cross_entropy: reduction must be 'mean', 'sum', 'none' or None, got "
            f"{reduction!r}"
        )
    nranks = _nranks(group)
    if nranks is None:
        return None
    if logits.shape[-1] == 0:
        raise ValueError(f"Expected logit_dims[-1] > 0 (got logit_dims {logits.shape})")
    nd, label_dims = len(logits.shape), len(label.shape)
    if label_dims not in (nd - 1, nd):
        raise ValueError(
            "Expected input_dims - 1 = label_dims or input_dims == label_dims "
            f"(got input_dims{nd}, label_dims{label_dims})"
        )
    if label_dims == nd - 1:
        label = label.unsqueeze(-1)
    if list(label.shape[:-1]) != list(logits.shape[:-1]):
        raise ValueError(
            "(InvalidArgument) Input(Logits) and Input(Label) should in same shape in "
            f"dimensions except axis: logits {list(logits.shape)}, label {list(label.shape)}."
        )
    if nd > 1 and label.shape[-1] != 1:
        raise ValueError(
            "(InvalidArgument) the last dimension of Input(Label) should be 1.But received: "
            f"the last dimension of Input(Label) is [{label.shape[-1]}]"
        )
    check_dtype(logits, _FLOATS, "margin_cross_entropy", arg="logits")
    if jnp.dtype(label._value.dtype).name not in ("int32", "int64"):
        raise NotImplementedError(
            "(Unimplemented) margin_cross_entropy label type only supports int32 and int64, "
            f"but got {jnp.dtype(label._value.dtype).name}"
        )
    if nranks > 1:
        raise NotImplementedError(
            f"margin_cross_entropy over a group of {nranks} ranks (each holding a shard of the "
            "classes) is not supported by paddle-compat; pass group=False for data parallel"
        )
    n_classes = logits.shape[-1]
    runtime_checks.check_in_range(
        label,
        0,
        n_classes,
        OSError,
        "(External) margin_cross_entropy: the index is out of bounds, please check whether "
        "the value of label and input meet the number of class. It should be less than "
        "[{hi}], but received [{bad}]",
    )
    half = logits.dtype == "float16"  # Paddle runs float16 in float32 and casts back
    loss, softmax = _margin_ce(
        logits.astype("float32") if half else logits,
        label,
        _f32(margin1),
        _f32(margin2),
        _f32(margin3),
        _f32(scale),
    )
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    if half:
        loss, softmax = loss.astype("float16"), softmax.astype("float16")
    return (loss, softmax) if return_softmax else loss


# -- class_center_sample ----------------------------------------------------------------------
def _host_engine() -> tuple[MT19937_64, bool]:
    """(engine, fresh) of Paddle's CPU kernel without a program seed: ``std::mt19937_64``
    seeded from ``std::random_device`` (an int: 0 falls back to the global generator)."""
    seed = int.from_bytes(os.urandom(4), "little")
    seed = seed - (1 << 32) if seed >= 1 << 31 else seed  # unsigned -> int
    if seed == 0:
        return _random.default_generator.engine, False
    return MT19937_64(seed & 0xFFFFFFFFFFFFFFFF, seed_seq=False), True


def _sample(label: np.ndarray, num_classes: int, num_samples: int, engine, fresh: bool):
    positives = np.unique(label)  # ascending
    remapped = np.searchsorted(positives, label).astype(label.dtype)
    seen, sampled = set(positives.tolist()), positives.tolist()
    while len(seen) < num_samples:  # uniform_int_distribution(0, num_classes - 1) draws
        # a fresh engine is dropped afterwards: draw ahead; the global one exactly as needed
        k = max(2 * (num_samples - len(seen)), 64) if fresh else 1
        for neg in integers(engine, k, 0, num_classes).tolist():
            if neg not in seen:
                seen.add(neg)
                sampled.append(neg)
                if len(seen) == num_samples:
                    break
    return remapped, np.asarray(sampled, label.dtype)


@op("class_center_sample", composite=True, **_F)
def class_center_sample(
    label: Tensor, num_classes: int, num_samples: int, group: object = None
) -> tuple[Tensor, Tensor] | None:
    """Sample ``num_samples`` class centers: every class in ``label`` (ascending), then
    distinct random negatives in draw order; returns ``(remapped_label, sampled_class_index)``
    where ``remapped_label`` indexes the sampled centers. As Paddle's CPU kernel, the negatives
    come from a fresh ``std::mt19937_64`` seeded by the OS (``paddle.seed`` does not fix them
    and the global stream is not advanced); labels are not range-checked, and the group's
    ranks do not change the result. Its output size depends on the data: eager only."""
    nranks = _nranks(group)
    if nranks is None:
        return None
    if num_samples > num_classes:
        raise ValueError(
            f"Expected num_samples less than or equal to {num_classes}, got num_samples "
            f"{num_samples}"
        )
    size = int(np.prod(label.shape))
    if size < 1:
        raise ValueError(f"Expected label_size > 0 (got label_size: {size})")
    if len(label.shape) != 1:
        raise ValueError(f"Expected label_dims == 1 (got label_dims: {len(label.shape)})")
    for pos, (arg, v) in enumerate((("num_classes", num_classes), ("num_samples", num_samples))):
        if not isinstance(v, int | np.integer) or isinstance(v, bool):
            raise TypeError(
                f"(InvalidType) class_center_sample(): argument '{arg}' (position {pos + 2}) "
                f"must be int, but got {type(v).__name__}"
            )
    check_dtype(label, ("int32", "int64"), "class_center_sample", arg="label")
    for arg, v in (("num_classes", num_classes), ("num_samples", num_samples)):
        if v <= 0:
            raise ValueError(
                f"(InvalidArgument) The value '{arg}' for Op(class_center_sample) must be "
                f"greater than 0, but the value given is {v}."
            )
    if trace_state.is_tracer(label._value):
        raise trace_state.DataDependentError(
            "paddle.nn.functional.class_center_sample has a data-dependent output shape (at "
            "least num_samples centers, more when the batch holds more classes), so it cannot "
            f"run inside paddle.jit.to_static (label shape {list(label.shape)}): call it "
            "outside, or call the function with full_graph=False."
        )
    lab = np.asarray(trace_state.read(label))
    remapped, sampled = _sample(lab, int(num_classes), int(num_samples), *_host_engine())
    return Tensor(to_device(np.asarray(remapped))), Tensor(to_device(np.asarray(sampled)))
