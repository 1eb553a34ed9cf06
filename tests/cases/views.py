"""Paddle's views: reshape/view/squeeze/unsqueeze/flatten/unflatten, transpose/permute/
moveaxis/swapaxes/t, basic indexing, slice/strided_slice/narrow, diagonal, unbind, as_strided,
Tensor.unfold, view(dtype), real/imag/as_real/as_complex and detach share memory with their
input, so in-place writes to either show in the other; advanced indexing, clone, split/chunk/
tensor_split, unstack, expand/broadcast_to and reshapes that strides cannot describe are
copies. Also strides, offsets, in-place view ops, contiguous() and autograd after writes."""

import paddle


def _t():
    return paddle.arange(6, dtype="float32").reshape([2, 3])


_VIEWS = {
    "reshape": lambda x: x.reshape([3, 2]),
    "view": lambda x: x.view([3, 2]),
    "flatten": lambda x: x.flatten(),
    "unsqueeze_squeeze": lambda x: x.unsqueeze(0).squeeze(0),
    "transpose": lambda x: x.transpose([1, 0]),
    "t": lambda x: x.t(),
    "int_index": lambda x: x[0],
    "slice": lambda x: x[:, 1:],
    "chain": lambda x: x[0].reshape([3, 1])[1:],
    "detach": lambda x: x.detach(),
    "advanced_index": lambda x: x[[0, 1]],
    "clone": lambda x: x.clone(),
    "split": lambda x: paddle.split(x, 3, axis=1)[0],
}


def case_base_writes_show_in_views():
    out = {}
    for name, f in _VIEWS.items():
        x = _t()
        v = f(x)
        x[0, 0] = 100.0
        x[0, 1] = 50.0
        out[name] = v
    return out


def case_view_writes_show_in_the_base():
    out = {}
    for name, f in _VIEWS.items():
        x = _t()
        v = f(x)
        v.fill_(-1.0)
        out[name] = x
    return out


def case_inplace_ops_through_views():
    x = _t()
    a = x.reshape([3, 2])
    b = x[1]
    a.add_(paddle.ones([3, 2]))
    b.scale_(2.0)
    x.sqrt_()
    return [x, a, b]


def case_sibling_views_and_reshape_inplace():
    x = _t()
    a = x.flatten()
    b = x.transpose([1, 0])
    a[2] = 7.0
    x.reshape_([3, 2])
    x[2, 1] = -3.0
    return [x, a, b]


def case_view_outlives_base():
    x = _t()
    v = x[1]
    w = x.reshape([6])
    del x
    v[0] = 9.0
    return [v, w]


# -- more views (Paddle 3.3.1 eager CPU): which ops share their input's buffer, their strides,
# byte offsets and contiguity, in-place view ops, and gradients after writes through a view


def _t3():
    return paddle.arange(1, 25, dtype="float32").reshape([2, 3, 4])


def _c():
    re = paddle.arange(6, dtype="float32").reshape([2, 3])
    return paddle.complex(re, re + 10.0)


_MORE = {
    "diagonal": lambda x: x.diagonal(),
    "diagonal_offset": lambda x: paddle.diagonal(x, offset=1, axis1=1, axis2=2),
    "diagonal_negative": lambda x: paddle.diagonal(x, -1, 2, 1),
    "unbind_0": lambda x: paddle.unbind(x, 0)[1],
    "unbind_last": lambda x: x.unbind(-1)[2],
    "as_strided": lambda x: paddle.as_strided(x, [3, 2], [4, 1], 4),
    "view_int32": lambda x: x.view("int32"),
    "view_float16": lambda x: x.view("float16"),
    "view_float64": lambda x: x.view("float64"),
    "view_uint8": lambda x: x.view(paddle.uint8),
    "unfold": lambda x: x.unfold(2, 2, 1),
    "unfold_step": lambda x: x.unfold(1, 2, 1),
    "narrow": lambda x: paddle.narrow(x, 1, 1, 2),
    "slice": lambda x: paddle.slice(x, [1], [1], [3]),
    "strided_slice": lambda x: paddle.strided_slice(x, [1, 2], [0, 1], [3, 4], [2, 2]),
    "moveaxis": lambda x: paddle.moveaxis(x, 0, 2),
    "swapaxes": lambda x: paddle.swapaxes(x, 0, 2),
    "permute": lambda x: x.permute(2, 0, 1),
    "mT": lambda x: x.mT,
    "unflatten": lambda x: paddle.unflatten(x, 2, [2, 2]),
    "step_slice": lambda x: x[:, ::2, 1::2],
    "negative_step": lambda x: x[:, ::-1],
    "new_axes": lambda x: x[None, 0, ..., None],
    "empty_slice": lambda x: x[:, 3:],
    "t_unsqueeze": lambda x: x.transpose([1, 0, 2]).unsqueeze(0),
    "t_reshape_split": lambda x: x.transpose([1, 0, 2]).reshape([3, 2, 2, 2]),
    "slice_flatten": lambda x: x[:, :, 1:].flatten(0, 1),
    "slice_reshape_contiguous": lambda x: x[1:].reshape([-1]),
    "t_diagonal": lambda x: x.transpose([1, 0, 2]).diagonal(0, 1, 2),
    "t_view_float16": lambda x: x.transpose([1, 0, 2]).view("float16"),
    "t_detach": lambda x: x.transpose([1, 0, 2]).detach(),
    # copies in Paddle
    "split": lambda x: paddle.split(x, [1, 2], 1)[1],
    "chunk": lambda x: paddle.chunk(x, 2, 2)[1],
    "tensor_split": lambda x: paddle.tensor_split(x, 3, 1)[1],
    "hsplit": lambda x: paddle.hsplit(x, 3)[1],
    "vsplit": lambda x: paddle.vsplit(x, 2)[1],
    "dsplit": lambda x: paddle.dsplit(x, 2)[1],
    "unstack": lambda x: paddle.unstack(x, 1)[1],
    "expand": lambda x: x[:, :1].expand([2, 3, 4]),
    "broadcast_to": lambda x: paddle.broadcast_to(x, [2, 2, 3, 4]),
    "t_reshape_merge": lambda x: x.transpose([1, 0, 2]).reshape([6, 4]),
    "slice_reshape": lambda x: x[:, 1:].reshape([-1]),
    "t_flatten": lambda x: x.transpose([1, 0, 2]).flatten(),
}


def _write(v):
    if v.dtype == paddle.float32:
        v.fill_(-1.0)
    else:
        v.zero_()


def case_more_views_base_writes_show():
    out = {}
    for name, f in _MORE.items():
        x = _t3()
        v = f(x)
        x.add_(paddle.full_like(x, 100.0))
        out[name] = v
    return out


def case_more_views_view_writes_show():
    out = {}
    for name, f in _MORE.items():
        x = _t3()
        _write(f(x))
        out[name] = x
    return out


def case_more_views_layout():
    out = {}
    for name, f in _MORE.items():
        x = _t3()
        v = f(x)
        out[name] = [list(v.shape), str(v.dtype), v.stride(), v.is_contiguous()]
        if not name.startswith(("split", "chunk", "tensor_split", "hsplit", "vsplit", "dsplit")):
            if name not in ("unstack", "expand", "broadcast_to") and "merge" not in name:
                if name not in ("slice_reshape", "t_flatten"):
                    out[name] += [v.offset, v.data_ptr() - x.data_ptr()]
    return out


def case_index_offset_int64():
    x = paddle.to_tensor([1, 2, 3])
    y = x[1]
    return [y.offset, x[2:].offset, x.offset, y.data_ptr() - x.data_ptr()]


def case_unbind_outputs_share_the_buffer():
    x = _t3()
    outs = paddle.unbind(x, 1)
    outs[0][0, 0] = -1.0
    outs[2].zero_()
    x[1, 1, 1] = 50.0
    return [x, *outs]


def case_complex_parts_are_views():
    out = {}
    for name in ("real", "imag", "as_real"):
        c = _c()
        r = getattr(paddle, name)(c)
        out[name + "_layout"] = [r.stride(), r.offset, r.is_contiguous()]
        c.add_(paddle.complex(paddle.full([2, 3], 100.0), paddle.full([2, 3], 200.0)))
        out[name + "_after_base_write"] = r
        r.fill_(7.0)
        out[name + "_base_after_view_write"] = c
    c = _c()
    r = c.real()
    r[0, 0] = 99.0
    i = c.imag()
    i[0, 1] = 77.0
    out["methods"] = c
    a = paddle.arange(8, dtype="float32").reshape([4, 2])
    z = paddle.as_complex(a)
    a[0, 0] = 50.0
    z[1] = paddle.complex(paddle.to_tensor(-1.0), paddle.to_tensor(-2.0))
    out["as_complex"] = [z, a, z.stride()]
    return out


def case_view_dtype_round_trips():
    x = paddle.to_tensor([1, 2], dtype="int32")
    v = x.view("int16")
    v[1] = 7
    y = paddle.to_tensor([[1, 2], [3, 4]], dtype="int16")
    w = y.view("int32")
    w[0, 0] = 65537
    f = paddle.to_tensor([1.5, 2.0, -0.0])
    b = f.view("bool")
    bits = f.view("int32")
    b[0] = False
    return [v, x, w, y, w.stride(), b, f, bits]


def case_view_dtype_and_shape_errors():
    from _util import expect_error

    t = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], dtype="int16").t()
    return [
        expect_error(lambda: paddle.to_tensor(3, dtype="int16").view("int32")),
        expect_error(lambda: paddle.to_tensor(3, dtype="int32").view("int16")),
        expect_error(lambda: paddle.to_tensor([1, 2, 3], dtype="int16").view("int32")),
        expect_error(lambda: t.view("int32")),
        expect_error(lambda: t.view("int8")),
        expect_error(lambda: t.view([6])),
        expect_error(lambda: paddle.to_tensor(3, dtype="int32").view("float32")),
    ]


def case_inplace_view_ops_keep_the_buffer():
    out = {}
    x = _t3()
    v = x[0]
    v.unsqueeze_(0)
    v[0, 0, 0] = -5.0
    out["view_unsqueeze_"] = [x, v.shape, v.stride()]
    x = _t3()
    v = x[0]
    x.unsqueeze_(0)
    x[0, 0, 0, 1] = -7.0
    out["base_unsqueeze_"] = [v, x.stride()]
    x = paddle.arange(9, dtype="float32").reshape([3, 3])
    y = x.reshape([9])
    x.t_()
    x[0, 1] = -1.0
    out["square_t_"] = [x, y, x.stride(), x.is_contiguous()]
    x = paddle.arange(6, dtype="float32").reshape([2, 3])
    y = x[0:1]
    y.transpose_([1, 0])
    y[2, 0] = -2.0
    out["view_transpose_"] = [x, y, y.stride()]
    for name, f in {
        "full_index": lambda x: x[:],
        "full_range": lambda x: x[-2:, :5],
        "detach": lambda x: x.detach(),
        "reshape_same": lambda x: x.reshape([2, 3]),
        "view_same_dtype": lambda x: x.view("float32"),
        "view_same_shape": lambda x: x.view([2, 3]),
        "squeeze_noop": lambda x: x.squeeze(),
        "slice_full": lambda x: paddle.slice(x, [0], [0], [2]),
        "narrow_full": lambda x: x.narrow(0, 0, 2),
        "view_as": lambda x: x.view_as(x),
    }.items():  # which results share the input's shape (Paddle's same DenseTensor)
        x = paddle.arange(6, dtype="float32").reshape([2, 3])
        y = f(x)
        y.t_()
        y[0, 1] = -3.0
        out["shared_meta_" + name] = [x, y]
    x = paddle.arange(6, dtype="float32").reshape([2, 3])[:, 1:]
    y = x.detach()
    y.reshape_([-1])
    y[0] = -4.0
    out["detach_leaves_together"] = [x, y]
    x = _t3()
    v = x[:, 1:]
    v.reshape_([-1])
    v[0] = -9.0
    out["strided_reshape_leaves"] = [x, v.stride(), v.offset]
    x = _t3()
    v = x.transpose([1, 0, 2])
    v.flatten_()
    v[0] = -9.0
    out["strided_flatten_leaves"] = x
    x = _t3()
    v = x[1:]
    v.flatten_()
    v[0] = -9.0
    out["contiguous_flatten_stays"] = [x, v.offset]
    return out


def case_contiguous_gives_a_strided_view_its_own_buffer():
    x = _t3()
    y = x.transpose([1, 0, 2])
    c = y.contiguous()
    same = c is y
    info = [y.stride(), y.is_contiguous(), y.offset]
    y[0, 0, 0] = -1.0
    x2 = _t3()
    z = x2[1:]
    z.contiguous()
    z[0, 0, 0] = -3.0
    return [same, info, x, x2, z.offset]


def case_writes_through_views_keep_autograd_history():
    def make():
        w = paddle.to_tensor([[1.0, 2, 3], [4, 5, 6]], stop_gradient=False)
        return w, w * 1

    out = {}
    w, x = make()
    x[0].scale_(2.0)
    x.sum().backward()
    out["base_sum"] = [w.grad, x]
    w, x = make()
    x[0].scale_(2.0)
    (x * x).sum().backward()
    out["base_square"] = w.grad
    w, x = make()
    y = x[0]
    x.scale_(2.0)
    y.sum().backward()
    out["view_after_base_write"] = [w.grad, y]
    w, x = make()
    y = x[0]
    y.scale_(2.0)
    y.sum().backward()
    out["view_own_history"] = w.grad
    w, x = make()
    y = x.diagonal()
    y.scale_(5.0)
    x.sum().backward()
    out["diagonal"] = w.grad
    w, x = make()
    a, b = x.unbind(0)
    a.scale_(2.0)
    (x.sum() + b.sum()).backward()
    out["unbind"] = w.grad
    w, x = make()
    u = x * 1
    x.transpose([1, 0]).scale_(3.0)
    (u.sum() + x.sum()).backward()
    out["earlier_consumer"] = w.grad
    return out


_CHAINS = {
    "t_index_diag": lambda x: [
        x.transpose([2, 0, 1]),
        lambda v: v[1:],
        lambda v: v.diagonal(0, 1, 2),
    ],
    "unbind_unfold": lambda x: [x.unbind(1)[2], lambda v: v.unfold(1, 2, 2)],
    "neg_step_view": lambda x: [x[:, ::-2], lambda v: v.view("int32"), lambda v: v[0]],
    "narrow_moveaxis": lambda x: [
        x.narrow(2, 1, 3),
        lambda v: paddle.moveaxis(v, 2, 0),
        lambda v: v[1],
    ],
    "reshape_strided": lambda x: [x[1].reshape([2, 6]), lambda v: v[:, 1::2], lambda v: v.t()],
    "new_axis_squeeze": lambda x: [
        x[None, :, 1],
        lambda v: v.squeeze(0),
        lambda v: v.unsqueeze(-1),
    ],
    "as_strided_of_root": lambda x: [paddle.as_strided(x, [3, 3], [6, 2], 8), lambda v: v[1:3]],
}


def case_chains_of_views():
    out = {}
    for name, f in _CHAINS.items():
        x = _t3()
        first, *rest = f(x)
        chain = [first]
        for g in rest:
            chain.append(g(chain[-1]))
        leaf = chain[-1]
        if leaf.dtype == paddle.float32:
            leaf.add_(paddle.full_like(leaf, 1000.0))
        else:
            leaf.add_(paddle.ones_like(leaf))
        x[0, 0, 0] = -1.0
        x[1, 2, 3] = -2.0
        out[name] = [x, *chain, [[c.stride(), c.offset, c.is_contiguous()] for c in chain]]
    return out
