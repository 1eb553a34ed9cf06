"""Paddle's views: reshape/view/squeeze/unsqueeze/flatten/transpose/t, basic indexing and
detach share memory with their input, so in-place writes to either show in the other;
advanced indexing, clone and split results are copies."""

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
