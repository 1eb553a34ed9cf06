"""Extra elementwise math (hypot, logaddexp, copysign, nextafter, ldexp, gcd/lcm, gammainc,
deg2rad, sgn, stanh, sinc, signbit, isposinf, nan_to_num, i0/i1, polygamma, multigammaln,
frexp, increment) and cumulative/structural math (cummax, logcumsumexp, diff, trapezoid,
add_n, multiplex, renorm, reduce_as, take, isin, vander, combinations, baddbmm)."""

import numpy as np
from _api_util import t
from _util import backprop, expect_error, randn

import paddle

TOLERANCE = {
    "case_python_float_with_float64": (1e-15, 0.0),  # float64 exact: no float32 rounding
    "case_special_unary": (1e-5, 1e-5),
    "case_special_grads": (1e-4, 1e-5),
    "case_gammainc": (1e-5, 1e-6),
}


def _i(v, dtype="int64"):
    return paddle.to_tensor(v, dtype=dtype)


def case_binary_float():
    x, y = t(2, 3), t(2, 3, seed=1)
    xi, yi = _i([[1, -2, 3]]), _i([[4, 0, -5]])
    return [
        paddle.hypot(x, y),
        paddle.hypot(xi, yi),
        paddle.logaddexp(x, y),
        paddle.logaddexp(xi, yi),
        paddle.copysign(x, y),
        paddle.copysign(xi, yi),
        paddle.copysign(x, paddle.to_tensor([-0.0, 0.0, -1.0])),
        paddle.nextafter(x, y),
        paddle.ldexp(x, _i([1, -2, 3])),
        paddle.ldexp(xi, _i([2, 2, 2])),
        x.hypot(y),
        x.logaddexp(y),
    ]


def case_binary_float_grads():
    a, b = randn(2, 3), randn(2, 3, seed=1)
    return [
        backprop(paddle.hypot, a, b),
        backprop(paddle.logaddexp, a, b),
        backprop(paddle.copysign, a, b),
        backprop(lambda x: paddle.ldexp(x, paddle.to_tensor([1, 0, -1])), a),
    ]


def case_binary_inplace():
    x = paddle.to_tensor([3.0, -4.0])
    x.hypot_(paddle.to_tensor([4.0, 3.0]))
    y = paddle.to_tensor([1.0, 2.0])
    y.copysign_(paddle.to_tensor([-1.0, 1.0]))
    z = paddle.to_tensor([1.0, 2.0])
    z.ldexp_(paddle.to_tensor([3, 1]))
    g = paddle.to_tensor([12, 18])
    g.gcd_(paddle.to_tensor([8, 12]))
    return [x, y, z, g]


def case_half_precision_and_poles():
    """digamma at +0 / -0 (Paddle: -inf / +inf); float16 and bfloat16 sum and expm1 computed in
    float32 and rounded once, as Paddle's kernels."""
    rng = np.random.default_rng(51)
    h = paddle.to_tensor(rng.standard_normal((3, 7)).astype("float32"))
    return [
        paddle.digamma(paddle.to_tensor([0.0, -0.0, 1.0, -1.5])),
        paddle.digamma(paddle.to_tensor(np.array([1, 0, 2], "int32"))),
        paddle.sum(h.astype("float16"), axis=1, keepdim=True).astype("float32"),
        paddle.sum(h.astype("bfloat16")).astype("float32"),
        paddle.expm1(h.astype("float16")).astype("float32"),
    ]


def case_gcd_lcm():
    a, b = _i([12, -18, 0, 7, 0]), _i([8, 12, 5, 0, 0])
    return [
        paddle.gcd(a, b),
        paddle.lcm(a, b),
        paddle.gcd(_i([6], "int32"), _i([4], "int32")),
        a.gcd(b),
        paddle.lcm(_i([[2], [3]]), _i([4, 5])),
        expect_error(lambda: paddle.gcd(paddle.to_tensor([1.0]), paddle.to_tensor([2.0]))),
    ]


def case_gammainc():
    a = paddle.to_tensor([0.5, 1.0, 2.5, 4.0])
    x = paddle.to_tensor([0.3, 1.0, 2.0, 6.0])
    return [paddle.gammainc(a, x), paddle.gammaincc(a, x), a.gammainc(x)]


def case_angle_units():
    x = paddle.to_tensor([0.0, 90.0, -180.0, 45.5])
    return [
        paddle.deg2rad(x),
        paddle.rad2deg(paddle.deg2rad(x)),
        paddle.deg2rad(_i([180, 90])),
        paddle.rad2deg(_i([1, 2])),
        x.deg2rad(),
        backprop(paddle.deg2rad, randn(3)),
        backprop(paddle.rad2deg, randn(3)),
    ]


def case_sign_like():
    x = paddle.to_tensor([-2.5, -0.0, 0.0, 3.0, np.inf, -np.inf])
    c = paddle.to_tensor([3 + 4j, 0j, -1j])
    return [
        paddle.sgn(x),
        paddle.sgn(c),
        expect_error(lambda: paddle.sgn(_i([-3, 0, 2]))),
        paddle.signbit(x),
        paddle.signbit(_i([-1, 0, 2])),
        paddle.signbit(_i([1], "uint8")),
        paddle.isposinf(x),
        paddle.isneginf(x),
        paddle.isposinf(_i([1, 2])),
        paddle.isreal(x),
        paddle.isreal(c),
        paddle.isreal(_i([1])),
        paddle.negative(x),
        paddle.negative(_i([1, -2])),
        paddle.positive(x),
        paddle.positive(_i([1, -2])),
        x.sgn(),
        x.signbit(),
        x.negative(),
    ]


def case_stanh_sinc():
    x = paddle.to_tensor([-2.0, -0.5, 0.0, 0.25, 1.0, 3.0])
    return [
        paddle.stanh(x),
        paddle.stanh(x, 1.0, 2.0),
        expect_error(lambda: paddle.stanh(_i([1, 2]))),
        paddle.sinc(x),
        expect_error(lambda: paddle.sinc(_i([0, 1, 2]))),
        x.stanh(scale_a=0.5),
        backprop(paddle.stanh, randn(4)),
        backprop(paddle.sinc, randn(4)),
    ]


def case_nan_to_num():
    x = paddle.to_tensor([np.nan, np.inf, -np.inf, 1.5, -2.0])
    d = paddle.to_tensor([np.nan, np.inf, -np.inf], dtype="float64")
    y = paddle.to_tensor([np.nan, 2.0])
    y.nan_to_num_(nan=-1.0)
    return [
        paddle.nan_to_num(x),
        paddle.nan_to_num(x, nan=1.0, posinf=9.0, neginf=-9.0),
        paddle.nan_to_num(d),
        paddle.nan_to_num(x, posinf=5.0),
        x.nan_to_num(),
        y,
        expect_error(lambda: paddle.nan_to_num(_i([1, 2]))),
        backprop(lambda a: paddle.nan_to_num(a / a.abs()), np.array([0.0, 2.0, -3.0], "float32")),
    ]


def case_special_unary():
    x = paddle.to_tensor([0.5, 1.0, 2.5, 4.0])
    n = paddle.to_tensor([-1.5, 0.0, 0.7, 3.0])
    return [
        paddle.gammaln(x),
        expect_error(lambda: paddle.gammaln(_i([1, 3]))),
        paddle.i0(n),
        paddle.i0e(n),
        paddle.i1(n),
        paddle.i1e(n),
        paddle.i0(_i([0, 1])),
        paddle.polygamma(x, 0),
        paddle.polygamma(x, 1),
        paddle.polygamma(x, 2),
        paddle.multigammaln(x + 1, 1),
        paddle.multigammaln(x + 2, 3),
        x.polygamma(1),
        x.i0(),
        x.gammaln(),
        expect_error(lambda: paddle.polygamma(x, -1)),
        expect_error(lambda: paddle.multigammaln(x, 0)),
    ]


def case_special_grads():
    a = np.array([0.5, 1.5, 3.0], "float32")
    return [
        backprop(paddle.gammaln, a),
        backprop(paddle.i0, a),
        backprop(paddle.i0e, a),
        backprop(paddle.i1, a),
        backprop(paddle.i1e, a),
        backprop(lambda x: paddle.polygamma(x, 1), a),
        backprop(lambda x: paddle.multigammaln(x + 2, 2), a),
    ]


def case_special_inplace():
    x = paddle.to_tensor([0.5, 2.0])
    x.i0_()
    y = paddle.to_tensor([0.5, 2.0])
    y.polygamma_(1)
    z = paddle.to_tensor([0.5, 2.0])
    z.gammaln_()
    s = paddle.to_tensor([0.5, 0.0])
    s.sinc_()
    return [x, y, z, s]


def case_frexp():
    x = paddle.to_tensor([0.0, 1.0, -3.5, 1024.0, 0.1])
    return [
        paddle.frexp(x),
        paddle.frexp(x.astype("float64")),
        x.frexp(),
        expect_error(lambda: paddle.frexp(_i([1, 2]))),
        backprop(lambda a: paddle.frexp(a)[0], np.array([1.0, 3.0, -0.3], "float32")),
    ]


def case_increment():
    a = paddle.to_tensor([1.0])
    b = paddle.increment(a)
    c = paddle.to_tensor(5)
    paddle.increment(c, 2)
    d = paddle.to_tensor([1.5])
    d.increment(value=-0.5)
    return [
        a,
        b,
        bool(a is b),
        c,
        d,
        expect_error(lambda: paddle.increment(paddle.to_tensor([1.0, 2.0]))),
    ]


# -- cumulative -----------------------------------------------------------------------------------
def case_cummax_cummin():
    x = paddle.to_tensor([[1.0, 3.0, 3.0, 2.0, 5.0], [4.0, 1.0, 1.0, 0.0, 2.0]])
    v = paddle.to_tensor([3, 1, 1, 4, 1])
    return [
        paddle.cummax(x, axis=1),
        paddle.cummin(x, axis=1),
        paddle.cummax(x, axis=0),
        paddle.cummax(x),
        paddle.cummin(x, axis=-1, dtype="int32"),
        paddle.cummax(v),
        paddle.cummin(v),
        x.cummax(1),
        paddle.cummax(paddle.to_tensor(2.0)),
        expect_error(lambda: paddle.cummax(x, axis=2)),
        expect_error(lambda: paddle.cummax(x, dtype="float32")),
    ]


def case_cummax_grads():
    a = np.array([[1.0, 3.0, 3.0, 2.0], [4.0, 1.0, 1.0, 0.0]], "float32")
    return [
        backprop(lambda x: paddle.cummax(x, axis=1)[0], a),
        backprop(lambda x: paddle.cummin(x, axis=0)[0], a),
    ]


def case_logcumsumexp():
    x = t(2, 3)
    return [
        paddle.logcumsumexp(x),
        paddle.logcumsumexp(x, axis=1),
        paddle.logcumsumexp(x, axis=0, dtype="float64"),
        paddle.logcumsumexp(_i([1, 2, 3])),
        x.logcumsumexp(axis=-1),
        paddle.logcumsumexp(paddle.to_tensor([-1e30, 0.0, 1e3])),
        backprop(lambda a: paddle.logcumsumexp(a, axis=1), randn(2, 3)),
    ]


def case_diff():
    x = t(2, 4)
    b = paddle.to_tensor([True, False, False, True])
    return [
        paddle.diff(x),
        paddle.diff(x, n=2),
        paddle.diff(x, axis=0),
        paddle.diff(x, prepend=paddle.zeros([2, 1]), append=paddle.ones([2, 2])),
        paddle.diff(_i([1, 4, 9, 16])),
        paddle.diff(b),
        x.diff(n=1, axis=1),
        paddle.diff(_i([1, 2]), n=3),
        backprop(lambda a: paddle.diff(a, n=2, axis=1), randn(2, 4)),
    ]


def case_trapezoid():
    y = t(2, 4)
    xs = paddle.to_tensor([0.0, 1.0, 3.0, 3.5])
    return [
        paddle.trapezoid(y),
        paddle.trapezoid(y, dx=0.5),
        paddle.trapezoid(y, x=xs),
        paddle.trapezoid(y, axis=0),
        paddle.trapezoid(y, x=t(2, 4, seed=3)),
        paddle.cumulative_trapezoid(y),
        paddle.cumulative_trapezoid(y, dx=2.0, axis=0),
        paddle.cumulative_trapezoid(y, x=xs),
        expect_error(lambda: paddle.trapezoid(_i([1, 2, 4]))),
        expect_error(lambda: paddle.trapezoid(y, x=xs, dx=1.0)),
        backprop(lambda a: paddle.trapezoid(a, dx=0.5), randn(2, 4)),
        backprop(lambda a: paddle.cumulative_trapezoid(a), randn(2, 4)),
    ]


# -- combining ----------------------------------------------------------------------------------
def case_add_n_multiplex():
    a, b, c = t(2, 3), t(2, 3, seed=1), t(2, 3, seed=2)
    idx = paddle.to_tensor([[1], [0]], dtype="int32")
    return [
        paddle.add_n([a, b, c]),
        paddle.add_n([a]),
        paddle.add_n(a),
        paddle.multiplex([a, b, c], idx),
        expect_error(lambda: paddle.multiplex([a, b], paddle.to_tensor([[0], [0]]))),
        backprop(lambda x, y: paddle.add_n([x, y, x]), randn(2, 2), randn(2, 2, seed=1)),
        backprop(
            lambda x, y: paddle.multiplex([x, y], paddle.to_tensor([[1], [0]], dtype="int32")),
            randn(2, 2),
            randn(2, 2, seed=1),
        ),
    ]


def case_renorm():
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [0.5, 0.4, -0.1]])
    y = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    y.renorm_(1, 1, 3.0)
    return [
        paddle.renorm(x, 2, 0, 2.0),
        paddle.renorm(x, 1, 1, 1.0),
        x.renorm(3, 0, 1.0),
        y,
        backprop(lambda a: paddle.renorm(a, 2, 0, 1.0), randn(3, 2)),
    ]


def case_reduce_as():
    x = t(2, 3, 4)
    return [
        paddle.reduce_as(x, paddle.zeros([3, 1])),
        paddle.reduce_as(x, paddle.zeros([4])),
        paddle.reduce_as(x, paddle.zeros([2, 1, 4])),
        x.reduce_as(paddle.zeros([1, 3, 4])),
        paddle.reduce_as(_i([[1, 2], [3, 4]]), _i([0, 0])),
        backprop(lambda a: paddle.reduce_as(a, paddle.zeros([3, 1])), randn(2, 3, 2)),
    ]


def case_take():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return [
        paddle.take(x, _i([0, 5, -1])),
        paddle.take(x, _i([[7, -8]]), mode="wrap"),
        paddle.take(x, _i([9, -9]), mode="clip"),
        x.take(_i([1], "int32")),
        expect_error(lambda: paddle.take(x, _i([6]))),
        expect_error(lambda: paddle.take(x, _i([-7]))),
        backprop(lambda a: paddle.take(a, paddle.to_tensor([0, 0, 3])), randn(2, 2)),
    ]


def case_isin():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 2.0, 0.0]])
    return [
        paddle.isin(x, paddle.to_tensor([2.0, 4.0])),
        paddle.isin(x, paddle.to_tensor([2.0, 4.0]), invert=True),
        paddle.isin(_i([1, 5, 7]), _i([[5], [1]])),
        paddle.isin(_i([1, 2]), _i([2]), assume_unique=True),
        x.isin(paddle.to_tensor([0.0])),
    ]


def case_vander():
    return [
        paddle.vander(_i([1, 2, 3])),
        paddle.vander(paddle.to_tensor([1.0, 2.0]), n=3),
        paddle.vander(paddle.to_tensor([1.0, 2.0, 0.5]), n=2, increasing=True),
        paddle.vander(_i([2, 3]), n=0),
        backprop(lambda a: paddle.vander(a, 3), randn(3)),
    ]


def case_combinations():
    x = _i([1, 2, 3])
    f = paddle.to_tensor([0.5, 1.5, 2.5, 3.5])
    return [
        paddle.cartesian_prod([x, _i([7, 8])]),
        paddle.cartesian_prod([x]),
        paddle.cartesian_prod([f[:2], f[2:], f[1:3]]),
        paddle.combinations(x),
        paddle.combinations(f, r=3),
        paddle.combinations(x, with_replacement=True),
        paddle.combinations(x, r=4),
        x.combinations(r=1),
        backprop(lambda a: paddle.combinations(a), randn(3)),
    ]


def case_baddbmm():
    inp, x, y = t(2, 2, 2), t(2, 2, 3, seed=1), t(2, 3, 2, seed=2)
    z = t(2, 2, 2)
    z.baddbmm_(x, y, beta=0.5, alpha=2.0)
    return [
        paddle.baddbmm(inp, x, y),
        paddle.baddbmm(inp, x, y, beta=0.5, alpha=2.0),
        inp.baddbmm(x, y),
        z,
        paddle.baddbmm(t(2, 1, 2), x, y),
        expect_error(lambda: paddle.baddbmm(inp, x, x)),
        backprop(
            lambda a, b, c: paddle.baddbmm(a, b, c, beta=0.5, alpha=2.0),
            randn(2, 2, 2),
            randn(2, 2, 3, seed=1),
            randn(2, 3, 2, seed=2),
        ),
    ]


def case_abs_grad_at_zero():
    """abs's gradient is 0 at 0 and -0 (JAX's own is the upstream gradient), also under an
    infinite upstream gradient (sqrt(|x|) at 0)."""
    x = np.array([0.0, -0.0, -2.0, 3.0], "float32")
    return [
        backprop(paddle.abs, x),
        backprop(lambda v: paddle.sqrt(paddle.abs(v)), x),
        backprop(paddle.abs, x.astype("float64")),
    ]


def case_clip_bounds():
    # Python bounds are exact in x's dtype (float64 too); a Tensor bound must have one
    # element; float bounds make an integer x float32
    x64 = paddle.to_tensor([0.5, 1.0, -1.0], "float64")
    x32 = paddle.to_tensor([0.5, 1.0, -1.0], "float32")
    xi = paddle.to_tensor([1, 5, 3], "int32")
    return {
        "f64_exact": paddle.clip(x64, 1e-300, 1 - 2.2e-16),
        "f32_f64_tensor": paddle.clip(x32, min=paddle.to_tensor(0.7, "float64")),
        "f64_f32_tensor": paddle.clip(x64, min=paddle.to_tensor(0.7, "float32")),
        "int_tensor_bound": paddle.clip(x32, max=paddle.to_tensor(0, "int64")),
        "int_float_bounds": paddle.clip(xi, 2.5, 4.5),
        "int_int_bounds": paddle.clip(xi, 2, 4),
        "only_max": paddle.clip(x32, max=0.25),
        "two_element_bound": expect_error(
            lambda: paddle.clip(x32, min=paddle.to_tensor([0.1, 0.2]))
        ),
        "grad": backprop(lambda a: paddle.clip(a, -0.5, 0.75), np.array([0.5, 1.0, -1.0])),
    }


def case_python_float_with_float64():
    # a Python float operand is exact against a float64 Tensor (it was rounded via float32)
    x = paddle.to_tensor([1.0, 3.0], "float64")
    # (not x ** 0.1: Paddle rounds a Python float exponent to float32, docs/porting.md)
    return [x + 0.1, 0.1 + x, x * 0.1, x / 0.1, x - 0.1, 0.1 - x, 2.5**x]


def case_hypot_promotion():
    """hypot promotes as Paddle's binary ops: a 0-D operand takes the other's float dtype,
    two float dtypes widen, integers give float32, an integer with a float raises."""
    a64 = paddle.to_tensor(np.array([3.0, 4.0], "float64"))
    a32 = paddle.to_tensor(np.array([4.0, 3.0], "float32"))
    z64, z32 = paddle.to_tensor(np.float64(3.0)), paddle.to_tensor(np.float32(4.0))
    i = paddle.to_tensor(np.array([3, 4], "int64"))
    return [
        paddle.hypot(a64, a32),
        paddle.hypot(z64, a32),
        paddle.hypot(a32, z64),
        paddle.hypot(z32, a64),
        paddle.hypot(z64, z32),
        paddle.hypot(i, i),
        paddle.hypot(paddle.to_tensor(3), a32),
        expect_error(lambda: paddle.hypot(i, a32)),
    ]
