"""paddle.nn decoding and paddle.nn.utils: what the goldens (tests/cases/nn_decode.py) cannot
say: signatures, error messages, gather_tree under to_static."""

from __future__ import annotations

import inspect

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F
import pytest

import paddle
from paddle_compat.nn._layers.decode import Decoder

IDS = np.array([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]], "int64")
PARENTS = np.array([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]], "int64")
WANT = [[[2, 2], [1, 6]], [[3, 3], [6, 1]], [[0, 1], [9, 0]]]


def test_gather_tree_eager_and_static():
    ids, par = paddle.to_tensor(IDS), paddle.to_tensor(PARENTS)
    assert F.gather_tree(ids, par).numpy().tolist() == WANT
    assert paddle.jit.to_static(F.gather_tree)(ids, par).numpy().tolist() == WANT
    empty = paddle.zeros([0, 2, 3], "int64")
    assert F.gather_tree(empty, empty).shape == [0, 2, 3]


@pytest.mark.parametrize(
    "ids,parents,err,msg",
    [
        (IDS, PARENTS[:2], ValueError, "shape of Input(Parents) must be same"),
        (IDS[0], PARENTS[0], ValueError, "must be a 3D tensor"),
        (IDS, PARENTS * 5, ValueError, "received parents 5 is greater than or equal to beam"),
        (IDS.astype("float32"), PARENTS.astype("float32"), RuntimeError, "`gather_tree`"),
        (IDS.astype("int32"), PARENTS, ValueError, "(int32) does not match"),
    ],
)
def test_gather_tree_errors(ids, parents, err, msg):
    with pytest.raises(err, match=msg.replace("(", r"\(").replace(")", r"\)")):
        F.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(parents))


def test_decode_signatures():
    sig = inspect.signature(nn.BeamSearchDecoder)
    assert list(sig.parameters) == [
        "cell",
        "start_token",
        "end_token",
        "beam_size",
        "embedding_fn",
        "output_fn",
    ]
    assert list(inspect.signature(nn.dynamic_decode).parameters) == [
        "decoder",
        "inits",
        "max_step_num",
        "output_time_major",
        "impute_finished",
        "is_test",
        "return_length",
        "kwargs",
    ]
    assert isinstance(
        inspect.getattr_static(nn.BeamSearchDecoder, "tile_beam_merge_with_batch"), staticmethod
    )


def test_decoder_base_and_beam_search_state():
    d = Decoder()
    assert d.tracks_own_finished is False
    for call in (
        lambda: d.initialize(None),
        lambda: d.step(0, None, None),
        lambda: d.finalize(0, 0, 0),
    ):
        with pytest.raises(NotImplementedError):
            call()
    dec = nn.BeamSearchDecoder(nn.GRUCell(2, 3), 0, 1, 2, output_fn=nn.Linear(3, 5))
    assert vars(dec).keys() == {
        "cell",
        "embedding_fn",
        "output_fn",
        "start_token",
        "end_token",
        "beam_size",
    }
    with pytest.raises(ValueError, match="initial_cell_states"):
        dec.initialize(None)


def test_weight_norm_hook_tracks_g_and_v():
    lin = nn.Linear(3, 4)
    nn.utils.weight_norm(lin)
    with paddle.no_grad():
        lin.weight_g.set_value(lin.weight_g * 2)
    x = paddle.ones([1, 3])
    w = lin.weight_v.numpy() / np.linalg.norm(lin.weight_v.numpy(), axis=1, keepdims=True)
    w = w * lin.weight_g.numpy()[:, None]
    np.testing.assert_allclose(lin(x).numpy(), x.numpy() @ w + lin.bias.numpy(), rtol=1e-5)
    nn.utils.remove_weight_norm(lin)
    np.testing.assert_allclose(lin.weight.numpy(), w, rtol=1e-5)
    assert not lin._forward_pre_hooks


def test_utils_signatures():
    u = nn.utils
    assert list(inspect.signature(u.spectral_norm).parameters) == [
        "layer",
        "name",
        "n_power_iterations",
        "eps",
        "dim",
    ]
    assert list(inspect.signature(nn.SpectralNorm).parameters) == [
        "weight_shape",
        "dim",
        "power_iters",
        "eps",
        "dtype",
    ]
    assert list(inspect.signature(u.vector_to_parameters).parameters) == [
        "vec",
        "parameters",
        "name",
    ]
