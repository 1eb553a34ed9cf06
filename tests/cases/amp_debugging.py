"""paddle.amp.debugging: check_numerics, the tensor checker and the operator stats, as
printed lines (captured at the file-descriptor level: Paddle prints from C++) and returned
values. Inputs are small exact numbers, so every printed statistic is exact.

The checker's op lists are global in Paddle and outlive the config that set them, so the one
case that sets ``checked_op_list`` runs last (cases run in name order)."""

import os
import tempfile

import numpy as np
from _util import normalize

import paddle

D = paddle.amp.debugging


def _printed(fn):
    """(lines printed by ``fn`` on fd 1, from Python or C++; its result or its exception)."""
    import io
    import sys

    sys.stdout.flush()
    saved_fd, saved_stdout = os.dup(1), sys.stdout
    with tempfile.TemporaryFile(mode="w+b") as f:
        os.dup2(f.fileno(), 1)
        sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), write_through=True)
        try:
            try:
                result = normalize(fn())
            except Exception as e:  # noqa: BLE001 - recorded
                msg = str(e).split(" (at ")[0].strip()
                result = {"error": type(e).__name__}
                if not msg.startswith("(") or msg.startswith("(PreconditionNotMet)"):
                    result["message"] = msg  # the checker's own words, not a C++ kernel's
            sys.stdout.flush()
        finally:
            sys.stdout = saved_stdout
            os.dup2(saved_fd, 1)
            os.close(saved_fd)
        f.seek(0)
        lines = f.read().decode().splitlines()
    keep = ("[PRECISION]", "AMP ", "[Warning", "<")
    return [
        ln for ln in lines if ln.startswith(keep) or (ln.startswith("  ") and "|" in ln)
    ], result


def _set_mode(mode):
    """The checker's mode is a global flag that outlives its config: set it explicitly."""
    D.enable_tensor_checker(D.TensorCheckerConfig(enable=True, debug_mode=mode))
    D.disable_tensor_checker()


def _x(values, dtype="float32"):
    return paddle.to_tensor(np.array(values, dtype=dtype))


def case_a_check_numerics():
    clean, nan, inf = _x([1.0, 2.0, 0.0]), _x([1.0, np.nan, 0.0]), _x([4.0, np.inf, -0.5, 0])
    out = []
    for mode in D.DebugMode:
        for t, name in ((clean, "clean"), (nan, "nan"), (inf, "inf")):
            out.append(_printed(lambda t=t, n=name, m=mode: D.check_numerics(t, "myop", n, m)))
    out.append(_printed(lambda: D.check_numerics(_x([1.5, 2], "float64"), "op", "v")))
    out.append(_printed(lambda: D.check_numerics(_x([1, 2], "int64"), "op", "v")))
    return out


def _ops():
    a, b = _x([1.0, 4.0, 0.0]), _x([2.0, 0.5, 0.0])
    paddle.log(a)
    paddle.divide(a, b)
    paddle.add(a, b)
    paddle.exp(_x([0.0, 1000.0], "float64"))
    paddle.cast(_x([4.0, 65536.0]), "float16")
    paddle.cast(_x([0.5, -1.0]), "bfloat16")
    paddle.add(_x([1, 2], "int32"), _x([3, 4], "int32"))
    return paddle.matmul(_x([[1.0, 2.0]]), _x([[3.0], [0.5]]))


def case_b_tensor_checker_modes():
    paddle.seed(7)
    out = []
    for mode in (D.DebugMode.CHECK_ALL, D.DebugMode.CHECK_NAN_INF):
        cfg = D.TensorCheckerConfig(enable=True, debug_mode=mode)

        def run(cfg=cfg):
            D.enable_tensor_checker(cfg)
            try:
                return _ops()
            finally:
                D.disable_tensor_checker()

        out.append(_printed(run))
    cfg = D.TensorCheckerConfig(enable=True)  # abort mode: the first NaN/Inf raises

    def abort():
        D.enable_tensor_checker(cfg)
        try:
            return paddle.divide(_x([1.0, 0.0]), _x([0.0, 0.0]))
        finally:
            D.disable_tensor_checker()

    out.append(_printed(abort))
    return out


def case_c_tensor_checker_seed_and_steps():
    paddle.seed(11)
    lines, _ = _printed(
        lambda: D.TensorCheckerConfig(enable=True, debug_mode=D.DebugMode.CHECK_ALL)
    )
    reseeded = paddle.rand([3])
    paddle.seed(11)
    cfg = D.TensorCheckerConfig(enable=True, debug_mode=D.DebugMode.CHECK_ALL, debug_step=[0, 2])
    steps = []
    for _ in range(4):

        def step():
            D.enable_tensor_checker(cfg)
            y = paddle.log(_x([-1.0, 1.0]))
            D.disable_tensor_checker()
            return y

        steps.append(_printed(step)[0])
    errors = []
    for kw in (dict(debug_step=[2, 1]), dict(debug_step=3), dict(checked_op_list="log")):
        errors.append(_printed(lambda kw=kw: D.TensorCheckerConfig(enable=False, **kw))[1])
    return [lines, reseeded, np.asarray(np.random.rand(2)), steps, errors]


def case_d_operator_stats():
    x = _x([[1.0, 2.0], [3.0, 4.0]])

    def run():
        with D.collect_operator_stats():
            y = paddle.matmul(x, x)
            z = paddle.add(y, x)
            paddle.cast(z, "int32")
            paddle.exp(paddle.cast(z, "float16"))
            return z

    return [_printed(run), _printed(D.disable_operator_stats_collection)]


def case_f_scale_names():
    # Paddle runs -x, paddle.neg and x * 2.0 as its scale kernel, and names them so
    x = _x([1.0, -2.0])

    def run():
        with D.collect_operator_stats():
            return [-x, paddle.neg(x), x * 2.0, 3 * x, paddle.scale(x, 3.0), x * x]

    def checked():
        _set_mode(D.DebugMode.CHECK_ALL)
        D.enable_tensor_checker(
            D.TensorCheckerConfig(enable=True, debug_mode=D.DebugMode.CHECK_ALL)
        )
        try:
            return [-x, x * 2.0]
        finally:
            D.disable_tensor_checker()

    lines, values = _printed(checked)  # (the config's seed lines depend on earlier cases)
    return [_printed(run), [ln for ln in lines if ln.startswith("[PRECISION]")], values]


def case_e_check_layer_numerics():
    class Net(paddle.nn.Layer):
        """One chain of ops, so the order of the backward kernels is fixed."""

        @D.check_layer_numerics
        def forward(self, x):
            return paddle.sqrt(paddle.abs(x))

    net = Net()
    good, bad = _x([[1.0, 4.0], [9.0, 16.0]]), _x([[1.0, -4.0], [9.0, 16.0]])
    out = []
    for mode in (D.DebugMode.CHECK_ALL, D.DebugMode.CHECK_NAN_INF_AND_ABORT):
        _set_mode(mode)
        out.append(_printed(lambda: net(good).numpy()))
        out.append(_printed(lambda: net(bad)))
        # sqrt's gradient at 0 is inf: the backward kernels inside the layer are checked too
        out.append(_printed(lambda: net(_x([[0.0, 4.0], [9.0, 16.0]])).sum().backward()))
        out.append(_printed(lambda: paddle.log(_x([-1.0]))))  # outside the layer: unchecked
    out.append(_printed(lambda: net()))
    out.append(_printed(lambda: net(np.ones(2))))
    # an aborted backward inside the layer leaves the checker on (as in Paddle): turn it off so
    # the programs run after this one in the process are not checked
    D.disable_tensor_checker()
    return out


def case_z_checked_op_list():
    cfg = D.TensorCheckerConfig(
        enable=True, debug_mode=D.DebugMode.CHECK_ALL, checked_op_list=["log", "divide"]
    )

    def run():
        D.enable_tensor_checker(cfg)
        try:
            return _ops()
        finally:
            D.disable_tensor_checker()

    return _printed(run)
