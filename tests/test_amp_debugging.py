"""paddle.amp.debugging beyond the goldens (tests/cases/amp_debugging.py): skipped ops, the
output directory, to_static, and that nothing stays hooked into the registry afterwards."""

from __future__ import annotations

import numpy as np
import pytest

import paddle
from paddle_compat._core import op_observers
from paddle_compat.amp import debugging as D


@pytest.fixture(autouse=True)
def _fresh_flags():
    saved = {k: getattr(D._Flags, k) for k in ("level", "checked", "skipped", "output_dir")}
    yield
    D.disable_tensor_checker()
    D.disable_operator_stats_collection()
    for k, v in saved.items():
        setattr(D._Flags, k, v)
    assert op_observers.OBSERVERS == []


def _checked(capsys, fn, **config):
    cfg = D.TensorCheckerConfig(enable=True, debug_mode=D.DebugMode.CHECK_ALL, **config)
    capsys.readouterr()
    D.enable_tensor_checker(cfg)
    try:
        fn()
    finally:
        D.disable_tensor_checker()
    return [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("[PRECISION]")]


def _two_ops():
    a = paddle.to_tensor([1.0, 4.0])
    paddle.log(a)
    paddle.divide(a, paddle.to_tensor([2.0, 0.0]))


def test_skipped_ops_use_paddles_op_names(capsys):
    lines = _checked(capsys, _two_ops, skipped_op_list=["elementwise_div"])
    assert [ln.split("op=")[1].split(",")[0] for ln in lines] == ["log"]


def test_output_dir_gets_the_lines_instead_of_stdout(tmp_path, capsys):
    lines = _checked(capsys, _two_ops, output_dir=str(tmp_path))
    assert lines == []
    (log,) = tmp_path.iterdir()
    written = log.read_text().splitlines()
    assert len(written) == 2 and "op=divide" in written[1] and "num_inf=1" in written[1]


def test_compiled_code_is_not_checked_and_check_numerics_says_why(capsys):
    @paddle.jit.to_static
    def f(x):
        return paddle.log(x) * 2

    x = paddle.to_tensor([-1.0, 2.0])
    f(x)  # compiled: later calls run the program
    out = []
    assert _checked(capsys, lambda: out.append(f(x))) == []
    assert np.isnan(out[0].numpy()[0])
    with pytest.raises(RuntimeError, match="outside paddle.jit.to_static"):
        paddle.jit.to_static(lambda v: D.check_numerics(v, "op", "v"))(x)


def test_stats_count_nested_collections_once_and_switch_off(capsys):
    x = paddle.ones([2])
    with D.collect_operator_stats():
        paddle.add(x, x)
        paddle.add(x, x).astype("bfloat16")
    table = capsys.readouterr().out
    assert (
        "  elementwise_add                         |  0                |  0                |  2"
        in table
    )
    assert " op count: 2 " in table
    paddle.add(x, x)
    assert op_observers.OBSERVERS == []
