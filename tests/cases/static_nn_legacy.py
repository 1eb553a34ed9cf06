"""Static-mode APIs Paddle 3.3.1 runs only with PIR off (its PIR static mode refuses them):
the ``paddle.static.nn`` layers conv2d_transpose, group_norm, instance_norm, prelu, and
``static.accuracy`` writing ``correct`` / ``total``. Recorded with
``FLAGS_enable_pir_api=0`` in the environment:

    FLAGS_enable_pir_api=0 /work/paddle-venv/bin/python tools/record_goldens.py static_nn_legacy

Each case builds one layer on a fed [2, 4, 5, 5] input with parameters from ``Assign``
initializers and returns the output and the parameters' names and shapes.
"""

import numpy as np
from _static_util import fixed_attr, static_programs
from _util import randn

import paddle

S = paddle.static
X = randn(2, 4, 5, 5, seed=3)


def _run(build):
    with static_programs() as (main, startup):
        x = S.data("x", [None, 4, 5, 5], "float32")
        y = build(x)
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        (out,) = exe.run(main, feed={"x": X}, fetch_list=[y])
        params = sorted([p.name, list(p.shape)] for p in main.all_parameters())
        return {"out": np.asarray(out), "shape": list(y.shape), "params": params}


def case_conv2d_transpose():
    return _run(lambda x: S.nn.conv2d_transpose(
        x, 3, filter_size=3, stride=2, padding=1, param_attr=fixed_attr(4, 3, 3, 3, seed=1),
        bias_attr=fixed_attr(3, seed=2),
    ))  # fmt: skip


def case_conv2d_transpose_from_output_size():
    return _run(lambda x: S.nn.conv2d_transpose(
        x, 2, output_size=[10, 10], stride=2, param_attr=fixed_attr(4, 2, 2, 2, seed=1), act="relu",
    ))  # fmt: skip


def case_group_norm():
    return _run(lambda x: S.nn.group_norm(
        x, groups=2, param_attr=fixed_attr(4, seed=1), bias_attr=fixed_attr(4, seed=2), act="tanh",
    ))  # fmt: skip


def case_instance_norm():
    return _run(lambda x: S.nn.instance_norm(
        x, param_attr=fixed_attr(4, seed=1), bias_attr=fixed_attr(4, seed=2),
    ))  # fmt: skip


def case_prelu_all():
    return _run(lambda x: S.nn.prelu(x, "all", param_attr=fixed_attr(1, seed=1)))


def case_prelu_channel():
    return _run(lambda x: S.nn.prelu(x, "channel", param_attr=fixed_attr(1, 4, 1, 1, seed=1)))


def case_prelu_element():
    return _run(lambda x: S.nn.prelu(x, "element", param_attr=fixed_attr(1, 4, 5, 5, seed=1)))


def case_prelu_default_alpha():
    return _run(lambda x: S.nn.prelu(x, "channel"))


def case_accuracy_correct_total():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 5], "float32")
        label = S.data("label", [None, 1], "int64")
        correct = S.create_global_var([1], 0, "int32", persistable=True, name="correct")
        total = S.create_global_var([1], 0, "int32", persistable=True, name="total")
        acc = S.accuracy(x, label, k=2, correct=correct, total=total)
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        xs = randn(6, 5, seed=4)
        labels = (np.arange(6) * 7 % 5).reshape(6, 1).astype("int64")
        runs = []
        for n in (6, 4):  # each run writes its own counts
            feed = {"x": xs[:n], "label": labels[:n]}
            runs.append(exe.run(main, feed=feed, fetch_list=[acc, correct, total]))
        return runs


def case_global_step_counter():
    """A counter a Program increments in place: every run advances it, whatever is fetched."""
    with static_programs() as (main, startup):
        x = S.data("x", [None, 2], "float32")
        step = S.create_global_var([1], 0, "int64", persistable=True, name="step")
        paddle.increment(step)
        y = x * 2.0
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        for _ in range(3):
            exe.run(main, feed={"x": X[0, 0, :2, :2]}, fetch_list=[y])
        return exe.run(main, feed={"x": X[0, 0, :2, :2]}, fetch_list=[step, y])
