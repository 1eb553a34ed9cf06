"""paddle.distribution's Dirichlet, Beta, MultivariateNormal, LKJCholesky, Multinomial,
Binomial and Poisson: every method's values, dtypes and shapes, gradients, seeded samples
(Paddle's CPU stream: gamma, dirichlet, binomial, poisson, multinomial and normal kernels), KL
divergences and Paddle's errors for bad arguments (goldens from real Paddle 3.3.1)."""

import numpy as np
from _util import backprop, expect_error, rng
from paddle.distribution import (
    Beta,
    Binomial,
    Dirichlet,
    LKJCholesky,
    Multinomial,
    MultivariateNormal,
    Poisson,
    kl_divergence,
)

import paddle

SEEDS = [1, 7, 2023]
# float32 results with cancellation: Onion's diagonal sqrt(1 - |w|^2) and long p log p sums
TOLERANCE = {"case_lkj_samples": (1e-5, 1e-5), "case_float32_cancellation": (3e-4, 1e-5)}
CONC = rng(1).uniform(0.3, 3.0, (2, 3)).astype("float32")
SIMPLEX = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], "float32")
COV = np.array([[2.0, 0.5, 0.1], [0.5, 1.5, 0.3], [0.1, 0.3, 1.0]], "float32")
COV_B = np.stack([COV, COV * 0.5 + np.eye(3, dtype="float32")])
LOC = rng(2).standard_normal((2, 3)).astype("float32")


def T(a, dtype=None):
    return paddle.to_tensor(a, dtype=dtype)


def methods(d, names):
    """Each named attribute (property or zero-argument method) of ``d``, or its error."""
    out = {}
    for n in names:
        attr = getattr(type(d), n, None)
        out[n] = expect_error(
            lambda n=n, a=attr: getattr(d, n) if isinstance(a, property) else getattr(d, n)()
        )
    return out


def shapes(d):
    return {"batch": list(d.batch_shape), "event": list(d.event_shape)}


def seeded(fn):
    """``fn()`` after each of SEEDS."""
    out = []
    for s in SEEDS:
        paddle.seed(s)
        out.append(fn())
    return out


# ---------------------------------------------------------------- Dirichlet


def case_dirichlet_values():
    out = {}
    for dt in ("float32", "float64"):
        for key, conc in (("1d", CONC[0]), ("2d", CONC)):
            d = Dirichlet(T(conc, dt))
            out[f"{key}_{dt}"] = {
                **shapes(d),
                **methods(d, ["mean", "variance", "entropy", "rsample"]),
                "log_prob": d.log_prob(T(SIMPLEX, dt)),
                "prob": d.prob(T(SIMPLEX[0], dt)),
                "kl": kl_divergence(d, Dirichlet(T(conc[..., ::-1].copy(), dt))),
                "kl_method": expect_error(
                    lambda d=d, dt=dt: d.kl_divergence(Dirichlet(T(CONC, dt)))
                ),
                "kl_fn": kl_divergence(d, Dirichlet(T(conc * 2, dt))),
            }
    return out


def case_dirichlet_grads():
    def fn(c, v):
        d = Dirichlet(c)
        return [d.log_prob(v), d.entropy(), d.mean, d.variance]

    def kl(c1, c2):
        return kl_divergence(Dirichlet(c1), Dirichlet(c2))

    return {"methods": backprop(fn, CONC, SIMPLEX), "kl": backprop(kl, CONC, CONC[::-1].copy())}


def case_dirichlet_samples():
    out = {}
    conc = np.array([0.2, 1.0, 4.5], "float32")  # below 1 boosts with a uniform draw
    d = Dirichlet(T(conc))
    out["0d"] = seeded(lambda: d.sample())
    out["shape"] = seeded(lambda: d.sample([2, 2]))
    out["tuple"] = seeded(lambda: Dirichlet(T(CONC)).sample((3,)))
    out["f64"] = seeded(lambda: Dirichlet(T(conc, "float64")).sample([4]))
    return out


def case_dirichlet_errors():
    return {
        "0d": expect_error(lambda: Dirichlet(T(1.0))),
        "empty": expect_error(lambda: Dirichlet(T(np.zeros((0, 3), "float32")))),
        "list": expect_error(lambda: Dirichlet([1.0, 2.0])),
        "kl_other_type": expect_error(lambda: kl_divergence(Dirichlet(T(CONC)), Beta(1.0, 2.0))),
    }


# ---------------------------------------------------------------- Beta


def case_beta_values():
    out = {}
    cases = {
        "scalars": (0.5, 0.5),
        "ints": (2, 3),
        "broadcast": (T([0.2, 0.4]), 0.6),
        "2d": (T(CONC[:, :2]), T(CONC[:, 1:])),
        "f64": (T(CONC[0], "float64"), T(CONC[1], "float64")),
    }
    values = {"scalars": 0.3, "ints": 0.7, "broadcast": [0.1, 0.9], "2d": SIMPLEX[:, :2]}
    values["f64"] = np.array([0.1, 0.5, 0.8])
    for key, (a, b) in cases.items():
        d = Beta(a, b)
        dt = "float64" if key == "f64" else "float32"
        v = T(values[key], dt)
        out[key] = {
            **shapes(d),
            "alpha": d.alpha,
            "beta": d.beta,
            **methods(d, ["mean", "variance", "entropy", "rsample"]),
            "log_prob": d.log_prob(v),
            "prob": d.prob(v),
            "kl": kl_divergence(d, Beta(d.beta, d.alpha)),
            "kl_method": expect_error(lambda d=d: d.kl_divergence(Beta(d.alpha * 2, d.beta))),
        }
    out["doc_kl"] = kl_divergence(Beta(alpha=0.5, beta=0.5), Beta(alpha=0.3, beta=0.7))
    return out


def case_beta_grads():
    def fn(a, b, v):
        d = Beta(a, b)
        return [d.log_prob(v), d.entropy(), d.mean, d.variance]

    def kl(a, b):
        return kl_divergence(Beta(a, b), Beta(b, a + 1))

    a, b = CONC[0], CONC[1]
    return {"methods": backprop(fn, a, b, SIMPLEX[0]), "kl": backprop(kl, a, b)}


def case_beta_samples():
    out = {}
    out["scalar"] = seeded(lambda: Beta(0.5, 2.0).sample([5]))
    out["batch"] = seeded(lambda: Beta(T(CONC[0]), T(CONC[1])).sample([2]))
    out["last_axis_1"] = seeded(lambda: Beta(T([[0.5], [3.0]]), 0.5).sample([3]))
    out["f64"] = seeded(lambda: Beta(T([0.7, 1.5], "float64"), T([2.0], "float64")).sample())
    return out


def case_beta_errors():
    return {
        "mixed_dtype": expect_error(lambda: Beta(T([0.5], "float64"), 0.5)),
        "bad_shapes": expect_error(lambda: Beta(T([0.5, 0.2]), T([0.1, 0.2, 0.3]))),
        "list": expect_error(lambda: Beta([0.5], 0.5)),
    }


# ---------------------------------------------------------------- MultivariateNormal


def _mvn_forms(dt="float32"):
    chol = np.linalg.cholesky(COV.astype("float64")).astype(dt)
    prec = np.linalg.inv(COV.astype("float64")).astype(dt)
    loc = T(LOC[0], dt)
    return {
        "cov": MultivariateNormal(loc, covariance_matrix=T(COV, dt)),
        "prec": MultivariateNormal(loc, precision_matrix=T(prec, dt)),
        "tril": MultivariateNormal(loc, scale_tril=T(chol, dt)),
    }


def case_mvn_values():
    out = {}
    value = T(LOC[::-1].copy())
    for dt in ("float32", "float64"):
        for key, d in _mvn_forms(dt).items():
            out[f"{key}_{dt}"] = {
                **shapes(d),
                "dtype": d.dtype,
                "loc": d.loc,
                "forms": [d.covariance_matrix, d.precision_matrix, d.scale_tril],
                "tril": d._unbroadcasted_scale_tril,
                **methods(d, ["mean", "variance", "entropy"]),
                "log_prob": d.log_prob(value),
                "prob": d.prob(value[0]),
            }
    return out


def case_mvn_batches():
    out = {}
    batch_loc = MultivariateNormal(T(LOC), covariance_matrix=T(COV))
    batch_cov = MultivariateNormal(T(LOC[0]), covariance_matrix=T(COV_B))
    both = MultivariateNormal(T(LOC), precision_matrix=T(COV_B))
    values = T(rng(5).standard_normal((4, 2, 3)).astype("float32"))
    for key, d in (("batch_loc", batch_loc), ("batch_cov", batch_cov), ("both", both)):
        out[key] = {
            **shapes(d),
            "forms": [d.covariance_matrix, d.precision_matrix, d.scale_tril],
            **methods(d, ["mean", "variance", "entropy"]),
            "log_prob": d.log_prob(values),
            "log_prob_1": d.log_prob(values[0, 0]),
        }
    out["kl"] = [batch_cov.kl_divergence(both), kl_divergence(both, both)]
    # Paddle transposes the other factor with this one's axes: factors of other ranks fail
    out["kl_ranks"] = [
        expect_error(lambda: kl_divergence(batch_loc, batch_cov)),
        expect_error(lambda: both.kl_divergence(batch_loc)),
    ]
    out["number_loc"] = [
        MultivariateNormal(1.0, T([[2.0]])).loc,
        MultivariateNormal(3, T([[2.0]])).loc,
    ]
    out["0d_loc"] = MultivariateNormal(T(1.5), T([[2.0]])).log_prob(T([0.5]))
    return out


def case_mvn_doc_kl():
    rv1 = MultivariateNormal(T([2.0, 5.0]), covariance_matrix=T([[2.0, 1.0], [1.0, 2.0]]))
    rv2 = MultivariateNormal(T([-1.0, 3.0]), covariance_matrix=T([[3.0, 2.0], [2.0, 3.0]]))
    return [rv1.kl_divergence(rv2), kl_divergence(rv2, rv1), rv1.entropy(), rv1.variance]


def case_mvn_grads():
    def fn(loc, cov, v):
        d = MultivariateNormal(loc, covariance_matrix=cov)
        return [d.log_prob(v), d.entropy(), d.variance]

    def prec(loc, p, v):
        return MultivariateNormal(loc, precision_matrix=p).log_prob(v)

    def kl(loc1, loc2, tril1, tril2):
        # both factors need gradients: Paddle 3.3.1's solve backward crashes otherwise
        d1 = MultivariateNormal(loc1, scale_tril=tril1)
        return d1.kl_divergence(MultivariateNormal(loc2, scale_tril=tril2))

    chol = np.linalg.cholesky(COV_B).astype("float32")
    return {
        "cov": backprop(fn, LOC, COV, LOC[::-1].copy()),
        # Paddle 3.3.1's precision-matrix gradient is garbage (uninitialized values), so only
        # the forward values of that form are compared here
        "prec": backprop(prec, LOC[0], np.linalg.inv(COV).astype("float32"), LOC, grad=False),
        "kl": backprop(kl, LOC, LOC[::-1].copy(), chol[0], chol[1]),
        "kl_batch": backprop(kl, LOC, LOC[::-1].copy(), chol, chol[::-1].copy()),
    }


def case_mvn_samples():
    out = {}
    d = MultivariateNormal(T([2.0, 5.0]), covariance_matrix=T([[2.0, 1.0], [1.0, 2.0]]))
    out["doc"] = seeded(lambda: d.sample([3, 2]))
    out["0d"] = seeded(lambda: d.sample())
    b = MultivariateNormal(T(LOC), covariance_matrix=T(COV_B))
    out["batch"] = seeded(lambda: b.sample([2]))
    out["rsample"] = seeded(lambda: b.rsample((2,)))
    out["f64"] = seeded(lambda: _mvn_forms("float64")["prec"].sample([2]))

    def rs(loc, tril):
        paddle.seed(3)
        return MultivariateNormal(loc, scale_tril=tril).rsample([4])

    # unbatched: Paddle 3.3.1's matmul backward fails for a batched factor here
    out["rsample_grad"] = backprop(rs, LOC[0], np.linalg.cholesky(COV).astype("float32"))
    return out


def case_mvn_errors():
    loc, cov = T(LOC[0]), T(COV)
    return {
        "none": expect_error(lambda: MultivariateNormal(loc)),
        "two": expect_error(lambda: MultivariateNormal(loc, cov, cov)),
        "cov_1d": expect_error(lambda: MultivariateNormal(loc, T([1.0, 2.0]))),
        "prec_1d": expect_error(lambda: MultivariateNormal(loc, precision_matrix=T([1.0]))),
        "tril_1d": expect_error(lambda: MultivariateNormal(loc, scale_tril=T([1.0]))),
        "not_pd": expect_error(
            lambda: MultivariateNormal(T([1.0, 2.0]), T([[1.0, 2.0], [2.0, 1.0]]))
        ),
        "list_loc": expect_error(
            lambda: MultivariateNormal([1.0, 2.0], T(np.eye(2, dtype="float32")))
        ),
        "sample_int": expect_error(lambda: MultivariateNormal(loc, cov).sample(3)),
        "rsample_int": expect_error(lambda: MultivariateNormal(loc, cov).rsample(3)),
        "log_prob_shape": expect_error(
            lambda: MultivariateNormal(T(LOC), cov).log_prob(T(np.zeros((3, 3), "float32")))
        ),
    }


# ---------------------------------------------------------------- LKJCholesky


def case_lkj_samples():
    out = {}
    configs = {
        "onion_3": (3, 1.0, ()),
        "onion_batch": (4, T([0.5, 2.0]), (3,)),
        "onion_2": (2, 2.0, (2,)),
        "cvine_3": (3, 1.0, ()),
        "cvine_batch": (4, T([0.5, 2.0]), (3,)),
        "cvine_big": (5, 1.5, (7, 2)),  # Paddle's unstable argsort places the entries
        "cvine_2": (2, 0.7, (33,)),
    }
    for key, (dim, conc, shape) in configs.items():
        d = LKJCholesky(dim, conc, key.split("_")[0])
        samples = seeded(lambda d=d, shape=shape: d.sample(shape))
        out[key] = {**shapes(d), "samples": samples, "log_prob": d.log_prob(samples[0])}
    d = LKJCholesky(3, T([1.0, 2.0], "float64"), "cvine")
    out["f64"] = {"dtype": d.dtype, "samples": seeded(lambda: d.sample([2]))}
    d = LKJCholesky(3, T([1.0, 2.0], "float64"))
    out["f64_onion"] = seeded(lambda: d.sample())
    out["sample_method"] = LKJCholesky(3).sample_method
    return out


def case_lkj_log_prob():
    def fn(conc, v):
        return LKJCholesky(3, conc).log_prob(v)

    paddle.seed(5)
    value = LKJCholesky(3, 1.0).sample([2]).numpy()
    return {
        "grad": backprop(fn, np.array([0.5, 1.5], "float32"), value),
        "default": LKJCholesky().log_prob(T([[1.0, 0.0], [0.6, 0.8]])),
        "methods": methods(LKJCholesky(3), ["mean", "variance", "entropy", "rsample"]),
    }


def case_lkj_errors():
    return {
        "dim_1": expect_error(lambda: LKJCholesky(1)),
        "dim_float": expect_error(lambda: LKJCholesky(2.5)),
        "negative": expect_error(lambda: LKJCholesky(3, -1.0)),
        "int_conc": expect_error(lambda: LKJCholesky(3, 1)),
        "method": expect_error(lambda: LKJCholesky(3, 1.0, "x")),
        "sample_int": expect_error(lambda: LKJCholesky(3).sample(3)),
    }


# ---------------------------------------------------------------- Multinomial


def case_multinomial_values():
    out = {}
    for key, probs in (("1d", [0.2, 0.3, 0.5]), ("2d", [[2.0, 3.0, 5.0], [1.0, 0.0, 1.0]])):
        d = Multinomial(6, T(probs))
        out[key] = {
            **shapes(d),
            "probs": d.probs,
            "total_count": d.total_count,
            **methods(d, ["mean", "variance", "entropy", "rsample"]),
            "log_prob": d.log_prob(T([[1, 2, 3], [3, 0, 3]])),
            "prob": d.prob(T([1.0, 2.0, 3.0])),
        }
    d = Multinomial(3, T([0.5, 0.5], "float64"))
    out["f64"] = [d.entropy(), d.log_prob(T([1.0, 2.0], "float64"))]
    return out


def case_multinomial_grads():
    def fn(p, v):
        d = Multinomial(4, p)
        return [d.log_prob(v), d.entropy(), d.mean]

    probs = np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]], "float32")
    return backprop(fn, probs, np.array([[1.0, 1.0, 2.0], [0.0, 3.0, 1.0]], "float32"))


def case_multinomial_samples():
    return {
        "doc": seeded(lambda: Multinomial(10, T([0.2, 0.3, 0.5])).sample((2, 3))),
        "batch": seeded(lambda: Multinomial(6, T([[2.0, 3.0, 5.0], [1.0, 0.0, 1.0]])).sample([2])),
        "0d": seeded(lambda: Multinomial(3, T([0.5, 0.5], "float64")).sample()),
    }


def case_multinomial_errors():
    p = T([0.5, 0.5])
    return {
        "float_count": expect_error(lambda: Multinomial(1.0, p)),
        "zero_count": expect_error(lambda: Multinomial(0, p)),
        "0d_probs": expect_error(lambda: Multinomial(3, T(0.5))),
        "sample_int": expect_error(lambda: Multinomial(3, p).sample(3)),
    }


# ---------------------------------------------------------------- Binomial


def case_binomial_values():
    out = {}
    cases = {
        "scalars": (10, 0.3),
        "tensor_probs": (5, T([0.3, 0.7])),
        "tensors": (T([5, 8]), T([0.5, 0.1])),
        "f64": (T([10, 20]), T([0.3, 0.5], "float64")),
        "count_tensor": (T(10), 0.3),
    }
    for key, (n, p) in cases.items():
        d = Binomial(n, p)
        dt = "float64" if key == "f64" else "float32"
        out[key] = {
            **shapes(d),
            "dtype": d.dtype,
            "total_count": d.total_count,
            "probs": d.probs,
            **methods(d, ["mean", "variance", "entropy", "rsample"]),
            "log_prob": d.log_prob(T([6.0, 2.0], dt)),
            "log_prob_out": d.log_prob(T([-1.0, 2.5], dt)),
            "prob": d.prob(T([[1, 2], [3, 4]])),
        }
    b1, b2 = Binomial(5, T([0.3, 0.7])), Binomial(5, T([0.5, 0.1]))
    out["kl"] = [b1.kl_divergence(b2), kl_divergence(b2, b1)]
    out["kl_counts"] = Binomial(T([5, 8]), T([0.5, 0.1])).kl_divergence(b1)
    out["doc_f64"] = Binomial(100, T([0.3, 0.6, 0.9], "float64")).entropy()
    return out


def case_binomial_grads():
    # every input needs a gradient: Paddle 3.3.1's broadcast_tensors backward crashes when
    # one of total_count and probs has none
    def fn(n, p, v):
        d = Binomial(n, p)
        return [d.log_prob(v), d.entropy(), d.mean, d.variance]

    def kl(n, p, q):
        return kl_divergence(Binomial(n, p), Binomial(n, q))

    n, p = np.array([6.0, 9.0], "float32"), np.array([0.3, 0.8], "float32")
    return {
        "methods": backprop(fn, n, p, np.array([2.0, 5.0], "float32")),
        "kl": backprop(kl, n, p, p[::-1].copy()),
    }


def case_binomial_samples():
    counts = T([0, 3, 15, 40, 200, 1000, 37, 5])
    probs = T([0.5, 0.0, 1.0, 0.2, 0.6, 0.05, 0.97, 0.5])  # inversion and BTRS, both tails
    return {
        "doc": seeded(lambda: Binomial(100, T([0.3, 0.6, 0.9])).sample([2])),
        "mixed": seeded(lambda: Binomial(counts, probs).sample([3])),
        "f64": seeded(lambda: Binomial(T([30, 4]), T([0.4, 0.9], "float64")).sample([2])),
        "0d": seeded(lambda: Binomial(10, 0.3).sample()),
    }


def case_binomial_errors():
    return {
        "int_probs": expect_error(lambda: Binomial(10, 1)),
        "float_count": expect_error(lambda: Binomial(10.5, 0.3)),
        "list_count": expect_error(lambda: Binomial([10], 0.3)),
        "sample_int": expect_error(lambda: Binomial(10, 0.3).sample(3)),
    }


# ---------------------------------------------------------------- Poisson


def case_poisson_values():
    out = {}
    cases = {
        "float": 3.0,
        "int": 4,
        "2d": T([[0.0, 2.0], [15.0, 40.0]]),
        "f64": T([0.5, 3.0, 12.5], "float64"),
        "small": T([0.5, 0.1]),
    }
    for key, rate in cases.items():
        d = Poisson(rate)
        dt = "float64" if key == "f64" else "float32"
        out[key] = {
            **shapes(d),
            "dtype": d.dtype,
            "rate": d.rate,
            **methods(d, ["mean", "variance", "entropy", "rsample"]),
            "log_prob": d.log_prob(T(3.0, dt)),
            "prob": d.prob(T([[1], [7]])),
        }
    p1 = Poisson(T([[30.0, 40.0], [8.0, 5.0]], "float64"))
    p2 = Poisson(T([[1000.0, 40.0], [7.0, 10.0]], "float64"))
    out["kl"] = [p1.kl_divergence(p2), kl_divergence(p2, p1)]
    out["kl_zero"] = Poisson(T([0.5, 3.0])).kl_divergence(Poisson(T([0.0, 1.0])))
    return out


def case_float32_cancellation():
    """Float32 sums of p log p over long supports (lgamma differences of large numbers): the
    doc examples' entropies and KLs carry lgamma's rounding, so they compare loosely."""
    p1 = Poisson(T([[30.0, 40.0], [8.0, 5.0]]))
    p2 = Poisson(T([[1000.0, 40.0], [7.0, 10.0]]))
    b = Binomial(100, T([0.3, 0.6, 0.9]))
    return {
        "binomial_doc": [b.mean, b.entropy()],
        "poisson_kl": [p1.kl_divergence(p2), kl_divergence(p2, p1)],
        "poisson_doc": Poisson(T(30.0)).entropy(),
    }


def case_poisson_grads():
    def fn(rate, v):
        d = Poisson(rate)
        return [d.log_prob(v), d.entropy(), d.mean]

    def kl(r1, r2):
        return kl_divergence(Poisson(r1), Poisson(r2))

    r = np.array([2.5, 14.0], "float32")
    return {
        "methods": backprop(fn, r, np.array([1.0, 12.0], "float32")),
        "kl": backprop(kl, r, r[::-1].copy()),
    }


def case_poisson_samples():
    rates = T([0.0, 0.5, 3.0, 11.9, 12.0, 30.0, 250.0, 4000.0])  # product and Devroye's methods
    return {
        "doc": seeded(lambda: Poisson(T(30.0)).sample([3])),
        "mixed": seeded(lambda: Poisson(rates).sample([2])),
        "f64": seeded(lambda: Poisson(T([[1.5], [80.0]], "float64")).sample([3])),
        "number": seeded(lambda: Poisson(7.0).sample()),
    }


def case_stream_continues():
    """A sample's draws end where Paddle's do: the next draw from the stream is Paddle's."""
    draws = {
        "dirichlet": lambda: Dirichlet(T([0.3, 2.0, 5.0])).sample([3]),
        "beta": lambda: Beta(T([0.5, 20.0]), 2.0).sample([2]),
        "binomial": lambda: Binomial(T([4, 300]), T([0.2, 0.45])).sample([2]),
        "poisson": lambda: Poisson(T([2.0, 60.0])).sample([2]),
        "multinomial": lambda: Multinomial(5, T([0.2, 0.8])).sample([2]),
        "lkj": lambda: LKJCholesky(3, 1.0, "cvine").sample([2]),
    }
    return {k: seeded(lambda f=f: [f(), paddle.rand([3]), f()]) for k, f in draws.items()}


def case_poisson_errors():
    return {
        "list": expect_error(lambda: Poisson([1.0])),
        "kl_shapes": expect_error(lambda: Poisson(T([1.0])).kl_divergence(Poisson(T([1.0, 2.0])))),
        "int_entropy": expect_error(lambda: Poisson(T(3)).entropy()),
        "sample_int": expect_error(lambda: Poisson(3.0).sample(3)),
    }
