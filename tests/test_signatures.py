"""Every public function and Tensor method has real Paddle 3.3.1's signature: parameter names,
order, kinds (positional, keyword-only, ``*args``) and defaults, as ``inspect.signature``
reports them (tests/goldens/signatures.json, recorded by tools/record_signatures.py).

The names that still differ are listed in tests/data/signature_gaps.txt; the list may only
shrink: a listed name that now matches fails too, so it gets removed."""

from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path

import pytest

import paddle

HERE = Path(__file__).parent
_RECORDED = json.loads((HERE / "goldens" / "signatures.json").read_text())
GOLDEN = _RECORDED["signatures"]
REFUSED = _RECORDED["refused_keywords"]  # paddle.<fn>(x, ...): the torch-style keywords refused
GAPS_FILE = HERE / "data" / "signature_gaps.txt"


def _gaps() -> set[str]:
    lines = GAPS_FILE.read_text().splitlines() if GAPS_FILE.exists() else []
    return {ln.split("#")[0].strip() for ln in lines if ln.split("#")[0].strip()}


def _ours(qualified: str):
    ns, _, name = qualified.rpartition(".")
    try:
        owner = paddle.Tensor if ns == "paddle.Tensor" else importlib.import_module(ns)
    except ModuleNotFoundError:  # a missing module: docs/api_coverage.md lists it
        return None
    return getattr(owner, name, None)


def _params(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [
        [p.name, p.kind.name, None if p.default is p.empty else repr(p.default)]
        for p in sig.parameters.values()
    ]


def _differences() -> dict[str, tuple]:
    out = {}
    for qualified, want in sorted(GOLDEN.items()):
        if want is None:  # Paddle's own object has no signature (a C++ method)
            continue
        obj = _ours(qualified)
        if obj is None:  # not implemented: docs/api_coverage.md lists it
            continue
        got = _params(obj)
        if got != want:
            out[qualified] = (want, got)
    return out


DIFFERENCES = _differences()


def test_golden_covers_the_public_api():
    assert len(GOLDEN) > 1000
    assert GOLDEN["paddle.add"][2] == ["name", "POSITIONAL_OR_KEYWORD", "None"]


def test_signatures_equal_paddles_outside_the_known_gaps():
    new = {k: v for k, v in DIFFERENCES.items() if k not in _gaps()}
    lines = [f"{k}\n  paddle: {w}\n  ours:   {g}" for k, (w, g) in list(new.items())[:20]]
    assert not new, f"{len(new)} signatures differ from Paddle's:\n" + "\n".join(lines)


def test_known_gaps_are_still_gaps():
    """A name on the gaps list that matches now (or no longer exists) must leave the list."""
    stale = sorted(_gaps() - set(DIFFERENCES))
    assert not stale, f"remove from {GAPS_FILE.name}: {stale}"


def _refuses(fn, keyword: str) -> bool:
    try:
        fn(**{keyword: paddle.ones([2, 2])})
    except TypeError as e:
        return f"unexpected keyword argument '{keyword}'" in str(e)
    except Exception:
        pass
    return False


def test_torch_style_keywords_accepted_as_in_paddle():
    """Paddle 3.3 takes ``input=`` for ``x`` and ``other=`` for ``y`` on some functions only;
    ours accept and refuse the same ones (a refused keyword is a TypeError)."""
    wrong = []
    for qualified, refused in sorted(REFUSED.items()):
        fn = _ours(qualified)
        params = GOLDEN.get(qualified) or []
        if fn is None:
            continue
        for kw, param in (("input", "x"), ("other", "y")):
            if param in [p[0] for p in params] and _refuses(fn, kw) != (kw in refused):
                wrong.append(
                    f"{qualified}({kw}=): Paddle {'refuses' if kw in refused else 'accepts'}"
                )
    assert not wrong, f"{len(wrong)} differ:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    "call",
    [
        lambda x, y: paddle.add(x, y, "my_add"),  # PaddleSeg passes name positionally
        lambda x, y: paddle.add(x, y, name="my_add"),
        lambda x, y: x.add(y, "my_add"),
    ],
)
def test_name_is_accepted_and_ignored(call):
    x, y = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])
    assert call(x, y).tolist() == [4.0, 6.0]


def test_out_takes_the_result_value_dtype_shape_and_history():
    """Paddle's ``out=``: the out Tensor becomes the result (its dtype and shape too) and
    gradients flow through it; the returned Tensor is the result."""
    x = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
    out = paddle.zeros([3], dtype="int32")
    res = paddle.add(x, paddle.to_tensor([1.0, 1.0]), out=out)
    assert out.tolist() == [2.0, -1.0] and out.dtype == paddle.float32 and out.shape == [2]
    assert res.tolist() == [2.0, -1.0] and not out.stop_gradient
    (out * out).sum().backward()
    assert x.grad.tolist() == [4.0, -2.0]


def test_add_alpha_scales_y():
    x, y = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3, 4], dtype="float32")
    assert paddle.add(x, y, alpha=2).tolist() == [7.0, 10.0]


def test_out_tuple_for_several_results():
    x = paddle.to_tensor([3.0, 1.0, 2.0])
    values, indices = paddle.zeros([1]), paddle.zeros([1], dtype="int64")
    paddle.topk(x, 2, out=(values, indices))
    assert values.tolist() == [3.0, 2.0] and indices.tolist() == [0, 2]


def test_out_of_the_wrong_kind_is_a_type_error():
    x = paddle.to_tensor([3.0, 1.0, 2.0])
    with pytest.raises(TypeError, match="out must be a Tensor"):
        paddle.add(x, x, out=[1.0, 2.0, 3.0])


def test_backward_refuses_a_graph_dump_path():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(NotImplementedError, match="dump_backward_graph_path"):
        (x * 2).sum().backward(dump_backward_graph_path="/tmp/g")
