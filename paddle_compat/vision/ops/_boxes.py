"""Box arithmetic for detection heads: box_coder (encode boxes against priors as center-size
offsets, or decode such offsets back to corner boxes) and prior_box (SSD's anchor boxes, which
depend only on shapes and attributes, so they are computed once per shape on the host)."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ._common import FLOATS, VISION, dtype_name

__all__ = ["box_coder", "prior_box"]


def _bad(msg: str) -> ValueError:
    return ValueError(f"(InvalidArgument) {msg}")


def _center_size(b, norm):
    """(width, height, center x, center y) of corner boxes (+1 on sizes for pixel boxes)."""
    w = b[..., 2] - b[..., 0] + norm
    h = b[..., 3] - b[..., 1] + norm
    two = jnp.asarray(2, b.dtype)
    return w, h, b[..., 0] + w / two, b[..., 1] + h / two


@op(
    "box_coder",
    tensors=("prior_box", "prior_box_var", "target_box"),
    dtypes=FLOATS,
    differentiable=False,
    **VISION,
)
def box_coder(
    prior_box: jax.Array,
    prior_box_var: jax.Array | Sequence[float],
    target_box: jax.Array,
    code_type: str = "encode_center_size",
    box_normalized: bool = True,
    axis: int = 0,
) -> jax.Array:
    """Encode ``target_box`` [N, 4] against every prior [M, 4] -> [N, M, 4] (center offsets
    over the prior's size, log size ratios, each divided by its variance), or decode
    ``target_box`` [N, M, 4] with the priors broadcast along ``axis`` -> corner boxes [N, M, 4].
    ``prior_box_var``: a Tensor [M, 4] or 4 floats shared by all priors."""
    if isinstance(prior_box_var, list | tuple):
        if len(prior_box_var) != 4:
            raise AssertionError(
                "Input prior_box_var must be Variable or list|tuple with 4 elements."
            )
        var = jnp.stack([jnp.asarray(v).astype(jnp.float32) for v in prior_box_var])
    elif prior_box_var is None:
        raise TypeError("Input prior_box_var must be Variable or list|tuple")
    else:
        var = prior_box_var
    if code_type not in ("encode_center_size", "decode_center_size"):
        raise _bad(
            f"The 'code_type' attribute in BoxCoder must be 'encode_center_size' or "
            f"'decode_center_size'. But received 'code_type' is {code_type}"
        )
    encode = code_type == "encode_center_size"
    if prior_box.ndim != 2:
        raise _bad(
            f"The rank of Input PriorBox in BoxCoder operator must be 2. But received "
            f"rank is {prior_box.ndim}"
        )
    if prior_box.shape[1] != 4:
        raise _bad(
            f"The second dimension of PriorBox in BoxCoder operator must be 4. But received "
            f"dimension = {prior_box.shape[1]}"
        )
    want = 2 if encode else 3
    if target_box.ndim != want:
        raise _bad(
            f"The rank of Input TargetBox in BoxCoder operator must be {want}. But received "
            f"rank is {target_box.ndim}"
        )
    dt = prior_box.dtype
    if target_box.dtype != dt:
        raise TypeError(
            f"(InvalidType) box_coder: target_box dtype {dtype_name(target_box.dtype)} differs "
            f"from prior_box dtype {dtype_name(dt)}"
        )
    if var.ndim == 2 and (var.shape[1] != 4 or var.shape[0] != prior_box.shape[0]):
        raise _bad(
            f"The dimension of Input(PriorBoxVar) should be equal to the dimension of "
            f"Input(PriorBox): {list(var.shape)} vs {list(prior_box.shape)}"
        )
    if not encode:
        k = 1 if axis == 0 else 0
        if target_box.shape[k] != prior_box.shape[0]:
            raise _bad(
                f"When axis is {axis}, The {'second' if k else 'first'} dimension of TargetBox "
                f"in BoxCoder should be equal to the first dimension of PriorBox."
            )
    var = var.astype(dt)
    norm = jnp.asarray(0 if box_normalized else 1, dt)
    rows = target_box.shape[0]
    cols = prior_box.shape[0] if encode else target_box.shape[1]
    if prior_box.size == 0 or target_box.size == 0:
        return jnp.zeros((rows, cols, 4), dt)
    if encode:
        pw, ph, pcx, pcy = _center_size(prior_box, norm)  # [M]
        t = target_box
        tw, th = t[:, 2] - t[:, 0] + norm, t[:, 3] - t[:, 1] + norm
        two = jnp.asarray(2, dt)
        tcx, tcy = (t[:, 2] + t[:, 0]) / two, (t[:, 3] + t[:, 1]) / two
        out = jnp.stack(
            [
                (tcx[:, None] - pcx) / pw,
                (tcy[:, None] - pcy) / ph,
                jnp.log(jnp.abs(tw[:, None] / pw)),
                jnp.log(jnp.abs(th[:, None] / ph)),
            ],
            axis=-1,
        )
        return out / (var if var.ndim == 1 else var[None])
    pw, ph, pcx, pcy = _center_size(prior_box, norm)
    if var.ndim == 1:
        v = var
    else:
        v = var[None] if axis == 0 else var[:, None]
    if axis == 0:
        pw, ph, pcx, pcy = pw[None], ph[None], pcx[None], pcy[None]
    else:
        pw, ph, pcx, pcy = pw[:, None], ph[:, None], pcx[:, None], pcy[:, None]
    t = target_box
    cx = v[..., 0] * t[..., 0] * pw + pcx
    cy = v[..., 1] * t[..., 1] * ph + pcy
    w = jnp.exp(v[..., 2] * t[..., 2]) * pw
    h = jnp.exp(v[..., 3] * t[..., 3]) * ph
    two = jnp.asarray(2, dt)
    return jnp.stack([cx - w / two, cy - h / two, cx + w / two - norm, cy + h / two - norm], -1)


# -- prior_box ----------------------------------------------------------------------------------
def _expand_ratios(ratios, flip: bool) -> list[float]:
    """1.0 first, then each new ratio (and 1 / ratio with ``flip``), near-duplicates dropped."""
    out = [1.0]
    for r in ratios:
        r = float(np.float32(r))
        if any(abs(r - o) < 1e-6 for o in out):
            continue
        out.append(r)
        if flip:
            out.append(float(np.float32(1.0) / np.float32(r)))
    return out


def _prior_sizes(min_sizes, max_sizes, ratios, mm_order: bool) -> list[tuple[float, float]]:
    """(half width, half height) of the priors at one position, in Paddle's order."""
    out = []
    for s, lo in enumerate(min_sizes):
        lo = np.float32(lo)
        square = [(lo / 2.0,) * 2]
        big = [(float(np.sqrt(lo * np.float32(max_sizes[s]))) / 2.0,) * 2] if max_sizes else []
        shaped = [
            (lo * float(np.sqrt(np.float32(r))) / 2.0, lo / float(np.sqrt(np.float32(r))) / 2.0)
            for r in ratios
        ]
        if mm_order:
            out += square + big + [sz for sz, r in zip(shaped, ratios) if abs(r - 1.0) >= 1e-6]
        else:
            out += shaped + big
    return out


@op("prior_box", tensors=("input", "image"), dtypes=FLOATS, differentiable=False, **VISION)
def prior_box(
    input: jax.Array,  # noqa: A002 - Paddle's name
    image: jax.Array,
    min_sizes: Sequence[float] | float,
    max_sizes: Sequence[float] | float | None = None,
    aspect_ratios: Sequence[float] | float = (1.0,),
    variance: Sequence[float] = (0.1, 0.1, 0.2, 0.2),
    flip: bool = False,
    clip: bool = False,
    steps: Sequence[float] | float = (0.0, 0.0),
    offset: float = 0.5,
    min_max_aspect_ratios_order: bool = False,
) -> tuple[jax.Array, jax.Array]:
    """SSD prior boxes for feature map ``input`` [N, C, H, W] over ``image`` [N, C, Hi, Wi]:
    boxes [H, W, P, 4] as normalized (x1, y1, x2, y2) and their variances [H, W, P, 4]; P =
    len(expanded aspect ratios) * len(min_sizes) + len(max_sizes)."""
    if not isinstance(min_sizes, list | tuple):
        min_sizes = [min_sizes]
    min_sizes = [float(v) for v in min_sizes]
    ratios_in = aspect_ratios if isinstance(aspect_ratios, list | tuple) else [aspect_ratios]
    steps = list(steps) if isinstance(steps, list | tuple) else [steps]
    if len(steps) != 2:
        raise ValueError("steps should be (step_w, step_h)")
    if not isinstance(variance, list | tuple):
        raise TypeError(
            f"(InvalidType) prior_box(): argument (position 6) must be list or tuple, but got "
            f"{type(variance).__name__}"
        )
    max_sizes = [] if max_sizes is None else [float(v) for v in max_sizes]
    if input.ndim != 4:
        raise _bad(
            f"The Input(Input) of Op(PriorBoxOp) should be a 4-D Tensor and data format is "
            f"NCHW. But received Input's dimensions = {input.ndim}, shape = {list(input.shape)}."
        )
    if image.ndim != 4:
        raise _bad(
            f"The Input(Image) of Op(PriorBoxOp) should be a 4-D Tensor and data format is "
            f"NCHW. But received Image's dimensions = {image.ndim}, shape = {list(image.shape)}."
        )
    if max_sizes:
        if len(max_sizes) != len(min_sizes):
            raise _bad(
                f"The length of min_size and max_size must be equal. But received: min_size's "
                f"length is {len(min_sizes)}, max_size's length is {len(max_sizes)}."
            )
        for i, (lo, hi) in enumerate(zip(min_sizes, max_sizes)):
            if not hi > lo:
                raise _bad(
                    f"max_size[{i}] must be greater than min_size[{i}]. But received: "
                    f"max_size[{i}] is {hi:f}, min_size[{i}] is {lo:f}."
                )
    ratios = _expand_ratios(ratios_in, flip)
    dt = np.dtype(input.dtype)
    fh, fw = input.shape[2:]
    ih, iw = image.shape[2:]
    sizes = _prior_sizes(min_sizes, max_sizes, ratios, min_max_aspect_ratios_order)
    if input.size == 0 or image.size == 0:
        shape = (fh, fw, len(sizes), 4)
        return jnp.zeros(shape, dt), jnp.zeros(shape, dt)
    step_w, step_h = (dt.type(np.float32(s)) for s in steps)
    if step_w == 0 or step_h == 0:
        step_w, step_h = dt.type(iw) / dt.type(fw), dt.type(ih) / dt.type(fh)
    off = dt.type(np.float32(offset))
    cx = ((np.arange(fw, dtype=dt) + off) * step_w)[None, :, None]
    cy = ((np.arange(fh, dtype=dt) + off) * step_h)[:, None, None]
    half_w = np.array([s[0] for s in sizes], dt)[None, None, :]
    half_h = np.array([s[1] for s in sizes], dt)[None, None, :]
    boxes = np.stack(
        np.broadcast_arrays(
            (cx - half_w) / dt.type(iw),
            (cy - half_h) / dt.type(ih),
            (cx + half_w) / dt.type(iw),
            (cy + half_h) / dt.type(ih),
        ),
        axis=-1,
    ).astype(dt)
    if clip:
        boxes = np.clip(boxes, 0, 1).astype(dt)
    count = fh * fw * len(sizes)
    flat = np.zeros(count * 4, dt)  # Paddle writes len(variance) values per box into [.., 4]
    filled = np.tile(np.asarray(variance, np.float32).astype(dt), count)[: count * 4]
    flat[: filled.size] = filled
    return jnp.asarray(boxes), jnp.asarray(flat.reshape(fh, fw, len(sizes), 4))
