"""``paddle.static.nn`` layers Paddle 3.3.1 builds only with PIR off (its PIR static mode
refuses them): conv2d_transpose, group_norm, instance_norm, prelu. Recorded with
``FLAGS_enable_pir_api=0`` in the environment:

    FLAGS_enable_pir_api=0 /work/paddle-venv/bin/python tools/record_goldens.py static_nn_legacy

Each case builds one layer on a fed [2, 4, 5, 5] input with parameters from ``Assign``
initializers and returns the output and the parameters' names and shapes.
"""

import contextlib

import numpy as np
from _util import randn

import paddle

S = paddle.static
X = randn(2, 4, 5, 5, seed=3)


@contextlib.contextmanager
def _static():
    paddle.enable_static()
    try:
        main, startup = S.Program(), S.Program()
        with (
            paddle.base.unique_name.guard(),
            S.scope_guard(S.Scope()),
            S.program_guard(main, startup),
        ):
            yield main, startup
    finally:
        paddle.disable_static()


def _attr(*shape, seed):
    return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(randn(*shape, seed=seed)))


def _run(build):
    with _static() as (main, startup):
        x = S.data("x", [None, 4, 5, 5], "float32")
        y = build(x)
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        (out,) = exe.run(main, feed={"x": X}, fetch_list=[y])
        params = sorted([p.name, list(p.shape)] for p in main.all_parameters())
        return {"out": np.asarray(out), "shape": list(y.shape), "params": params}


def case_conv2d_transpose():
    return _run(lambda x: S.nn.conv2d_transpose(
        x, 3, filter_size=3, stride=2, padding=1, param_attr=_attr(4, 3, 3, 3, seed=1),
        bias_attr=_attr(3, seed=2),
    ))  # fmt: skip


def case_conv2d_transpose_from_output_size():
    return _run(lambda x: S.nn.conv2d_transpose(
        x, 2, output_size=[10, 10], stride=2, param_attr=_attr(4, 2, 2, 2, seed=1), act="relu",
    ))  # fmt: skip


def case_group_norm():
    return _run(lambda x: S.nn.group_norm(
        x, groups=2, param_attr=_attr(4, seed=1), bias_attr=_attr(4, seed=2), act="tanh",
    ))  # fmt: skip


def case_instance_norm():
    return _run(lambda x: S.nn.instance_norm(
        x, param_attr=_attr(4, seed=1), bias_attr=_attr(4, seed=2),
    ))  # fmt: skip


def case_prelu_all():
    return _run(lambda x: S.nn.prelu(x, "all", param_attr=_attr(1, seed=1)))


def case_prelu_channel():
    return _run(lambda x: S.nn.prelu(x, "channel", param_attr=_attr(1, 4, 1, 1, seed=1)))


def case_prelu_element():
    return _run(lambda x: S.nn.prelu(x, "element", param_attr=_attr(1, 4, 5, 5, seed=1)))


def case_prelu_default_alpha():
    return _run(lambda x: S.nn.prelu(x, "channel"))
