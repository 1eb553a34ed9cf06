"""Core machinery: dtypes, places, Tensor, the op registry, autograd, RNG, trace state."""
