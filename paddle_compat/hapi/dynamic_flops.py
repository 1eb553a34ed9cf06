"""``paddle.flops``: count the FLOPs of a Layer's leaf layers in one forward pass on a
``paddle.randn`` input and print Paddle's report (dynamic-graph path)."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

__all__ = ["Table", "dynamic_flops", "flops"]

if TYPE_CHECKING:
    from .._core.tensor import Tensor
    from ..nn import Layer

# Paddle's own module for the few layer classes that live in another file here.
_PADDLE_MODULES = {
    "ChannelShuffle": "paddle.nn.layer.vision",
    "PixelShuffle": "paddle.nn.layer.vision",
    "PixelUnshuffle": "paddle.nn.layer.vision",
    "PairwiseDistance": "paddle.nn.layer.distance",
}
_BUFFERS = ("total_ops", "total_params", "input_shape", "output_shape")


def flops(
    net: Layer, input_size: list[int], custom_ops: dict | None = None, print_detail: bool = False
) -> int:
    """Print the FLOPs (and, with ``print_detail``, a per-layer table) of ``net`` on one
    ``paddle.randn(input_size)`` input; return the total as an int. ``custom_ops`` maps a layer
    class to ``fn(layer, inputs, output)`` that adds to ``layer.total_ops``. A
    ``paddle.static.Program`` is not supported (there is no static-graph mode here)."""
    from .. import randn
    from ..nn import Layer

    if isinstance(net, Layer):
        _unwrap_to_static(net)
        inputs = randn(input_size)
        return dynamic_flops(net, inputs=inputs, custom_ops=custom_ops, print_detail=print_detail)
    if type(net).__name__ == "Program":
        raise NotImplementedError(
            "paddle.flops of a paddle.static.Program is not supported by paddle-compat "
            "(there is no static-graph mode); pass the paddle.nn.Layer instead."
        )
    warnings.warn(
        "Your model must be an instance of paddle.nn.Layer or paddle.static.Program.",
        stacklevel=2,
    )
    return -1


def _unwrap_to_static(net) -> None:
    """Count the eager forward of a ``paddle.jit.to_static`` Layer (Paddle drops the wrapper)."""
    fwd = net.forward
    original = getattr(fwd, "dygraph_function", None)
    if original is not None:
        net.__dict__["forward"] = original


def _paddle_type(cls) -> str:
    """``str(cls)`` as real Paddle prints it (``<class 'paddle.nn.layer.conv.Conv2D'>``)."""
    module = cls.__module__
    if module.startswith("paddle_compat."):
        module = _PADDLE_MODULES.get(cls.__name__) or (
            "paddle." + module[len("paddle_compat.") :].replace("nn._layers.", "nn.layer.")
        )
        return f"<class '{module}.{cls.__qualname__}'>"
    return str(cls)


# -- the counting rules (each adds to ``m.total_ops``) -----------------------------------------
def count_convNd(m, x, y):  # noqa: N802 - Paddle's name
    """Every output element: (in_channels / groups) * kernel size multiply-adds, +1 for bias."""
    kernel_ops = np.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    ops = int(y.numel()) * (x[0].shape[1] / m._groups * kernel_ops + bias_ops)
    m.total_ops += abs(int(ops))


def count_leaky_relu(m, x, y):
    m.total_ops += int(x[0].numel())


def count_bn(m, x, y):
    """2 ops per input element (the layer runs in eval mode while counting)."""
    m.total_ops += abs(int(2 * x[0].numel()))


def count_linear(m, x, y):
    m.total_ops += abs(int(m.weight.shape[0] * y.numel()))


def count_avgpool(m, x, y):
    m.total_ops += int(y.numel())


def count_adap_avgpool(m, x, y):
    """(pooled window size + 1 division) per output element."""
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((np.prod(kernel) + 1) * y.numel()))


def count_zero_ops(m, x, y):
    m.total_ops += 0


def count_parameters(m, x, y):
    m.total_params[0] = abs(int(sum((p.numel() for p in m.parameters()), 0)))


def count_io_info(m, x, y):
    from .. import to_tensor

    m.register_buffer("input_shape", to_tensor(x[0].shape))
    out = y[0] if isinstance(y, list | tuple) else y
    m.register_buffer("output_shape", to_tensor(out.shape))


@functools.cache
def _default_rules() -> dict[type, Callable]:
    """Paddle's table of counted layer classes (exact classes: subclasses are not counted)."""
    from .. import nn

    rules = {}
    for names, fn in (
        ("Conv1D Conv2D Conv3D Conv1DTranspose Conv2DTranspose Conv3DTranspose", count_convNd),
        ("BatchNorm2D BatchNorm", count_bn),
        ("ReLU ReLU6 Dropout", count_zero_ops),
        ("LeakyReLU", count_leaky_relu),
        ("Linear", count_linear),
        ("AvgPool1D AvgPool2D AvgPool3D", count_avgpool),
        ("AdaptiveAvgPool1D AdaptiveAvgPool2D AdaptiveAvgPool3D", count_adap_avgpool),
    ):
        rules.update({getattr(nn, n): fn for n in names.split()})
    return rules


def _is_leaf(m) -> bool:
    return next(iter(m.children()), None) is None


def _add_hooks(m, custom_ops, seen_types, handles) -> None:
    """Give a leaf layer the counting buffers and hooks; say once per class how it counts."""
    if not _is_leaf(m):
        return
    from .. import zeros

    m.register_buffer("total_ops", zeros([1], dtype="int64"))
    m.register_buffer("total_params", zeros([1], dtype="int64"))
    m_type = type(m)
    first = m_type not in seen_types
    if m_type in custom_ops:
        fn = custom_ops[m_type]
        if first:
            print(f"Customize Function has been applied to {_paddle_type(m_type)}")
    else:
        fn = _default_rules().get(m_type)
        if first and fn is not None:
            print(f"{_paddle_type(m_type)}'s flops has been counted")
        elif first:
            print(
                f"Cannot find suitable count function for {_paddle_type(m_type)}. "
                "Treat it as zero FLOPs."
            )
    for hook in ((fn,) if fn is not None else ()) + (count_parameters, count_io_info):
        handles.append(m.register_forward_post_hook(hook))
    seen_types.add(m_type)


def _counted(m) -> bool:
    return _is_leaf(m) and set(_BUFFERS).issubset(m._buffers.keys())


def dynamic_flops(
    model: Layer, inputs: Tensor, custom_ops: dict | None = None, print_detail: bool = False
) -> int:
    """Run ``model(inputs)`` (eval mode, no grad) with counting hooks on its leaf layers, print
    the totals (and the per-layer table) and return the total FLOPs."""
    from .. import no_grad

    custom_ops = custom_ops or {}
    handles: list = []
    seen_types: set = set()
    training = model.training
    model.eval()
    model.apply(lambda m: _add_hooks(m, custom_ops, seen_types, handles))
    with no_grad():
        model(inputs)
    total_ops = total_params = 0
    for m in model.sublayers():
        if _counted(m):
            total_ops += int(m.total_ops.numpy()[0])
            total_params += int(m.total_params.numpy()[0])
    if training:
        model.train()
    for h in handles:
        h.remove()
    table = Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    for _, m in model.named_sublayers():
        if not _counted(m):
            continue
        table.add_row(
            [
                m.full_name(),
                m.input_shape.numpy().tolist(),
                m.output_shape.numpy().tolist(),
                int(m.total_params.numpy()[0]),
                int(m.total_ops.numpy()[0]),
            ]
        )
        for name in _BUFFERS:
            m._buffers.pop(name)
    if print_detail:
        table.print_table()
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops


class Table:
    """Paddle's plain-text table: ``|``-separated centred cells, ``+---+`` rules."""

    def __init__(self, table_heads: list[str]) -> None:
        self.table_heads = table_heads
        self.table_len = [len(h) for h in table_heads]
        self.data: list[list] = []
        self.col_num = len(table_heads)

    def add_row(self, row_str: list) -> None:
        if not isinstance(row_str, list):
            print("The row_str should be a list")
        if len(row_str) != self.col_num:
            print(
                "The length of row data should be equal the length of table heads, but the "
                f"data: {len(row_str)} is not equal table heads {self.col_num}"
            )
        for i in range(self.col_num):
            self.table_len[i] = max(self.table_len[i], len(str(row_str[i])))
        self.data.append(row_str)

    def print_row(self, row: list) -> None:
        cells = (str(row[i]).center(self.table_len[i] + 2) for i in range(self.col_num))
        print("|" + "|".join(cells) + "|")

    def print_shelf(self) -> None:
        print("+" + "+".join("-" * (n + 2) for n in self.table_len) + "+")

    def print_table(self) -> None:
        self.print_shelf()
        self.print_row(self.table_heads)
        self.print_shelf()
        for row in self.data:
            self.print_row(row)
        self.print_shelf()
