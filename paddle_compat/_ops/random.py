"""Random ops: rand/randn/uniform/normal/randint/randperm (+ _like), bernoulli, multinomial,
poisson, standard_gamma, binomial, log_normal and the in-place fills (uniform_, normal_,
exponential_, ...).

Every public op here is a thin composite with two paths:

- eager: it samples on the host from the global generator's engine with Paddle's own samplers
  (``_core.host_random``), so after ``paddle.seed(n)`` the numbers are real Paddle's, bit for
  bit, and nothing is compiled (``standard_gamma``: ``_core.host_gamma``; ``binomial`` and
  ``poisson``: ``_core.host_discrete``). ``cauchy_`` is not reproduced yet: it takes the
  second path;
- compiled (under ``to_static`` or a JAX transform): it draws a fresh key from the generator and
  passes it as a *tensor input* to a private jitted kernel, so the generator state is threaded
  through the compiled function. These values differ from Paddle's (same distributions).
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core import host_discrete, host_gamma
from .._core import host_random as _host
from .._core import random as _rng
from .._core.dtype import DTypeLike
from .._core.place import Place
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor
from .creation import created, pack_size

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_FLOATS_C = _FLOATS + ("complex64", "complex128")
_INTS = ("int32", "int64")
_K = {"namespaces": (), "method": None, "differentiable": False}


# -- helpers -----------------------------------------------------------------------------------
def _key(seed: int = 0) -> Tensor:
    """A fresh key from the global generator (or a fixed one from a nonzero ``seed``)."""
    if seed:
        return Tensor(_rng.key_data_of(int(seed)))
    return Tensor(_rng.next_key())


def _draw(host, compiled, seed: int = 0) -> Tensor:
    """``host(engine)`` (a numpy sample, put on the device without a compiled kernel) when the
    op runs eagerly, else ``compiled(key)`` (a jitted kernel of the key)."""
    eng = _rng.host_engine(seed)
    if eng is not None:
        return Tensor(host(eng))
    return compiled(_key(seed))


def _uniform(seed: int, shape, dt: str, low: float, high: float) -> Tensor:
    return _draw(
        lambda e: _host.uniform_array(e, shape, dt, low, high),
        lambda k: _rand_uniform(k, float(low), float(high), shape, dt),
        seed,
    )


def _normal(shape, dt: str, mean, std: float) -> Tensor:
    return _draw(
        lambda e: _host.normal_array(e, shape, dt, mean, std),
        lambda k: _rand_normal(k, mean, float(std), shape, dt),
    )


def _randint(shape, dt: str, low: int, high: int) -> Tensor:
    return _draw(
        lambda e: _host.integer_array(e, shape, dt, low, high),
        lambda k: _rand_int(k, int(low), int(high), shape, dt),
    )


def _k(key):
    return jax.random.wrap_key_data(key)


def _shape(shape) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = np.asarray(shape.numpy()).reshape(-1).tolist()
    if isinstance(shape, int | np.integer):
        shape = [shape]
    out = []
    for s in shape:
        if isinstance(s, Tensor):
            s = s.item()
        if not isinstance(s, int | np.integer):
            raise TypeError(f"shape entries must be ints, got {type(s).__name__}")
        if s < 0:
            raise RuntimeError(
                f"(PreconditionNotMet) The meta data must be valid: shape {list(shape)} has a "
                f"negative entry."
            )
        out.append(int(s))
    return tuple(out)


def _dtype(dtype, allowed, kernel: str, default=None) -> str:
    d = _dt.to_dtype(dtype) if dtype is not None else (default or _dt.default_float())
    if d.name not in allowed:
        raise RuntimeError(
            f"(NotFound) The kernel `{kernel}` is not registered for data type {d.name}; "
            f"supported: {', '.join(allowed)}."
        )
    return d.name


def _fill(x: Tensor, value: Tensor, name: str, check_leaf: bool = True) -> Tensor:
    """Write a sample into ``x`` in place. On a non-leaf the fill is recorded as an op with a
    zero gradient, so x stays a non-leaf (as in Paddle) and nothing flows to its old value."""
    from .._core import autograd
    from ._methods import make_inplace

    if x._node is not None and autograd.is_grad_enabled():
        return make_inplace(_refill)(x, value)
    if check_leaf and not x.stop_gradient and autograd.is_grad_enabled():
        raise ValueError(
            f"(InvalidArgument) Leaf Tensor (shape {list(x.shape)}) that doesn't stop gradient "
            f"can't use inplace strategy ({name})."
        )
    x._set_value(value._val)
    x._node = None
    return x


def _float_inplace(x: Tensor, kernel: str) -> str:
    return _dtype(x.dtype, _FLOATS, kernel)


# -- kernels (private; the key is a tensor input) ----------------------------------------------
@op("_refill", tensors=("x", "value"), namespaces=(), method=None, inplace="_refill_")
def _refill(x, value):
    return jax.lax.stop_gradient(value).astype(x.dtype) + jnp.zeros_like(x)


@op("_rand_uniform", tensors=("key", "low", "high"), **_K)
def _rand_uniform(key, low, high, shape, dtype):
    dt = np.dtype(_dt.to_dtype(dtype).np)
    if jnp.issubdtype(dt, jnp.complexfloating):
        real = jnp.finfo(dt).dtype
        k1, k2 = jax.random.split(_k(key))
        re = jax.random.uniform(k1, shape, real, low, high)
        return (re + 1j * jax.random.uniform(k2, shape, real, low, high)).astype(dt)
    return jax.random.uniform(_k(key), shape, dt, low.astype(dt), high.astype(dt))


@op("_rand_normal", tensors=("key", "mean", "std"), **_K)
def _rand_normal(key, mean, std, shape, dtype):
    dt = np.dtype(_dt.to_dtype(dtype).np)
    z = jax.random.normal(_k(key), shape, dt)
    return (z * std + mean).astype(dt)


@op("_rand_int", tensors=("key", "low", "high"), **_K)
def _rand_int(key, low, high, shape, dtype):
    dt = np.dtype(_dt.to_dtype(dtype).np)
    kdt = jnp.int64 if dt.kind == "f" or dt == np.int64 else dt
    return jax.random.randint(_k(key), shape, low, high, kdt).astype(dt)


@op("_randperm", tensors=("key",), **_K)
def _randperm(key, n, dtype):
    return jax.random.permutation(_k(key), n).astype(_dt.to_dtype(dtype).np)


@op("_bernoulli", tensors=("key", "p"), **_K)
def _bernoulli(key, p, dtype):
    dt = _dt.to_dtype(dtype).np
    return (jax.random.uniform(_k(key), p.shape, jnp.float32) < p).astype(dt)


@op("_exponential", tensors=("key", "lam"), **_K)
def _exponential(key, lam, shape, dtype):
    dt = _dt.to_dtype(dtype).np
    return (jax.random.exponential(_k(key), shape, dt) / lam).astype(dt)


@op("_cauchy", tensors=("key", "loc", "scale"), **_K)
def _cauchy(key, loc, scale, shape, dtype):
    dt = _dt.to_dtype(dtype).np
    return (jax.random.cauchy(_k(key), shape, dt) * scale + loc).astype(dt)


@op("_geometric", tensors=("key", "probs"), **_K)
def _geometric(key, probs, shape, dtype):
    dt = _dt.to_dtype(dtype).np
    u = jax.random.uniform(_k(key), shape, jnp.float32, minval=jnp.finfo(jnp.float32).tiny)
    # Paddle 3.3.1 fills log(u) / log(1 - p) without rounding up (measured: non-integer
    # values, some below 1); we match it rather than the textbook integer distribution
    return (jnp.log(u) / jnp.log1p(-probs)).astype(dt)


@op("_poisson", tensors=("key", "x"), namespaces=(), method=None)
def _poisson(key, x):
    # differentiable with a zero gradient, as Paddle's poisson_grad
    s = jax.random.poisson(_k(key), jax.lax.stop_gradient(x), x.shape)
    return s.astype(x.dtype) + 0 * jax.lax.stop_gradient(x)


@op("_poisson_counts", tensors=("x", "counts"), namespaces=(), method=None)
def _poisson_counts(x, counts):
    # host samples as x's dtype, with the zero gradient of Paddle's poisson_grad
    return counts.astype(x.dtype) + 0 * jax.lax.stop_gradient(x)


@op("_standard_gamma", tensors=("key", "x"), **_K)
def _standard_gamma(key, x):
    return jax.random.gamma(_k(key), x, x.shape, x.dtype)


@op("_binomial", tensors=("key", "count", "prob"), **_K)
def _binomial(key, count, prob):
    shape = jnp.broadcast_shapes(count.shape, prob.shape)
    p = prob.astype(jnp.float32) if prob.dtype != jnp.float64 else prob
    return jax.random.binomial(_k(key), count.astype(p.dtype), p, shape).astype(jnp.int64)


@op("_multinomial", tensors=("key", "x"), **_K)
def _multinomial(key, x, num_samples, replacement):
    logits = jnp.log(x.astype(jnp.float32) if x.dtype != jnp.float64 else x)
    if replacement:
        out = jax.random.categorical(
            _k(key), logits, axis=-1, shape=(num_samples,) + logits.shape[:-1]
        )
        out = jnp.moveaxis(out, 0, -1)
    else:  # Gumbel top-k: sampling without replacement
        g = jax.random.gumbel(_k(key), logits.shape, logits.dtype)
        out = jax.lax.top_k(logits + g, num_samples)[1]
    return out.astype(jnp.int64)


# -- public creation ops -----------------------------------------------------------------------
@op(
    "rand",
    tensors=(),
    composite=True,
    method=None,
    aliases={"size": "shape"},
    prebind=pack_size,
)
def rand(
    shape: int | Sequence[int] | Tensor,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Uniform samples in [0, 1) of ``shape`` (default float dtype)."""
    dt = _dtype(dtype, _FLOATS_C, "uniform")
    return created(_uniform(0, _shape(shape), dt, 0.0, 1.0), device, requires_grad, pin_memory)


@op(
    "randn",
    tensors=(),
    composite=True,
    method=None,
    aliases={"size": "shape"},
    prebind=pack_size,
)
def randn(
    shape: int | Sequence[int] | Tensor,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Standard normal samples of ``shape`` (default float dtype)."""
    dt = _dtype(dtype, _FLOATS_C, "gaussian")
    return created(_normal(_shape(shape), dt, 0.0, 1.0), device, requires_grad, pin_memory)


@op("gaussian", tensors=(), composite=True, method=None, namespaces=(), tensor_modules=("random",))
def gaussian(
    shape: int | Sequence[int] | Tensor,
    mean: complex = 0.0,
    std: float = 1.0,
    seed: int = 0,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``paddle.tensor.random.gaussian``: normal samples of ``shape``; a nonzero ``seed`` draws
    from a fresh generator of that seed (the global one is left alone)."""
    dt = _dtype(dtype, _FLOATS_C, "gaussian")
    shape, std = _shape(shape), float(std)
    r = _draw(
        lambda e: _host.normal_array(e, shape, dt, mean, std),
        lambda k: _rand_normal(k, mean, std, shape, dt),
        int(seed),
    )
    return created(r, device, requires_grad)


@op("standard_normal", tensors=(), composite=True, method=None)
def standard_normal(
    shape: int | Sequence[int] | Tensor,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """Same as ``randn``."""
    return randn(shape, dtype, device=device, requires_grad=requires_grad)


@op("uniform", tensors=(), composite=True, method=None)
def uniform(
    shape: int | Sequence[int] | Tensor,
    dtype: DTypeLike | None = None,
    min: float = 0,  # noqa: A002
    max: float = 1.0,
    seed: int = 0,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """Uniform samples in [min, max); a nonzero ``seed`` gives the same numbers every call."""
    dt = _dtype(dtype, _FLOATS, "uniform")
    return created(_uniform(seed, _shape(shape), dt, min, max), device, requires_grad)


@op("normal", tensors=(), composite=True, method=None, aliases={"size": "shape"})
def normal(
    mean: complex | Tensor = 0.0,
    std: float | Tensor = 1.0,
    shape: int | Sequence[int] | Tensor | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Normal samples; ``mean``/``std`` may be Tensors (the result broadcasts them and is
    differentiable with respect to them)."""
    if isinstance(mean, complex) and mean.real != mean.imag:
        raise ValueError(
            "The mean of complex gaussian distribution should be a complex number with real "
            f"part equal imaginary part, but got {mean.real} != {mean.imag}"
        )
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
        if len(tensors) == 2 and tuple(mean.shape) != tuple(std.shape):
            raise ValueError(
                f"normal: mean {list(mean.shape)} and std {list(std.shape)} must have the same "
                f"shape."
            )
        z = _normal(tuple(tensors[0].shape), tensors[0].dtype.name, 0.0, 1.0)
        return z * std + mean
    if shape is None:
        raise AttributeError("normal: shape is required when mean and std are numbers")
    dt = "complex64" if isinstance(mean, complex) else _dt.default_float().name
    m = mean if isinstance(mean, complex) else float(mean)
    return _normal(_shape(shape), dt, m, float(std))


@op("log_normal", tensors=(), composite=True, method=None)
def log_normal(
    mean: float | Tensor = 1.0,
    std: float | Tensor = 2.0,
    shape: int | Sequence[int] | Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """exp of normal samples with the given ``mean``/``std``."""
    eng = _rng.host_engine()
    if eng is not None and not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if shape is None:
            raise AttributeError("log_normal: shape is required when mean and std are numbers")
        dt = _dt.default_float().name
        return Tensor(_host.log_normal_array(eng, _shape(shape), dt, float(mean), float(std)))
    return normal(mean, std, shape).exp()


@op("randint", tensors=(), composite=True, method=None)
def randint(
    low: int = 0,
    high: int | None = None,
    shape: int | Sequence[int] | Tensor = [1],  # noqa: B006 - Paddle's default
    dtype: DTypeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """Uniform integers in [low, high) (or [0, low) when ``high`` is None); int64 default."""
    if high is None:
        low, high = 0, low
    if low >= high:
        raise ValueError(
            f"(InvalidArgument) randint's low must less then high, but received: low = {low}, "
            f"high = {high}."
        )
    dt = _dtype(dtype, _INTS, "randint", _dt.int64)
    return _randint(_shape(shape), dt, int(low), int(high))


@op("randint_like", composite=True, method=None, aliases=NO_TORCH_KEYWORDS)
def randint_like(
    x: Tensor,
    low: int = 0,
    high: int | None = None,
    dtype: DTypeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """randint with the shape (and by default the dtype) of ``x``."""
    if high is None:
        low, high = 0, low
    if low >= high:
        raise ValueError(
            f"randint_like's low must less then high, but received low = {low}, high = {high}"
        )
    dt = _dtype(dtype if dtype is not None else x.dtype, _FLOATS + _INTS, "randint")
    return _randint(tuple(x.shape), dt, int(low), int(high))


@op("rand_like", composite=True, method=None)
def rand_like(
    input: Tensor,  # noqa: A002
    name: str | None = None,
    *,
    dtype: DTypeLike | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """rand with the shape (and by default the dtype) of ``input``."""
    dt = _dtype(dtype if dtype is not None else input.dtype, _FLOATS_C, "uniform")
    return created(_uniform(0, tuple(input.shape), dt, 0.0, 1.0), device, requires_grad)


@op("randn_like", composite=True, method=None)
def randn_like(
    x: Tensor,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    device: str | Place | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """randn with the shape (and by default the dtype) of ``x``."""
    dt = _dtype(dtype if dtype is not None else x.dtype, _FLOATS_C, "gaussian")
    return created(_normal(tuple(x.shape), dt, 0.0, 1.0), device, requires_grad)


@op("randperm", tensors=(), composite=True, method=None)
def randperm(
    n: int,
    dtype: DTypeLike = "int64",
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A random permutation of 0..n-1."""
    if n < 0:
        raise RuntimeError(f"(PreconditionNotMet) randperm: n must be >= 0, got {n}.")
    dt = _dtype(dtype, _FLOATS + _INTS, "randperm")
    r = _draw(
        lambda e: _host.permutation(e, int(n)).astype(_dt.to_dtype(dt).np),
        lambda k: _randperm(k, int(n), dt),
    )
    return created(r, device, requires_grad, pin_memory)


# -- sampling from tensors ---------------------------------------------------------------------
@op("bernoulli", composite=True, method=None, aliases=NO_TORCH_KEYWORDS)
def bernoulli(x: Tensor, p: float | None = None, name: str | None = None) -> Tensor:
    """0/1 samples (dtype of x) with probabilities ``x`` (or the scalar ``p``); a probability
    outside [0, 1] (or nan) raises Paddle's IndexError in eager mode."""
    dt = _dtype(x.dtype, _FLOATS, "bernoulli")
    probs = None  # x on the host, read once (for the check and the host sampler)
    if p is not None:
        _check_probability(np.asarray(p, np.float64).reshape(-1))
    elif not isinstance(x._value, jax.core.Tracer):
        probs = x.numpy()
        _check_probability(probs.reshape(-1))
    return _draw(
        lambda e: _host.bernoulli_array(e, probs if p is None else np.full(tuple(x.shape), p), dt),
        lambda k: _bernoulli(
            k, x if p is None else Tensor(jnp.full(tuple(x.shape), p, x.dtype.np)), dt
        ),
    )


def _check_probability(probs: np.ndarray) -> None:
    """Paddle's CPU bernoulli check, element by element: p >= 0, then p <= 1 (nan fails it)."""
    bad = np.flatnonzero((probs < 0) | ~(probs <= 1))
    if bad.size:
        v = float(probs[bad[0]])
        rule = ">= 0" if v < 0 else "<= 1"
        raise IndexError(f"(OutOfRange) The probability should be {rule}, but got {v:f}")


def _check_multinomial(x, num_samples, replacement):
    if x.ndim > 2 or x.ndim == 0:
        raise ValueError(
            f"(InvalidArgument) The number of dimensions of the input probability distribution "
            f"should be 1 or 2, but got {x.ndim}."
        )
    v = x._value
    if isinstance(v, jax.core.Tracer):
        return
    a = np.asarray(v, dtype=np.float64).reshape(-1, x.shape[-1])
    bad = a[(a < 0) | np.isnan(a)]
    if bad.size:
        raise ValueError(
            "(InvalidArgument) The input of multinomial distribution should be >= 0, but got "
            f"{bad[0]:f}."
        )
    if (a.sum(-1) <= 0).any():
        raise ValueError(
            "(InvalidArgument) The sum of one multinomial distribution probability should be > 0"
        )
    if not replacement and ((a > 0).sum(-1) < num_samples).any():
        raise ValueError(
            "(InvalidArgument) When replacement is False, number of samples should be less than "
            "non-zero categories."
        )


@op("multinomial", composite=True)
def multinomial(
    x: Tensor,
    num_samples: int = 1,
    replacement: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """int64 category indices sampled from the (unnormalized) probabilities in the last axis."""
    _dtype(x.dtype, _FLOATS, "multinomial")
    _check_multinomial(x, int(num_samples), bool(replacement))
    n, rep = int(num_samples), bool(replacement)
    r = _draw(
        lambda e: _host.multinomial_array(e, x.numpy(), n, rep),
        lambda k: _multinomial(k, x, n, rep),
    )
    return r


@op("poisson", composite=True, method=None, aliases=NO_TORCH_KEYWORDS)
def poisson(x: Tensor, name: str | None = None) -> Tensor:
    """Poisson samples with rates ``x`` (dtype of x; zero gradient)."""
    _dtype(x.dtype, _FLOATS, "poisson")
    eng = _rng.host_engine()
    if eng is None or x.dtype not in (_dt.float32, _dt.float64):  # compiled: the key's numbers
        return _poisson(_key(), x)
    return _poisson_counts(x, Tensor(host_discrete.poisson_array(eng, x.numpy())))


@op("standard_gamma", composite=True, method=None, aliases=NO_TORCH_KEYWORDS)
def standard_gamma(x: Tensor, name: str | None = None) -> Tensor:
    """Gamma(x, 1) samples."""
    dt = _dtype(x.dtype, _FLOATS, "standard_gamma")
    eng = _rng.host_engine()
    if eng is not None and dt in ("float32", "float64"):
        return Tensor(host_gamma.standard_gamma_array(eng, x.numpy()))
    return _standard_gamma(_key(), x)


@op("binomial", tensors=("count", "prob"), composite=True, method=None)
def binomial(count: Tensor, prob: Tensor, name: str | None = None) -> Tensor:
    """int64 Binomial(count, prob) samples (drawn in prob's float type, as Paddle's kernel)."""
    eng = _rng.host_engine()
    if eng is None or prob.dtype not in (_dt.float32, _dt.float64):
        return _binomial(_key(), count, prob)
    n, p = np.broadcast_arrays(count.numpy().astype(prob.dtype.np), prob.numpy())
    return Tensor(host_discrete.binomial_array(eng, n, p))


# -- in-place fills ----------------------------------------------------------------------------
@op("uniform_", composite=True, namespaces=())
def uniform_(x, min=0, max=1.0, seed=0, name=None):  # noqa: A002
    """Fill ``x`` with uniform samples in [min, max)."""
    dt = _float_inplace(x, "uniform_inplace")
    return _fill(x, _uniform(seed, tuple(x.shape), dt, min, max), "uniform_")


@op("normal_", composite=True, aliases=NO_TORCH_KEYWORDS)
def normal_(x: Tensor, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> Tensor:
    """Fill ``x`` with normal samples."""
    dt = _float_inplace(x, "gaussian_inplace")
    return _fill(x, _normal(tuple(x.shape), dt, float(mean), float(std)), "normal_")


@op("gaussian_", composite=True, namespaces=(), method=None, tensor_modules=("random",))
def gaussian_(
    x: Tensor, mean: complex = 0.0, std: float = 1.0, seed: int = 0, name: str | None = None
) -> Tensor:
    """``paddle.tensor.random.gaussian_``: fill ``x`` with normal samples (a nonzero ``seed``:
    from a fresh generator of that seed)."""
    dt = _float_inplace(x, "gaussian_inplace")
    shape, std = tuple(x.shape), float(std)
    r = _draw(
        lambda e: _host.normal_array(e, shape, dt, mean, std),
        lambda k: _rand_normal(k, mean, std, shape, dt),
        int(seed),
    )
    return _fill(x, r, "gaussian_")


@op("log_normal_", composite=True, aliases=NO_TORCH_KEYWORDS)
def log_normal_(x: Tensor, mean: float = 1.0, std: float = 2.0, name: str | None = None) -> Tensor:
    """Fill ``x`` with log-normal samples."""
    dt = _float_inplace(x, "gaussian_inplace")
    shape, m, sd = tuple(x.shape), float(mean), float(std)
    r = _draw(
        lambda e: _host.log_normal_array(e, shape, dt, m, sd),
        lambda k: Tensor(jnp.exp(_rand_normal(k, m, sd, shape, dt)._value)),
    )
    return _fill(x, r, "log_normal_")


@op("exponential_", composite=True, namespaces=())
def exponential_(x, lam=1.0, name=None):
    """Fill ``x`` with exponential samples of rate ``lam`` (allowed on leaves needing grad)."""
    dt = _float_inplace(x, "exponential")
    r = _draw(
        lambda e: _host.exponential_array(e, tuple(x.shape), dt, float(lam)),
        lambda k: _exponential(k, float(lam), tuple(x.shape), dt),
    )
    return _fill(x, r, "exponential_", check_leaf=False)


@op("bernoulli_", composite=True, aliases=NO_TORCH_KEYWORDS)
def bernoulli_(x: Tensor, p: float = 0.5, name: str | None = None) -> Tensor:
    """Fill ``x`` with 0/1 samples of probability ``p`` (a float or a Tensor)."""
    dt = _float_inplace(x, "uniform_inplace")
    shape = tuple(x.shape)

    def compiled(k):
        probs = p if isinstance(p, Tensor) else Tensor(jnp.full(shape, p, jnp.float32))
        return _bernoulli(k, Tensor(jnp.broadcast_to(probs._value, shape)), dt)

    pv = (lambda: p.numpy()) if isinstance(p, Tensor) else (lambda: np.asarray(p))
    r = _draw(lambda e: _host.bernoulli_array(e, np.broadcast_to(pv(), shape), dt), compiled)
    return _fill(x, r, "bernoulli_")


@op("cauchy_", tensor_modules=("creation",), composite=True, aliases=NO_TORCH_KEYWORDS)
def cauchy_(x: Tensor, loc: float = 0, scale: float = 1, name: str | None = None) -> Tensor:
    """Fill ``x`` with Cauchy samples."""
    dt = _float_inplace(x, "gaussian_inplace")
    r = _cauchy(_key(), float(loc), float(scale), tuple(x.shape), dt)
    return _fill(x, r, "cauchy_")


@op("geometric_", tensor_modules=("creation",), composite=True, aliases=NO_TORCH_KEYWORDS)
def geometric_(x: Tensor, probs: float, name: str | None = None) -> Tensor:
    """Fill ``x`` with (continuous, as Paddle's) geometric samples log(u) / log(1 - probs)."""
    if not _dt.is_inexact_np(x.dtype.np):
        raise ValueError(f"data type {x.dtype.np} not inexact")
    shape, dt = tuple(x.shape), x.dtype.name
    if isinstance(probs, Tensor):  # Paddle's host formula is for a number: compiled path
        return _fill(x, _geometric(_key(), probs, shape, dt), "geometric_")
    r = _draw(
        lambda e: _host.geometric_array(e, shape, dt, float(probs)),
        lambda k: _geometric(k, float(probs), shape, dt),
    )
    return _fill(x, r, "geometric_")


@op("random_", composite=True, namespaces=())
def random_(x, from_=0, to=None, *, generator=None):
    """Fill ``x`` with integers in [from_, to) ([0, from_) when only one bound is given)."""
    if to is None:
        if from_:
            from_, to = 0, from_
        else:
            d = x.dtype.np
            to = 2 ** (np.finfo(d).nmant + 1) + 1 if d.kind == "f" else int(np.iinfo(d).max)
    dt = _dtype(x.dtype, _FLOATS + _INTS, "random")
    r = _draw(
        lambda e: _host.random_array(e, tuple(x.shape), dt, int(from_), int(to)),
        lambda k: _rand_int(k, int(from_), int(to), tuple(x.shape), dt),
    )
    return _fill(x, r, "random_")
