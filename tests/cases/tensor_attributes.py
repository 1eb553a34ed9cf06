"""Tensor and Parameter attributes that model code reads (type, strides, offset, get_tensor,
grad assignment, __format__, set_/resize_/reconstruct_from_, new_*), and the support modules
scripts import: paddle.base, paddle.utils, paddle.version, paddle.batch, paddle.MmapStorage,
paddle.compat and the torch proxy (enable_compat/disable_compat)."""

import os
import sys
import tempfile

import numpy as np
from _util import expect_error

import paddle


def _x():
    return paddle.to_tensor([[1, 2, 3], [4, 5, 6]])


def case_type():
    x = paddle.to_tensor(1.0)
    vt = paddle.base.core.VarDesc.VarType
    return [
        str(x.type),
        repr(x.type),
        int(x.type),
        x.type == vt.DENSE_TENSOR,
        paddle.nn.Linear(2, 3).weight.type == vt.DENSE_TENSOR,
        [str(vt.FP32), int(vt.FP32), int(vt.BF16), int(vt.SELECTED_ROWS)],
    ]


def case_strides_and_offset():
    x = _x()
    s = paddle.to_tensor(3.0)
    return [
        x.stride(),
        x.stride(0),
        x.stride(1),
        x.stride(-1),
        x.get_strides(),
        x.strides,
        paddle.ones([2, 3, 4]).get_strides(),
        s.stride(),
        s.get_strides(),
        x.offset,
        expect_error(lambda: x.stride(5)),
        expect_error(lambda: x.stride(-3)),
    ]


def case_get_tensor():
    out = []
    for t in (
        paddle.to_tensor([1.0], stop_gradient=False),
        _x(),
        paddle.to_tensor(2.5),
        paddle.to_tensor([True, False]),
        paddle.to_tensor([1.5, 2.25, 1e-8, 123456789.0]),
        paddle.to_tensor([1.5, 2.25]).astype("bfloat16"),
        paddle.to_tensor([-1.5, 0.1]).astype("float16"),
        paddle.to_tensor([1 + 2j]),
        paddle.to_tensor(np.zeros((0, 2))),
        paddle.to_tensor([1, 2]).astype("uint8"),
    ):
        out.append(str(t.get_tensor()))
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    dt = x.get_tensor()
    out += [np.array(dt), dt.shape(), str(dt._dtype()), str(dt._place()), dt.lod(), dt._numel()]
    dt.set(np.array([5.0, 6.0], "float32"), paddle.CPUPlace())
    return [*out, x]


def _snap(t):
    return [t.numpy(), str(t.dtype), t.stop_gradient]


def case_grad_assignment():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    t = paddle.to_tensor([3.0, 4.0])
    x.grad = t
    first = [_snap(x.grad), x.grad is t]
    (x * 2).sum().backward()  # accumulates into the assigned gradient
    after_backward = _snap(x.grad)
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (y * 3).sum().backward()
    g0 = y.grad
    y.grad = paddle.to_tensor([7.0, 8.0])
    copied = [_snap(y.grad), _snap(g0)]  # copied into the existing gradient
    y.grad = None
    return [
        *first,
        after_backward,
        *copied,
        y.grad,
        expect_error(lambda: setattr(x, "grad", np.ones(2, "float32"))),
        expect_error(lambda: setattr(x, "grad", paddle.to_tensor([1, 2]))),
    ]


def case_grad_after_backward():
    x = paddle.to_tensor(1.0, stop_gradient=False)
    (x**2).backward()
    first = x.grad
    x.grad = paddle.to_tensor(3.0)
    return [first, x.grad]


def case_format():
    v, i, m = paddle.to_tensor(2.5), paddle.to_tensor(3), paddle.to_tensor([1.5, 2.0])
    out = [format(v, s) for s in ("", ".2f", ">10", "g", "e", "5")]
    out += [format(i, s) for s in ("", "d", "05d", ".2f")]
    out += [f"{paddle.to_tensor(True)}", f"{paddle.to_tensor(1 + 2j)}", f"{v}"]
    out += [format(m, ""), f"{paddle.to_tensor([1.0])}"]
    out += [expect_error(lambda: format(m, ".2f")), expect_error(lambda: format(v, "s"))]
    return out


def case_set_():
    src = paddle.to_tensor([[11.0, 22.0, 33.0]])
    src2 = paddle.to_tensor([11.0, 22.0, 33.0, 44.0, 55.0, 66.0])
    out = []
    for kwargs in (
        {},
        {"source": src},
        {"source": src, "shape": [2, 1]},
        {"source": src2, "shape": [3], "stride": [2]},
        {"source": src2, "shape": [5], "offset": 4},
        {"source": src2, "shape": [2, 2], "stride": [1, 2]},
        {"source": src2, "shape": [2], "offset": 8},
    ):
        x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])
        r = x.set_(**kwargs)
        out += [x, r is x, x.get_strides(), x.offset, x.is_contiguous()]
    x = paddle.to_tensor([1.0, 2.0])
    x.set_(src)
    out.append(x._is_shared_buffer_with(src))
    leaf = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = leaf * 2
    y.set_(src2)
    out.append(y.stop_gradient)
    out.append(expect_error(lambda: paddle.to_tensor([1.0]).set_(3)))
    out.append(expect_error(lambda: leaf.set_(src2)))
    return out


def case_resize_():
    out = []
    for shape, fill in (
        ([2, 1], False),
        ([2, 3], True),
        ([2], False),
        ([0], False),
        ((1, 2), False),
    ):
        x = paddle.to_tensor([1.0, 2.0, 3.0])
        r = x.resize_(shape, fill_zero=fill)
        out += [x, r is x]
    x = paddle.to_tensor([1, 2])
    x.resize_([3, 2], fill_zero=True)
    out.append(x)
    t = paddle.to_tensor([1.0, 2.0])
    leaf = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out += [
        expect_error(lambda: t.resize_(4)),
        expect_error(lambda: t.resize_([2, -1])),
        expect_error(lambda: t.resize_([2.5])),
        expect_error(lambda: leaf.resize_([2])),
    ]
    return out


def case_reconstruct_from_():
    t1 = paddle.to_tensor([1.0], stop_gradient=False)
    t2 = paddle.to_tensor([2.0, 3.0], stop_gradient=True)
    r = t1.reconstruct_from_(t2)
    t3 = paddle.to_tensor([1, 2])
    t3.reconstruct_from_(paddle.to_tensor([1.5], stop_gradient=False))
    return [r, t1, t1._is_shared_buffer_with(t2), t3]


def case_new_methods():
    x, i = paddle.ones([2, 2]), paddle.to_tensor([1, 2])
    out = [
        x.new_empty(3, 3).shape,
        x.new_ones(3, 3),
        x.new_ones((3, 3)).shape,
        x.new_ones(3, 3, dtype=paddle.int32),
        x.new_ones([3], dtype="float64"),
        x.new_zeros(2, 3),
        x.new_zeros(size=[2]),
        x.new_ones(paddle.to_tensor([2, 3])).shape,
        x.new_empty(2, requires_grad=True).stop_gradient,
        x.new_ones(()),
        x.new_full([2], 3),
        x.new_full([2], 3.5, dtype="int64"),
        i.new_ones(2),
    ]
    out += [
        expect_error(lambda: x.new_ones(3, 1.5)),
        expect_error(lambda: x.new_ones(3, "a")),
        expect_error(lambda: x.new_ones()),
    ]
    return out


_PARAM_ATTRS = (
    "persistable",
    "trainable",
    "optimize_attr",
    "regularizer",
    "do_model_average",
    "need_clip",
    "is_distributed",
    "stop_gradient",
    "is_leaf",
)


def _attrs(obj):
    return [[n, hasattr(obj, n), getattr(obj, n, None)] for n in _PARAM_ATTRS]


def case_parameter_attributes():
    layer = paddle.nn.Linear(2, 3)
    p = paddle.create_parameter(
        [2],
        "float32",
        attr=paddle.ParamAttr(do_model_average=False, need_clip=False, learning_rate=0.5),
    )
    q = paddle.base.framework.EagerParamBase.from_tensor(paddle.to_tensor([1.0]))
    t = paddle.to_tensor([1.0])
    return [
        _attrs(layer.weight),
        _attrs(layer.bias),
        _attrs(p),
        _attrs(q),
        _attrs(t),
        str(layer.weight.block),
        str(t.block),
        layer.weight.block.idx,
        layer.weight.block.parent_idx,
        layer.weight.is_selected_rows(),
        layer.weight.is_dense(),
        layer.weight.inplace_version,
        layer.weight.layout,
        hasattr(t, "is_parameter"),
        paddle.framework.is_parameter(layer.weight)
        if hasattr(paddle.framework, "is_parameter")
        else None,
    ]


def case_unique_name():
    un = paddle.utils.unique_name
    out = [un.generate("fc_ta"), un.generate("fc_ta"), un.generate("conv_ta")]
    with un.guard():
        out += [un.generate("fc_ta"), paddle.nn.Linear(2, 2).weight.name]
    with un.guard("pre_"):
        out.append(un.generate("fc_ta"))
    with un.guard(b"bb_"):
        out.append(un.generate("fc_ta"))
    out.append(un.generate("fc_ta"))
    old = un.switch()
    out += [[type(o).__name__ for o in old], un.generate("fc_ta")]
    un.switch(*old)
    out.append(un.generate("fc_ta"))
    out.append(paddle.base.unique_name.generate is not None)
    return out


def case_utils_nest():
    u = paddle.utils
    nest = {"b": [1, (2, 3)], "a": 4}
    out = [
        u.flatten(nest),
        u.flatten(5),
        u.flatten(None),
        u.flatten([]),
        u.map_structure(lambda a, b: a + b, nest, nest),
        u.pack_sequence_as({"b": [0, (0, 0)], "a": 0}, [9, 8, 7, 6]),
        [u.is_sequence(v) for v in ([1], {}, "ab", paddle.to_tensor([1]), (1,))],
        u.to_sequence(3),
        u.to_sequence((3,)),
        u.convert_to_list(3, 2, "k"),
        u.convert_to_list([1, 2], 2, "k"),
        u.convert_to_list(3.0, 2, "k", float),
        [u.strtobool(v) for v in ("yes", "0", "On", "f")],
        [u.is_same_shape([2, 3], [2, 3]), u.is_same_shape([2, -1], [2, 3])],
        u.padding_to_same_structure([1, [2]], [3]),
        u.check_shape([2, 3]),
    ]
    out += [
        expect_error(lambda: u.pack_sequence_as([0, 0], [1])),
        expect_error(lambda: u.assert_same_structure([1, 2], [1])),
        expect_error(lambda: u.assert_same_structure([1, 2], (1, 2))),
        expect_error(lambda: u.convert_to_list([1, 2, 3], 2, "kernel_size")),
        expect_error(lambda: u.strtobool("maybe")),
        expect_error(lambda: u.check_shape([2, -1])),
    ]
    return out


def case_utils_version_checks():
    u = paddle.utils
    out = []
    for args in (
        ("0.1.0",),
        ("3.3.1",),
        ("3.3", "3.3.1"),
        ("4.0.0",),
        ("3.0.0", "3.2"),
        ("3.4", "3.3"),
        (3,),
        ("a.b",),
        ("3.3.1", 4),
    ):
        out.append(expect_error(lambda a=args: u.require_version(*a)))
    out.append(expect_error(lambda: u.try_import("nonexistent_mod_xyz_ta")))
    out.append(u.try_import("json").__name__)

    @u.deprecated(since="2.0", level=2)
    def old2(x):
        return x

    @u.deprecated(update_to="paddle.new_fn", since="2.0", reason="use new")
    def old(x):
        """doc of old"""
        return x + 1

    out += [expect_error(lambda: old2(1)), old(1), old.__doc__.split("API")[0]]
    return out


def case_version():
    v = paddle.version
    return [
        v.full_version,
        v.major,
        v.minor,
        v.patch,
        v.rc,
        v.is_tagged,
        v.cuda(),
        v.cudnn(),
        v.xpu(),
        v.nccl(),
        v.cinn(),
        v.tensorrt(),
        v.cuda_archs(),
        paddle.sysconfig.get_include().endswith("include"),
        paddle.sysconfig.get_lib().endswith("libs"),
    ]


def case_base_modules():
    base = paddle.base
    fw = base.framework
    prog = fw.default_main_program()
    dtypes = ["bfloat16", paddle.bfloat16, "uint16", np.float16, paddle.float8_e4m3fn, paddle.bool]
    dtypes += [np.dtype("int8"), base.core.VarDesc.VarType.BF16, paddle.float32, "float32"]
    out = [base.data_feeder.convert_dtype(d) for d in dtypes]
    out += [
        expect_error(lambda: base.data_feeder.convert_dtype("float")),
        expect_error(lambda: base.data_feeder.convert_dtype(3)),
        base.core.DataType.FLOAT32 is paddle.float32,
        base.core.eager.Tensor is paddle.Tensor,
        base.Tensor is base.DenseTensor,
        base.Tensor is paddle.Tensor,
        str(fw.convert_np_dtype_to_dtype_(np.float32)),
        str(fw._current_expected_place()),
        [fw.in_dygraph_mode(), fw.use_pir_api(), fw.in_pir_mode(), fw.in_dynamic_or_pir_mode()],
        base.dygraph.base.in_to_static_mode(),
        base.param_attr.ParamAttr is paddle.ParamAttr,
        [
            prog.num_blocks,
            prog.current_block_idx,
            prog.global_block().vars,
            prog.global_block().ops,
        ],
        str(prog),
        prog.global_block() is prog.block(0),
        paddle.framework.core is base.core,
        paddle.base.get_flags("FLAGS_check_nan_inf"),
        [str(p) for p in base.cpu_places(2)],
        base.core.is_compiled_with_cuda(),
        isinstance(paddle.nn.Linear(2, 2).weight, fw.EagerParamBase),
    ]
    with base.dygraph.guard():
        out.append(paddle.in_dynamic_mode())
    with base.dygraph.guard(paddle.CPUPlace()):
        out.append(str(paddle.to_tensor([1.0]).place))
    return out


def case_batch():
    def reader():
        yield from range(5)

    out = [list(paddle.batch(reader, 2)()), list(paddle.batch(reader, 2, drop_last=True)())]
    out += [
        expect_error(lambda: paddle.batch(reader, 0)),
        expect_error(lambda: paddle.batch(reader, -1)),
    ]
    return out


# Paddle 3.3.1 aborts the process when a Tensor read from an MmapStorage is freed ("The
# deleter of the pointer is not found"): the case keeps them alive until exit
_KEEP_ALIVE = []


def case_mmap_storage():
    d = tempfile.mkdtemp()
    path = os.path.join(d, "test.pp")
    np.arange(20, dtype="float32").tofile(path)
    m = paddle.MmapStorage(path, 80)
    slices = [
        m.get_slice(dtype=paddle.float32, start=0, stop=20),
        m.get_slice(paddle.int32, 2, 5),
        m.get_slice(paddle.float32, 4, 6),
        m.get_slice(paddle.float32, 0, 7, 3),
        m.get_slice(paddle.float64, 0, 2),
        m.get_slice(paddle.uint8, 0, 8),
        m.get_slice(paddle.float32, 5, 2),
    ]
    _KEEP_ALIVE.extend([m, *slices])
    out = [[str(t.dtype), t.shape, t.numpy(), t.stop_gradient] for t in slices]
    out += [
        expect_error(lambda: paddle.MmapStorage(os.path.join(d, "missing.pp"), 8)),
        expect_error(lambda: paddle.MmapStorage(path, 800)),
    ]
    return out


def case_compat_functions():
    c = paddle.compat
    x = paddle.to_tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    r = c.max(x, 1)
    out = [
        type(c.sort(x)).__name__,
        list(c.sort(x)),
        list(c.sort(x, 0, True)),
        c.max(x),
        [type(r).__name__, list(r._fields), list(r)],
        list(c.max(x, dim=1, keepdim=True)),
        c.max(x, paddle.to_tensor([[1.0, 9, 1], [1, 1, 1]])),
        list(c.min(x, 0)),
        c.min(x),
        c.median(x),
        [type(c.median(x, 1)).__name__, list(c.median(x, 1))],
        list(c.median(x, dim=0, keepdim=True)),
        list(c.nanmedian(paddle.to_tensor([[1.0, float("nan"), 3.0]]), 1)),
        list(c.split(paddle.arange(5), 2)),
        list(c.split(paddle.arange(5), [1, 4])),
        list(c.split(x, 2, dim=1)),
        list(c.unique(paddle.to_tensor([3, 1, 3, 2]), return_inverse=True, return_counts=True)),
        c.unique(paddle.to_tensor([3, 1, 3])),
        c.unique(paddle.to_tensor([[1, 2], [1, 2]]), dim=0),
        [c.equal(x, x), c.equal(x, x[:1]), c.equal(x, x + 1)],
        list(c.slogdet(paddle.to_tensor([[2.0, 1], [1, 3]]))),
        type(c.slogdet(paddle.to_tensor([[2.0, 1], [1, 3]]))).__name__,
        [str(d) for d in (c.b1, c.u1, c.i1, c.i2, c.i4, c.i8, c.f2, c.f4, c.f8, c.bf)],
        isinstance(c.seed(), int),
    ]
    out += [
        expect_error(lambda: c.max(x, 5)),
        expect_error(lambda: c.max(x, 1.5)),
        expect_error(lambda: c.max(x, dim=1, foo=2)),
        expect_error(lambda: c.max(x, axis=1)),
        expect_error(lambda: c.sort(x, axis=1)),
        expect_error(lambda: c.split(x, [1, 1], 1)),
    ]
    return out


def case_compat_nn():
    c = paddle.compat
    F = c.nn.functional
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4, 5, 6]])
    w = paddle.to_tensor([[1.0, 0, 1], [0, 1, 0]])
    img = paddle.arange(2 * 1 * 4 * 4, dtype="float32").reshape([2, 1, 4, 4])
    lin = c.nn.Linear(3, 2)
    return [
        F.softmax(x),
        F.softmax(x, -1, dtype="float64"),
        F.softmax(x, 0),
        F.linear(x, w, paddle.to_tensor([1.0, 2.0])),
        F.linear(x, w),
        F.pad(x, (1, 2)),
        F.pad(x, (1, 0, 0, 1), value=9.0),
        F.pad(img, (1, 1, 0, 1), mode="reflect"),
        F.unfold(img, 2, stride=2),
        c.nn.Softmax(dim=1)(x),
        c.nn.Softmax()(x),
        c.nn.Unfold(2, stride=2)(img),
        c.nn.AvgPool2d(2, count_include_pad=False)(img),
        c.nn.AvgPool1d(2)(x.unsqueeze(0)),
        [lin.weight.shape, lin.bias.shape, [n for n, _ in lin.named_parameters()]],
        lin(x).shape,
        c.nn.AvgPool1D is c.nn.AvgPool1d,
        expect_error(lambda: F.softmax(x, axis=1)),
    ]


def case_compat_sdpa():
    F = paddle.compat.nn.functional
    rng = np.random.default_rng(0)
    q, k, v = (paddle.to_tensor(rng.standard_normal((1, 2, 3, 4)).astype("float32")) for _ in "qkv")
    mask = paddle.to_tensor(rng.standard_normal((1, 1, 3, 3)).astype("float32"))
    return [
        F.scaled_dot_product_attention(q, k, v),
        F.scaled_dot_product_attention(q, k, v, is_causal=True),
        F.scaled_dot_product_attention(q, k, v, attn_mask=mask),
        F.scaled_dot_product_attention(q, k, v, scale=0.5),
    ]


def case_torch_proxy():
    out = []
    paddle.enable_compat()
    import torch
    import torch.nn.functional as tF  # noqa: N812

    out += [
        torch.sin is paddle.sin,
        torch.Tensor is paddle.Tensor,
        torch.sort is paddle.sort,
        torch.nn.Linear is paddle.compat.nn.Linear,
        tF.softmax is paddle.compat.nn.functional.softmax,
        tF.relu is paddle.nn.functional.relu,
        torch.__name__,
        tF.__name__,
        sorted(k for k in sys.modules if k.startswith("torch")),
    ]
    paddle.disable_compat()
    out.append("torch" in sys.modules)
    try:
        import torch  # noqa: F811

        out.append("imported")
    except ModuleNotFoundError:
        out.append("ModuleNotFoundError")
    with paddle.use_compat_guard():
        import torch  # noqa: F811

        out.append(torch.sin is paddle.sin)
    out.append("torch" in sys.modules)
    return out


def case_compat_linear_init():
    paddle.seed(7)
    lin = paddle.compat.nn.Linear(3, 2)
    return [lin.weight, lin.bias, str(lin)]


def _mha_inputs(rng, shape):
    return paddle.to_tensor(rng.standard_normal(shape).astype("float32"))


def case_compat_multihead_attention():
    MHA = paddle.compat.nn.MultiheadAttention
    rng = np.random.default_rng(1)
    paddle.seed(11)
    m = MHA(4, 2)
    q = _mha_inputs(rng, (3, 2, 4))  # [seq, batch, embed]
    kv = _mha_inputs(rng, (5, 2, 4))
    kpm = paddle.to_tensor([[False, False, False, True, True], [False] * 5])
    causal = paddle.triu(paddle.ones([3, 5], "bool"), 1)
    out = [[n, p.shape] for n, p in m.named_parameters()]
    out += [str(m), list(m(q, kv, kv))]
    out.append(list(m(q, kv, kv, key_padding_mask=kpm, average_attn_weights=False)))
    out.append(list(m(q, kv, kv, attn_mask=causal)))
    out.append(m(q, kv, kv, need_weights=False)[0])
    out.append(
        list(m(q, q, q, is_causal=True, attn_mask=paddle.triu(paddle.ones([3, 3], "bool"), 1)))
    )
    out.append(list(m(q[:, 0], kv[:, 0], kv[:, 0])))  # unbatched
    paddle.seed(12)
    m2 = MHA(4, 2, batch_first=True, add_bias_kv=True, add_zero_attn=True, kdim=3, vdim=5)
    out.append([[n, p.shape] for n, p in m2.named_parameters()])
    k3, v5 = _mha_inputs(rng, (2, 5, 3)), _mha_inputs(rng, (2, 5, 5))
    qb = paddle.transpose(q, [1, 0, 2])
    out.append(list(m2(qb, k3, v5, key_padding_mask=kpm)))
    out.append(list(m2(qb, k3, v5, attn_mask=paddle.zeros([3, 5]))))
    return out


def case_dygraph_tracer():
    from paddle.base import core, framework

    t = framework._dygraph_tracer()
    out = [t._has_grad, str(t._amp_level), t._amp_dtype, t._train_mode, str(t._expected_place)]
    out.append([len(s) for s in t._get_amp_op_list()])
    with paddle.no_grad():
        out.append(t._has_grad)
    out.append(t._has_grad)
    out.append({k: int(v.value) for k, v in core.AmpLevel.__members__.items()})
    out.append([str(core.AmpLevel.O1), t._amp_level == core.AmpLevel.O0])
    return out


def case_tensor_constructor_forms():
    vt = paddle.base.core.VarDesc.VarType
    x = paddle.to_tensor([1.0, 2.0])
    t = paddle.base.core.eager.Tensor(x.dtype, x.shape, "x_cpy_ta", vt.DENSE_TENSOR, True)
    out = [t.shape, str(t.dtype), t.name, t.stop_gradient, t._is_initialized(), t.persistable]
    x._unsafe_share_buffer_to(t)
    out += [t, t._is_initialized(), x._is_shared_buffer_with(t)]
    t2 = paddle.Tensor(vt.FP64, [1, 2], "t2_ta", vt.DENSE_TENSOR, False)
    out += [t2.shape, str(t2.dtype), t2.persistable]
    for v in ([1.0, 2.0], np.ones(2), np.ones(2, "float32"), [1, 2]):
        r = paddle.Tensor(v)
        out.append([str(r.dtype), r.stop_gradient, r.numpy()])
    e = paddle.Tensor()
    out += [e.shape, e._is_initialized(), paddle.to_tensor(1.0)._is_initialized()]
    return out


def case_eager_param_base_by_shape():
    E = paddle.base.framework.EagerParamBase
    p = E(
        shape=[2],
        dtype="float32",
        name="x_ta_shape",
        trainable=False,
        optimize_attr={"learning_rate": 0.5},
        regularizer=None,
        do_model_average=True,
        need_clip=False,
        is_distributed=True,
    )
    q = E([3], "float32")
    return [
        [p.shape, p.name, p.trainable, p.stop_gradient, p.optimize_attr, p.do_model_average],
        [p.need_clip, p.is_distributed, p.persistable, p._is_initialized()],
        [q.do_model_average, q.need_clip, q.optimize_attr, q.is_distributed, q.trainable],
        expect_error(lambda: E([2, -1], "float32")),
    ]
