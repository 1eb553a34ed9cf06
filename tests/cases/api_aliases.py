"""Paddle's alias names (eq/lt/cat/clamp/div/mul/sub/mod/ger/take_along_dim...), in-place
variants (equal_, logical_and_, bitwise_*_, tril_, clamp_, div_...), Tensor-only methods and
properties (x.float(), new_zeros, type_as, requires_grad_, apply, to, device, itemsize...)
and non-op paddle.* functions (broadcast_shape, finfo/iinfo, get/set_flags, dlpack,
from_numpy, as_tensor, dtype aliases, constants)."""

import numpy as np
from _api_util import t
from _util import backprop, expect_error, randn

import paddle


def _i(v, dtype="int64"):
    return paddle.to_tensor(v, dtype=dtype)


def case_compare_aliases():
    x, y = paddle.to_tensor([1.0, 2.0, 3.0]), paddle.to_tensor([2.0, 2.0, 2.0])
    return [
        paddle.eq(x, y),
        paddle.ne(x, y),
        paddle.lt(x, y),
        paddle.le(x, y),
        paddle.gt(x, y),
        paddle.ge(x, y),
        x.eq(y),
        x.ne(y),
        x.lt(y),
        x.le(y),
        x.gt(y),
        x.ge(y),
        x.less(y),
        x.greater(y),
    ]


def case_compare_inplace():
    out = []
    for name in (
        "equal_",
        "not_equal_",
        "less_than_",
        "less_equal_",
        "greater_than_",
        "greater_equal_",
        "less_",
    ):
        x = paddle.to_tensor([1.0, 2.0, 3.0])
        r = getattr(x, name)(paddle.to_tensor([2.0, 2.0, 2.0]))
        out += [x, bool(r is x)]
    x = paddle.to_tensor([1, 2, 3])
    paddle.equal_(x, paddle.to_tensor([1, 0, 3]))
    return [*out, x]


def case_logic_inplace():
    a = paddle.to_tensor([True, False, True])
    b = paddle.to_tensor([True, True, False])
    out = []
    for name in ("logical_and_", "logical_or_", "logical_xor_"):
        x = a.clone()
        getattr(x, name)(b)
        out.append(x)
    x = a.clone()
    x.logical_not_()
    f = paddle.to_tensor([0.0, 2.0])
    f.logical_not_()
    return [*out, x, f]


def case_bitwise_inplace():
    out = []
    for name in (
        "bitwise_and_",
        "bitwise_or_",
        "bitwise_xor_",
        "bitwise_left_shift_",
        "bitwise_right_shift_",
    ):
        x = _i([5, 6, 12])
        getattr(x, name)(_i([3, 1, 2]))
        out.append(x)
    for name in ("bitwise_not_", "bitwise_invert_"):
        x = _i([5, -1])
        getattr(x, name)()
        out.append(x)
    return [
        *out,
        paddle.bitwise_invert(_i([1, 2])),
        _i([0, 7], "int32").bitwise_invert(),
        paddle.bitwise_and_(_i([7]), _i([2])),
    ]


def case_math_aliases():
    x, y = t(2, 3), t(2, 3, seed=1)
    a, b = _i([7, -7]), _i([3, 3])
    return [
        paddle.cat([x, y]),
        paddle.concatenate([x, y], axis=1),
        paddle.clamp(x, -0.5, 0.5),
        x.clamp(min=0.0),
        paddle.true_divide(_i([1, 2]), _i([2, 4])),
        x.div(y),
        x.true_divide(y),
        x.mul(y),
        x.sub(y),
        a.mod(b),
        a.floor_mod(b),
        paddle.ger(x[0], y[0]),
        paddle.take_along_dim(x, _i([[0], [2]]), 1),
        x.take_along_dim(_i([[1, 0, 1]]), 0),
        paddle.permute(x, [1, 0]),
        paddle.to_tensor([1.0, 2.0]).diag(),
        x.addmm(t(2, 2, seed=2), t(2, 3, seed=3)),
        paddle.view_as_complex(t(2, 2)).real(),
        t(2, 2).as_complex().view_as_real(),
    ]


def case_inplace_aliases():
    def run(name, x, *args, **kwargs):
        r = getattr(x, name)(*args, **kwargs)
        return [x, bool(r is x)]

    f = lambda: paddle.to_tensor([0.2, -1.5, 2.5])  # noqa: E731
    y = paddle.to_tensor([2.0, 2.0, 2.0])
    return [
        run("clamp_", f(), -1.0, 1.0),
        run("div_", f(), y),
        run("mul_", f(), y),
        run("sub_", f(), y),
        run("mod_", f(), y),
        run("floor_mod_", f(), y),
        run("neg_", f()),
        run("frac_", f()),
        run("digamma_", paddle.to_tensor([0.5, 2.0])),
        run("lgamma_", paddle.to_tensor([0.5, 2.0])),
        run("erfinv_", paddle.to_tensor([0.5])),
        run("logit_", paddle.to_tensor([0.25])),
        run("tril_", t(3, 3)),
        run("triu_", t(3, 3), 1),
        run("addmm_", t(2, 2), t(2, 3, seed=1), t(3, 2, seed=2), beta=0.5),
        [
            paddle.div_(f(), y),
            paddle.sub_(f(), y),
            paddle.neg_(f()),
            paddle.tril_(t(2, 2)),
            paddle.mod_(f(), y),
            paddle.floor_mod_(f(), y),
        ],
    ]


def case_inplace_autograd():
    a = paddle.to_tensor(randn(3), stop_gradient=False)
    b = a * 2
    b.clamp_(-0.5, 0.5)
    b.mul_(paddle.to_tensor([1.0, 2.0, 3.0]))
    b.sum().backward()
    leaf = paddle.to_tensor([1.0], stop_gradient=False)
    return [
        b,
        a.grad,
        expect_error(lambda: leaf.clamp_(0.0, 1.0)),
        expect_error(lambda: leaf.div_(paddle.to_tensor([2.0]))),
    ]


# -- Tensor-only methods ----------------------------------------------------------------------
def case_cast_methods():
    x = paddle.to_tensor([[1.7, -2.2], [0.0, 3.5]])
    names = (
        "bfloat16",
        "bool",
        "byte",
        "cdouble",
        "cfloat",
        "char",
        "complex128",
        "complex64",
        "double",
        "float",
        "float16",
        "float32",
        "float64",
        "half",
        "int",
        "int16",
        "int32",
        "int64",
        "int8",
        "long",
        "short",
        "uint8",
    )
    return [[n, str(getattr(x, n)().dtype)] for n in names] + [
        x.int(),
        x.long(),
        x.bool(),
        x.double(),
        x.half(),
    ]


def case_cast_method_grad():
    return [
        backprop(lambda a: a.double() * 2, randn(3)),
        backprop(lambda a: a.half().float(), randn(2)),
    ]


def case_new_tensors():
    x = paddle.to_tensor([1.0, 2.0])
    i = paddle.to_tensor([1, 2])
    e = x.new_empty([2, 3])
    return [
        x.new_zeros([2]),
        x.new_ones((1, 2), dtype="int32"),
        x.new_full([2], 3),
        i.new_full([3], 7),
        i.new_zeros([2, 2]),
        [e.shape, str(e.dtype)],
        x.new_ones([2], requires_grad=True).stop_gradient,
    ]


def case_tensor_methods():
    x = paddle.to_tensor([[1.5, -2.5], [0.5, 4.0]])
    z = paddle.to_tensor([1.0])
    r = z.requires_grad_()
    flags = [z.stop_gradient, z.requires_grad, bool(r is z)]
    z.requires_grad = False
    flags += [z.stop_gradient, z.requires_grad_(False).requires_grad]
    w = paddle.to_tensor([1.0, 2.0])
    w2 = w.apply_(lambda v: v * 3 + 1)
    g = paddle.to_tensor([2.0, 3.0], stop_gradient=False)
    (g * g).sum().backward()
    return [
        x.type_as(paddle.to_tensor([1])),
        x.type_as(paddle.to_tensor([1.0], dtype="float64")),
        flags,
        x.apply(lambda v: v * 2),
        w,
        bool(w2 is w),
        expect_error(lambda: g.apply(lambda v: v)),
        x.to("float64"),
        x.to(paddle.int32),
        x.to("cpu"),
        x.to(paddle.to_tensor([1], dtype="int32")),
        x.to(dtype="float16"),
        x.to("cpu", "float64"),
        bool(x.to("cpu") is x),
        x.get_device(),
        x.is_tensor(),
        g.gradient(),
        x.gradient(),
    ]


def case_tensor_properties():
    x = paddle.to_tensor([[1.5, -2.5], [0.5, 4.0]])
    y = paddle.to_tensor([1.0, 2.0])
    y.add_(paddle.to_tensor(1.0))
    y.scale_(2.0)
    return [
        x.device,
        x.is_cuda,
        x.itemsize,
        paddle.to_tensor([1], dtype="int16").itemsize,
        x.layout,
        x.offset,
        x.inplace_version,
        y.inplace_version,
        x.placements,
        x.process_mesh,
        x.num_shard,
        x.grad_,
        x.requires_grad,
    ]


# -- non-op paddle.* ---------------------------------------------------------------------------
def case_broadcast_shape():
    return [
        paddle.broadcast_shape([2, 1, 3], [4, 1]),
        paddle.broadcast_shape([], [3]),
        paddle.broadcast_shape([0, 1], [3]),
        paddle.broadcast_shapes([2, 1], [1, 3], [3]),
        paddle.broadcast_shapes([2]),
        expect_error(lambda: paddle.broadcast_shape([2, 3], [4])),
        expect_error(lambda: paddle.broadcast_shapes([2], [3])),
    ]


def case_finfo_iinfo():
    out = []
    for d in (paddle.float32, paddle.float64, paddle.float16, paddle.bfloat16, "float32"):
        f = paddle.finfo(d)
        out.append(
            [
                repr(f),
                f.eps,
                f.max,
                f.min,
                f.tiny,
                f.smallest_normal,
                f.resolution,
                f.bits,
                str(f.dtype),
            ]
        )
    for d in (paddle.int32, paddle.int64, paddle.uint8, "int8", paddle.int16):
        ii = paddle.iinfo(d)
        out.append([repr(ii), ii.min, ii.max, ii.bits, str(ii.dtype)])
    out += [
        expect_error(lambda: paddle.finfo(paddle.int32)),
        expect_error(lambda: paddle.iinfo(paddle.float32)),
    ]
    return out


def case_flags():
    before = paddle.get_flags("FLAGS_check_nan_inf")
    paddle.set_flags({"FLAGS_check_nan_inf": True})
    after = paddle.get_flags(["FLAGS_check_nan_inf", "FLAGS_call_stack_level"])
    paddle.set_flags({"FLAGS_check_nan_inf": False})
    return [
        before,
        after,
        paddle.get_flags("FLAGS_use_mkldnn"),
        expect_error(lambda: paddle.get_flags("FLAGS_not_a_flag")),
        expect_error(lambda: paddle.set_flags({"FLAGS_not_a_flag": 1})),
    ]


def case_interop():
    a = np.arange(6, dtype="float32").reshape(2, 3)
    x = paddle.to_tensor([1.0, 2.0])
    back = paddle.from_dlpack(paddle.to_dlpack(x))
    return [
        paddle.from_numpy(a),
        paddle.from_numpy(np.array([1, 2], "int32")),
        paddle.as_tensor([1, 2]),
        paddle.as_tensor(np.arange(3), dtype="float32"),
        paddle.asarray([1.5]),
        paddle.asarray([1, 2], dtype="int32"),
        paddle.as_tensor([1.0], requires_grad=True).stop_gradient,
        bool(paddle.as_tensor(x) is x),
        back,
        paddle.from_dlpack(np.arange(3.0)),
        paddle.tolist(paddle.to_tensor([[1, 2], [3, 4]])),
        paddle.tolist(paddle.to_tensor(3)),
        expect_error(lambda: paddle.from_numpy([1, 2])),
    ]


def case_dtype_aliases_constants():
    return [
        str(d)
        for d in (
            paddle.float,
            paddle.double,
            paddle.half,
            paddle.int,
            paddle.long,
            paddle.short,
            paddle.cfloat,
            paddle.cdouble,
            paddle.uint16,
            paddle.uint32,
            paddle.uint64,
        )
    ] + [
        paddle.pi,
        paddle.e,
        paddle.inf,
        paddle.newaxis,
        bool(np.isnan(paddle.nan)),
        repr(paddle.Size([2, 3])),
        paddle.to_tensor([1.0], dtype=paddle.double).dtype,
        paddle.zeros([1], dtype=paddle.long).dtype,
        paddle.manual_seed(3) is not None,
    ]


def case_torch_style_index_select():
    # Paddle 3.3: an int second argument is the axis, as in torch.index_select(input, dim, index)
    x = paddle.arange(12).reshape([3, 4])
    i = _i([0, 2])
    return [
        paddle.index_select(x, 1, i),
        x.index_select(1, i),
        paddle.index_select(x, 0, index=i),
        paddle.index_select(input=x, dim=1, index=i),
        expect_error(lambda: paddle.index_select(x, 1)),
    ]


def case_torch_style_scatter():
    # Paddle 3.3: scatter(input, dim, index, src (or value), *, reduce, out) is a
    # non-broadcasting put_along_axis; the original scatter(x, index, updates, overwrite) stays
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    idx, src = _i([[0, 1], [1, 0]]), paddle.to_tensor([[10.0, 20.0], [30.0, 40.0]])
    out = {
        "forms": [
            paddle.scatter(x, 1, idx, src),
            paddle.scatter(x, dim=1, index=idx, src=src),
            paddle.scatter(input=x, dim=1, index=idx, src=src),
            paddle.scatter(x, 1, idx, value=src),
            paddle.scatter(x, 1, idx, 5.0),
            paddle.scatter(x, -1, idx, src, "add"),
            x.scatter(1, idx, src),
            x.scatter(dim=1, index=idx, src=src),
        ],
        "reduce": [paddle.scatter(x, 1, idx, src, reduce=r) for r in ("add", "multiply", "mean")],
        "smaller_index": paddle.scatter(x, 1, _i([[0]]), src),
        "original": paddle.scatter(x, _i([1]), paddle.to_tensor([[7.0, 7.0, 7.0]]), False),
        "grads": backprop(lambda a, b: paddle.scatter(a, 1, idx, b, reduce="add"), x, src),
    }
    y = x.clone()
    y.scatter_(1, idx, src)
    out["inplace"] = y
    bad = {
        "missing_src": lambda: paddle.scatter(x, 1, idx),
        "tensor_reduce": lambda: paddle.scatter(x, 1, idx, src, src),
        "bad_reduce": lambda: paddle.scatter(x, 1, idx, src, reduce="bad"),
        "values_too_small": lambda: paddle.scatter(x, 1, idx, paddle.to_tensor([[1.0, 2.0]])),
        "overwrite_kw": lambda: paddle.scatter(x, 1, idx, src, overwrite=True),
    }
    out.update({k: expect_error(f) for k, f in bad.items()})
    return out
