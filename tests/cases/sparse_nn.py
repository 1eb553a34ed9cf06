"""paddle.sparse.nn convolution, pooling and batch norm on COO Tensors (channels last):
regular and submanifold conv2d/conv3d output sites (their order), values, shapes and index
dtypes over strides, paddings, dilations and kernel shapes; max_pool3d; BatchNorm's
statistics and Paddle's use_global_stats rule; gradients of the values, weights and biases;
the layers (initial weights after paddle.seed, reprs, state_dict keys) and Paddle's errors.
Sparse Tensors are returned through their parts (Paddle's ``numpy()`` of one crashes)."""

import numpy as np
from _util import backprop, expect_error, randn, rng

import paddle

S = paddle.sparse
F = paddle.sparse.nn.functional
TOLERANCE = {
    "case_conv2d_geometries": (1e-5, 1e-5),
    "case_conv3d_geometries": (1e-5, 1e-5),
    "case_subm_conv": (1e-5, 1e-5),
    "case_conv_grads": (1e-5, 1e-5),
    "case_conv_grads_unsorted": (1e-5, 1e-5),
    "case_dense_input_grads": (1e-5, 1e-5),
    "case_layer_chain": (1e-4, 1e-5),
    "case_batch_norm": (1e-5, 1e-5),
}


def _sites(shape, nnz, seed, order="shuffled"):
    """COO indices [1 + nsp, nnz] of ``nnz`` distinct sites in [N, *spatial] (in random
    order unless ``order`` is "sorted")."""
    r = rng(seed)
    lin = r.choice(int(np.prod(shape)), nnz, replace=False)
    if order == "sorted":
        lin = np.sort(lin)
    return np.stack(np.unravel_index(lin, shape)).astype("int64")


def _coo(shape, nnz, seed=0, dtype="float32", stop_gradient=True, order="shuffled"):
    idx = _sites(shape[:-1], nnz, seed, order)
    vals = randn(nnz, shape[-1], seed=seed + 100, dtype=dtype)
    return S.sparse_coo_tensor(idx, vals, shape, stop_gradient=stop_gradient)


def _parts(x):
    return [x.indices(), x.values(), list(x.shape), x.stop_gradient]


X2 = ([2, 5, 6, 3], 14)  # (shape, nnz) of the 2-D inputs
X3 = ([2, 4, 5, 3, 2], 16)


def case_conv2d_geometries():
    x = _coo(*X2, seed=1)
    w = paddle.to_tensor(randn(3, 3, 3, 4, seed=2))
    b = paddle.to_tensor(randn(4, seed=3))
    geos = {
        "plain": {},
        "pad1": {"padding": 1},
        "stride2": {"stride": 2},
        "stride2_pad1": {"stride": 2, "padding": 1},
        "dil2_pad2": {"dilation": 2, "padding": 2},
        "stride_list": {"stride": [1, 2], "padding": [1, 0]},
        "pad_asym": {"padding": [1, 2, 0, 1]},
        "pad_pairs": {"padding": [[0, 0], [1, 1], [2, 2], [0, 0]]},
        "same": {"padding": "SAME"},
        "valid": {"padding": "valid"},
    }
    out = {k: _parts(F.conv2d(x, w, b, **g)) for k, g in geos.items()}
    out["no_bias"] = _parts(F.conv2d(x, w))
    out["kernel_1x2"] = _parts(F.conv2d(x, paddle.to_tensor(randn(1, 2, 3, 2, seed=4))))
    return out


def case_conv3d_geometries():
    x = _coo(*X3, seed=5)
    w = paddle.to_tensor(randn(3, 3, 3, 2, 3, seed=6))
    b = paddle.to_tensor(randn(3, seed=7))
    geos = {
        "plain": {},
        "pad1": {"padding": 1},
        "stride2_pad1": {"stride": 2, "padding": 1},
        "stride_list": {"stride": [2, 1, 1], "padding": [1, 0, 1]},
        "dil2": {"dilation": [1, 2, 1], "padding": [1, 2, 1]},
    }
    out = {k: _parts(F.conv3d(x, w, b, **g)) for k, g in geos.items()}
    w133 = paddle.to_tensor(randn(1, 3, 3, 2, 3, seed=8))
    out["kernel_133"] = _parts(F.conv3d(x, w133, b, padding=[0, 1, 1]))
    return out


def case_subm_conv():
    x2, x3 = _coo(*X2, seed=9), _coo(*X3, seed=10)
    w2 = paddle.to_tensor(randn(3, 3, 3, 2, seed=11))
    w3 = paddle.to_tensor(randn(3, 3, 3, 2, 2, seed=12))
    b = paddle.to_tensor(randn(2, seed=13))
    out = {
        "2d": _parts(F.subm_conv2d(x2, w2, b)),
        "2d_padding_ignored": _parts(F.subm_conv2d(x2, w2, padding=1)),
        "2d_stride_ignored": _parts(F.subm_conv2d(x2, w2, stride=2)),
        "2d_dilation2": _parts(F.subm_conv2d(x2, w2, dilation=2)),
        "2d_kernel_2x2": _parts(F.subm_conv2d(x2, paddle.to_tensor(randn(2, 2, 3, 2, seed=14)))),
        "2d_key": _parts(F.subm_conv2d(x2, w2, b, key="k")),
        "3d": _parts(F.subm_conv3d(x3, w3, b)),
        "3d_kernel_133": _parts(F.subm_conv3d(x3, paddle.to_tensor(randn(1, 3, 3, 2, 2, seed=15)))),
        "3d_kernel_5": _parts(F.subm_conv3d(x3, paddle.to_tensor(randn(5, 5, 5, 2, 2, seed=16)))),
    }
    return out


def case_index_dtype_and_empty():
    idx = paddle.to_tensor([[0, 0, 0, 0], [0, 0, 1, 2], [1, 3, 2, 3]], dtype="int32")
    x = S.sparse_coo_tensor(idx, paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]]), [1, 4, 5, 1])
    w = paddle.to_tensor(np.ones((3, 3, 1, 1), "float32"))
    empty = F.conv2d(x, paddle.to_tensor(np.ones((5, 5, 1, 1), "float32")))  # [1, 0, 1, 1]
    return {
        "conv_int32": _parts(F.conv2d(x, w)),
        "subm_int32": _parts(F.subm_conv2d(x, w)),
        "empty": [*_parts(empty), str(empty)],
        "f64": _parts(
            F.conv2d(_coo(*X2, seed=17, dtype="float64"), w.astype("float64").tile([1, 1, 3, 1]))
        ),
    }


def _conv_program(idx, shape, op, **kw):
    def fn(values, weight, bias):
        x = S.sparse_coo_tensor(idx, values, shape, stop_gradient=False)
        y = op(x, weight, bias, **kw)
        return [y.values(), y.indices()]

    return fn


def case_conv_grads():
    """Gradients of the input values, weight and bias. The input sites are sorted: with
    unsorted ones Paddle's submanifold backward is not the gradient of its forward (its
    forward is right; regular conv's gradients are right either way, see
    ``case_conv_grads_unsorted``)."""
    idx2 = _sites(X2[0][:-1], X2[1], 18, "sorted")
    idx3 = _sites(X3[0][:-1], X3[1], 19, "sorted")
    v2, v3 = randn(X2[1], 3, seed=20), randn(X3[1], 2, seed=21)
    cases = {
        "conv2d": (idx2, X2[0], v2, F.conv2d, (3, 3, 3, 2), {"padding": 1, "stride": 2}),
        "subm2d": (idx2, X2[0], v2, F.subm_conv2d, (3, 3, 3, 2), {}),
        "conv3d": (idx3, X3[0], v3, F.conv3d, (2, 3, 3, 2, 3), {"padding": [0, 1, 1]}),
        "subm3d": (idx3, X3[0], v3, F.subm_conv3d, (3, 3, 3, 2, 3), {}),
    }
    out = {}
    for k, (idx, shape, v, op, wshape, kw) in cases.items():
        fn = _conv_program(idx, shape, op, **kw)
        out[k] = backprop(fn, v, randn(*wshape, seed=22), randn(wshape[-1], seed=23))
    return out


def case_conv_grads_unsorted():
    idx2, idx3 = _sites(X2[0][:-1], X2[1], 40), _sites(X3[0][:-1], X3[1], 41)
    v2, v3 = randn(X2[1], 3, seed=42), randn(X3[1], 2, seed=43)
    fn2 = _conv_program(idx2, X2[0], F.conv2d, padding=[1, 0])
    fn3 = _conv_program(idx3, X3[0], F.conv3d, stride=2, padding=1)
    return {
        "conv2d": backprop(fn2, v2, randn(3, 3, 3, 2, seed=44), randn(2, seed=45)),
        "conv3d": backprop(fn3, v3, randn(3, 3, 3, 2, 2, seed=46), randn(2, seed=47)),
    }


def case_dense_input_grads():
    """to_sparse_coo of a dense Tensor that needs grad: its gradient is dense."""
    dense = randn(1, 4, 4, 3, 2, seed=24) * (rng(25).random((1, 4, 4, 3, 1)) < 0.4)
    dense = dense.astype("float32")

    def fn(d, w):
        y = F.subm_conv3d(d.to_sparse_coo(4), w)
        z = F.max_pool3d(F.conv3d(y, w, padding=1), 2)
        return [z.to_dense(), y.values()]

    return backprop(fn, dense, randn(3, 3, 3, 2, 2, seed=26))


def case_max_pool3d():
    x = _coo(*X3, seed=27)
    out = {
        "k2": F.max_pool3d(x, 2),
        "k3_s1_p1": F.max_pool3d(x, 3, 1, 1),
        "k2_ceil": F.max_pool3d(x, 2, ceil_mode=True),
        "same": F.max_pool3d(x, 2, padding="SAME"),
        "k122_s121": F.max_pool3d(x, [1, 2, 2], [1, 2, 1]),
        "pad6": F.max_pool3d(x, 2, padding=[0, 1, 0, 1, 0, 1]),
        "pad_pairs": F.max_pool3d(x, 2, padding=[[0, 0], [1, 1], [0, 0], [1, 1], [0, 0]]),
        "too_big": F.max_pool3d(x, 5),
        "layer": S.nn.MaxPool3D(2, return_mask=True)(x),
    }
    out = {k: _parts(v) for k, v in out.items()}
    out["repr"] = str(S.nn.MaxPool3D(3, stride=2, padding=1))
    idx = _sites(X3[0][:-1], X3[1], 28)

    def fn(values):
        y = F.max_pool3d(S.sparse_coo_tensor(idx, values, X3[0], stop_gradient=False), 2, 1)
        return [y.values()]

    out["grad"] = backprop(fn, randn(X3[1], 2, seed=29))
    ties = np.ones((X3[1], 2), "float32")  # every window ties: all its inputs get the grad
    out["grad_ties"] = backprop(fn, ties)
    return out


def case_batch_norm():
    idx = _sites([2, 3, 4], 9, 30)
    vals = randn(9, 3, seed=31)
    x = S.sparse_coo_tensor(idx, vals, [2, 3, 4, 3])
    out = {}
    bn = S.nn.BatchNorm(3, data_format="NHWC")
    y = bn(x)
    out["train"] = [*_parts(y), bn._mean, bn._variance]
    bn.eval()  # first called in training: eval keeps batch statistics and updating them
    out["eval_after_train"] = [bn(x).values(), bn._mean, bn._variance, bn._use_global_stats]
    bn2 = S.nn.BatchNorm(3, momentum=0.5, epsilon=1e-3)
    bn2.eval()  # first called in eval: training later uses the running statistics
    out["eval_first"] = [bn2(x).values(), bn2._use_global_stats]
    bn2.train()
    out["train_after_eval"] = [bn2(x).values(), bn2._mean, bn2._variance]
    bn3 = S.nn.BatchNorm(3, use_global_stats=False)
    bn3.eval()
    out["explicit_false_eval"] = [bn3(x).values(), bn3._mean]
    out["keys"] = list(S.nn.BatchNorm(3).state_dict().keys())
    out["repr"] = [str(S.nn.BatchNorm(3)), str(S.nn.SyncBatchNorm(3))]

    def fn(values, weight, bias):
        layer = S.nn.BatchNorm(3)
        layer.weight.set_value(weight)
        layer.bias.set_value(bias)
        xs = S.sparse_coo_tensor(idx, values, [2, 3, 4, 3], stop_gradient=False)
        return [layer(xs).values()]

    out["grad"] = backprop(fn, vals, randn(3, seed=32), randn(3, seed=33))
    return out


def case_convert_sync_batchnorm():
    paddle.seed(7)
    model = paddle.nn.Sequential(S.nn.Conv3D(3, 5, 3), S.nn.BatchNorm(5), paddle.nn.BatchNorm2D(4))
    sync = S.nn.SyncBatchNorm.convert_sync_batchnorm(model)
    return [
        str(sync),
        type(sync[1]).__name__,
        isinstance(sync[1], S.nn.SyncBatchNorm),
        isinstance(sync[2], S.nn.SyncBatchNorm),
        isinstance(sync[2], paddle.nn.SyncBatchNorm),
        sync[1]._data_format,
        sync[1].weight is model[1].weight,
    ]


def case_layers():
    paddle.seed(2023)
    layers = {
        "conv3d": S.nn.Conv3D(2, 3, (1, 3, 3), stride=2, padding=1),
        "conv2d": S.nn.Conv2D(3, 2, 3, dilation=2),
        "subm3d": S.nn.SubmConv3D(2, 4, 3, key="a"),
        "subm2d": S.nn.SubmConv2D(3, 2, [3, 1], bias_attr=False),
    }
    out = {}
    for k, layer in layers.items():
        params = [[n, p] for n, p in layer.named_parameters()]
        out[k] = [str(layer), params, list(layer.state_dict().keys())]
    out["subm3d_out"] = _parts(layers["subm3d"](_coo(*X3, seed=34)))
    out["conv2d_out"] = _parts(layers["conv2d"](_coo(*X2, seed=35)))
    return out


def case_layer_chain():
    """A small sparse CNN trained one SGD step: its loss and every parameter's gradient."""
    paddle.seed(11)
    net = paddle.nn.Sequential(
        S.nn.SubmConv3D(2, 4, 3),
        S.nn.BatchNorm(4),
        S.nn.ReLU(),
        S.nn.Conv3D(4, 4, 2, stride=2),
        S.nn.MaxPool3D(2, stride=1),
    )
    # input sites sorted (see case_conv_grads); its values need grad (Paddle crashes without)
    x = _coo([2, 6, 6, 6, 2], 40, seed=36, stop_gradient=False, order="sorted")
    opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    y = net(x)
    loss = (y.values() * paddle.to_tensor(randn(*y.values().shape, seed=37))).sum()
    loss.backward()
    grads = [[n, p.grad] for n, p in net.named_parameters()]
    opt.step()
    return [_parts(y), loss, grads, net[0].weight, net(x).values()]


def case_errors():
    x2, x3 = _coo(*X2, seed=38), _coo(*X3, seed=39)
    w2 = paddle.to_tensor(np.ones((3, 3, 3, 2), "float32"))
    w3 = paddle.to_tensor(np.ones((3, 3, 3, 2, 2), "float32"))
    errs = {
        "groups": lambda: F.conv2d(x2, w2, groups=2),
        "data_format": lambda: F.conv2d(x2, w2, data_format="NCHW"),
        "rank": lambda: F.conv2d(x3, w2),
        "rank3d": lambda: F.subm_conv3d(x2, w3),
        "kernel_rank": lambda: F.conv3d(x3, w2),
        "kernel_rank2d": lambda: F.conv2d(x2, paddle.ones([3, 3, 3])),
        "dense_input": lambda: F.conv2d(x2.to_dense(), w2),
        "int_values": lambda: F.conv2d(S.cast(x2, value_dtype="int64"), w2.astype("int64")),
        "float16": lambda: F.conv2d(S.cast(x2, value_dtype="float16"), w2.astype("float16")),
        "weight_dtype": lambda: F.conv2d(S.cast(x2, value_dtype="float64"), w2),
        "bias_size": lambda: F.conv2d(x2, w2, paddle.ones([3])),
        "bias_rank": lambda: F.conv2d(x2, w2, paddle.ones([1, 2])),
        "negative_pad": lambda: F.conv2d(x2, w2, padding=-1),
        "bad_pad": lambda: F.conv2d(x2, w2, padding="FOO"),
        "bad_pad_len": lambda: F.conv2d(x2, w2, padding=[1, 1, 1]),
        "stride_len": lambda: F.conv3d(x3, w3, stride=[1, 2]),
        "layer_groups": lambda: S.nn.Conv2D(2, 3, 3, groups=2),
        "layer_format": lambda: S.nn.Conv2D(2, 3, 3, data_format="NCHW"),
        "layer3_format": lambda: S.nn.SubmConv3D(2, 3, 3, data_format="NCDHW"),
        "layer_padding_mode": lambda: S.nn.Conv3D(2, 3, 3, padding_mode="reflect"),
        "layer_backend": lambda: S.nn.SubmConv3D(2, 3, 3, backend="x"),
        "layer_weight_false": lambda: S.nn.Conv3D(2, 3, 3, weight_attr=False),
        "pool_format": lambda: F.max_pool3d(x3, 2, data_format="NCDHW"),
        "pool_dense": lambda: F.max_pool3d(x3.to_dense(), 2),
        "pool_rank": lambda: F.max_pool3d(x2, 2),
        "pool_int": lambda: F.max_pool3d(
            S.sparse_coo_tensor([[0], [1], [1], [1]], [[1, 2]], [1, 3, 3, 3, 2]), 2
        ),
        "pool_valid_ceil": lambda: F.max_pool3d(x3, 2, padding="VALID", ceil_mode=True),
        "pool_bad_pad": lambda: F.max_pool3d(x3, 2, padding=[1, 1]),
        "bn_format": lambda: S.nn.BatchNorm(2, data_format="NCHW")(x3),
        "bn_dense": lambda: S.nn.BatchNorm(2)(x3.to_dense()),
        "bn_channels": lambda: S.nn.BatchNorm(3)(x3),
    }
    return {k: expect_error(f) for k, f in errs.items()}


def case_sparse_leaf_grad():
    """A sparse leaf (stop_gradient set False on it) gets a sparse gradient; the output of
    sparse_coo_tensor is no leaf (its grad stays None, as Paddle's)."""
    dense = randn(1, 4, 4, 3, 2, seed=48) * (rng(49).random((1, 4, 4, 3, 1)) < 0.5)
    x = paddle.to_tensor(dense.astype("float32")).to_sparse_coo(4)
    x.stop_gradient = False
    w = paddle.to_tensor(randn(3, 3, 3, 2, 2, seed=50), stop_gradient=False)
    y = F.max_pool3d(F.subm_conv3d(x, w), 2, 1)
    (y.values() * paddle.to_tensor(randn(*y.values().shape, seed=51))).sum().backward()
    made = S.sparse_coo_tensor([[0, 0], [0, 1], [1, 2], [0, 1]], [[1.0, 2.0], [3.0, 4.0]],
                               [1, 4, 4, 3, 2], stop_gradient=False)  # fmt: skip
    F.subm_conv3d(made, w).values().sum().backward()
    return [x.is_leaf, _parts(x.grad), w.grad, made.grad]


def case_uncoalesced_input():
    """A site stored twice counts twice (conv) / as the max of its copies (pooling)."""
    idx = [[0, 0, 0, 0, 0], [1, 2, 1, 0, 2], [1, 0, 1, 2, 2]]
    vals = randn(5, 2, seed=52)
    w = randn(3, 3, 2, 2, seed=53)
    fn = _conv_program(idx, [1, 3, 3, 2], F.conv2d, padding=1)
    out = {"conv": backprop(fn, vals, w, randn(2, seed=54))}
    # forward only: Paddle's submanifold backward is off for unsorted input (case_conv_grads)
    x = S.sparse_coo_tensor(idx, vals, [1, 3, 3, 2])
    out["subm"] = _parts(F.subm_conv2d(x, paddle.to_tensor(w)))
    pooled = F.max_pool3d(S.sparse_coo_tensor([[0] * 5, *idx], vals, [1, 1, 3, 3, 2]), [1, 2, 2], 1)
    out["pool"] = _parts(pooled)
    return out
