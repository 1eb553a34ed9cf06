"""Paddle's import paths for paddle.nn names (``paddle.nn.layer.<m>``,
``paddle.nn.functional.<m>``): every name real Paddle 3.3.1's module holds (recorded in
paddle_compat/nn/_module_paths.py by tools/record_nn_modules.py) is there and is the same object
as in ``paddle.nn`` / ``paddle.nn.functional``, or raises AttributeError."""

from __future__ import annotations

import importlib

import pytest

import paddle
from paddle_compat.nn._module_paths import MODULES

# Paddle modules with no name paddle-compat has (GPU-only kernels): no alias module
NOT_SERVED = {
    "paddle.nn.functional.moe_permute",
    "paddle.nn.functional.moe_unpermute",
    "paddle.nn.functional.sparse_attention",
}
# paddle.nn.functional.flash_attention is a registry namespace (F.flash_attention is the module)
SERVED = sorted(set(MODULES) - NOT_SERVED - {"paddle.nn.functional.flash_attention"})


@pytest.mark.parametrize("module", SERVED)
def test_module_path_holds_paddles_names(module):
    mod = importlib.import_module(module)
    source = paddle.nn.functional if ".functional." in module else paddle.nn
    have = [n for n in MODULES[module] if hasattr(source, n)]
    assert have, f"{module}: none of Paddle's names exist here"
    for name in have:
        assert getattr(mod, name) is getattr(source, name), f"{module}.{name}"
    for name in set(MODULES[module]) - set(have):
        with pytest.raises(AttributeError, match="Paddle has it"):
            getattr(mod, name)
    assert sorted(mod.__all__) == sorted(have)
    parent, _, leaf = module.rpartition(".")
    assert getattr(importlib.import_module(parent), leaf) is mod


@pytest.mark.parametrize("module", sorted(NOT_SERVED))
def test_modules_without_any_name_are_absent(module):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(module)


def test_model_code_imports():
    from paddle.nn.functional.flash_attention import flash_attention
    from paddle.nn.functional.loss import cross_entropy
    from paddle.nn.layer.layers import Layer
    from paddle.nn.layer.transformer import TransformerEncoderLayer

    assert flash_attention is paddle.nn.functional.flash_attention.flash_attention
    assert cross_entropy is paddle.nn.functional.cross_entropy
    assert Layer is paddle.nn.Layer and TransformerEncoderLayer is paddle.nn.TransformerEncoderLayer
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        _ = paddle.nn.layer.common.not_a_name
