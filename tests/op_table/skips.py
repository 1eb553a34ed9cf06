"""Public ops without a row, each with the reason (the coverage test accepts nothing else)."""

from __future__ import annotations

_RANDOM = (
    "random: values come from the RNG, whose algorithm differs from Paddle's; "
    "distributions are checked in tests/test_random.py"
)
# (dropout-like ops have rows for their deterministic cases: eval mode, p=0, p=1)

SKIPS: dict[str, str] = {
    "pca_lowrank": "randomized (Paddle draws a Gaussian sketch from its RNG)",
    "svd_lowrank": "randomized (Paddle draws a Gaussian sketch from its RNG)",
    **{
        n: _RANDOM
        for n in (
            "bernoulli",
            "bernoulli_",
            "binomial",
            "cauchy_",
            "geometric_",
            "log_normal",
            "log_normal_",
            "multinomial",
            "normal",
            "normal_",
            "poisson",
            "rand",
            "rand_like",
            "randint",
            "randint_like",
            "randn",
            "randn_like",
            "randperm",
            "standard_gamma",
            "standard_normal",
            "uniform",
            "gumbel_softmax",
        )
    },
}
