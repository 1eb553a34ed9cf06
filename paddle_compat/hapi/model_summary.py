"""``paddle.summary``: run a network once on random (or given) inputs and print Paddle's table
of its layers (input/output shapes, parameter counts) with the totals and size estimates."""

from __future__ import annotations

import numbers
import warnings
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from .._core.autograd import no_grad
from .._core.tensor import Tensor
from ..static import InputSpec

if TYPE_CHECKING:
    from ..nn import Layer

__all__ = ["ModelSummary", "summary", "summary_string"]

_LIST_ITEM_ERROR = (
    "When input_size is list, " + " " * 12 + "expect item in input_size is a tuple or "
    "InputSpec, but got {}"
)


class ModelSummary(TypedDict):
    total_params: int
    trainable_params: int


def summary(
    net: Layer,
    input_size: int | tuple | InputSpec | list | None = None,
    dtypes: str | Sequence[str] | None = None,
    input: Tensor | Sequence[Tensor] | dict[str, Tensor] | None = None,
) -> ModelSummary:
    """Print a table of ``net``'s layers from one forward pass and return
    ``{'total_params', 'trainable_params'}``. A ``None``/-1 batch dim becomes 1; ``input``
    (a Tensor, list or dict, passed to ``net`` as one argument) overrides ``input_size``."""
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    if input_size is None:
        input_size = _sizes_of_input(input)
    sizes = _check_sizes(_as_sizes(input_size))

    from .. import in_dynamic_mode

    if not in_dynamic_mode():
        warnings.warn(
            "Your model was created in static graph mode, this may not get correct summary "
            "information!",
            stacklevel=2,
        )
        was_training = False
    else:
        was_training = net.training
    if was_training:
        net.eval()
    text, info = summary_string(net, sizes, dtypes, input)
    print(text)
    if was_training:
        net.train()
    return info


def _sizes_of_input(input) -> tuple | list:
    """The shapes of the tensors in ``input`` (a Tensor, a list/tuple or a dict of them)."""
    if isinstance(input, Tensor):
        return tuple(input.shape)
    if isinstance(input, list | tuple):
        return [tuple(x.shape) for x in input]
    if isinstance(input, dict):
        return [tuple(v.shape) for v in input.values()]
    raise ValueError(
        "Input is not tensor, list, tuple and dict, unable to determine input_size, please "
        "input input_size."
    )


def _as_sizes(input_size):
    """InputSpecs become shape tuples, an int ``n`` becomes ``(n,)`` (also inside a list)."""
    if isinstance(input_size, InputSpec):
        return tuple(input_size.shape)
    if isinstance(input_size, int):
        return (input_size,)
    if not isinstance(input_size, list):
        return input_size
    sizes = []
    for item in input_size:
        if isinstance(item, int):
            item = (item,)
        assert isinstance(item, tuple | InputSpec), _LIST_ITEM_ERROR.format(type(item))
        sizes.append(tuple(item.shape) if isinstance(item, InputSpec) else item)
    return sizes


def _is_shape(size) -> bool:
    return not any(isinstance(d, list | tuple) for d in size)


def _check_sizes(size):
    """Shapes become tuples with the one unknown (None/-1) dim set to 1; nested lists recurse."""
    if not (isinstance(size, list | tuple) and _is_shape(size)):
        return [_check_sizes(s) for s in size]
    unknown, shape = 0, []
    for d in size:
        if d is None or d == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
            d = 1
        elif isinstance(d, numbers.Number) and d <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got {d}")
        shape.append(d)
    return tuple(shape)


def _all_numbers(items) -> bool:
    return all(isinstance(i, numbers.Number) for i in items)


def _is_flat_shape(size) -> bool:
    return isinstance(size, list | tuple) and _all_numbers(size)


def _dtypes_like(sizes, dtype):
    """One dtype per shape, nested like ``sizes`` (each leaf a one-element list)."""
    if _is_flat_shape(sizes):
        return ["float32" if dtype is None else dtype]
    return [_dtypes_like(s, dtype) for s in sizes]


def _random_inputs(sizes, dtypes):
    """``paddle.rand`` of each shape, cast to its dtype, nested like ``sizes``."""
    from .. import cast, rand

    if _is_flat_shape(sizes):
        dtype = dtypes[0] if isinstance(dtypes, list | tuple) else dtypes
        return cast(rand(list(sizes)), dtype)
    return [_random_inputs(s, d) for s, d in zip(sizes, dtypes, strict=False)]


@no_grad()
def summary_string(model: Layer, input_size=None, dtypes=None, input=None) -> tuple[str, dict]:
    """Run ``model`` once with hooks on its layers; return (Paddle's table text, the totals)."""
    if not isinstance(dtypes, list | tuple):
        dtypes = _dtypes_like(input_size, dtypes)
    if isinstance(input_size, tuple):
        input_size = [input_size]
    rows: OrderedDict[str, dict] = OrderedDict()
    hooks = _register_hooks(model, rows)
    if input is not None:
        model(input)
    else:
        model(*_random_inputs(input_size, dtypes))
    for h in hooks:
        h.remove()
    return _format_table(rows, input_size)


def _register_hooks(model, rows) -> list:
    """A post hook on every layer Paddle lists: not Sequential/LayerList, not ``model`` itself
    unless it has no sublayers (RNNs that can use cuDNN always)."""
    from ..nn import LayerList, Sequential

    leafless = len(model.sublayers()) < 1
    hooks = []

    def add(layer):
        if not isinstance(layer, Sequential | LayerList) and (layer is not model or leafless):
            hooks.append(layer.register_forward_post_hook(_row_hook(rows)))
        elif getattr(layer, "could_use_cudnn", False):
            hooks.append(layer.register_forward_post_hook(_row_hook(rows)))

    model.apply(add)
    return hooks


def _row_hook(rows):
    def hook(layer, inputs, outputs):
        try:
            idx = int(layer._full_name.split("_")[-1])
        except ValueError:
            idx = len(rows)
        key = f"{type(layer).__name__}-{idx + 1}"
        rows[key] = row = OrderedDict()  # a layer called twice keeps its first place
        row["input_shape"] = _input_shapes(inputs)
        row["output_shape"] = _output_shapes(outputs)
        _count_params(layer, row)

    return hook


def _input_shapes(x):
    if isinstance(x, Tensor):
        return list(x.shape)
    if isinstance(x, list | tuple):
        return [_input_shapes(v) for v in x]
    return None


def _output_shapes(x):
    if isinstance(x, list | tuple):
        return [_output_shapes(v) for v in x]
    return list(x.shape) if hasattr(x, "shape") else []


def _count_params(layer, row) -> None:
    """``nb_params``/``trainable_params`` as numpy products of the layer's own parameter shapes
    (a 0-d parameter counts 1.0, as in Paddle); ``trainable`` as Paddle sets it."""
    row["trainable_params"] = 0
    total, any_trainable = 0, False
    for name, p in layer._parameters.items():
        if p is None:
            continue
        n = np.prod(list(p.shape))
        total += n
        try:
            param = getattr(layer, name)
            if param.trainable and not param.stop_gradient:
                row["trainable_params"] += n
                row["trainable"] = any_trainable = True
            elif not any_trainable:
                row["trainable"] = False
        except Exception:  # noqa: BLE001 - Paddle counts an unreadable parameter as trainable
            row["trainable"] = True
    row["nb_params"] = total


def _widths(rows) -> dict[str, int]:
    w = {"layer": 15, "input": 20, "output": 20, "params": 15}
    for key, row in rows.items():
        w["layer"] = max(w["layer"], len(str(key)))
        w["input"] = max(w["input"], len(str(row["input_shape"])))
        w["output"] = max(w["output"], len(str(row["output_shape"])))
        w["params"] = max(w["params"], len(str(row["nb_params"])))
    w["table"] = max(75, sum(w.values()) + 5)
    return w


def _line(w, name, inp, out, params) -> str:
    return f"{name:^{w['layer']}} {inp:^{w['input']}} {out:^{w['output']}} {params:^{w['params']}}"


def _output_elements(shape):
    try:
        return np.sum(np.prod(shape, axis=-1))
    except Exception:  # noqa: BLE001 - ragged nested shapes: one output at a time, as Paddle
        return sum(np.sum(np.prod(s, axis=-1)) for s in shape)


def _input_mb(sizes) -> float:
    if _is_flat_shape(sizes):
        return abs(np.prod(sizes) * 4.0 / (1024**2.0))
    return sum(_input_mb(s) for s in sizes)


def _format_table(rows, input_size) -> tuple[str, dict]:
    w = _widths(rows)
    lines = ["-" * w["table"], _line(w, "Layer (type)", "Input Shape", "Output Shape", "Param #")]
    lines.append("=" * w["table"])
    total_params = total_output = trainable_params = 0
    for key, row in rows.items():
        shapes = str(row["input_shape"]), str(row["output_shape"])
        lines.append(_line(w, key, *shapes, f"{row['nb_params']:,}"))
        total_params += row["nb_params"]
        total_output += _output_elements(row["output_shape"])
        if row.get("trainable"):
            trainable_params += row["trainable_params"]
    input_mb = _input_mb(input_size)
    output_mb = abs(2.0 * total_output * 4.0 / (1024**2.0))  # x2 for gradients
    params_mb = abs(total_params * 4.0 / (1024**2.0))
    lines += [
        "=" * w["table"],
        f"Total params: {total_params:,}",
        f"Trainable params: {trainable_params:,}",
        f"Non-trainable params: {total_params - trainable_params:,}",
        "-" * w["table"],
        f"Input size (MB): {input_mb:0.2f}",
        f"Forward/backward pass size (MB): {output_mb:0.2f}",
        f"Params size (MB): {params_mb:0.2f}",
        f"Estimated Total Size (MB): {params_mb + output_mb + input_mb:0.2f}",
        "-" * w["table"],
    ]
    info: dict[str, Any] = {"total_params": total_params, "trainable_params": trainable_params}
    return "\n".join(lines) + "\n", info
