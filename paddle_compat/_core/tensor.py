"""The Tensor: one jax.Array (or tracer) plus Paddle's eager state.

Mutation is rebinding: in-place ops replace ``_value`` through ``_set_value`` and bump the
version counter. Tensor methods and operators are generated from the op registry
(``paddle_compat._ops._methods``), not written here.
"""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np

from . import deferred, place, segment_store, trace_state, views
from . import dist_attr as _dist
from . import dtype as _dt
from .deferred import Pending
from .host_memory import device_put, unshared
from .tensor_api import TensorApiMixin

_uid_counter = itertools.count()
_ARRAY_TYPES = (jax.Array, jax.core.Tracer, Pending)
_ArrayImpl = place.ArrayImpl  # the concrete array class: a faster test than jax.Array's


def to_device(value, owned: bool = False):
    """A host value as a device array. numpy arrays are transferred with ``device_put``
    (``jnp.asarray`` of a numpy array compiles a copy kernel for every new shape in JAX 0.10),
    never sharing the caller's memory (``host_memory.unshared``) unless ``owned`` says nobody
    else holds the array (an aligned one is then taken over without a copy)."""
    if isinstance(value, np.ndarray):
        return device_put(value if owned else unshared(value))
    if isinstance(value, np.generic):
        return jax.device_put(value)
    return jnp.asarray(value)


def full_array(shape, fill_value, dtype):
    """``jnp.full`` without compiling: built on the host and transferred while JAX is idle
    (``jnp.full`` compiles a kernel per shape); under a trace, ``jnp.full``."""
    if trace_state.jax_idle():
        return device_put(np.full(tuple(shape), fill_value, np.dtype(dtype)))
    return jnp.full(tuple(shape), fill_value, dtype)


_CONSTANTS: dict = {}  # str(fill value) -> {(shape, dtype): array}


def constant_array(shape, fill_value, dtype, limit: int = 1024):
    """A shared ``full_array`` per (shape, dtype, fill value): arrays are immutable, so one
    serves every caller (zeroed grads, backward's seed ones). Each fill value's cache is
    emptied past ``limit`` entries; under a trace the array is made fresh, never cached.
    Keyed by ``str(fill_value)`` so -0.0 and 0 stay apart."""
    fill = str(fill_value)
    cache = _CONSTANTS.setdefault(fill, {})
    key = (tuple(shape), np.dtype(dtype))
    a = cache.get(key)
    if a is None:
        a = full_array(shape, fill_value, dtype)
        if trace_state.is_tracer(a):
            return a
        zeros = _SHARED_ZERO_IDS if fill == "0" else None
        if len(cache) > limit:
            cache.clear()
            if zeros is not None:
                zeros.clear()
        cache[key] = a
        if zeros is not None:
            zeros.add(id(a))
    return a


_SHARED_ZERO_IDS: set[int] = set()  # ids of the cached zero arrays (alive: the cache holds them)


def is_shared_zeros(a) -> bool:
    """Whether ``a`` is one of ``constant_array``'s shared zero arrays (a cleared gradient):
    ``to_static`` then makes it a constant of the program instead of an input."""
    return id(a) in _SHARED_ZERO_IDS


class Tensor(TensorApiMixin):
    """A Paddle Tensor backed by a ``jax.Array``."""

    __slots__ = (
        "_val",
        "stop_gradient",
        "_grad_slot",
        "_name",
        "persistable",
        "_node",
        "_out_idx",
        "_version",
        "_hooks",
        "_retain_grad",
        "_uid",
        "_alias",
        "__weakref__",
        "__dict__",
    )
    __array_priority__ = 100

    def __init__(self, value=None, stop_gradient: bool = True, name: str | None = None, *meta):
        persistable = False
        if value is None:
            value = jnp.zeros((0,), jnp.float32)
            self.__dict__["_uninitialized"] = True  # Paddle's empty Tensor()
            if name is None:
                name = f"generated_tensor_{next(_tensor_names)}"
        elif value.__class__ is not _ArrayImpl and not isinstance(value, _ARRAY_TYPES):
            if isinstance(stop_gradient, list | tuple) and not isinstance(value, list | tuple):
                # Paddle's Tensor(dtype, dims, name, type, persistable[, mesh, placements]):
                # a Tensor not initialized yet (zeros here), e.g. for _share_buffer_to
                value, persistable = _uninitialized(self, value, stop_gradient, meta)
                stop_gradient = True
            else:
                if isinstance(value, list | tuple | int | float):  # Paddle: numbers -> float32
                    a = np.asarray(value)
                    value = a.astype(_dt.default_float().np) if a.dtype.kind in "iuf" else a
                value = to_device(value)
                if name is None:  # Paddle names a Tensor made from host data at creation
                    name = f"generated_tensor_{next(_tensor_names)}"
        self._val = value
        self.stop_gradient = stop_gradient
        self._grad_slot = None
        self._name = name
        self.persistable = persistable
        self._node = None
        self._out_idx = 0
        self._version = 0
        self._hooks = None
        self._retain_grad = False
        self._uid = next(_uid_counter)
        self._alias = None  # the Tensors sharing this one's buffer (views.share)
        if trace_state._ctx is not None:
            trace_state.note_created(self)

    @property
    def name(self) -> str:
        """Paddle's naming: ``generated_tensor_N`` from creation for Tensors made from host
        data (``to_tensor``, ``Tensor(...)``), ``eager_in_tmp_N`` for ``detach`` (the same
        counter), ``eager_tmp_M`` given on first read to op results (a counter of its own)."""
        if self._name is None:
            self._name = f"eager_tmp_{next(_tmp_names)}"
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value

    # -- value access -------------------------------------------------------------------------
    @property
    def _value(self):
        """The held array; a value deferred execution has not computed yet is computed now
        (``_val`` is the raw slot: an array, a tracer or a ``deferred.Pending``)."""
        v = self._val
        if v.__class__ is Pending:
            a = v.resolve()
            if self._val is v:  # not rebound meanwhile (another thread)
                self._val = a
            return a
        return v

    @_value.setter
    def _value(self, value) -> None:
        self._val = value

    def _set_value(self, value) -> None:
        """Rebind the held array (the one way a Tensor mutates)."""
        trace_state.note_written(self)
        old, self._val = self._val, value
        if value.__class__ is Pending:  # a failed flush gives the old value back
            deferred.note_rebind(self, old)
        self._version += 1
        if self._alias is not None:  # a view, or viewed: the others see the write (Paddle)
            views.propagate(self, value)

    @property
    def _grad(self):
        return self._grad_slot

    @_grad.setter
    def _grad(self, g) -> None:
        trace_state.note_grad_written(self)
        self._grad_slot = g

    def value(self) -> Tensor:
        """This Tensor itself (Paddle's ``x.value()``)."""
        return self

    # -- metadata -----------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._val.shape)

    @property
    def ndim(self) -> int:
        return self._val.ndim

    def dim(var) -> int:  # noqa: N805 - Paddle names it var
        return var._val.ndim

    ndimension = dim

    @property
    def size(self) -> int:
        return int(np.prod(self._val.shape, dtype=np.int64))

    @property
    def dtype(self) -> _dt.DType:
        return _dt.to_dtype(self._val.dtype)

    @property
    def place(self):
        from .place import place_of

        return place_of(self._value)

    @property
    def is_leaf(self) -> bool:
        return self._node is None

    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, g):
        """As Paddle: a Tensor of x's dtype; copied into an existing gradient (which keeps
        its ``stop_gradient``), else stored as a new Tensor with ``stop_gradient=True``."""
        if g is None:
            self._grad = None
            return
        if not isinstance(g, Tensor):
            raise ValueError(
                "(InvalidArgument) argument (position 1) must be Tensor, but got "
                f"{type(g).__module__}.{type(g).__qualname__}"
            )
        if g.dtype != self.dtype:
            raise RuntimeError(
                f"(PreconditionNotMet) Tensor  has different data type with Tensor {g.name}, "
                "Tensor Copy cannot be performed!"
            )
        if self._grad is not None:
            self._grad._set_value(g._value)
        else:
            self._grad = Tensor(g._value, stop_gradient=True)

    @property
    def T(self):
        from .registry import call_op

        return call_op("transpose", self, list(range(self.ndim))[::-1])

    @property
    def mT(self):
        from .registry import call_op

        perm = list(range(self.ndim))
        perm[-1], perm[-2] = perm[-2], perm[-1]
        return call_op("transpose", self, perm)

    # -- conversion ---------------------------------------------------------------------------
    def numpy(self, /) -> np.ndarray:
        trace_state.check_concrete(self, "Tensor.numpy()")
        return np.asarray(self._value)

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a.astype(dtype) if dtype is not None else a

    def __jax_array__(self):
        return self._value

    def __dlpack__(self, *args, **kwargs):
        return self._value.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._value.__dlpack_device__()

    def item(self, *args):
        trace_state.check_concrete(self, "Tensor.item()")
        a = np.asarray(self._value)
        if args:
            return a.item(*args)
        if a.size != 1:
            raise ValueError(
                "(InvalidArgument) only one element tensors can be converted to Python "
                f"scalars, but got a Tensor with {a.size} elements (shape {list(a.shape)})."
            )
        return a.item()

    def tolist(x):  # noqa: N805 - Paddle names it x
        return x.numpy().tolist()

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if not _dt.is_integer(self.dtype):
            raise TypeError("only integer tensors of a single element can be used as an index")
        return int(self.item())

    def __bool__(self):
        trace_state.check_concrete(self, "bool(Tensor)", control_flow=True)
        return bool(self.item())

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-D tensor")
        return self._val.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-D tensor")
        for i in range(self._val.shape[0]):
            yield self[i]

    def __hash__(self):
        return id(self)

    def __repr__(self) -> str:
        from .tensor_repr import tensor_to_string

        return tensor_to_string(self)

    __str__ = __repr__

    def __format__(self, spec):
        """A 0-D Tensor formats as its Python scalar (``f"{loss:.4f}"``, ``"{}".format(x)``);
        others only with an empty spec (their ``str``), as in Paddle."""
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return str(self)

    def __deepcopy__(self, memo):
        t = type(self).__new__(type(self))
        Tensor.__init__(t, self._value, self.stop_gradient, self.name)
        t.persistable = self.persistable
        for k, v in self.__dict__.items():
            t.__dict__[k] = v
        memo[id(self)] = t
        return t

    def __reduce_ex__(self, protocol):
        from .._io.serialization import reduce_tensor

        return reduce_tensor(self)

    # -- autograd -----------------------------------------------------------------------------
    def backward(
        self, grad_tensor=None, retain_graph: bool = False, *, dump_backward_graph_path=None
    ) -> None:
        """Accumulate the gradients of this Tensor into the leaves' ``.grad``
        (``dump_backward_graph_path``, a debugging dump of Paddle's C++ graph, is refused)."""
        if dump_backward_graph_path is not None:
            raise NotImplementedError(
                "backward(dump_backward_graph_path=...) dumps Paddle's C++ backward graph; "
                "paddle-compat has no such graph (use jax.make_jaxpr on a to_static step)"
            )
        from ..profiler._enums import TracerEventType
        from ..profiler._events import model_span
        from .autograd import backward

        with model_span(TracerEventType.Backward, "Gradient Backward"):
            backward([self], [grad_tensor], retain_graph=retain_graph)

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; a non-None result
        replaces the gradient. Returns a handle with ``remove()``."""
        if self.stop_gradient:
            raise RuntimeError("Cannot register hook on a tensor that stop gradient.")
        if self._hooks is None:
            self._hooks = {}
        key = next(_uid_counter)
        self._hooks[key] = hook
        return _HookHandle(self._hooks, key)

    def retain_grads(self, /) -> None:
        self._retain_grad = True

    def clear_gradient(self, set_to_zero: bool = True) -> None:
        if self._grad is not None and set_to_zero:
            self._grad._set_value(_zeros_like(self._grad._val))  # in place, as Paddle
        else:
            self._grad = None

    def clear_grad(self) -> None:
        self.clear_gradient(True)

    def _clear_grad_none(self):
        self._grad = None

    def detach(self, /) -> Tensor:
        """A Tensor that shares this one's data without its autograd history."""
        out = Tensor(self._val, stop_gradient=True, name=f"eager_in_tmp_{next(_tensor_names)}")
        views.share(self, out)
        return out

    def detach_(self, /) -> Tensor:
        self._node = None
        self.stop_gradient = True
        return self

    def clone(self, /) -> Tensor:
        from .registry import call_op

        return call_op("assign", self)

    # -- misc Paddle API ----------------------------------------------------------------------
    def set_value(self, value) -> None:
        """Replace the data in place; shape must match (dtype is converted). A distributed
        tensor keeps its layout (sharding and placements)."""
        arr = value._value if isinstance(value, Tensor) else np.asarray(value)
        if tuple(arr.shape) != tuple(self._value.shape):
            raise ValueError(
                f"(InvalidArgument) The shape of the new value {list(arr.shape)} must be the "
                f"same as the shape of the tensor {self.shape}."
            )
        if isinstance(arr, np.ndarray):  # converted and sent on the host: no kernel to trace
            arr = to_device(arr.astype(self._value.dtype, copy=False))
        else:
            arr = arr.astype(self._value.dtype)
        layout, sharding = _dist.dist_attr(self), _dist.named_sharding(self._value)
        if sharding is not None and not trace_state.is_tracer(arr):
            arr = jax.device_put(arr, sharding)
        self._set_value(arr)
        if layout is not None:
            _dist.set_dist_attr(self, *layout)

    def copy_(self, other, blocking: bool = True) -> Tensor:
        self.set_value(other)
        return self

    def get_tensor(self, /):
        """The DenseTensor holding x's data (a view: ``set`` on it replaces x's data)."""
        from .tensor_api import DenseTensor

        return DenseTensor(self)

    def _is_initialized(self) -> bool:
        """False for a Tensor made by ``Tensor(dtype, dims, ...)`` until data is shared in."""
        return "_uninitialized" not in self.__dict__

    def is_dense(self, /) -> bool:
        return True

    # -- distribution (derived from the array's sharding; see dist_attr) ----------------------
    def is_dist(self, /) -> bool:
        """True for a distributed tensor (its array is sharded over a ProcessMesh)."""
        return _dist.is_dist(self)

    @property
    def placements(self):
        """The placements of a distributed tensor (None for a dense one)."""
        return _dist.placements_of(self)

    @property
    def process_mesh(self):
        """The ProcessMesh of a distributed tensor (None for a dense one)."""
        return _dist.process_mesh_of(self)

    def _local_value(self) -> Tensor:
        """This process's piece of a distributed tensor (Paddle's local DenseTensor)."""
        if not self.is_dist():
            return self
        trace_state.check_concrete(self, "Tensor._local_value()")
        arr = _dist.local_array(self)
        if arr is None:  # this process is outside the tensor's mesh
            return Tensor(jnp.zeros((0,), self._value.dtype))
        return Tensor(arr, stop_gradient=self.stop_gradient)

    def data_ptr(self, /) -> int:
        """The address of the first element (a view's: its buffer's plus its offset)."""
        return views.data_ptr(self)

    @property
    def data(self):
        return self

    @data.setter
    def data(self, value):
        self.set_value(value)

    def cpu(self) -> Tensor:
        return self._to_device(jax.devices("cpu")[0])

    def cuda(self, device_id=None, blocking=True) -> Tensor:
        from .place import device_from_spec

        return self._to_device(device_from_spec(f"gpu:{device_id or 0}"))

    def _to_device(self, dev) -> Tensor:
        t = Tensor(jax.device_put(self._value, dev), self.stop_gradient, self.name)
        return t

    def pin_memory(self, blocking: bool = True) -> Tensor:
        """The Tensor itself: JAX has no pinned host memory to copy to."""
        return self

    def element_size(self, /) -> int:
        return np.dtype(self._val.dtype).itemsize

    @property
    def strides(self) -> list[int]:
        return self.get_strides()

    def contiguous(self, /) -> Tensor:
        """This Tensor, with row-major strides: a strided view gets its own buffer in place
        (as Paddle does), so later writes to its former base no longer show in it."""
        views.make_contiguous(self)
        return self

    @property
    def type(self):
        """``VarType.DENSE_TENSOR`` (``paddle.base.core.VarDesc.VarType``)."""
        from .tensor_api import VarType

        return VarType.DENSE_TENSOR

    def is_sparse(self, /) -> bool:
        """False: a dense Tensor (paddle.sparse's Tensors say True)."""
        return False


def _uninitialized(t, dtype, dims, meta):
    from .tensor_api import VarType

    if isinstance(dtype, VarType):
        dtype = str(dtype).removeprefix("paddle.")
    t.__dict__["_uninitialized"] = True
    persistable = bool(meta[1]) if len(meta) > 1 else False
    return to_device(np.zeros([int(d) for d in dims], _dt.to_dtype(dtype).np)), persistable


_ZEROS_LIKE: dict = {}


def _zeros_like(a):
    """``jnp.zeros_like(a)`` with ``a``'s sharding, compiled once per sharding: an eager
    ``jnp.zeros_like`` dispatches two primitives (~50us on CPU), the compiled one ~5us."""
    if isinstance(a, jax.core.Tracer):
        return trace_state.note_zeros(jnp.zeros_like(a))
    # an uncommitted array stays uncommitted: a committed one would change the cache key of
    # every kernel it reaches (a parameter's whole forward and backward recompile). A value
    # deferred execution has not computed yet is uncommitted too.
    if a.__class__ is Pending or not a.committed:  # one shared zeros per shape and dtype
        return constant_array(a.shape, 0, a.dtype)
    return _zeros_like_fn(a.sharding)(a)


def _zeros_like_fn(sharding):
    fn = _ZEROS_LIKE.get(sharding)
    if fn is None:
        fn = _ZEROS_LIKE[sharding] = jax.jit(jnp.zeros_like, out_shardings=sharding)
    return fn


_COPIES: dict = {}  # dtype -> copy-and-cast kernel


def copy_array(a, dtype=None):
    """A new array with ``a``'s values, cast to ``dtype`` when given (Paddle's copies never
    share memory, and to_static donates buffers). Eager, it is a kernel the segment store
    keeps: ``jnp.array(a, copy=True)`` and ``astype`` trace again in every process."""
    dt = np.dtype(a.dtype if dtype is None else dtype)
    fn = _COPIES.get(dt)
    if fn is None:
        fn = jax.jit(lambda v: v.astype(dt) if v.dtype != dt else jnp.array(v, copy=True))
        fn = _COPIES[dt] = segment_store.note(fn, ("tensor.copy", dt))
    if a.__class__ is Pending:
        return deferred.apply(fn, a)
    return segment_store.call(fn, [a])


class Size(list):
    """Paddle 3.3's ``Tensor.shape``: a list of ints that prints as ``paddle.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"paddle.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))


class _HookHandle:
    def __init__(self, table, key):
        self._table, self._key = table, key

    def remove(self) -> bool:
        return self._table.pop(self._key, None) is not None


class UniqueNameGenerator:
    """Paddle's unique-name generator: ``key`` -> ``{prefix}{key}_{n}``, n counting per key
    (layer names ``linear_0``, parameter names ``linear_0.w_0``...). ``paddle.utils.
    unique_name.switch``/``guard`` swap the current one."""

    def __init__(self, prefix: str | None = None):
        self.prefix = prefix or ""
        self.ids: dict[str, int] = {}

    def __call__(self, key: str) -> str:
        n = self.ids.get(key, 0)
        self.ids[key] = n + 1
        return f"{self.prefix}{key}_{n}"

    generate = __call__

    def generate_with_ignorable_key(self, key: str) -> str:
        """Dynamic mode ignores ``key``: ``dygraph_tmp_N``."""
        return self("dygraph_tmp")


_name_generator = UniqueNameGenerator()  # the current one (swapped by unique_name.switch)
# Tensor names (``Tensor.name``): process-wide counters that switch() leaves alone (Paddle's
# C++ ones): ``generated_tensor_N``/``eager_in_tmp_N`` share one, ``eager_tmp_M`` has its own
_tensor_names = itertools.count()
_tmp_names = itertools.count()


def _unique_name(prefix: str) -> str:
    return _name_generator(prefix)


def unique_name(prefix: str) -> str:
    return _unique_name(prefix)


# the Parameter attributes Paddle's EagerParamBase(shape, dtype, **kwargs) takes as keywords
_PARAM_ATTRS = ("optimize_attr", "regularizer", "do_model_average", "need_clip", "is_distributed")


class Parameter(Tensor):
    """A trainable Tensor owned by a Layer (Paddle's EagerParamBase); prints as
    ``Parameter containing:``. As ``paddle.nn.Parameter`` it takes Paddle's forms:
    ``Parameter(tensor, requires_grad=True)``, ``Parameter(shape, dtype, **attrs)`` (Paddle
    leaves that one uninitialized; here it holds zeros) and ``Parameter()`` (an empty one);
    internally also an array."""

    def __init__(
        self, value=None, dtype=None, name=None, trainable=True, stop_gradient=None, **kwargs
    ):
        value = kwargs.pop("data", kwargs.pop("shape", value))
        requires_grad = kwargs.pop("requires_grad", None)
        attrs = {k: kwargs.pop(k) for k in _PARAM_ATTRS if k in kwargs}
        if kwargs:
            raise TypeError(f"Parameter() got unexpected keyword arguments {sorted(kwargs)}")
        by_shape = isinstance(value, list | tuple)
        if by_shape:  # Paddle's (shape, dtype) form
            if dtype is None:
                raise TypeError(
                    "EagerParamBase.__init_by_shape__() missing 1 required positional "
                    "argument: 'dtype'"
                )
            dims = [int(d) for d in value]
            if any(d < 0 for d in dims):
                raise ValueError(
                    "Each dimension of shape for Parameter must be greater than 0, but "
                    f"received {dims}"
                )
            value = np.zeros(dims, _dt.to_dtype(dtype).np)
        elif isinstance(value, Tensor) or value is None:  # (data, requires_grad)
            if dtype is not None and requires_grad is None:
                requires_grad = dtype
            if requires_grad is not None:
                trainable = bool(requires_grad)
            value = None if value is None else value._value
        super().__init__(
            value,
            stop_gradient=not trainable if stop_gradient is None else stop_gradient,
            name=name or _unique_name("_eager_param_base"),
        )
        self.persistable = True
        self.optimize_attr = {"learning_rate": 1.0}
        self.regularizer = None
        self.need_clip = True
        self.do_model_average = None
        self.is_distributed = False
        for k, v in attrs.items():
            setattr(self, k, v)
        if by_shape:  # Paddle leaves it uninitialized
            self.__dict__["_uninitialized"] = True

    @classmethod
    def from_tensor(cls, tensor: Tensor, **kwargs) -> Parameter:
        """A Parameter holding ``tensor``'s data (Paddle's ``EagerParamBase.from_tensor``);
        keywords set its attributes (``name``, ``trainable``, ``need_clip``...)."""
        name = kwargs.pop("name", None) or _unique_name("_eager_param_base")
        p = cls(tensor._value, name=name, trainable=kwargs.pop("trainable", True))
        for k, v in kwargs.items():
            setattr(p, k, v)
        return p

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, v: bool) -> None:
        self.stop_gradient = not v


jax.tree_util.register_pytree_node(
    Tensor,
    lambda t: ((t._value,), (t.stop_gradient,)),
    lambda aux, ch: Tensor(ch[0], stop_gradient=aux[0]),
)
