"""QuantConfig: which quanter/observer quantizes the activations and weights of each layer."""

from __future__ import annotations

from paddle_compat.nn import Conv2D, Layer, Linear

from ._base import QuanterFactory
from ._legacy import legacy_factories
from ._wrappers import ObserveWrapper, QuantedConv2D, QuantedLinear, QuanterStub, Stub

__all__ = ["DEFAULT_QAT_LAYER_MAPPINGS", "QuantConfig", "SingleLayerConfig"]

DEFAULT_QAT_LAYER_MAPPINGS: dict[type[Layer], type[Layer]] = {
    Stub: QuanterStub,
    Linear: QuantedLinear,
    Conv2D: QuantedConv2D,
}
DEFAULT_LEAVES = [Stub]
_MISSING = object()


class SingleLayerConfig:
    """The activation and weight quanter factories of one layer."""

    def __init__(self, activation: QuanterFactory | None, weight: QuanterFactory | None) -> None:
        self._activation = activation
        self._weight = weight

    @property
    def activation(self) -> QuanterFactory | None:
        return self._activation

    @property
    def weight(self) -> QuanterFactory | None:
        return self._weight

    def __str__(self) -> str:
        return f"activation: {self._activation}\nweight: {self._weight}"


def _as_list(x) -> list:
    return list(x) if isinstance(x, list | tuple) else [x]


class QuantConfig:
    """Maps each layer of a model to the quanters of its activations and weights.

    A layer's config is, by priority: the one added for it by name (``add_name_config``) or by
    object (``add_layer_config``), the one for its type (``add_type_config``), its parent's, and
    the global ``QuantConfig(activation, weight)``.

    Also accepts the older keyword form ``QuantConfig(activate_quantizer=False, weight_bits=8,
    activation_bits=8)`` (not in Paddle 3.3.1): fake quantizers of those bit widths, with the
    activation quantizer left out when ``activate_quantizer`` is False.

    Example::

        q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        config = QuantConfig(activation=q, weight=q)
        config.add_type_config(paddle.nn.Conv2D, activation=None, weight=q)
    """

    def __init__(
        self,
        activation: QuanterFactory | None = _MISSING,  # type: ignore[assignment]
        weight: QuanterFactory | None = _MISSING,  # type: ignore[assignment]
        **legacy,
    ) -> None:
        if legacy:
            activation, weight = legacy_factories(activation, weight, legacy)
        missing = [n for n, v in (("activation", activation), ("weight", weight)) if v is _MISSING]
        if missing:
            raise TypeError(
                f"QuantConfig.__init__() missing {len(missing)} required "
                f"positional argument(s): {', '.join(repr(m) for m in missing)}"
            )
        if activation is None and weight is None:
            self._global_config = None
        else:
            self._global_config = SingleLayerConfig(activation, weight)
        self._type2config: dict = {}
        self._prefix2config: dict = {}
        self._layer2config: dict = {}
        self._model = None
        self._qat_layer_mapping = dict(DEFAULT_QAT_LAYER_MAPPINGS)
        self._customized_qat_layer_mapping: dict = {}
        self._customized_leaves: list = []

    # -- configuration ----------------------------------------------------------------------
    def add_layer_config(
        self,
        layer: Layer | list[Layer],
        activation: QuanterFactory | None = None,
        weight: QuanterFactory | None = None,
    ) -> None:
        """Use these quanters for ``layer`` (one layer or a list) and its sublayers."""
        for lay in _as_list(layer):
            if not isinstance(lay, Layer):
                raise TypeError(f"add_layer_config expects Layer objects, got {type(lay).__name__}")
            self.add_name_config(lay.full_name(), activation=activation, weight=weight)

    def add_name_config(
        self,
        layer_name: str | list[str],
        activation: QuanterFactory | None = None,
        weight: QuanterFactory | None = None,
    ) -> None:
        """Use these quanters for the layer whose ``full_name()`` is ``layer_name``."""
        for name in _as_list(layer_name):
            if not isinstance(name, str):
                raise TypeError(
                    f"add_name_config expects layer names (str), got {type(name).__name__}"
                )
            self._prefix2config[name] = SingleLayerConfig(activation, weight)

    def add_type_config(
        self,
        layer_type: type[Layer] | list[type[Layer]],
        activation: QuanterFactory | None = None,
        weight: QuanterFactory | None = None,
    ) -> None:
        """Use these quanters for every layer of type ``layer_type``."""
        for t in _as_list(layer_type):
            if not (isinstance(t, type) and issubclass(t, Layer)):
                raise TypeError(f"add_type_config expects Layer subclasses, got {t!r}")
            self._type2config[t] = SingleLayerConfig(activation, weight)

    def add_qat_layer_mapping(self, source: type[Layer], target: type[Layer]) -> None:
        """Quantize layers of type ``source`` by replacing them with ``target(layer, config)``."""
        if not (isinstance(source, type) and issubclass(source, Layer)):
            raise TypeError(f"source must be a Layer subclass, got {source!r}")
        if not (isinstance(target, type) and issubclass(target, Layer)):
            raise TypeError(f"target must be a Layer subclass, got {target!r}")
        self._qat_layer_mapping[source] = target
        self._customized_qat_layer_mapping[source] = target

    def add_customized_leaf(self, layer_type: type[Layer]) -> None:
        """Treat layers of ``layer_type`` as leaves: observed as a whole, never entered."""
        self._customized_leaves.append(layer_type)

    @property
    def customized_leaves(self) -> list:
        return self._customized_leaves

    @property
    def global_config(self) -> SingleLayerConfig | None:
        return self._global_config

    @property
    def qat_layer_mappings(self) -> dict:
        return self._qat_layer_mapping

    @property
    def default_qat_layer_mapping(self) -> dict:
        return DEFAULT_QAT_LAYER_MAPPINGS

    # -- resolution (used by QAT/PTQ) --------------------------------------------------------
    def _specify(self, model: Layer) -> QuantConfig:
        self._model = model
        self._layer2config = {}
        self._specify_helper(model)
        return self

    def _specify_helper(self, model: Layer) -> None:
        parent = self._layer2config.get(id(model), (None, self._global_config))[1]
        for child in model.children():
            cfg = self._type2config.get(type(child), parent)
            cfg = self._prefix2config.get(child.full_name(), cfg)
            if cfg is not None:
                self._layer2config[id(child)] = (child, cfg)
            self._specify_helper(child)

    def _get_config_by_layer(self, layer: Layer) -> SingleLayerConfig | None:
        entry = self._layer2config.get(id(layer))
        return entry[1] if entry is not None and entry[0] is layer else None

    def _has_observer_config(self, layer: Layer) -> bool:
        cfg = self._get_config_by_layer(layer)
        return cfg is not None and (cfg.activation is not None or cfg.weight is not None)

    def _is_quantifiable(self, layer: Layer) -> bool:
        if type(layer) not in self._qat_layer_mapping:
            return False
        own_stub = isinstance(layer, Stub) and layer._observer is not None
        return own_stub or self._has_observer_config(layer)

    def _is_default_leaf(self, layer: Layer) -> bool:
        return type(layer) in DEFAULT_LEAVES or type(layer) in self._qat_layer_mapping

    def _is_customized_leaf(self, layer: Layer) -> bool:
        return type(layer) in self._customized_leaves

    def _is_real_leaf(self, layer: Layer) -> bool:
        return len(layer._sub_layers) == 0

    def _is_leaf(self, layer: Layer) -> bool:
        return (
            self._is_default_leaf(layer)
            or self._is_real_leaf(layer)
            or self._is_customized_leaf(layer)
        )

    def _need_observe(self, layer: Layer) -> bool:
        cfg = self._get_config_by_layer(layer)
        return (
            self._is_leaf(layer)
            and not self._is_quantifiable(layer)
            and cfg is not None
            and cfg.activation is not None
        )

    def _get_qat_layer(self, layer: Layer) -> Layer:
        cfg = self._get_config_by_layer(layer) or SingleLayerConfig(None, None)
        return self._qat_layer_mapping[type(layer)](layer, cfg)

    def _get_observer(self, layer: Layer):
        cfg = self._get_config_by_layer(layer)
        return cfg.activation._instance(layer) if cfg and cfg.activation else None

    def _get_observe_wrapper(self, layer: Layer) -> ObserveWrapper:
        return ObserveWrapper(self._get_observer(layer), layer)

    # -- printing ---------------------------------------------------------------------------
    def details(self) -> str:
        """The config as text; after ``_specify`` the model tree with each layer's config."""
        if self._model is None:
            return str(self)
        return self._details_helper(self._model)

    def _details_helper(self, layer: Layer) -> str:
        lines = []
        for name, child in layer.named_children():
            text = _addindent(self._details_helper(child), 2)
            cfg = self._get_config_by_layer(child)
            if cfg is not None:
                lines.append(f"({name}): {text}, {cfg}")
        out = layer._get_name() + "("
        if lines:
            out += "\n  " + "\n  ".join(lines) + "\n"
        return out + ")"

    def __str__(self) -> str:
        out = f"Global config:\n{self._global_config}\n"
        if self._type2config:
            out += f"Layer type config:\n{self._type2config}\n"
        if self._prefix2config:
            out += f"Layer prefix config: \n{self._prefix2config}\n"
        return out


def _addindent(s: str, n: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    return lines[0] + "\n" + "\n".join(" " * n + ln for ln in lines[1:])
