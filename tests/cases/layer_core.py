"""nn.Layer core: registration, parameter names, state_dict keys, set_state_dict, repr, hooks,
train/eval, dtype casts, containers, ParamAttr and deterministic initializers.

Parameter names come from global unique-name counters, so every class whose names a case
checks is defined and instantiated in that case only (the counters then start at 0 under both
real Paddle and paddle_compat, whatever ran before)."""

import warnings

import numpy as np
from _util import expect_error

import paddle

nn = paddle.nn
I = nn.initializer  # noqa: E741
PA = paddle.framework.ParamAttr


class _Lin(nn.Layer):
    """A Linear-like layer built only from Layer core (weights [in, out], bias [out])."""

    def __init__(self, i, o, bias=True, value=None):
        super().__init__()
        init = I.Assign(value) if value is not None else I.Constant(0.5)
        self.weight = self.create_parameter([i, o], attr=PA(initializer=init))
        self.bias = self.create_parameter([o], is_bias=True) if bias else None

    def forward(self, x):
        y = paddle.matmul(x, self.weight)
        return y + self.bias if self.bias is not None else y

    def extra_repr(self):
        return f"in={self.weight.shape[0]}, out={self.weight.shape[1]}"


def _p(layer, shape, **kw):
    return layer.create_parameter(shape, **kw)


def _describe(named):
    return [
        [k, list(v.shape), str(v.dtype).replace("paddle.", ""), bool(v.stop_gradient)]
        for k, v in named
    ]


def case_parameter_names():
    class NamesCoreNet(nn.Layer):
        def __init__(self, fixed_name):
            super().__init__()
            self.w = self.create_parameter([3, 4])
            self.b = self.create_parameter([4], is_bias=True)
            self.w2 = self.create_parameter([2], dtype="float64")
            self.fixed = self.create_parameter([2], attr=PA(name=fixed_name))
            self.frozen = self.create_parameter([2], attr=PA(trainable=False))
            self.sub = NamesCoreSub()

    class NamesCoreSub(nn.Layer):
        def __init__(self):
            super().__init__()
            self.p = self.create_parameter([5], is_bias=True)

    a, b = NamesCoreNet("core_fixed_name_a"), NamesCoreNet(None)
    out = [expect_error(lambda: NamesCoreNet("core_fixed_name_a"))]
    for net in (a, b):
        out.append([net.full_name(), net.sub.full_name()])
        out.append(
            [
                [
                    k,
                    p.name,
                    list(p.shape),
                    str(p.dtype),
                    p.stop_gradient,
                    p.persistable,
                    p.trainable,
                ]
                for k, p in net.named_parameters()
            ]
        )
    return out


def case_full_name_snake_case():
    class ABCNet(nn.Layer):
        pass

    class Net2D(nn.Layer):
        pass

    class HTTPServerX(nn.Layer):
        pass

    class _Private(nn.Layer):
        pass

    class SnakeCaseModelV2(nn.Layer):
        pass

    return [
        ABCNet().full_name(),
        ABCNet().full_name(),
        Net2D().full_name(),
        HTTPServerX().full_name(),
        _Private().full_name(),
        SnakeCaseModelV2().full_name(),
        SnakeCaseModelV2("scope_core_x").full_name(),
        SnakeCaseModelV2("scope_core_x").full_name(),
    ]


class _Bufs(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = _Lin(2, 3)
        self.register_buffer("buf", paddle.zeros([2]))
        self.register_buffer("ibuf", paddle.zeros([2], dtype="int64"))
        self.register_buffer("nb", paddle.ones([2]), persistable=False)
        self.t = paddle.full([3], 2.0)  # plain assignment: a non-persistable buffer
        self.w = self.create_parameter([2])
        self.none_p = None
        self.inner = nn.Sequential(_Lin(3, 1), _Lin(1, 1, bias=False))


def case_state_dict_keys():
    m = _Bufs()
    sd = m.state_dict()
    return {
        "state_dict": list(sd.keys()),
        "types": [type(v).__name__ in ("Parameter", "EagerParamBase") for v in sd.values()],
        "is_live": sd["fc.weight"] is m.fc.weight,
        "no_sub": list(m.state_dict(include_sublayers=False).keys()),
        "prefix": list(m.state_dict(structured_name_prefix="pre.").keys()),
        "to_static": list(m.to_static_state_dict().keys()),
        "keep_vars_false_is_copy": m.state_dict(keep_vars=False)["fc.weight"] is not m.fc.weight,
        "named_parameters": _describe(m.named_parameters()),
        "named_parameters_prefix": [k for k, _ in m.named_parameters(prefix="root")],
        "own_parameters": [k for k, _ in m.named_parameters(include_sublayers=False)],
        "named_buffers": _describe(m.named_buffers()),
        "buffers": len(m.buffers()),
        "named_sublayers": [k for k, _ in m.named_sublayers()],
        "named_sublayers_self": [k for k, _ in m.named_sublayers(prefix="r", include_self=True)],
        "sublayers": [type(s).__name__ for s in m.sublayers()],
        "children": [k for k, _ in m.named_children()],
        "n_parameters": len(m.parameters()),
        "persistable_flags": [m.buf.persistable, m.nb.persistable, m.w.persistable],
        "dict_keys": [list(m._parameters), list(m._buffers), list(m._sub_layers)],
        "buffer_dtypes": [str(m.ibuf.dtype), str(m.t.dtype)],
    }


def case_state_dict_reassign_buffers():
    m = _Bufs()
    m.buf = paddle.ones([2])  # stays persistable
    m.t = paddle.ones([3])  # stays non-persistable
    keys1 = list(m.state_dict())
    m.register_buffer("t", paddle.ones([3]))  # now persistable
    keys2 = list(m.state_dict())
    m.buf = None
    keys3 = list(m.state_dict())
    m.w = None
    keys4 = list(m.state_dict())
    del m.fc
    del m.t
    return [keys1, keys2, keys3, keys4, list(m.state_dict()), m.w is None, m.buf is None]


def case_shared_parameters():
    class Shared(nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = _Lin(2, 2)
            self.b = self.a
            self.c = _Lin(2, 2)
            self.c.weight = self.a.weight

    s = Shared()
    return [
        list(s.state_dict()),
        [k for k, _ in s.named_parameters()],
        len(s.parameters()),
        [k for k, _ in s.named_sublayers()],
        len(s.sublayers()),
        [k for k, _ in s.named_children()],
        [k for k, _ in s.named_parameters(remove_duplicate=False)],
    ]


def case_setattr_rules():
    m = _Bufs()
    out = [
        expect_error(lambda: setattr(m, "w", paddle.zeros([2]))),
        expect_error(lambda: setattr(m, "fc", 3)),
        expect_error(lambda: setattr(m, "buf", 3)),
        expect_error(lambda: m.missing_attr),
    ]
    m.x = 3
    m.x = _Lin(1, 1)  # plain attribute replaced by a sublayer
    out.append(["x" in m._sub_layers, "x" in m.__dict__])
    m.x = _p(m, [1])  # sublayer replaced by a parameter
    out.append(["x" in m._sub_layers, "x" in m._parameters])
    m.fc = None
    out.append([m.fc is None, list(m._sub_layers)])
    return out


def case_registration_errors():
    class Plain(nn.Layer):
        def __init__(self):
            super().__init__()
            self.q = self.create_parameter([1])
            self.y = 1

    class NoInit(nn.Layer):
        def __init__(self, what):
            if what == "param":
                self.p = Plain().q
            elif what == "layer":
                self.p = Plain()
            else:
                self.p = paddle.zeros([1])

    m = Plain()
    p = _p(m, [1])
    z = paddle.zeros([1])
    return [
        expect_error(lambda: m.register_buffer("q", z)),
        expect_error(lambda: m.register_buffer("y", z)),
        expect_error(lambda: m.register_buffer("a.b", z)),
        expect_error(lambda: m.register_buffer("", z)),
        expect_error(lambda: m.register_buffer(3, z)),
        expect_error(lambda: m.register_buffer("c", 3)),
        expect_error(lambda: m.register_buffer("c", None)),
        expect_error(lambda: m.add_parameter("r", z)),
        expect_error(lambda: m.add_parameter("a.b", p)),
        expect_error(lambda: m.add_parameter("y", p)),
        expect_error(lambda: list(m.add_parameter("q", p).shape)),
        expect_error(lambda: m.add_parameter("none_p", None)),
        expect_error(lambda: m.add_sublayer("s", 3)),
        expect_error(lambda: type(m.add_sublayer("s", Plain())).__name__),
        expect_error(lambda: NoInit("param")),
        expect_error(lambda: NoInit("layer")),
        expect_error(lambda: NoInit("tensor")),
        expect_error(lambda: delattr(m, "zzz")),
        list(m._parameters),
        list(m._buffers),
        list(m._sub_layers),
        [n in dir(m) for n in ("q", "s", "training", "forward", "c")],
    ]


def case_set_state_dict():
    m = _Bufs()
    res = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = {
            k: np.full(v.shape, 2, dtype=str(v.dtype).replace("paddle.", ""))
            for k, v in m.state_dict().items()
        }
        res.append(m.set_state_dict(full))
        res.append([m.fc.weight, m.ibuf, m.inner[0].bias])
        res.append(m.set_state_dict({"fc.weight": np.ones([3, 2], "float32"), "zzz": 1.0}))
        res.append(m.set_state_dict({"fc.weight": np.ones([6], "float32")}))
        res.append(m.set_state_dict({"fc.bias": paddle.full([3], 7.0)}))
        res.append(m.fc.bias)
        w = m.w
        res.append(m.set_dict({"w": np.full([2], 3.0, "float32")}))
        res.append(m.load_dict({"w": np.full([2], 4.0, "float32")}))
        res.append([w is m.w, m.w])
        res.append(expect_error(lambda: m.set_state_dict({"fc.weight": np.ones([2, 3])})))
        res.append(expect_error(lambda: m.set_state_dict({"fc.weight": [[1.0] * 3] * 2})))
        res.append(expect_error(lambda: m.set_state_dict({"ibuf": np.ones(2, "int32")})))
        res.append(expect_error(lambda: m.set_state_dict([1])))
        res.append(m.state_dict()["fc.weight"])
    return res


def case_set_state_dict_param_names():
    class ByName(nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = self.create_parameter([2], attr=PA(name="core_byname_a"))
            self.b = self.create_parameter([2], attr=PA(name="core_byname_b"))

    m = ByName()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = m.set_state_dict(
            {"core_byname_a": np.ones([2], "float32"), "a": np.ones(2)}, use_structured_name=False
        )
    return [r, m.a]


def case_load_state_dict_strict():
    m = _Lin(2, 3)
    ok = m.load_state_dict({"weight": np.ones([2, 3], "float32"), "bias": np.ones([3], "float32")})
    loose = m.load_state_dict({"weight": np.ones([2, 3], "float32")}, strict=False)
    return [
        repr(ok),
        list(ok),
        repr(loose),
        list(loose),
        expect_error(lambda: m.load_state_dict({"weight": np.ones([2, 3], "float32")})),
        expect_error(
            lambda: m.load_state_dict(
                {
                    "weight": np.ones([2, 3], "float32"),
                    "bias": np.ones([3], "float32"),
                    "x": np.ones(1),
                }
            )
        ),
    ]


def case_state_dict_round_trip():
    a = nn.Sequential(_Lin(3, 4, value=np.arange(12.0).reshape(3, 4) / 10), _Lin(4, 2))
    b = nn.Sequential(_Lin(3, 4), _Lin(4, 2, value=np.zeros((4, 2))))
    r = b.set_state_dict(a.state_dict())
    x = paddle.to_tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype("float32"))
    shared = b[0].weight is a[0].weight
    a[0].weight.set_value(np.zeros([3, 4], "float32"))  # b keeps its copy
    return [r, b(x), shared, b[0].weight]


class _Leaf(nn.Layer):
    def __init__(self, text=""):
        super().__init__()
        self.text = text

    def extra_repr(self):
        return self.text

    def forward(self, x):
        return x


def case_repr():
    class ReprNet(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = _Lin(784, 128)
            self.act = _Leaf()
            self.nothing = None
            self.seq = nn.Sequential(_Leaf("a=1"), nn.Sequential(_Leaf("x\ny")))
            self.lst = nn.LayerList([_Leaf(), _Leaf("k")])
            self.dct = nn.LayerDict({"u": _Leaf()})
            self.pl = nn.ParameterList([_p(self, [2])])
            self.pd = nn.ParameterDict({"q": _p(self, [2])})
            self.empty = nn.Sequential()

    class MultiExtra(nn.Layer):
        def __init__(self):
            super().__init__()
            self.child = _Leaf("c")

        def extra_repr(self):
            return "line1\nline2"

    return [
        repr(ReprNet()),
        str(ReprNet()),
        repr(nn.Layer()),
        repr(_Leaf("solo")),
        repr(_Leaf("two\nlines")),
        repr(MultiExtra()),
        _Leaf().extra_repr(),
    ]


def case_forward_hooks():
    class Scale(nn.Layer):
        def forward(self, x, y=1.0):
            return x * y

    n = Scale()
    log = []
    x = paddle.to_tensor([1.0, 2.0])
    h1 = n.register_forward_pre_hook(lambda layer, inp: log.append(("pre1", len(inp))))
    h2 = n.register_forward_pre_hook(lambda layer, inp: inp[0] * 2)
    h3 = n.register_forward_post_hook(lambda layer, inp, out: out + 1)
    h4 = n.register_forward_pre_hook(
        lambda layer, a, k: ((a[0] + 1,), {"y": 3.0}), with_kwargs=True
    )
    h5 = n.register_forward_post_hook(lambda layer, inp, out: log.append("post0"), prepend=True)
    h6 = n.register_forward_post_hook(
        lambda layer, a, k, out: log.append(sorted(k)), with_kwargs=True
    )
    out1 = n(x)
    r = [h1.remove(), h1.remove()]
    for h in (h2, h3, h4, h5, h6):
        h.remove()
    out2 = n(x, y=5.0)
    return [out1, [list(e) if isinstance(e, tuple) else e for e in log], r, out2, type(h1).__name__]


def case_train_eval():
    m = nn.Sequential(_Leaf(), nn.LayerList([_Leaf(), nn.Sequential(_Leaf())]))
    deep = m[1][1][0]
    out = [m.training, deep.training]
    r = m.eval()
    out += [r is m, m.training, deep.training]
    m.train()
    out += [m.training, deep.training]
    m.train(False)
    out += [m.training, deep.training]
    deep.train()
    out += [m.training, deep.training]
    return out


def case_apply_and_children():
    m = nn.Sequential(_Leaf("a"), nn.Sequential(_Leaf("b"), _Leaf("c")))
    seen = []
    r = m.apply(lambda layer: seen.append(type(layer).__name__ + ":" + layer.extra_repr()))
    return [
        seen,
        r is m,
        [type(c).__name__ for c in m.children()],
        [k for k, _ in m.named_sublayers(prefix="p", include_self=True)],
    ]


def case_dtype_casts():
    def make():
        m = _Bufs()
        return m

    def dts(m):
        return [
            str(m.fc.weight.dtype),
            str(m.buf.dtype),
            str(m.ibuf.dtype),
            str(m.nb.dtype),
            str(m.inner[0].weight.dtype),
            m.fc.weight.stop_gradient,
        ]

    out = []
    m = make()
    w = m.fc.weight
    r = m.to(dtype="float16")
    out.append(dts(m) + [r is m, w is m.fc.weight])
    # Layer.astype: real Paddle 3.3.1 does not cast (PaddlePaddle/Paddle#76614); we follow its
    # documentation instead, tested in tests/test_layer.py.
    m = make()
    m.double()
    out.append(dts(m))
    m = make()
    m.bfloat16()
    out.append(dts(m))
    m.float()
    out.append(dts(m))
    m = make()
    m.half()
    out.append(dts(m))
    m = make()
    m.to("cpu", "float64")
    out.append(dts(m))
    m = make()
    m.to(dtype=paddle.float64)
    out.append(dts(m))
    out.append(expect_error(lambda: make().to("float64")))
    m = make()
    r = m.to("cpu")
    out.append(dts(m) + [r is m])
    return out


def case_clear_gradients():
    m = _Lin(2, 3)
    frozen = m.create_parameter([3], attr=PA(trainable=False))
    m.frozen = frozen
    x = paddle.ones([1, 2])
    (m(x) + frozen).sum().backward()
    g1 = m.weight.grad
    m.clear_gradients()
    g2 = m.weight.grad
    (m(x)).sum().backward()
    m.clear_gradients(set_to_zero=False)
    g3 = m.weight.grad
    (m(x)).sum().backward()
    m.zero_grad()
    return [g1, g2, g3 is None, m.weight.grad is None, frozen.grad is None]


def case_param_attr():
    a = PA()
    m = _Leaf()
    p = m.create_parameter(
        [2],
        attr=PA(
            name="core_pa_x",
            learning_rate=0.5,
            trainable=False,
            need_clip=False,
            do_model_average=False,
        ),
    )
    q = m.create_parameter([2], attr="core_pa_str")
    b = m.create_parameter([3], attr=I.Constant(1.5))
    return [
        sorted(vars(a).items()),
        p.name,
        p.stop_gradient,
        p.trainable,
        p.optimize_attr,
        p.need_clip,
        p.do_model_average,
        p.persistable,
        q.name,
        b,
        m.create_parameter([2], attr=False),
        m.create_parameter([2], attr=None, is_bias=True),
    ]


def case_create_parameter_errors():
    m = _Leaf()
    return [
        expect_error(lambda: m.create_parameter([-1, 2])),
        expect_error(lambda: m.create_parameter([2], dtype="int64")),
        expect_error(lambda: m.create_parameter([2.0, 2])),
        expect_error(lambda: list(m.create_parameter([0, 2]).shape)),
        expect_error(
            lambda: m.create_parameter([2], dtype="int64", default_initializer=I.Constant(3.0))
        ),
        expect_error(lambda: str(m.create_parameter([2], dtype="float16").dtype)),
        expect_error(lambda: str(nn.Layer(dtype="float16").create_parameter([2]).dtype)),
    ]


def case_deterministic_initializers():
    m = _Leaf()

    def mk(init, shape=(2, 3), dtype="float32"):
        return m.create_parameter(list(shape), dtype=dtype, attr=PA(initializer=init))

    return [
        mk(I.Constant()),
        mk(I.Constant(2.5)),
        mk(I.Constant(-1), dtype="float64"),
        mk(I.Assign(np.arange(6).reshape(2, 3))),
        mk(I.Assign([[1, 2, 3], [4, 5, 6]])),
        mk(I.Assign(paddle.full([2, 3], 1.25))),
        mk(I.Dirac(), (1, 2, 3, 3)),
        mk(I.Dirac(), (4, 2, 3)),
        mk(I.Dirac(groups=2), (4, 2, 3, 3)),
        mk(I.Bilinear(), (1, 1, 4, 4)),
        mk(I.Bilinear(), (2, 1, 3, 3)),
        m.create_parameter([3], is_bias=True, default_initializer=I.Constant(3.0)),
        m.create_parameter([3], default_initializer=I.Constant(4.0)),
    ]


def case_calculate_gain():
    names = [
        "sigmoid",
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose2d",
        "tanh",
        "relu",
        "leaky_relu",
        "selu",
    ]
    return [[n, I.calculate_gain(n)] for n in names] + [
        I.calculate_gain("leaky_relu", 0.2),
        I.calculate_gain("leaky_relu", 1),
        expect_error(lambda: I.calculate_gain("foo")),
    ]


def case_global_initializer():
    m = _Leaf()
    I.set_global_initializer(I.Constant(2.0), I.Constant(3.0))
    try:
        w = m.create_parameter([2, 2])
        b = m.create_parameter([2], is_bias=True)
        d = m.create_parameter([2], default_initializer=I.Constant(9.0))
        a = m.create_parameter([2], attr=PA(initializer=I.Constant(5.0)))
        l2 = _Lin(1, 2)  # its weight has an explicit initializer: global does not apply
    finally:
        I.set_global_initializer(None)
    b2 = m.create_parameter([2], is_bias=True)
    I.set_global_initializer(I.Constant(7.0))
    try:
        b3 = m.create_parameter([2], is_bias=True)
    finally:
        I.set_global_initializer(None)
    return [w, b, d, a, l2.weight, l2.bias, b2, b3]


def case_containers_sequential():
    s = nn.Sequential(_Lin(1, 2), _Leaf("mid"), _Lin(2, 1))
    s2 = nn.Sequential(("a", _Lin(1, 1, value=[[2.0]])), ("b", _Lin(1, 1, value=[[3.0]])))
    x = paddle.to_tensor([[1.0], [2.0]])
    out = [
        list(s.state_dict()),
        len(s),
        type(s[0]).__name__,
        s[-1].extra_repr(),
        repr(s[1:]),
        type(s[1:]).__name__,
        expect_error(lambda: s[5]),
        s["1"].extra_repr(),
        s2(x),
        list(s2.state_dict()),
        s2[0].weight,
        s2["b"].weight,
        expect_error(lambda: nn.Sequential(3)),
    ]
    s[1] = _Leaf("new")
    out.append(repr(s))
    del s[1]
    out.append(list(s._sub_layers))
    s.append(_Leaf("app"))
    out.append(list(s._sub_layers))
    t = nn.Sequential(_Leaf("0"), _Leaf("1"))
    t.insert(1, _Leaf("ins"))
    t.extend([_Leaf("ext")])
    out.append(repr(t))
    out.append([lay.extra_repr() for lay in t])
    return out


def case_containers_layerlist():
    ll = nn.LayerList([_Leaf("a"), _Leaf("b")])
    out = [list(ll._sub_layers), len(ll)]
    ll.append(_Leaf("c"))
    ll.insert(0, _Leaf("z"))
    ll.extend([_Leaf("e")])
    ll.insert(-1, _Leaf("m"))
    out.append([x.extra_repr() for x in ll])
    out.append(type(ll[1:3]).__name__)
    out.append([x.extra_repr() for x in ll[1:3]])
    out.append(ll[-1].extra_repr())
    out.append(expect_error(lambda: ll[10]))
    out.append(expect_error(lambda: ll.insert(100, _Leaf())))
    del ll[0]
    out.append(list(ll._sub_layers))
    del ll[1:3]
    out.append([list(ll._sub_layers), [x.extra_repr() for x in ll]])
    ll[0] = _Leaf("set")
    out.append(repr(ll))
    out.append(expect_error(lambda: nn.LayerList(_Leaf())))
    out.append(expect_error(lambda: ll.append(3)))
    out.append(expect_error(lambda: ll.__setitem__(0, 3)))
    lin = nn.LayerList([_Lin(1, 2), _Lin(2, 1)])
    out.append(list(lin.state_dict()))
    return out


def case_containers_layerdict():
    ld = nn.LayerDict({"b": _Lin(1, 1), "a": _Leaf("a")})
    out = [list(ld.keys()), list(ld.state_dict()), len(ld), "a" in ld, "z" in ld]
    ld["c"] = _Leaf("c")
    out.append(repr(ld))
    out.append(type(ld.pop("b")).__name__)
    ld.update({"d": _Leaf("d")})
    ld.update([("e", _Leaf("e"))])
    out.append(
        [
            list(ld.keys()),
            [v.extra_repr() for v in ld.values()],
            [k for k, _ in ld.items()],
            list(iter(ld)),
        ]
    )
    del ld["a"]
    out.append(list(ld))
    out.append(expect_error(lambda: ld["zz"]))
    ld.clear()
    out.append(len(ld))
    return out


def case_containers_parameters():
    holder = _Leaf()
    pl = nn.ParameterList([_p(holder, [2]), _p(holder, [3])])
    out = [list(pl.state_dict()), len(pl), [list(p.shape) for p in pl], repr(pl)]
    pl.append(_p(holder, [4]))
    out.append(list(pl.state_dict()))
    out.append(expect_error(lambda: pl.append(paddle.zeros([2]))))
    out.append(list(pl[2].shape))
    pl[0] = _p(holder, [5])
    out.append(list(pl[0].shape))
    pd = nn.ParameterDict({"x": _p(holder, [2])})
    pd["y"] = _p(holder, [1])
    pd.update({"z": _p(holder, [1])})
    out += [
        list(pd.state_dict()),
        len(pd),
        list(pd),
        "x" in pd,
        list(pd["x"].shape),
        repr(pd),
        expect_error(lambda: pd.__setitem__("w", paddle.zeros([1]))),
        expect_error(lambda: nn.ParameterDict({"x": paddle.zeros([2])})),
    ]
    nest = nn.Sequential(nn.ParameterList([_p(holder, [1])]))
    out.append(list(nest.state_dict()))
    return out


def case_get_set_sublayer():
    m = nn.Sequential(_Lin(1, 1), nn.Sequential(_Leaf("deep")))
    out = [
        m.get_sublayer("1.0").extra_repr(),
        m.get_sublayer("") is m,
        list(m.get_parameter("0.weight").shape),
        expect_error(lambda: m.get_sublayer("1.5")),
        expect_error(lambda: m.get_parameter("0.nothing")),
    ]
    m.set_sublayer("1.0", _Leaf("swapped"))
    out.append(m[1][0].extra_repr())
    return out


class _BufLin(nn.Layer):
    def __init__(self):
        super().__init__()
        self.weight = self.create_parameter([3, 2])
        self.bias = self.create_parameter([2], is_bias=True)
        self.register_buffer("_variance", paddle.ones([2]))
        self.register_buffer("steps", paddle.zeros([1], dtype="int64"))

    def forward(self, x):
        return paddle.tanh(paddle.matmul(x, self.weight) + self.bias) * self._variance


def case_layer_golden_helper():
    from _layer_util import layer_golden
    from _util import randn

    return layer_golden(lambda: nn.Sequential(_BufLin(), _Leaf("tail")), randn(4, 3))


def case_initializer_edge_cases():
    m = _Leaf()

    def mk(init, shape, dtype="float32"):
        return m.create_parameter(shape, dtype=dtype, attr=PA(initializer=init))

    return [
        expect_error(lambda: mk(I.Orthogonal(), [5])),
        expect_error(lambda: mk(I.Dirac(), [2, 2])),
        expect_error(lambda: mk(I.Dirac(groups=3), [4, 2, 3])),
        expect_error(lambda: mk(I.Assign(np.ones([3, 2])), [2, 3])),
        expect_error(lambda: mk(I.Assign(np.ones([6])), [2, 3])),
        expect_error(lambda: mk(I.Assign([1.0]), [2, 3])),
        expect_error(lambda: I.Assign(2.0)),
        expect_error(lambda: I.Assign("x")),
        expect_error(lambda: mk(I.Bilinear(), [1, 1, 3])),
        expect_error(lambda: mk(I.Bilinear(), [1, 1, 3, 4])),
        expect_error(lambda: mk(I.Constant(2), [2], "int64")),
        expect_error(lambda: mk(I.Constant(2.7), [2], "int32")),
        expect_error(lambda: mk(I.Normal(), [2], "int32")),
        expect_error(lambda: mk(I.Constant(True), [2], "bool")),
        expect_error(lambda: mk(I.XavierUniform(), [0, 3])),
        expect_error(lambda: mk(I.KaimingNormal(), [0, 3])),
        expect_error(lambda: mk(I.Dirac(), [2, 2, 3, 3])),
        expect_error(lambda: mk(I.Dirac(), [2, 3, 3])),
        expect_error(lambda: mk(I.Dirac(groups=2), [4, 1, 3])),
        expect_error(lambda: mk(I.Dirac(), [2, 2, 2, 2])),
        expect_error(lambda: I.calculate_gain("leaky_relu", "a")),
        expect_error(lambda: I.calculate_gain("leaky_relu", True)),
        expect_error(lambda: I.calculate_gain("tanh", 0.3)),
        expect_error(lambda: I.set_global_initializer(None, None)),
    ]
