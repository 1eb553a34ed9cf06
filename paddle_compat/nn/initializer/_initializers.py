"""Parameter initializers (``paddle.nn.initializer``).

An initializer is a callable ``init(param, block=None)`` that overwrites ``param``'s value in
place. Values are computed on the host with numpy, so creating a parameter compiles nothing.
Random draws come from the global generator's host engine with Paddle's samplers: after
``paddle.seed(n)``, Normal, Uniform, the Xavier and Kaiming initializers (and so every layer's
default weights) give real Paddle's numbers bit for bit, Orthogonal to float rounding (its QR).
TruncatedNormal uses the same draws with a float32-accurate inverse erf (Paddle's own differs
by up to ~1e-6). Under a trace (a layer built inside ``to_static``) draws come from the JAX key.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as _dt
from ..._core import host_random as _host
from ..._core import random as _random
from ..._core.tensor import Tensor, to_device
from . import _lazy

__all__ = [
    "Initializer",
    "Constant",
    "ConstantInitializer",
    "Normal",
    "NormalInitializer",
    "TruncatedNormalInitializer",
    "UniformInitializer",
    "Uniform",
    "TruncatedNormal",
    "XavierNormal",
    "XavierUniform",
    "KaimingNormal",
    "KaimingUniform",
    "MSRAInitializer",
    "XavierInitializer",
    "Assign",
    "NumpyArrayInitializer",
    "Orthogonal",
    "Dirac",
    "Bilinear",
    "set_global_initializer",
    "calculate_gain",
]

_LOW_PRECISION = ("float16", "bfloat16")


def _compute_fans(shape) -> tuple[int, int]:
    """Paddle's fan rule: [in, out] for 2-D (Linear's layout), [out, in, *k] for conv."""
    shape = list(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    rf = int(np.prod(shape[2:]))
    return shape[1] * rf, shape[0] * rf


def _key():
    return jax.random.wrap_key_data(_random.next_key())


def _gen_dtype(param):
    """Draw in float32 for half-precision parameters (then cast), else in the param's dtype."""
    d = param.dtype
    if not _dt.is_floating(d):
        raise RuntimeError(
            f"(NotFound) random initializers need a floating-point parameter, but the "
            f"parameter {param.name} has dtype {d.name}; use Constant or Assign instead."
        )
    if d.name in _LOW_PRECISION:
        return jnp.float32
    return d.np


def _uniform(shape, param, low: float, high: float):
    """Paddle's ``uniform`` kernel draw for ``param`` (host numpy when eager)."""
    dt = _gen_dtype(param)
    eng = _random.host_engine()
    if eng is not None:
        return _host.uniform_array(eng, shape, param.dtype.name, low, high)
    return jax.random.uniform(_key(), shape, dt, low, high)


def _normal(shape, param, mean: float, std: float):
    """Paddle's ``gaussian`` kernel draw for ``param`` (host numpy when eager)."""
    dt = _gen_dtype(param)
    eng = _random.host_engine()
    if eng is not None:
        return _host.normal_array(eng, shape, param.dtype.name, mean, std)
    return jax.random.normal(_key(), shape, dt) * std + mean


def _as_param_value(value, param):
    """The initial array in the parameter's dtype (numpy values are cast on the host; they are
    new arrays, see ``Initializer._generate``, so the device may take them over uncopied)."""
    if isinstance(value, np.ndarray):
        return to_device(value.astype(param.dtype.np, copy=False), owned=True)
    return jnp.asarray(value).astype(param.dtype.np)


class _ParamSpec:
    """What an initializer reads of the parameter it fills: its shape, dtype and name."""

    def __init__(self, shape, dtype, name):
        self.shape, self.dtype, self.name = tuple(shape), dtype, name


class Initializer:
    """Base class of Paddle's initializers: ``init(param)`` fills ``param`` in place."""

    def __call__(self, param, block=None):
        if _lazy.defer(self, param):
            return None
        version = param._version
        out = self.forward(param, block)
        param._version = version  # Paddle's initializers leave the inplace version as it was
        _lazy.note_written(param)
        return out

    def forward(self, param, block=None):
        value = self._generate(tuple(param.shape), param)
        param._set_value(_as_param_value(value, param))
        return None

    def initial_value(self, shape, dtype, name):
        """The value ``forward`` would give a new parameter, so it can be created with it (one
        transfer); None for an initializer with its own ``forward`` (it needs the parameter)."""
        if type(self).forward is not Initializer.forward or _lazy.active():
            return None
        spec = _ParamSpec(shape, dtype, name)
        return _as_param_value(self._generate(spec.shape, spec), spec)

    def _generate(self, shape, param):  # pragma: no cover - subclasses
        """The initial value: a new array (numpy or JAX) that nothing else holds."""
        raise NotImplementedError

    # Paddle's private helper used by some user code
    def _compute_fans(self, var):
        return _compute_fans(var.shape)


class ConstantInitializer(Initializer):
    """Paddle's legacy constant initializer (base of ``Constant``)."""

    def __init__(self, value: float = 0.0, force_cpu: bool = False):
        self._value = value

    def _generate(self, shape, param):
        return np.full(shape, self._value, dtype=param.dtype.np)


class Constant(ConstantInitializer):
    """Fill with a constant ``value``."""

    def __init__(self, value: float = 0.0):
        super().__init__(value)


class NormalInitializer(Initializer):
    """Paddle's legacy N(loc, scale**2) initializer (base of ``Normal``)."""

    def __init__(self, loc: float = 0.0, scale: float = 1.0, seed: int = 0):
        self._mean, self._std = loc, scale

    def _generate(self, shape, param):
        return _normal(shape, param, self._mean, self._std)


class Normal(NormalInitializer):
    """Draw from N(mean, std**2)."""

    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None):
        super().__init__(mean, std)


class UniformInitializer(Initializer):
    """Paddle's legacy U[low, high) initializer (base of ``Uniform``); as in Paddle's eager
    mode the ``diag_*`` arguments are accepted and not applied."""

    def __init__(
        self,
        low: float = -1.0,
        high: float = 1.0,
        seed: int = 0,
        diag_num: int = 0,
        diag_step: int = 0,
        diag_val: float = 1.0,
    ):
        self._low, self._high = low, high

    def _generate(self, shape, param):
        return _uniform(shape, param, self._low, self._high)


class Uniform(UniformInitializer):
    """Draw from U[low, high)."""

    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None):
        super().__init__(low, high)


class TruncatedNormalInitializer(Initializer):
    """Paddle's legacy truncated normal (base of ``TruncatedNormal``)."""

    def __init__(
        self, loc: float = 0.0, scale: float = 1.0, seed: int = 0, a: float = -2.0, b: float = 2.0
    ):
        self._mean, self._std, self._a, self._b = loc, scale, a, b

    def _generate(self, shape, param):
        lo = (self._a - self._mean) / self._std
        hi = (self._b - self._mean) / self._std
        eng = _random.host_engine()
        if eng is not None:
            m, sd, a, b = self._mean, self._std, self._a, self._b
            return _host.truncated_normal_array(eng, shape, param.dtype.name, m, sd, a, b)
        g = jax.random.truncated_normal(_key(), lo, hi, shape, _gen_dtype(param))
        return jnp.clip(g * self._std + self._mean, self._a, self._b)


class TruncatedNormal(TruncatedNormalInitializer):
    """N(mean, std**2) truncated to the absolute interval [a, b]."""

    def __init__(
        self,
        mean: float = 0.0,
        std: float = 1.0,
        a: float = -2.0,
        b: float = 2.0,
        name: str | None = None,
    ):
        super().__init__(mean, std, 0, a, b)


class XavierInitializer(Initializer):
    """Paddle's legacy Glorot initializer (base of XavierNormal/XavierUniform): uniform
    U[-l, l] with l = gain * sqrt(6 / (fan_in + fan_out)), or normal with
    std = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(
        self,
        uniform: bool = True,
        fan_in: float | None = None,
        fan_out: float | None = None,
        seed: int = 0,
        gain: float = 1.0,
    ):
        self._uniform, self._fan_in, self._fan_out, self._gain = uniform, fan_in, fan_out, gain

    def _fans(self, shape):
        fi, fo = _compute_fans(shape)
        return (
            fi if self._fan_in is None else self._fan_in,
            fo if self._fan_out is None else self._fan_out,
        )

    def _generate(self, shape, param):
        fi, fo = self._fans(shape)
        if self._uniform:
            limit = self._gain * math.sqrt(6.0 / float(fi + fo))
            return _uniform(shape, param, -limit, limit)
        return _normal(shape, param, 0.0, self._gain * math.sqrt(2.0 / float(fi + fo)))


class XavierNormal(XavierInitializer):
    """Glorot normal: std = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(
        self,
        fan_in: float | None = None,
        fan_out: float | None = None,
        gain: float = 1.0,
        name: str | None = None,
    ):
        super().__init__(False, fan_in, fan_out, 0, gain)


class XavierUniform(XavierInitializer):
    """Glorot uniform: U[-l, l] with l = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(
        self,
        fan_in: float | None = None,
        fan_out: float | None = None,
        gain: float = 1.0,
        name: str | None = None,
    ):
        super().__init__(True, fan_in, fan_out, 0, gain)


class MSRAInitializer(Initializer):
    """Paddle's legacy He initializer (base of KaimingNormal/KaimingUniform): uniform
    U[-l, l] with l = gain * sqrt(3 / fan), or normal with std = gain / sqrt(fan); the gain
    is ``calculate_gain(nonlinearity, negative_slope)``, fan is fan_in or (``mode='fan_out'``)
    fan_out."""

    def __init__(
        self,
        uniform: bool = True,
        fan_in: float | None = None,
        seed: int = 0,
        negative_slope: float = 0,
        nonlinearity: str = "relu",
        mode: str = "fan_in",
    ):
        self._uniform, self._fan_in = uniform, fan_in
        self._slope, self._nonlinearity, self._mode = negative_slope, nonlinearity, mode
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(
                "The mode of KaimingNormal/KaimingUniform should be 'fan_in' or 'fan_out', "
                f"but received {mode}."
            )
        if mode == "fan_out" and fan_in is not None:
            raise ValueError(
                "The mode of KaimingNormal/KaimingUniform is 'fan_out', but fan_in is set. "
                "Please set fan_in to None."
            )

    def _scale(self, shape):
        fi, fo = _compute_fans(shape)
        if self._mode == "fan_out":
            fi = fo
        elif self._fan_in is not None:
            fi = self._fan_in
        return calculate_gain(self._nonlinearity, self._slope) / math.sqrt(float(fi))

    def _generate(self, shape, param):
        if self._uniform:
            limit = math.sqrt(3.0) * self._scale(shape)
            return _uniform(shape, param, -limit, limit)
        return _normal(shape, param, 0.0, self._scale(shape))


class KaimingNormal(MSRAInitializer):
    """He normal: std = gain / sqrt(fan_in), gain from ``calculate_gain(nonlinearity)``."""

    def __init__(
        self,
        fan_in: float | None = None,
        negative_slope: float = 0.0,
        nonlinearity: str = "relu",
        mode: str = "fan_in",
    ):
        super().__init__(False, fan_in, 0, negative_slope, nonlinearity, mode)


class KaimingUniform(MSRAInitializer):
    """He uniform: U[-l, l] with l = gain * sqrt(3 / fan_in)."""

    def __init__(
        self,
        fan_in: float | None = None,
        negative_slope: float = 0.0,
        nonlinearity: str = "relu",
        mode: str = "fan_in",
    ):
        super().__init__(True, fan_in, 0, negative_slope, nonlinearity, mode)


class Assign(Initializer):
    """Set the parameter to a given numpy array / list / tuple / Tensor (as Paddle does, the
    parameter takes the value's shape)."""

    def __init__(self, value, name: str | None = None):
        assert isinstance(value, np.ndarray | list | tuple | Tensor), (
            "The type of 'value' in Assign must be numpy.ndarray, list, tuple or Tensor, but "
            f"received {type(value).__name__}."
        )
        self._value = value

    def forward(self, param, block=None):
        v = self._value
        arr = np.asarray(v.numpy() if isinstance(v, Tensor) else v)
        param._set_value(to_device(arr.astype(param.dtype.np)))


NumpyArrayInitializer = Assign


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix over [shape[0], prod(shape[1:])], scaled by ``gain``."""

    def __init__(self, gain: float = 1.0, name: str | None = None):
        self._gain = gain

    def _generate(self, shape, param):
        assert len(shape) >= 2, (
            "Only Tensor with 2 or more dimensions can be initialized by Orthogonal"
        )
        rows = shape[0]
        cols = int(np.prod(shape[1:]))
        flat_shape = (max(rows, cols), min(rows, cols))
        eng = _random.host_engine()
        if eng is not None:  # numpy's QR, as Paddle's CPU kernel (LAPACK)
            flat = _host.normal_array(eng, flat_shape, "float32", 0.0, 1.0)
            q, r = np.linalg.qr(flat)
            q = q * np.sign(np.diagonal(r))[None, :]
            gain = np.float32(self._gain)
        else:
            q, r = jnp.linalg.qr(jax.random.normal(_key(), flat_shape, jnp.float32))
            q = q * jnp.sign(jnp.diagonal(r))[None, :]
            gain = self._gain
        if rows < cols:
            q = q.T
        return (q * gain).reshape(shape)


class Dirac(Initializer):
    """Identity-preserving conv kernel (3-D/4-D/5-D weights), in ``groups`` groups."""

    def __init__(self, groups: int = 1, name: str | None = None):
        self._groups = groups

    def _generate(self, shape, param):
        assert len(shape) in (3, 4, 5), (
            "Only Tensor with 3/4/5 dimensions can be initialized by Dirac"
        )
        assert shape[0] % self._groups == 0, "Tensor 0-dimension must be divisible by groups"
        out = np.zeros(shape, np.float32)
        per = shape[0] // self._groups
        centers = tuple(s // 2 for s in shape[2:])
        for g in range(self._groups):
            for i in range(min(per, shape[1])):
                out[(g * per + i, i, *centers)] = 1.0
        return out


class Bilinear(Initializer):
    """Bilinear-upsampling kernel for a 4-D transposed-conv weight (Paddle's formula)."""

    def _generate(self, shape, param):
        if len(shape) != 4:
            raise ValueError("the length of shape must be 4.")
        if shape[2] != shape[3]:
            raise ValueError("shape[2] must be equal to shape[3].")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(int(np.prod(shape)), dtype=np.float64)
        x = i % size
        y = (i / size) % shape[2]  # true division, as Paddle computes it
        w = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
        return w.reshape(shape).astype(np.float32)


_global_weight: Initializer | None = None
_global_bias: Initializer | None = None


def set_global_initializer(
    weight_init: Initializer | None, bias_init: Initializer | None = None
) -> None:
    """Set the initializers used for every new weight/bias whose ParamAttr names none
    (they take precedence over a layer's own defaults). ``None`` resets."""
    global _global_weight, _global_bias
    _global_weight, _global_bias = weight_init, bias_init


def _global_weight_initializer() -> Initializer | None:
    return _global_weight


def _global_bias_initializer() -> Initializer | None:
    return _global_bias


_GAINS = {
    "sigmoid": 1,
    "linear": 1,
    "conv1d": 1,
    "conv2d": 1,
    "conv3d": 1,
    "conv1d_transpose": 1,
    "conv_transpose1d": 1,
    "conv2d_transpose": 1,
    "conv_transpose2d": 1,
    "conv3d_transpose": 1,
    "conv_transpose3d": 1,
    "tanh": 5.0 / 3,
    "relu": math.sqrt(2.0),
    "selu": 3.0 / 4,
}


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for a nonlinearity (used by Kaiming/Xavier initializers)."""
    if param is None:
        param = 0.01
    else:
        assert isinstance(param, bool | int | float), "param must be bool, int or float"
        param = float(param)
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + param**2))
    if nonlinearity in _GAINS:
        return _GAINS[nonlinearity]
    raise ValueError(f"nonlinearity function {nonlinearity} is not supported now.")
