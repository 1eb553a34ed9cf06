"""``paddle.tensor`` and ``paddle.tensor.<module>`` are generated from the registry's
``tensor_modules`` trait and match real Paddle 3.3.1 (tests/goldens/tensor_modules.json,
recorded by tools/record_tensor_modules.py), except the differences listed here as data."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import paddle
from paddle_compat._core.registry import OpDef
from paddle_compat._ops._methods import namespace

GOLDEN = json.loads((Path(__file__).parent / "goldens" / "tensor_modules.json").read_text())
MODULES = GOLDEN["modules"]

_ALIAS = "an alias name of the op: Paddle defines it only at paddle.* level"
_EINSUM = "Paddle's einsum.py imports only the out-of-place op"
_ONE_SET = "all names of an op share its modules; Paddle's module imports only some of them"
# (public name, module): why our paddle.tensor.<module> differs from Paddle's
DIFFERENCES = {
    ("cast_", "linalg"): _ONE_SET,
    ("cast_", "stat"): _ONE_SET,
    ("transpose_", "manipulation"): _ONE_SET,
    **{
        (n, "einsum"): _EINSUM
        for n in ("mul", "mul_", "multiply_", "reshape_", "squeeze_", "transpose_", "unsqueeze_")
    },
    **{(n, "logic"): _ALIAS for n in ("eq", "ge", "greater", "le", "less", "lt", "ne")},
    **{(n, "manipulation"): _ALIAS for n in ("cat", "concatenate", "reverse", "take_along_dim")},
    **{
        (n, "math"): _ALIAS
        for n in ("clamp", "clamp_", "div", "div_", "ger", "mul_", "sub", "sub_")
    },
    ("unfold", "manipulation"): "Paddle's manipulation.unfold is Tensor.unfold; our op is "
    "tensor_unfold (in no tensor module, as in Paddle)",
}


def _ours(module: str) -> set[str]:
    return set(namespace(f"paddle.tensor.{module}"))


@pytest.mark.parametrize("module", MODULES)
def test_membership_matches_paddle(module):
    ours = _ours(module)
    theirs = {n for n, mods in GOLDEN["names"].items() if module in mods}
    differ = {n for n in ours ^ theirs if n in GOLDEN["names"]}
    listed = {n for n, m in DIFFERENCES if m == module}
    assert differ == listed, (
        f"paddle.tensor.{module}: only ours {sorted(ours - theirs)}, "
        f"only Paddle's {sorted(theirs - ours)}"
    )


def test_golden_covers_every_paddle_name():
    assert set(GOLDEN["names"]) == set(namespace("paddle"))


def test_public_modules_are_the_generated_namespaces():
    for module in MODULES:
        mod = importlib.import_module(f"paddle.tensor.{module}")
        for name, fn in namespace(f"paddle.tensor.{module}").items():
            got = getattr(mod, name)  # in-place variants are made per namespace
            assert got is fn if isinstance(fn, OpDef) else got.__name__ == name, (module, name)


@pytest.mark.parametrize("name", ["add", "exp", "reshape", "einsum", "to_tensor", "equal"])
def test_paddle_tensor_has_every_paddle_op(name):
    assert getattr(paddle.tensor, name) is getattr(paddle, name)


def test_paddle_tensor_is_the_paddle_namespace():
    ops = namespace("paddle")
    assert {n for n in ops if hasattr(paddle.tensor, n)} == set(ops)


# paddle.* names that our paddle.tensor (every paddle.* op) has and Paddle's paddle.tensor lacks:
# Paddle defines them outside paddle/tensor/ (nn.functional, audio windows, ...) or leaves them
# out of paddle/tensor/__init__.py
NOT_IN_PADDLE_TENSOR = {
    "adaptive_avg_pool1d",
    "assign",
    "bartlett_window",
    "bernoulli",
    "blackman_window",
    "cat",
    "clone",
    "concatenate",
    "conv1d",
    "conv2d",
    "conv3d",
    "crop",
    "erf_",
    "expm1_",
    "gaussian",
    "gaussian_",
    "ger",
    "group_norm",
    "hamming_window",
    "hann_window",
    "kaiser_window",
    "layer_norm",
    "logspace",
    "pdist",
    "standard_gamma",
    "tensor_unfold",
    "tril_indices",
    "triu_indices",
}


def test_paddle_tensor_differences_are_listed():
    assert set(namespace("paddle.tensor")) - set(GOLDEN["in_paddle_tensor"]) == NOT_IN_PADDLE_TENSOR


def test_math_add_is_paddle_add():
    assert paddle.tensor.math.add is paddle.add
    assert paddle.tensor.ops.exp is paddle.exp is paddle.tensor.math.exp
    assert paddle.tensor.logic.equal is paddle.equal


def test_import_forms():
    import paddle.tensor.manipulation as M
    from paddle.tensor.creation import to_tensor
    from paddle.tensor.math import add

    x = to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert M.reshape(x, [4]).shape == [4]
    assert add(x, x).numpy().tolist() == [[2.0, 4.0], [6.0, 8.0]]
    assert paddle.tensor.to_string.set_printoptions is paddle.set_printoptions


def test_einsum_attribute_is_the_op_after_importing_the_module():
    """As in Paddle: ``paddle.tensor.einsum`` is the op even after ``import
    paddle.tensor.einsum`` (a fresh process: the alias must not rebind it to the module)."""
    code = (
        "import paddle, paddle.tensor.einsum, paddle_compat.tensor.math\n"
        "assert paddle.tensor.einsum is paddle.einsum, paddle.tensor.einsum\n"
        "import sys; assert sys.modules['paddle.tensor.einsum'].einsum is paddle.einsum\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
