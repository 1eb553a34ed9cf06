"""``paddle.signal``: stft, istft, frame and overlap_add (generated from the op registry)."""

from ._ops._methods import namespace as _namespace

globals().update(_namespace("paddle.signal"))

# Paddle's __all__: frame and overlap_add are reachable but not listed
_PUBLIC = ("stft", "istft")
__all__ = list(_PUBLIC)
