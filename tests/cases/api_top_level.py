"""Top-level paddle.* names of Paddle 3.3 outside the op registry: the typed tensor
constructors (paddle.FloatTensor ...), paddle.random.initial_seed, the autocast aliases and
the name/out arguments every op takes."""

import numpy as np
from _util import expect_error

import paddle

_KINDS = (
    "FloatTensor",
    "DoubleTensor",
    "HalfTensor",
    "BFloat16Tensor",
    "ByteTensor",
    "CharTensor",
    "ShortTensor",
    "IntTensor",
    "LongTensor",
    "BoolTensor",
)


def case_typed_constructors_from_lists():
    out = []
    for kind in _KINDS:
        t = getattr(paddle, kind)([1, 0, 2])
        out.append([str(t.dtype), t.shape, t.astype("float32").numpy().tolist()])
    return out


def case_typed_constructors_keep_array_and_tensor_dtypes():
    a = paddle.IntTensor(np.array([1.5, 2.5]))
    b = paddle.FloatTensor(paddle.to_tensor([1, 2]))
    return [str(a.dtype), a.numpy().tolist(), str(b.dtype), b.numpy().tolist()]


def case_typed_constructors_shapes():
    empty = paddle.FloatTensor()
    shaped = paddle.LongTensor(2, 3)
    return [empty.shape, str(empty.dtype), list(shaped.shape), str(shaped.dtype)]


def case_typed_constructor_bad_argument():
    return expect_error(lambda: paddle.FloatTensor("a"))


def case_initial_seed_after_seed():
    paddle.seed(7)
    return paddle.random.initial_seed()


def case_autocast_aliases_outside_autocast():
    return [
        paddle.get_autocast_dtype(),
        paddle.get_autocast_cpu_dtype(),
        paddle.get_autocast_gpu_dtype(),
        paddle.is_autocast_enabled(),
    ]


def case_name_positional_and_out():
    x = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
    y = paddle.to_tensor([3.0, 4.0])
    out = paddle.zeros([3], dtype="int32")
    r = paddle.add(x, y, "my_add", out=out)
    (out * 2).sum().backward()
    return [r, out, x.grad, paddle.add(x, y, alpha=2)]


def case_out_tuple_of_topk():
    values, indices = paddle.zeros([1]), paddle.zeros([1], dtype="int64")
    paddle.topk(paddle.to_tensor([3.0, 1.0, 2.0]), 2, out=(values, indices))
    return [values, indices]


def case_functional_module():
    x = paddle.arange(6).reshape([2, 3])
    return [
        list(paddle.functional.split(x, 3, 1)),
        list(paddle.functional.split(x, [1, 2], 1)),
        paddle.functional.broadcast_shapes([2, 1], [3]),
        paddle.functional.norm(paddle.to_tensor([3.0, 4.0])),
        paddle.functional.atleast_2d(paddle.to_tensor(1.0)),
    ]


def case_special_module_and_tensor_softmax():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [
        paddle.special.softmax(x, 0),
        paddle.special.softmax(x, dim=1, dtype="float64"),
        paddle.special.logsumexp(x),
        paddle.special.logsumexp(x, 1, True),
        paddle.special.expm1(x),
        x.softmax(1),
        x.softmax(),
        expect_error(lambda: paddle.special.softmax(x, axis=0)),
    ]


def case_generator_object():
    g = paddle.Generator()
    g.manual_seed(3)
    out = [g.initial_seed(), g.random(), g.random(), g.get_state_index()]
    out.append(g.register_state_index(g.get_state()))
    out.append(g.get_state_index())
    a = g.random()
    g.set_state_index(0)
    b = g.random()
    g.set_state_index(1)
    out += [a, b, g.get_state_index(), g.random()]
    paddle.seed(5)
    out += [g.initial_seed(), paddle.Generator() is paddle.Generator()]
    return out


def case_create_tensor_is_uninitialized():
    t = paddle.tensor.create_tensor(dtype="float32")
    u = paddle.tensor.create_tensor(dtype="int64", name="abc", persistable=True)
    paddle.assign(paddle.to_tensor([1.5, 2.5]), output=t)
    return [
        t.name.startswith("create_tensor_"),
        str(u),
        u.name,
        u.persistable,
        str(u.dtype),
        list(u.shape),
        t,
        paddle.Tensor.create_tensor is paddle.tensor.create_tensor,
        expect_error(lambda: paddle.tensor.create_tensor(dtype="float99")),
    ]


def case_top_level_reexports():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [
        paddle.softmax(x, 1),
        paddle.softmax(x),
        paddle.Event is paddle.device.Event,
        paddle.Stream is paddle.device.Stream,
        paddle.device_guard is paddle.device.device_guard,
        paddle.get_device_module().__name__.split(".")[-1],
        paddle.core.is_compiled_with_cuda(),
    ]
