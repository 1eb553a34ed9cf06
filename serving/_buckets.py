"""Compiled executables of a saved model per input shape: batch buckets, a bounded LRU cache,
compiles outside the execution lock (used by the HTTP server and, behind
``Config.enable_batch_buckets``, by ``paddle.inference`` Predictors).

- **Buckets.** When the model's first input leads with a symbolic batch dim that every output
  leads with too (and that appears nowhere else), a request of batch ``n`` runs the executable
  of the next bucket (1, 2, 4, ..., ``max_batch``): inputs are padded with zero rows, outputs
  sliced back to ``n`` rows. Correct for row-independent models (every inference model that
  does not mix rows across the batch); ``n > max_batch`` raises ``BatchTooLarge``.
- **Bounded cache.** Other dynamic dims (a sequence length) are compiled per exact shape; at
  most ``cache_size`` executables are kept, the least recently used is dropped.
- **Compiles outside the lock.** A shape not yet compiled is lowered and compiled in the
  caller's thread (one compile at a time; callers of the same shape wait for that compile),
  then executed under ``lock``: a request whose shape is warm never waits behind a compile.

Each shape is compiled from a fresh ``jax.jit`` wrapper, so JAX's own caches (keyed weakly on
the function) let go of an evicted executable: memory stays bounded by ``cache_size``.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import OrderedDict

import jax
import numpy as np

from paddle_compat._core.seams import saved_model


class BatchTooLarge(ValueError):
    """A batch over the largest bucket (the HTTP server answers 413)."""


def bucket_sizes(max_batch: int) -> list[int]:
    """The batch buckets: powers of two below ``max_batch``, then ``max_batch``."""
    out, b = [], 1
    while b < max_batch:
        out.append(b)
        b *= 2
    return out + [int(max_batch)]


def bucket_of(n: int, max_batch: int) -> int:
    """The bucket a batch of ``n`` rows runs in (``n <= max_batch``)."""
    b = 1
    while b < n:
        b *= 2
    return min(b, int(max_batch))


def batch_layout(exported, n_inputs: int) -> list[bool] | None:
    """Which inputs lead with the batch dim, if the model can be bucketed: the first input's
    leading dim is a plain symbol, every output leads with it and it appears nowhere else (not
    ``[b, b]``, not ``2*b``); else None."""
    ins = exported.in_avals[len(exported.in_avals) - n_inputs :]
    if not ins or not ins[0].shape or not jax.export.is_symbolic_dim(ins[0].shape[0]):
        return None
    name = str(ins[0].shape[0])
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    word = re.compile(rf"\b{re.escape(name)}\b")
    leads = []
    for aval in (*ins, *exported.out_avals):
        dims = [str(d) for d in aval.shape]
        lead = bool(dims) and dims[0] == name
        if any(word.search(d) for d in dims[1 if lead else 0 :]):
            return None
        leads.append(lead)
    if not all(leads[n_inputs:]):
        return None
    return leads[:n_inputs]


class _Pending:
    """One compile in flight: other callers of the same shape wait on it."""

    def __init__(self):
        self.done = threading.Event()
        self.value = None
        self.error: BaseException | None = None


class Executables:
    """Run a saved model's ``exported.call(params, inputs)`` through bucketed, cached,
    separately compiled executables. Thread-safe; ``run`` returns numpy arrays."""

    def __init__(
        self,
        exported,
        params: list,
        input_specs: list[saved_model.IOSpec],
        *,
        max_batch: int = 64,
        cache_size: int = 32,
        buckets: bool = True,
        compiler_options: dict | None = None,
    ):
        if int(max_batch) < 1 or int(cache_size) < 1:
            raise ValueError(
                f"max_batch and cache_size must be >= 1, got {max_batch} and {cache_size}"
            )
        self.exported = exported
        self.params = params
        self.specs = list(input_specs)
        self.names = [s.name for s in self.specs]
        self.max_batch = int(max_batch)
        self.cache_size = int(cache_size)
        self.compiler_options = dict(compiler_options or {}) or None
        # per input: whether it leads with the batch dim (None: not bucketed)
        self.batched = batch_layout(exported, len(self.specs)) if buckets else None
        self._cache: OrderedDict = OrderedDict()
        self._pending: dict = {}
        self._mu = threading.Lock()  # guards the two dicts and the counters (never held long)
        self._compile_slot = threading.Lock()  # one compile at a time (CPU-bound)
        self.compiles = 0
        self.evictions = 0

    @property
    def bucketing(self) -> bool:
        return self.batched is not None

    def stats(self) -> dict:
        with self._mu:
            return {
                "buckets": bucket_sizes(self.max_batch) if self.bucketing else None,
                "cache_size": self.cache_size,
                "compiled_shapes": len(self._cache),
                "compiles": self.compiles,
                "evictions": self.evictions,
            }

    # -- shapes ---------------------------------------------------------------------------
    def _pad(self, arrays: list) -> tuple[list, int | None]:
        """Inputs padded to their bucket, and the real batch (None: not bucketed)."""
        if self.batched is None:
            return arrays, None
        sizes = {int(a.shape[0]) for a, b in zip(arrays, self.batched) if b}
        if len(sizes) > 1:
            names = [s.name for s, b in zip(self.specs, self.batched) if b]
            raise ValueError(
                f"(InvalidArgument) the inputs {names} share the batch dimension but have "
                f"{sorted(sizes)} rows"
            )
        n = sizes.pop()
        if n > self.max_batch:
            raise BatchTooLarge(
                f"batch of {n} rows exceeds the largest batch bucket ({self.max_batch}); "
                "send at most that many rows per request (or raise max_batch)"
            )
        size = bucket_of(n, self.max_batch)
        if size == n:
            return arrays, n
        out = []
        for a, b in zip(arrays, self.batched):
            if b:
                a = np.asarray(a)
                pad = np.zeros((size - n, *a.shape[1:]), a.dtype)
                a = np.concatenate([a, pad])
            out.append(a)
        return out, n

    # -- compile --------------------------------------------------------------------------
    def _compile(self, key: tuple):
        exported = self.exported

        def call(params, inputs):  # a fresh function per shape: see the module docstring
            return exported.call(params, inputs)

        args = [jax.ShapeDtypeStruct(shape, dt) for shape, dt in key]
        try:
            lowered = jax.jit(call, compiler_options=self.compiler_options).lower(self.params, args)
        except ValueError as e:  # e.g. two inputs whose shared dynamic dims differ
            raise ValueError(
                "(InvalidArgument) the inputs do not fit the saved model: "
                f"{saved_model.shape_error_text(e, self.names)}"
            ) from None
        return lowered.compile()

    def executable(self, key: tuple):
        """The compiled executable for ``key`` (shape, dtype per input), compiling it if
        needed without holding any lock that ``run`` executes under."""
        with self._mu:
            ex = self._cache.get(key)
            if ex is not None:
                self._cache.move_to_end(key)
                return ex
            pend = self._pending.get(key)
            owner = pend is None
            if owner:
                pend = self._pending[key] = _Pending()
        if not owner:
            pend.done.wait()
            if pend.error is not None:
                raise pend.error
            return pend.value
        try:
            with self._compile_slot:
                pend.value = self._compile(key)
        except BaseException as e:
            pend.error = e
            raise
        finally:
            with self._mu:
                del self._pending[key]
                if pend.error is None:
                    self.compiles += 1
                    self._cache[key] = pend.value
                    while len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
                        self.evictions += 1
            pend.done.set()
        return pend.value

    def run(self, arrays: list, lock=None) -> list[np.ndarray]:
        """The model's outputs (numpy, ``n`` rows) for checked input arrays; the execution
        (and the wait for its result) runs under ``lock`` when given."""
        padded, n = self._pad(arrays)
        key = tuple((tuple(int(d) for d in a.shape), np.dtype(a.dtype)) for a in padded)
        ex = self.executable(key)
        with lock if lock is not None else contextlib.nullcontext():
            outs = [np.asarray(o) for o in ex(self.params, padded)]
        if n is not None and outs and outs[0].shape[0] != n:
            outs = [o[:n] for o in outs]
        return outs

    def warmup(self, up_to: int) -> int:
        """Compile the buckets up to batch ``up_to`` (other dynamic dims: 1); returns how
        many shapes were compiled."""
        if up_to < 1:
            return 0
        sizes = [b for b in bucket_sizes(self.max_batch) if b <= up_to] if self.bucketing else [1]
        done = 0
        for b in sizes:
            key = tuple(
                (
                    tuple(
                        (b if (k == 0 and self.batched and self.batched[i]) else 1)
                        if d == -1
                        else d
                        for k, d in enumerate(s.shape)
                    ),
                    saved_model.np_dtype(s.dtype),
                )
                for i, s in enumerate(self.specs)
            )
            self.executable(key)
            done += 1
        return done
