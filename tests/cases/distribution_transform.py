"""paddle.distribution transforms (forward, inverse, log-det-Jacobians, shapes, domains, their
gradients and errors) and the transformed distributions: Independent, TransformedDistribution,
LogNormal, Gumbel (methods, gradients, seeded samples, errors). Goldens from real Paddle."""

import numpy as np
from _util import backprop, expect_error, randn

import paddle

D = paddle.distribution
TOLERANCE = {"case_transform_grads": (1e-5, 1e-5), "case_distribution_grads": (1e-5, 1e-5)}

X23 = randn(2, 3, seed=1)
POS23 = np.abs(randn(2, 3, seed=2)) + 0.25
UNIT23 = (1 / (1 + np.exp(-randn(2, 3, seed=3)))).astype("float32")  # in (0, 1)
SIMPLEX = np.array([[0.2, 0.3, 0.4, 0.1], [0.05, 0.05, 0.6, 0.3]], "float32")


def _t(a, dtype=None):
    a = np.asarray(a)
    return paddle.to_tensor(a.astype(dtype) if dtype else a)


def _transforms():
    """name -> (transform, a forward input, an inverse input)."""
    affine = D.AffineTransform(_t(np.array([0.5, -1.0, 2.0], "float32")), _t(np.float32(-1.5)))
    chain = D.ChainTransform((D.AffineTransform(_t(0.3), _t(2.0)), D.ExpTransform()))
    stack = D.StackTransform((D.ExpTransform(), D.PowerTransform(_t(2.0)), D.TanhTransform()), 1)
    return {
        "abs": (D.AbsTransform(), X23, POS23),
        "affine": (affine, X23, X23),
        "chain": (chain, X23, POS23),
        "exp": (D.ExpTransform(), X23, POS23),
        "independent": (D.IndependentTransform(D.ExpTransform(), 1), X23, POS23),
        "power": (D.PowerTransform(_t(np.array([2.0, 0.5, 3.0], "float32"))), POS23, POS23),
        "reshape": (D.ReshapeTransform((3,), (3, 1)), X23, X23.reshape(2, 3, 1)),
        "sigmoid": (D.SigmoidTransform(), X23, UNIT23),
        "softmax": (D.SoftmaxTransform(), X23, SIMPLEX),
        "stack": (stack, X23, UNIT23),
        "stick_breaking": (D.StickBreakingTransform(), X23, SIMPLEX),
        "tanh": (D.TanhTransform(), X23, UNIT23 - 0.5),
    }


def _apply(t, method, v):
    return expect_error(lambda: getattr(t, method)(v))


def case_transform_values():
    out = {}
    for name, (t, x, y) in _transforms().items():
        out[name] = {
            "forward": t.forward(_t(x)),
            "inverse": t.inverse(_t(y)),
            "call": t(_t(x)),
            "fldj": _apply(t, "forward_log_det_jacobian", _t(x)),
            "ildj": _apply(t, "inverse_log_det_jacobian", _t(y)),
            "round_trip": expect_error(lambda t=t, x=x: t.inverse(t.forward(_t(x)))),
        }
    return out


def case_transform_float64():
    out = {}
    for name, (t, x, y) in _transforms().items():
        if name in ("affine", "chain", "power", "stack"):
            continue  # their float32 parameters
        out[name] = [
            t.forward(_t(x, "float64")),
            t.inverse(_t(y, "float64")),
            _apply(t, "forward_log_det_jacobian", _t(x, "float64")),
            _apply(t, "inverse_log_det_jacobian", _t(y, "float64")),
        ]
    return out


def case_transform_structure():
    out = {}
    for name, (t, _, _) in _transforms().items():
        out[name] = {
            "type": t._type.value,
            "injective": t._is_injective(),
            "domain_rank": t._domain.event_rank,
            "codomain_rank": t._codomain.event_rank,
            "domain_discrete": t._domain.is_discrete,
            "forward_shape": expect_error(lambda t=t: list(t.forward_shape((4, 2, 3)))),
            "inverse_shape": expect_error(lambda t=t: list(t.inverse_shape([4, 2, 3]))),
        }
    chain = D.ChainTransform([D.StickBreakingTransform(), D.ReshapeTransform((4,), (2, 2))])
    out["rank_changing_chain"] = [
        chain._domain.event_rank,
        chain._codomain.event_rank,
        list(chain.forward_shape([5, 3])),
        chain.forward(_t(X23)),
        chain.forward_log_det_jacobian(_t(X23)),
        chain.inverse_log_det_jacobian(chain.forward(_t(X23))),
        expect_error(lambda: chain.inverse_shape([5, 2, 2])),  # Paddle asks the links in order
    ]
    out["empty_chain"] = [
        expect_error(lambda: D.ChainTransform([]).forward(_t(X23))),
        expect_error(lambda: D.ChainTransform([]).forward_log_det_jacobian(_t(X23))),
        D.ChainTransform([])._is_injective(),
    ]
    exp, affine = D.ExpTransform(), D.AffineTransform(_t(1.0), _t(2.0))
    composed = exp(affine)
    out["call_transform"] = [type(composed).__name__, composed.forward(_t(X23))]
    out["call_non_tensor"] = expect_error(lambda: exp(np.ones(3, "float32")))
    out["constants"] = [D.transform.Type.is_injective(D.transform.Type.INJECTION)]
    return out


def case_transform_grads():
    out = {}
    for name, (t, x, y) in _transforms().items():
        fwd = backprop(lambda v, t=t: t.forward(v), x)
        inv = backprop(lambda v, t=t: t.inverse(v), y)
        res = {"forward": fwd, "inverse": inv}
        if t._is_injective():
            res["fldj"] = backprop(lambda v, t=t: t.forward_log_det_jacobian(v), x)
        out[name] = res
    loc, scale = randn(3, seed=4), np.abs(randn(3, seed=5)) + 0.5
    out["affine_params"] = backprop(
        lambda lo, sc, v: (
            D.AffineTransform(lo, sc).forward_log_det_jacobian(v)
            + D.AffineTransform(lo, sc).forward(v)
        ),
        loc,
        scale,
        X23,
    )
    out["power_param"] = backprop(
        lambda p, v: D.PowerTransform(p).forward(v) + D.PowerTransform(p).inverse(v),
        np.float32(1.5),
        POS23,
    )
    return out


def case_softmax_shift():
    # Paddle subtracts the first row's maximum from every row: a later row far below it
    # underflows to 0/0
    x = np.array([[1000.0, 999.0], [0.0, 1.0], [3.0, -2.0]], "float32")
    return [D.SoftmaxTransform().forward(_t(x)), D.SoftmaxTransform().forward(_t(x[1]))]


def case_transform_errors():
    exp, t2 = D.ExpTransform(), D.SoftmaxTransform()
    bad = {
        "forward_list": lambda: exp.forward([1.0]),
        "inverse_float": lambda: exp.inverse(1.0),
        "fldj_numpy": lambda: exp.forward_log_det_jacobian(np.ones(2)),
        "ildj_list": lambda: exp.inverse_log_det_jacobian([1.0]),
        "softmax_0d": lambda: t2.forward(_t(np.float32(1.0))),
        "softmax_fldj": lambda: t2.forward_log_det_jacobian(_t(X23)),
        "softmax_ildj": lambda: t2.inverse_log_det_jacobian(_t(SIMPLEX)),
        "abs_fldj": lambda: D.AbsTransform().forward_log_det_jacobian(_t(X23)),
        "forward_shape_int": lambda: exp.forward_shape(3),
        "inverse_shape_tensor": lambda: exp.inverse_shape(_t(np.array([2, 3]))),
        "affine_float_loc": lambda: D.AffineTransform(0.0, _t(1.0)),
        "affine_float_scale": lambda: D.AffineTransform(_t(0.0), 1.0),
        "affine_bad_shape": lambda: D.AffineTransform(_t(X23), _t(1.0)).forward_shape([3, 2]),
        "power_float": lambda: D.PowerTransform(2.0),
        "chain_not_seq": lambda: D.ChainTransform(exp),
        "chain_bad_item": lambda: D.ChainTransform([exp, 1]),
        "independent_not_transform": lambda: D.IndependentTransform(1, 1),
        "independent_rank0": lambda: D.IndependentTransform(exp, 0),
        "independent_low_dim": lambda: D.IndependentTransform(exp, 2).forward(_t(X23[0])),
        "reshape_numel": lambda: D.ReshapeTransform((2, 3), (5,)),
        "reshape_not_seq": lambda: D.ReshapeTransform(6, (6,)),
        "reshape_fshape": lambda: D.ReshapeTransform((2, 3), (6,)).forward_shape([4, 3, 2]),
        "reshape_ishape_short": lambda: D.ReshapeTransform((2, 3), (6,)).inverse_shape([]),
        "reshape_low_dim": lambda: D.ReshapeTransform((2, 3), (6,)).forward(_t(X23[0])),
        "stack_empty": lambda: D.StackTransform([]),
        "stack_bad_item": lambda: D.StackTransform([exp, "x"]),
        "stack_axis_float": lambda: D.StackTransform([exp], 1.0),
        "stack_size": lambda: D.StackTransform([exp, exp], 1).forward(_t(X23)),
        "stack_axis": lambda: D.StackTransform([exp, exp], 2).forward(_t(X23)),
        "stick_shape_empty": lambda: D.StickBreakingTransform().forward_shape([]),
        "stick_ishape_empty": lambda: D.StickBreakingTransform().inverse_shape(()),
        "softmax_shape_empty": lambda: t2.forward_shape([]),
    }
    return {k: expect_error(f) for k, f in bad.items()}


def case_constraints():
    from paddle.distribution import constraint, variable

    x = _t(np.array([-1.0, 0.0, 2.0, np.nan], "float32"))
    return [
        constraint.real(x),
        constraint.positive(x),
        constraint.positive.check(x),
        variable.real.constraint(x),
        variable.positive.constraint(x),
        [variable.real.event_rank, variable.real.is_discrete],
        [variable.Independent(variable.positive, 2).event_rank],
        [variable.Stack([variable.real, variable.Real(1)], -1).event_rank],
        [variable.Stack([variable.real, variable.Real(1)], 0).event_rank],
        constraint.simplex(_t(SIMPLEX[0])),
        constraint.simplex(_t(np.array([0.5, 0.6], "float32"))),
        constraint.simplex(_t(np.array([-0.5, 1.5], "float32"))),
    ]


LOC23 = randn(2, 3, seed=6)
SCALE23 = np.abs(randn(2, 3, seed=7)) + 0.5
VAL23 = np.abs(randn(2, 3, seed=8)) + 0.1


def _normal(loc=LOC23, scale=SCALE23):
    return D.Normal(_t(loc), _t(scale))


def _shapes(d):
    return [list(d.batch_shape), list(d.event_shape)]


def case_independent():
    ind = D.Independent(_normal(), 1)
    ind2 = D.Independent(_normal(), 2)
    paddle.seed(11)
    out = {
        "shapes": [_shapes(ind), _shapes(ind2)],
        "mean_var": [ind.mean, ind.variance],
        "log_prob": [ind.log_prob(_t(VAL23)), ind2.log_prob(_t(VAL23))],
        "prob": ind.prob(_t(VAL23)),
        "entropy": [ind.entropy(), ind2.entropy()],
        "sample": [ind.sample([4]), ind2.sample()],
        "rsample": expect_error(lambda: ind.rsample([2])),
    }
    bad = {
        "not_distribution": lambda: D.Independent(D.ExpTransform(), 1),
        "rank0": lambda: D.Independent(_normal(), 0),
        "rank_too_big": lambda: D.Independent(_normal(), 3),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def case_transformed_distribution():
    affine = D.AffineTransform(_t(np.float32(1.0)), _t(np.float32(2.0)))
    doc = D.TransformedDistribution(D.Normal(0.0, 1.0), [affine])
    exp = D.TransformedDistribution(_normal(), [D.ExpTransform()])
    stick = D.TransformedDistribution(_normal(), [D.StickBreakingTransform()])
    reshape = D.TransformedDistribution(_normal(), (D.ReshapeTransform((3,), (3, 1)),))
    chain = D.TransformedDistribution(_normal(), [D.ExpTransform(), D.PowerTransform(_t(2.0))])
    empty = D.TransformedDistribution(_normal(), [])
    called = D.ExpTransform()(_normal())
    simplex = np.array([[0.2, 0.3, 0.4, 0.1], [0.05, 0.05, 0.6, 0.3]], "float32")
    paddle.seed(12)
    out = {
        "shapes": [_shapes(d) for d in (doc, exp, stick, reshape, chain, empty, called)],
        "called": type(called).__name__,
        "log_prob": [
            doc.log_prob(_t(np.float32(0.5))),
            exp.log_prob(_t(VAL23)),
            stick.log_prob(_t(simplex)),
            reshape.log_prob(_t(VAL23.reshape(2, 3, 1))),
            chain.log_prob(_t(VAL23)),
            empty.log_prob(_t(VAL23)),
            called.log_prob(_t(VAL23)),
        ],
        "prob": exp.prob(_t(VAL23)),
        "sample": [doc.sample([10]), exp.sample([2]), stick.sample(), reshape.sample([1])],
        "rsample": [exp.rsample([3]), chain.rsample()],
    }
    for name in ("mean", "variance"):
        out[name] = expect_error(lambda name=name: getattr(exp, name))
    out["entropy"] = expect_error(exp.entropy)
    bad = {
        "base": lambda: D.TransformedDistribution(D.ExpTransform(), [D.ExpTransform()]),
        "transforms": lambda: D.TransformedDistribution(_normal(), D.ExpTransform()),
        "element": lambda: D.TransformedDistribution(_normal(), [D.ExpTransform(), 1]),
        "base_rank": lambda: D.TransformedDistribution(
            D.Normal(0.0, 1.0), [D.StickBreakingTransform()]
        ),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def case_lognormal():
    ln = D.LogNormal(_t(LOC23), _t(SCALE23))
    other = D.LogNormal(_t(LOC23[::-1].copy()), _t(SCALE23 * 2))
    scalar = D.LogNormal(0.5, 2.0)
    listed = D.LogNormal(loc=[1.0, 2.0], scale=[11.0, 22.0])
    paddle.seed(13)
    return {
        "shapes": [_shapes(d) for d in (ln, scalar, listed)],
        "params": [ln.loc, ln.scale, scalar.loc, scalar.scale, listed.loc],
        "moments": [ln.mean, ln.variance, ln.entropy(), scalar.mean, scalar.variance],
        "density": [ln.log_prob(_t(VAL23)), ln.prob(_t(VAL23)), ln.probs(_t(VAL23))],
        "scalar_density": [scalar.log_prob(_t(VAL23)), listed.probs(_t(np.float32(0.8)))],
        "kl": [ln.kl_divergence(other), D.kl_divergence(ln, other), D.kl_divergence(other, ln)],
        "sample": [ln.sample([2]), scalar.sample((3,)), listed.sample()],
        "rsample": [ln.rsample([2]), scalar.rsample([4])],
    }


def case_gumbel():
    g = D.Gumbel(_t(LOC23), _t(SCALE23))
    scalar = D.Gumbel(0.5, 2.0)
    ints = D.Gumbel(1, 2)
    bcast = D.Gumbel(_t(LOC23[:, :1].copy()), _t(SCALE23[0]))
    g64 = D.Gumbel(_t(LOC23, "float64"), _t(SCALE23, "float64"))
    paddle.seed(14)
    out = {
        "shapes": [_shapes(d) for d in (g, scalar, ints, bcast, g64)],
        "params": [scalar.loc, scalar.scale, ints.loc, bcast.loc, bcast.scale],
        "base": [type(g.base_dist).__name__, g.base_dist.low, g.base_dist.high, list(g.transforms)],
        "moments": [g.mean, g.variance, g.stddev, g.entropy(), scalar.mean, ints.variance],
        "density": [g.prob(_t(VAL23)), g.log_prob(_t(VAL23)), g.cdf(_t(VAL23))],
        "f64": [g64.mean, g64.variance, g64.log_prob(_t(VAL23)), g64.cdf(_t(VAL23, "float64"))],
        "bcast": [bcast.log_prob(_t(VAL23)), bcast.entropy()],
        "probs": expect_error(lambda: g.probs(_t(VAL23))),
        "sample": [g.sample([2]), scalar.sample(), bcast.sample([1, 2]), g64.sample([2])],
        "rsample": [g.rsample(), scalar.rsample([3])],
    }
    bad = {
        "loc_str": lambda: D.Gumbel("0", 1.0),
        "scale_list": lambda: D.Gumbel(0.0, [1.0]),
        "loc_numpy": lambda: D.Gumbel(np.zeros(2, "float32"), 1.0),
        "shape_mismatch": lambda: D.Gumbel(_t(LOC23), _t(SCALE23[:, :2].copy())),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def case_distribution_grads():
    def lognormal(loc, scale, v):
        d = D.LogNormal(loc, scale)
        return [d.log_prob(v), d.entropy(), d.mean, d.variance]

    def gumbel(loc, scale, v):
        d = D.Gumbel(loc, scale)
        return [d.log_prob(v), d.cdf(v), d.entropy(), d.mean, d.stddev]

    def rsamples(loc, scale):
        paddle.seed(15)
        return [
            D.LogNormal(loc, scale).rsample([2]),
            D.Gumbel(loc, scale).rsample([2]),
            D.TransformedDistribution(D.Normal(loc, scale), [D.TanhTransform()]).rsample(),
        ]

    def samples(loc, scale):
        paddle.seed(16)
        return [D.LogNormal(loc, scale).sample([2]), D.Gumbel(loc, scale).sample([2])]

    def independent(loc, scale, v):
        d = D.Independent(D.Normal(loc, scale), 1)
        return [d.log_prob(v), d.entropy()]

    return {
        "lognormal": backprop(lognormal, LOC23, SCALE23, VAL23),
        "gumbel": backprop(gumbel, LOC23, SCALE23, VAL23),
        "rsample": backprop(rsamples, LOC23, SCALE23),
        "sample": backprop(samples, LOC23, SCALE23),
        "independent": backprop(independent, LOC23, SCALE23, VAL23),
    }
