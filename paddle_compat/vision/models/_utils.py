"""Helpers shared by the model zoo: channel rounding, intermediate-feature extraction and
pretrained weights read from Paddle's local weight cache (paddle-compat never downloads)."""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Callable

from ... import nn

WEIGHTS_HOME = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "hapi", "weights")


def _make_divisible(v, divisor: int = 8, min_value: int | None = None) -> int:
    """Round ``v`` to the nearest multiple of ``divisor`` (at least ``min_value``), never going
    more than 10% below ``v``."""
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


class IntermediateLayerGetter(nn.LayerDict):
    """Run ``model``'s direct children in registration order and return the outputs of those
    named in ``return_layers`` as ``{new_name: Tensor}``."""

    def __init__(self, model: nn.Layer, return_layers: dict[str, str]) -> None:
        children = [name for name, _ in model.named_children()]
        if not set(return_layers).issubset(children):
            raise ValueError("return_layers are not present in model")
        wanted = {str(k) for k in return_layers}
        layers = OrderedDict()
        for name, layer in model.named_children():
            layers[name] = layer
            wanted.discard(name)
            if not wanted:
                break
        super().__init__(layers)
        self.return_layers = return_layers

    def forward(self, x):
        from ... import flatten

        out = OrderedDict()
        for name, layer in self.items():
            subs = layer.sublayers()
            to_linear = isinstance(layer, nn.Linear) or (subs and isinstance(subs[0], nn.Linear))
            if to_linear and x.ndim == 4:
                x = flatten(x, 1)
            x = layer(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out


def _md5(path: str) -> str:
    h = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _cached_weights(arch: str, model_urls: dict) -> str:
    """The local path of ``arch``'s pretrained weights: the copy in Paddle's weight cache
    (``~/.cache/paddle/hapi/weights/``) when its md5 matches Paddle's table. Raises
    AssertionError (as Paddle does) when Paddle has no weights for ``arch``, and RuntimeError
    (what Paddle raises when its download fails) naming the URL otherwise."""
    if arch not in model_urls:
        raise AssertionError(
            f"{arch} model do not have a pretrained model now, you should set pretrained=False"
        )
    url, md5 = model_urls[arch]
    fname = url.split("/")[-1]
    cached = os.path.join(WEIGHTS_HOME, fname)
    if os.path.exists(cached) and _md5(cached) == md5:
        return cached
    raise RuntimeError(
        f"pretrained=True: paddle-compat does not download weights, and {cached} is missing or "
        f"its md5 is not {md5}. Paddle downloads '{arch}' from {url}; fetch that file, then "
        f"place it at {cached}, or build the model with pretrained=False and load it: "
        f"model.set_state_dict(paddle.load('{fname}'))."
    )


def build(make: Callable[[], nn.Layer], arch: str, pretrained: bool, model_urls: dict):
    """``make()``; with ``pretrained``, first find ``arch``'s weights (see ``_cached_weights``,
    checked before building so a missing file fails fast), then load them into the model."""
    path = _cached_weights(arch, model_urls) if pretrained else None
    model = make()
    if path is not None:
        from ... import load

        model.set_state_dict(load(path))
    return model
