"""Container layers: Sequential, LayerList, LayerDict, ParameterList, ParameterDict."""

from __future__ import annotations

import collections
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..._core.tensor import Parameter
from .._layer import Layer

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList", "ParameterDict"]


class Sequential(Layer):
    """Run sublayers in order, feeding each one's output to the next. Accepts layers,
    ``(name, layer)`` pairs or one OrderedDict."""

    def __init__(self, *layers: Any) -> None:
        super().__init__()
        if len(layers) > 0 and isinstance(layers[0], list | tuple):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        elif len(layers) == 1 and isinstance(layers[0], collections.OrderedDict):
            for name, layer in layers[0].items():
                self.add_sublayer(name, layer)
        else:
            for idx, layer in enumerate(layers):
                self.add_sublayer(str(idx), layer)

    def __getitem__(self, name):
        if isinstance(name, slice):
            return self.__class__(*(list(self._sub_layers.values())[name]))
        if isinstance(name, str):
            return self._sub_layers[name]
        n = len(self._sub_layers)
        if name >= n or name < -n:
            raise IndexError(f"index {name} is out of range")
        if name < 0:
            name += n
        return list(self._sub_layers.values())[name]

    def __setitem__(self, name, layer: Layer) -> None:
        assert isinstance(layer, Layer)
        setattr(self, str(name), layer)

    def __delitem__(self, name) -> None:
        name = str(name)
        assert name in self._sub_layers
        del self._sub_layers[name]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self._sub_layers.values())

    def append(self, module: Layer) -> Sequential:
        """Add a layer at the end."""
        self.add_sublayer(str(len(self)), module)
        return self

    def insert(self, index: int, module: Layer) -> Sequential:
        """Insert a layer before position ``index`` (keys are renumbered)."""
        if not isinstance(module, Layer):
            raise AssertionError(f"module should be of type: {Layer}")
        n = len(self._sub_layers)
        if not (-n <= index <= n):
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._sub_layers[str(i)] = self._sub_layers[str(i - 1)]
        self._sub_layers[str(index)] = module
        return self

    def extend(self, sequential: Iterable[Layer]) -> Sequential:
        """Append every layer of an iterable."""
        for layer in sequential:
            self.append(layer)
        return self

    def forward(self, input: Any) -> Any:  # noqa: A002 - Paddle's name
        for layer in self._sub_layers.values():
            input = layer(input)  # noqa: A001
        return input


class LayerList(Layer):
    """A list of sublayers, registered under keys ``'0'``, ``'1'``, ..."""

    def __init__(self, sublayers: Iterable[Layer] | None = None) -> None:
        super().__init__()
        if sublayers is not None:
            for idx, layer in enumerate(sublayers):
                self.add_sublayer(str(idx), layer)

    def _get_abs_idx(self, idx: int) -> int:
        n = len(self)
        if isinstance(idx, int):
            if not (-n <= idx < n):
                raise IndexError(
                    f"index {idx} is out of range, should be an integer in range [{-n}, {n})"
                )
            if idx < 0:
                idx += n
        return idx

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._sub_layers.values())[idx])
        idx = self._get_abs_idx(idx)
        return self._sub_layers[str(idx)]

    def __setitem__(self, idx: int, sublayer: Layer) -> None:
        idx = self._get_abs_idx(idx)
        setattr(self, str(idx), sublayer)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._sub_layers))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(self._get_abs_idx(idx)))
        layers = list(self._sub_layers.values())
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        plan = self.__dict__.get("_scan_plan")  # paddle.jit.scan_layers marked this list
        if plan is not None:
            scanned = plan.iterate(self)  # under a to_static trace: one stand-in per block
            if scanned is not None:
                return scanned
        return iter(self._sub_layers.values())

    def __add__(self, other: Iterable[Layer]) -> LayerList:
        out = LayerList()
        for layer in self._sub_layers.values():
            out.append(layer)
        for layer in other:
            out.append(layer)
        return out

    def __dir__(self) -> list[str]:
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, sublayer: Layer) -> LayerList:
        """Add a layer at the end."""
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index: int, sublayer: Layer) -> None:
        """Insert a layer before position ``index``."""
        n = len(self._sub_layers)
        assert isinstance(index, int) and -n <= index <= n, (
            f"index should be an integer in range [{-n}, {n}]"
        )
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._sub_layers[str(i)] = self._sub_layers[str(i - 1)]
        self._sub_layers[str(index)] = sublayer

    def extend(self, sublayers: Iterable[Layer]) -> LayerList:
        """Append every layer of an iterable."""
        offset = len(self)
        for i, layer in enumerate(sublayers):
            self.add_sublayer(str(offset + i), layer)
        return self

    def pop(self, idx: int = -1) -> Layer:
        """Remove and return the layer at ``idx``."""
        layer = self[idx]
        del self[idx]
        return layer


class LayerDict(Layer):
    """An ordered dict of sublayers (insertion order)."""

    def __init__(self, sublayers: Mapping[str, Layer] | Iterable | None = None) -> None:
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key: str) -> Layer:
        return self._sub_layers[key]

    def __setitem__(self, key: str, sublayer: Layer) -> None:
        self.add_sublayer(key, sublayer)

    def __delitem__(self, key: str) -> None:
        del self._sub_layers[key]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[str]:
        return iter(self._sub_layers)

    def __contains__(self, key: str) -> bool:
        return key in self._sub_layers

    def clear(self) -> None:
        """Remove every sublayer."""
        self._sub_layers.clear()

    def pop(self, key: str) -> Layer:
        """Remove and return the sublayer ``key``."""
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._sub_layers.keys()

    def items(self):
        return self._sub_layers.items()

    def values(self):
        return self._sub_layers.values()

    def update(self, sublayers) -> None:
        """Add sublayers from a mapping, a LayerDict or an iterable of ``(key, layer)``."""
        if isinstance(sublayers, Mapping | LayerDict):
            for key, layer in sublayers.items():
                self.add_sublayer(key, layer)
            return
        for i, kv in enumerate(sublayers):
            if len(kv) != 2:
                raise ValueError(
                    f"The length of the {i}'s element in sublayers is {len(kv)}, which must be 2."
                )
            self.add_sublayer(kv[0], kv[1])


class ParameterList(Layer):
    """A list of Parameters registered under keys ``'0'``, ``'1'``, ..."""

    def __init__(self, parameters: Iterable[Parameter] | None = None) -> None:
        super().__init__()
        if parameters is not None:
            for idx, param in enumerate(parameters):
                assert isinstance(param, Parameter)
                self.add_parameter(str(idx), param)

    def __getitem__(self, idx: int) -> Parameter:
        return self._parameters[str(idx)]

    def __setitem__(self, idx: int, param: Parameter) -> None:
        self._parameters[str(idx)] = param

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self._parameters.values())

    def append(self, parameter: Parameter) -> ParameterList:
        """Add a Parameter at the end."""
        self.add_parameter(str(len(self._parameters)), parameter)
        return self


class ParameterDict(Layer):
    """An ordered dict of Parameters."""

    def __init__(self, parameters: Mapping[str, Parameter] | Iterable | None = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Parameter:
        return self._parameters[key]

    def __setitem__(self, key: str, param: Parameter) -> None:
        assert isinstance(param, Parameter)
        self.add_parameter(key, param)

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[str]:
        return iter(self._parameters)

    def update(self, parameters) -> None:
        """Add Parameters from a mapping, a ParameterDict or an iterable of ``(key, param)``."""
        if isinstance(parameters, Mapping | ParameterDict):
            items = (
                parameters.items()
                if isinstance(parameters, Mapping)
                else ((k, parameters[k]) for k in parameters)
            )
        else:
            items = parameters
        for kv in items:
            assert len(kv) == 2
            self.add_parameter(kv[0], kv[1])
