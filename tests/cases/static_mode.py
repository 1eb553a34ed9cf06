"""Paddle's legacy static-graph mode: Programs built with ``paddle.static`` and run by an
Executor (feed / fetch, training with ``minimize``, gradients, test clones, saving).

Each case builds its own Programs and Scope inside ``static_programs()``, which turns static mode on
and always off again. Parameters get fixed values (``Assign`` initializers), so the numbers
do not depend on either framework's random initialization.
"""

import os
import tempfile

import numpy as np
from _static_util import fixed_attr, static_programs
from _util import expect_error, randn

import paddle

S = paddle.static
F = paddle.nn.functional


def _mlp(x, n_in, n_hidden, n_out):
    """Two fc layers; parameters named h_w, h_b, o_w, o_b."""
    h = S.nn.fc(x, n_hidden, weight_attr=fixed_attr(n_in, n_hidden, seed=1, name="h_w"),
                bias_attr=fixed_attr(n_hidden, seed=2, name="h_b"), activation="tanh")  # fmt: skip
    return S.nn.fc(h, n_out, weight_attr=fixed_attr(n_hidden, n_out, seed=3, name="o_w"),
                   bias_attr=fixed_attr(n_out, seed=4, name="o_b"))  # fmt: skip


X = randn(6, 4, seed=7)
Y = (np.arange(6) % 3).reshape(6, 1).astype("int64")


def case_feed_fetch_elementwise():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 3], "float32")
        y = S.data("y", [None, 3], "float32")
        z = paddle.add(x, y) * 2.0
        w = paddle.sum(z, axis=1)
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        outs = exe.run(main, feed={"x": randn(2, 3, seed=1), "y": randn(2, 3, seed=2)},
                       fetch_list=[z, w])  # fmt: skip
        return {"outs": outs, "shapes": [list(z.shape), list(w.shape)]}


def case_variable_meta():
    with static_programs():
        x = S.data("x", [None, 3, 2], "float32")
        b = S.data("b", [4], "bool")
        y = paddle.reshape(x, [-1, 6])
        m = paddle.matmul(y, paddle.ones([6, 5]))
        return {
            "x": [list(x.shape), str(x.dtype), x.ndim, x.dim(), x.name, x.stop_gradient],
            "y": [list(y.shape), str(y.dtype)],
            "m": [list(m.shape), str(m.dtype), m.stop_gradient],
            "sizes": [x.element_size(), b.element_size()],
            "cast": str(x.astype("int64").dtype),
        }


def case_fc_forward_batches():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 4], "float32")
        out = _mlp(x, 4, 5, 3)
        exe = S.Executor()
        exe.run(startup)
        a = exe.run(main, feed={"x": X}, fetch_list=[out])[0]
        b = exe.run(main, feed={"x": X[:2]}, fetch_list=[out])[0]
        return {"a": a, "b": b, "shape": list(out.shape)}


def _train(opt_fn, steps=4):
    with static_programs() as (main, startup):
        x = S.data("x", [None, 4], "float32")
        y = S.data("y", [None, 1], "int64")
        loss = paddle.mean(F.cross_entropy(_mlp(x, 4, 5, 3), y))
        opt_fn().minimize(loss)
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        losses = [exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0] for _ in range(steps)]
        names = sorted(p.name for p in main.global_block().all_parameters())
        scope = S.global_scope()
        w = {n: np.array(scope.find_var(n).get_tensor()) for n in names}
        return {"losses": losses, "names": names, "w": w}


def case_train_sgd():
    return _train(lambda: paddle.optimizer.SGD(learning_rate=0.5))


def case_train_adam():
    return _train(lambda: paddle.optimizer.Adam(learning_rate=0.05))


def case_train_momentum_weight_decay():
    return _train(lambda: paddle.optimizer.Momentum(learning_rate=0.1, weight_decay=0.01))


def case_append_backward_grads():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 4], "float32")
        loss = paddle.mean(_mlp(x, 4, 5, 3) ** 2)
        pg = S.append_backward(loss)
        exe = S.Executor()
        exe.run(startup)
        names = [p.name for p, _ in pg]
        by_var = exe.run(main, feed={"x": X}, fetch_list=[g for _, g in pg])
        return {"names": names, "by_var": by_var}


def case_gradients_wrt_data():
    with static_programs() as (main, startup):
        x = S.data("x", [3, 2], "float32")
        x.stop_gradient = False
        y = paddle.sum(x * x * 3.0)
        (g,) = S.gradients([y], [x])
        exe = S.Executor()
        return exe.run(main, feed={"x": randn(3, 2, seed=5)}, fetch_list=[y, g])


def case_gradients_with_target_gradients():
    with static_programs() as (main, startup):
        x = S.data("x", [3, 2], "float32")
        x.stop_gradient = False
        y = x * x * 3.0
        z = paddle.tanh(x)
        dy = S.data("dy", [3, 2], "float32")
        (g,) = S.gradients([y, z], [x], target_gradients=[dy, None])
        exe = S.Executor()
        feed = {"x": randn(3, 2, seed=5), "dy": randn(3, 2, seed=6)}
        return exe.run(main, feed=feed, fetch_list=[g])


def case_gradients_with_no_grad_set():
    with static_programs() as (main, startup):
        x = S.data("x", [3, 2], "float32")
        x.stop_gradient = False
        h = paddle.tanh(x) * 2.0
        y = paddle.sum(h * x)
        (g,) = S.gradients([y], [x], no_grad_set={h})  # h is a constant for the gradient
        exe = S.Executor()
        return exe.run(main, feed={"x": randn(3, 2, seed=5)}, fetch_list=[g])


def case_batch_norm_train():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 2, 3, 3], "float32")
        conv = paddle.nn.Conv2D(2, 3, 2, weight_attr=fixed_attr(3, 2, 2, 2, seed=1),
                                bias_attr=fixed_attr(3, seed=2))  # fmt: skip
        norm = paddle.nn.BatchNorm2D(3)
        bn = F.relu(norm(conv(x)))
        loss = paddle.mean(bn)
        paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
        exe = S.Executor()
        exe.run(startup)
        xs = randn(2, 2, 3, 3, seed=3)
        train = [exe.run(main, feed={"x": xs}, fetch_list=[loss])[0] for _ in range(2)]
        stats = exe.run(main, feed={"x": xs}, fetch_list=[norm._mean, norm._variance])
        return {"train": train, "stats": stats}


def case_embedding_lookup():
    with static_programs() as (main, startup):
        ids = S.data("ids", [None, 3], "int64")
        emb = paddle.nn.Embedding(10, 4, weight_attr=fixed_attr(10, 4, seed=9))(ids)
        out = paddle.sum(emb, axis=1)
        exe = S.Executor()
        exe.run(startup)
        return exe.run(main, feed={"ids": np.array([[1, 2, 3], [0, 9, 9]])}, fetch_list=[out, emb])


def case_accuracy_topk():
    with static_programs() as (main, startup):
        p = S.data("p", [None, 4], "float32")
        lab = S.data("lab", [None, 1], "int64")
        acc1 = S.accuracy(p, lab, k=1)
        acc2 = S.accuracy(p, lab, k=2)
        exe = S.Executor()
        return exe.run(main, feed={"p": randn(5, 4, seed=2), "lab": np.array([[0], [1], [2], [3], [1]])},
                       fetch_list=[acc1, acc2])  # fmt: skip


def case_scope_var_set_get():
    scope = S.Scope()
    with S.scope_guard(scope):
        S.global_scope().var("data").get_tensor().set(np.ones((2, 2), "float32"), paddle.CPUPlace())
    return {
        "value": np.array(scope.find_var("data").get_tensor()),
        "missing": scope.find_var("nope") is None,
    }


def case_save_load_program_state():
    with static_programs() as (main, startup), tempfile.TemporaryDirectory() as d:
        x = S.data("x", [None, 4], "float32")
        out = _mlp(x, 4, 5, 3)
        exe = S.Executor()
        exe.run(startup)
        before = exe.run(main, feed={"x": X}, fetch_list=[out])[0]
        S.save(main, os.path.join(d, "ck"))
        state = S.load_program_state(os.path.join(d, "ck"))
        S.set_program_state(main, {k: v * 0 for k, v in state.items()})
        zero = exe.run(main, feed={"x": X}, fetch_list=[out])[0]
        S.load(main, os.path.join(d, "ck"), exe)
        after = exe.run(main, feed={"x": X}, fetch_list=[out])[0]
        return {"keys": sorted(state), "before": before, "zero": zero, "after": after}


def case_inference_model_roundtrip():
    with static_programs() as (main, startup), tempfile.TemporaryDirectory() as d:
        x = S.data("x", [None, 4], "float32")
        y = S.data("y", [None, 1], "int64")
        out = F.softmax(_mlp(x, 4, 5, 3))
        loss = paddle.mean(F.cross_entropy(out, y))
        exe = S.Executor()
        exe.run(startup)
        S.save_inference_model(os.path.join(d, "m"), [x], [out], exe)
        prog, feeds, fetches = S.load_inference_model(os.path.join(d, "m"), exe)
        got = exe.run(prog, feed={feeds[0]: X[:3]}, fetch_list=fetches)[0]
        want = exe.run(main, feed={"x": X[:3], "y": Y[:3]}, fetch_list=[out])[0]
        return {"feeds": feeds, "n_fetch": len(fetches), "got": got, "want": want,
                "loss_shape": list(loss.shape)}  # fmt: skip


def case_print_program():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 3], "float32")
        y = S.data("y", [None, 3], "float32")
        paddle.add(x, y)
        return {"text": str(main), "x": str(x)}


def case_error_missing_feed():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 3], "float32")
        y = paddle.exp(x)
        return expect_error(lambda: S.Executor().run(main, feed={}, fetch_list=[y]))


def case_error_feed_shape():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 3], "float32")
        y = paddle.exp(x)
        bad = randn(2, 4, seed=1)
        return expect_error(lambda: S.Executor().run(main, feed={"x": bad}, fetch_list=[y]))


def case_error_feed_dtype():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 3], "float32")
        y = paddle.exp(x)
        bad = np.ones((2, 3), "float64")
        return expect_error(lambda: S.Executor().run(main, feed={"x": bad}, fetch_list=[y]))


def case_mode_switch():
    before = paddle.in_dynamic_mode()
    paddle.enable_static()
    inside = paddle.in_dynamic_mode()
    paddle.disable_static()
    return [before, inside, paddle.in_dynamic_mode()]


def case_cond_and_while_loop():
    with static_programs() as (main, startup):
        x = S.data("x", [3], "float32")
        y = S.nn.cond(paddle.sum(x) > 0, lambda: x * 2.0, lambda: x - 1.0)
        i = paddle.full([1], 0, "int64")
        n = paddle.full([1], 4, "int64")
        i2, acc = S.nn.while_loop(lambda i, a: i < n, lambda i, a: [i + 1, a * 1.5], [i, x])
        exe = S.Executor()
        pos = exe.run(main, feed={"x": np.array([1, 2, 3], "float32")}, fetch_list=[y, i2, acc])
        neg = exe.run(main, feed={"x": np.array([-5, 1, 1], "float32")}, fetch_list=[y, i2, acc])
        return {"pos": pos, "neg": neg, "shapes": [list(y.shape), list(acc.shape)]}


def case_unknown_batch_size_in_ops():
    with static_programs() as (main, startup):
        x = S.data("x", [None, 3], "float32")
        z = paddle.reshape(x, [0, 3, 1]) * paddle.sum(x, axis=1, keepdim=True).unsqueeze(-1)
        r = paddle.reshape(x, [-1])
        exe = S.Executor()
        out = exe.run(main, feed={"x": randn(4, 3, seed=3)}, fetch_list=[z, r])
        return {"out": out, "shapes": [list(z.shape), list(r.shape)]}


def case_seeded_default_initializers():
    paddle.seed(5)
    with static_programs() as (main, startup):
        x = S.data("x", [None, 4], "float32")
        y = S.nn.fc(x, 3)
        z = paddle.nn.Linear(3, 2)(y)
        exe = S.Executor()
        exe.run(startup)
        first = exe.run(main, feed={"x": randn(2, 4, seed=1)}, fetch_list=[y, z])
        exe.run(startup)  # runs the initializers again: fc's new draw
        again = exe.run(main, feed={"x": randn(2, 4, seed=1)}, fetch_list=[y])
        return {"first": first, "again": again}
