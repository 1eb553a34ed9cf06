"""The tensor API's last gaps: Tensor names, from_dlpack's shared memory, static fetches of int64,
the torch-compat finder stack, DenseTensor save/load, set_tensor, Tensor.create_parameter,
check_shape, in-place variants with their own signatures, new_* sizes, Tensor.value (goldens
from real Paddle)."""

import os
import sys
import tempfile

import numpy as np
from _util import expect_error

import paddle


def _index(name: str) -> int:
    return int(name.rsplit("_", 1)[1])


def case_tensor_names():
    # counters are process-wide: record each name's prefix and its offset from the first
    x = paddle.to_tensor(1.0)
    d, e = x.detach(), x.detach()
    y = paddle.to_tensor(np.ones(2, "float32"))
    t = paddle.Tensor(np.ones(2, "float32"))
    z, w = x + 1, x + 2
    later_first = [w.name, z.name]  # op results are named when first read
    made = [x.name, d.name, e.name, y.name, t.name]
    base, tmp = _index(made[0]), _index(later_first[0])
    out = {
        "made": [[n.rsplit("_", 1)[0], _index(n) - base] for n in made],
        "op_results": [[n.rsplit("_", 1)[0], _index(n) - tmp] for n in later_first],
    }
    x.name = "named"
    out["to_tensor_keeps_name"] = paddle.to_tensor(x).name
    out["cast_copy_prefix"] = paddle.to_tensor(x, dtype="float64").name.rsplit("_", 1)[0]
    out["parameter"] = paddle.create_parameter([2], "float32").name.startswith("create_parameter")
    return out


def case_from_dlpack_writes_back():
    x = np.array([[0.2, 0.3, 0.5, 0.9], [0.1, 0.2, 0.6, 0.7]])
    y = paddle.from_dlpack(x)
    y[0, 0] = 10.0
    first = x.copy()
    y.add_(paddle.ones([2, 4], "float64"))
    second = x.copy()
    v = y.reshape([8])
    v[7] = -1.0
    return {"setitem": first, "add_": second, "view": x.copy(), "y": y}


def case_static_fetch_int64_dtype():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data(name="x", shape=[3, 4], dtype="float32")
            shape = paddle.shape(x)
            arg = paddle.argmax(x, axis=1)
            i32 = paddle.cast(x, "int32")
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.arange(12, dtype="float32").reshape(3, 4)}
        res = exe.run(main, feed=feed, fetch_list=[shape, arg, i32])
    finally:
        paddle.disable_static()
    return {"repr": [repr(r) for r in res], "values": res}


def case_compat_finder_stack():
    paddle.enable_compat(scope={"some_module"}, silent=True)
    paddle.enable_compat(silent=True)
    paddle.disable_compat()
    try:
        import torch  # noqa: F401

        still = True
    except ModuleNotFoundError:
        still = False
    paddle.disable_compat()
    try:
        import torch  # noqa: F401, F811

        after = True
    except ModuleNotFoundError:
        after = False
    for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
        del sys.modules[k]
    return {"after_one_disable": still, "after_two": after}


def case_dense_tensor_save_load():
    tmp = tempfile.mkdtemp()
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
            paddle.static.nn.fc(x, 3)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        name = next(v.name for v in main.list_vars() if list(v.shape) == [4, 3])
        tensor = paddle.static.global_scope().find_var(name).get_tensor()
        tensor.set(np.arange(12, dtype="float32").reshape(4, 3), paddle.CPUPlace())
        path = os.path.join(tmp, "t.pdtensor")
        paddle.save(tensor, path)
        static_loaded = paddle.load(path)
        kinds = [type(static_loaded).__name__, np.array(static_loaded)]
        paddle.save({"a": np.ones(2, "float32")}, os.path.join(tmp, "d.pkl"))
        loaded_dict = paddle.load(os.path.join(tmp, "d.pkl"))
        kinds.append(type(loaded_dict["a"]).__name__)
    finally:
        paddle.disable_static()
    return {"static": kinds, "dynamic": paddle.load(path)}


def case_set_tensor():
    a = paddle.ones([2, 2])
    v = a.reshape([4])
    a.set_tensor(paddle.zeros([2, 2]))
    a[0, 0] = 7.0
    same_shape = [a, v]
    b = paddle.ones([2, 2])
    w = b.reshape([4])
    src = paddle.to_tensor([1, 2, 3])
    r = b.set_tensor(src)
    src[0] = 9
    y = paddle.ones([2])
    y.stop_gradient = False
    z = y * 2
    z.set_tensor(paddle.to_tensor([5.0, 6.0]))
    bad = [np.ones(2), None, 3, b.get_tensor()]
    return {
        "same_shape": same_shape,
        "new_shape": [b, w, r],
        "keeps_stop_gradient": z.stop_gradient,
        "errors": [expect_error(lambda v=v: b.set_tensor(v)) for v in bad],
        "keyword_ignored": expect_error(lambda: b.set_tensor(value=src)),
    }


def case_tensor_create_parameter():
    p = paddle.Tensor.create_parameter([2, 3], "float32", is_bias=True)
    t = paddle.ones([2])
    return {
        "same_function": paddle.Tensor.create_parameter is paddle.create_parameter,
        "param": [p, type(p).__name__ != "Tensor", p.stop_gradient],
        "as_method": expect_error(lambda: t.create_parameter([2, 3], "float32")),
    }


def case_check_shape():
    from paddle.base.data_feeder import check_shape

    forms = [[2, 3], (2, -1), 5, "a", [2, 3.0], np.array([2, 3]), [True]]
    out = {"dynamic": [expect_error(lambda s=s: check_shape(s, "fill")) for s in forms]}
    paddle.enable_static()
    try:
        out["static"] = [expect_error(lambda s=s: check_shape(s, "fill")) for s in forms]
        xi = paddle.static.data("xi", [2], "int32")
        xf = paddle.static.data("xf", [2], "float32")
        out["vars"] = [
            expect_error(lambda: check_shape(xi, "fill")),
            expect_error(lambda: check_shape(xf, "fill")),
            expect_error(lambda: check_shape([2, xi], "fill")),
            expect_error(lambda: check_shape([2, xf], "fill")),
            expect_error(lambda: check_shape(xi, "fill", expected_tensor_dtype=("int64",))),
            expect_error(lambda: check_shape((2, 3), "fill", expected_shape_type=(list,))),
            expect_error(lambda: check_shape([2, "x"], "fill", expected_element_type=(int,))),
        ]
    finally:
        paddle.disable_static()
    return out


def case_inplace_signatures():
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    r = x.cumprod_(0, "float64")
    y = paddle.to_tensor([1, 2, 3])
    o = paddle.to_tensor([0, 0, 0])
    s = paddle.bitwise_left_shift_(y, paddle.to_tensor([1, 1, 1]), True, o)
    u = paddle.to_tensor([-8, 2, 3])
    q = u.bitwise_right_shift_(paddle.to_tensor([1, 1, 1]), False)
    z = paddle.zeros([3, 2])
    z.scatter_(0, paddle.to_tensor([[1, 0]]), 2.0, reduce="add")
    w = paddle.zeros([3, 2])
    paddle.scatter_(w, paddle.to_tensor([1]), paddle.ones([1, 2]))
    return {
        "cumprod_": [r, r is x],
        "left_shift_out_ignored": [s, o, s is y],
        "right_shift_logical": q,
        "scatter_torch_form": z,
        "scatter_paddle_form": w,
        "cumprod_too_many": expect_error(lambda: paddle.cumprod_(x, 0, "float64", "n", 5)),
    }


def case_new_and_value():
    x = paddle.ones([2], "float16")
    out = {
        "new_zeros": [x.new_zeros(2, 3), x.new_zeros([2, 3]), x.new_zeros(size=(1,))],
        "new_ones": x.new_ones(3, dtype="int32"),
        "new_empty_shape": list(x.new_empty(2, 1).shape),
        "new_full": x.new_full([2], 5.0),
        "no_size": expect_error(lambda: x.new_zeros()),
        "unknown_keyword": expect_error(lambda: x.new_zeros(3, foo=1)),
    }
    v = x.value()
    v[0] = 5.0
    out["value"] = [v is x, x]
    return out
