"""paddle.autograd.jacobian / hessian: lazy Jacobian and Hessian objects.

Built on the eager tape: row ``i`` of a Jacobian is ``paddle.grad(ys_flat[i], xs,
create_graph=True)``, computed the first time an index needs it and cached, so a Hessian is the
Jacobian of a (differentiable) Jacobian. Shapes, as in Paddle 3.3.1: without ``batch_axis`` ys
and xs are 0-D or 1-D and ``J.shape`` is ``ys.shape + xs.shape``; with ``batch_axis=0`` they
are ``[B]`` or ``[B, n]`` and ``J.shape`` is ``[B] + ys.shape[1:] + xs.shape[1:]`` (a 1-D ys
still evaluates as ``[B, 1, n]``, as Paddle's does)."""

from __future__ import annotations

from .._core import autograd as _ag
from .._core.tensor import Tensor


def _ops():
    import paddle_compat as paddle

    return paddle


class Jacobian:
    """``J[index]`` evaluates the rows the index selects; other attributes and arithmetic are
    those of the whole evaluated Tensor."""

    def __init__(self, ys, xs, is_batched: bool = False):
        ok = (1, 2) if is_batched else (0, 1)
        for name, t in (("ys", ys), ("xs", xs)) if is_batched else (("xs", xs), ("ys", ys)):
            if len(t.shape) not in ok:
                raise ValueError(
                    f"{name}.ndim should be {ok[0]} or {ok[1]} when is_batched={is_batched} "
                    f"but got {len(t.shape)}"
                )
        self._ys, self._xs, self._batched = ys, xs, is_batched
        self._rows: dict[int, Tensor] = {}
        if is_batched:
            b = ys.shape[0]
            self._m = ys.shape[1] if ys.ndim == 2 else 1
            self._n = xs.shape[1] if xs.ndim == 2 else 1
            self.shape = [b] + ys.shape[1:] + xs.shape[1:]
        else:
            self._m = ys.shape[0] if ys.ndim == 1 else 1
            self._n = xs.shape[0] if xs.ndim == 1 else 1
            self.shape = ys.shape + xs.shape

    # -- rows -------------------------------------------------------------------------------
    def _row(self, i: int) -> Tensor:
        """d ys[i] / d xs, flattened: ``[n]`` (``[B, n]`` batched)."""
        hit = self._rows.get(i)
        if hit is not None:
            return hit
        paddle = _ops()
        ys, xs = self._ys, self._xs
        if self._batched:
            y = ys[:, i] if ys.ndim == 2 else ys
            out_shape = [xs.shape[0], self._n]
        else:
            y = ys[i] if ys.ndim == 1 else ys
            out_shape = [self._n]
        g = None
        if not y.stop_gradient:
            (g,) = _ag.grad(y, xs, create_graph=True, retain_graph=True, allow_unused=True)
        if g is None:
            g = paddle.zeros(out_shape, dtype=xs.dtype)
            g.stop_gradient = xs.stop_gradient
        else:
            g = g.reshape(out_shape)
        self._rows[i] = g
        return g

    def _evaluate_all(self) -> Tensor:
        return self._evaluate(slice(None))

    def _evaluate(self, sel) -> Tensor:
        """The rows ``sel`` (an int or a slice over ys) as one Tensor."""
        paddle = _ops()
        if isinstance(sel, int):
            m = self._m
            if not -m <= sel < m:
                raise IndexError(
                    f"(OutOfRange) The starting index {sel} of slice is out of bounds in tensor "
                    f"{int(self._batched)}-th axis, it should be in the range of [{-m}, {m})."
                )
            row = self._row(sel % m)
            return row if self._n > 1 or self._xs.ndim else self._squeeze_x(row)
        rows = [self._row(i) for i in range(self._m)[sel]]
        axis = 1 if self._batched else 0
        full = paddle.stack(rows, axis=axis)
        if self._batched:
            return full if self._xs.ndim == 2 else full.squeeze(-1)
        full = full if self._xs.ndim == 1 else full.squeeze(-1)
        return full if self._ys.ndim == 1 else full.squeeze(0)

    def _squeeze_x(self, row):
        return row.reshape(row.shape[:-1])

    def __getitem__(self, index):
        if isinstance(index, str | list):  # Paddle's own error for these
            t = type(index).__name__
            raise TypeError(f'can only concatenate {t} (not "tuple") to {t}')
        if not isinstance(index, tuple):
            index = (index,)
        if any(i is Ellipsis for i in index):
            raise IndexError("Ellipsis index currently is not supported.")
        if not self.shape:
            raise IndexError("0-D tensor can not be indexed.")
        pos = 1 if self._batched else 0  # the ys axis
        if len(index) <= pos or self._ys.ndim == 0 or (self._batched and self._ys.ndim == 1):
            return self._evaluate_all()[index]
        sel = index[pos]
        if not isinstance(sel, int | slice):
            return self._evaluate_all()[index]
        part = self._evaluate(sel)
        rest = (
            index[:pos] + index[pos + 1 :]
            if isinstance(sel, int)
            else index[:pos] + (slice(None),) + index[pos + 1 :]
        )
        return part[rest] if any(r != slice(None) for r in rest) else part

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)


def _binop(name):
    def op(self, *args):
        return getattr(self._evaluate_all(), name)(*args)

    op.__name__ = name
    return op


for _name in (
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __matmul__ "
    "__rmatmul__ __neg__ __pow__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __array__"
).split():
    setattr(Jacobian, _name, _binop(_name))
Jacobian.__hash__ = object.__hash__


class Hessian(Jacobian):
    """The Jacobian of ``jacobian(ys, xs)``: ys holds one value (``[B]`` or ``[B, 1]`` with
    ``batch_axis=0``)."""

    def __init__(self, ys, xs, is_batched: bool = False, _first=None):
        if _first is None:
            _first = _gradient(ys, xs, is_batched)
        super().__init__(_first, xs, is_batched)


def _gradient(ys, xs, batched: bool):
    """d ys / d xs as a Tensor: ``[n]``, or ``[B, n]`` batched (differentiable)."""
    g = Jacobian(_one_value(ys, batched), xs, batched)._evaluate_all()
    return g.reshape([g.shape[0], -1]) if batched else g


def _one_value(ys, batched: bool):
    """``ys`` as a 0-D (``[B]`` batched) Tensor; Paddle's check that it holds one value."""
    if not batched and ys.size != 1:
        raise ValueError(f"Only support ys.numel()({ys.size})==1 when batch_axis is None.")
    if batched and ys.size != ys.shape[0]:
        raise ValueError(
            f"Only support ys.numel()({ys.size})==batch_size({ys.shape[0]}) when batch_axis=0."
        )
    return ys.reshape([ys.shape[0]] if batched else [])


def _check_batch_axis(batch_axis):
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    return batch_axis is not None


def jacobian(ys, xs, batch_axis=None):
    """Lazy Jacobian(s) of ``ys`` with respect to ``xs``: one ``Jacobian``, or a tuple when ys
    or xs is a list/tuple (a tuple of tuples when both are)."""
    batched = _check_batch_axis(batch_axis)
    if isinstance(ys, list | tuple) and isinstance(xs, list | tuple):
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if isinstance(ys, list | tuple):
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if isinstance(xs, list | tuple):
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def hessian(ys, xs, batch_axis=None):
    """Lazy Hessian(s) of the single-valued ``ys``: one ``Hessian``, or a tuple of tuples
    ``H[i][j] = d2 ys / d xs[i] d xs[j]`` when xs is a list/tuple."""
    if batch_axis not in (None, 0) and getattr(ys, "ndim", None) == 0:  # Paddle indexes it
        raise IndexError(
            f"(OutOfRange) batch_axis={batch_axis}: a 0-D ys has no batch axis to index."
        )
    batched = _check_batch_axis(batch_axis)
    if isinstance(xs, list | tuple):
        firsts = [_gradient(ys, x, batched) for x in xs]
        return tuple(tuple(Hessian(None, x, batched, _first=g) for x in xs) for g in firsts)
    return Hessian(ys, xs, batched)
