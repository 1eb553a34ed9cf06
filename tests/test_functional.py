"""paddle_compat/_core/functional.py: split state, run pure under jax.jit, write back."""

from __future__ import annotations

import gc
import weakref

import jax
import numpy as np
import pytest

import paddle
from paddle_compat._core import functional as F
from paddle_compat._core import gc_scope


def _bn_net():
    paddle.seed(0)
    return paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))


def test_state_of_layer_optimizer_generator():
    net = _bn_net()
    st = F.state_of(net)
    assert list(st) == ["0.weight", "0.bias", "1.weight", "1.bias", "1._mean", "1._variance"]
    assert st["0.weight"] is net[0].weight and st["1._mean"] is net[1]._mean
    opt = paddle.optimizer.Adam(parameters=net.parameters())
    net(paddle.ones([2, 3])).sum().backward()
    opt.step()
    ost = F.state_of(opt)
    assert any("moment1" in k for k in ost) and all(
        isinstance(t, paddle.Tensor) for t in ost.values()
    )
    assert list(F.rng_state()) == ["key"]


def test_swap_in_restores_everything():
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    other = paddle.to_tensor([5.0])
    before_w, before_o = w.numpy(), other.numpy()
    with F.swap_in([w], [jax.numpy.zeros(2)], leaves=[w]):
        assert w.numpy().tolist() == [0.0, 0.0] and not w.stop_gradient
        other.set_value(other * 3)  # a Tensor rebound inside the block is restored too
        (w * 2).sum().backward()
    np.testing.assert_array_equal(w.numpy(), before_w)
    np.testing.assert_array_equal(other.numpy(), before_o)
    assert w.grad is None


def test_functionalize_is_pure_and_write_back_applies():
    net = _bn_net()
    net.train()
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    state = list(F.state_of(net).values())
    pure = F.functionalize(net, state, (x,))
    before = [t.numpy() for t in state]
    out, written = jax.jit(pure)([t._value for t in state], [x._value])
    for t, b in zip(state, before):  # nothing changed yet
        np.testing.assert_array_equal(t.numpy(), b)
    assert len(pure.writes) == len(written) == 2  # BatchNorm's running mean and variance
    eager = net(x)  # the eager call updates the running statistics in place
    after = [t.numpy() for t in state]
    for t, b in zip(state, before):
        t.set_value(b)
    F.write_back(pure.writes, written)
    np.testing.assert_allclose(out[0], eager.numpy(), rtol=1e-6)
    for t, a in zip(state, after):
        np.testing.assert_allclose(t.numpy(), a, rtol=1e-6)


def test_recording_touched_finds_state_and_created():
    w = paddle.to_tensor([1.0, 2.0])
    keep = []

    def f(x):
        keep.append(paddle.zeros([2]))  # created and kept alive: state
        return x * w

    x = paddle.to_tensor([3.0, 4.0])
    with F.recording() as rec:
        out = f(x)
    touched = rec.touched((x,), out)
    ids = {id(t) for t in touched}
    assert id(w) in ids and id(keep[0]) in ids and id(x) not in ids and id(out) not in ids
    assert {id(t) for t in rec.read()} == {id(x), id(w)}  # read: what existed before


class _Cycle:
    """Garbage only a collection frees: an object that refers to itself."""

    def __init__(self):
        self.me = self


def _released_cycle():
    c = _Cycle()
    return weakref.ref(c)


@pytest.fixture
def no_automatic_gc():
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_new_objects_only_scopes_collections_to_the_block(no_automatic_gc):
    old = _released_cycle()  # garbage from before the block: not walked inside it
    with gc_scope.new_objects_only():
        with gc_scope.new_objects_only():  # nested blocks share the outermost one's freeze
            new = _released_cycle()
            gc.collect()
            assert new() is None and old() is not None
        assert gc.get_freeze_count() > 0  # the inner block's end thaws nothing
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert old() is None


def test_new_objects_only_keeps_a_users_own_freeze(no_automatic_gc):
    from paddle_compat._core import program_prefetch

    program_prefetch.drain()  # no read ahead running: its objects would die while frozen
    gc.freeze()  # e.g. a server froze its heap before forking workers
    try:
        frozen = gc.get_freeze_count()
        with gc_scope.new_objects_only():
            new = _released_cycle()
            gc.collect()
            assert new() is None
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_discovery_collects_only_what_the_call_made(no_automatic_gc):
    """to_static's first call drops Tensors the call released in reference cycles without a
    full collection (which walks every object of the process: seconds in a large one)."""
    lin = paddle.nn.Linear(2, 2)
    made = []

    def f(x):
        c = _Cycle()
        c.t = x * 2  # a Tensor the call creates and releases in a cycle: not state
        made.append(weakref.ref(c))
        return lin(x)

    old = _released_cycle()
    g = paddle.jit.to_static(f)
    x = paddle.ones([1, 2])
    np.testing.assert_allclose(g(x).numpy(), lin(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(g(x).numpy(), lin(x).numpy(), rtol=1e-6)
    assert made[0]() is None and old() is not None
    assert gc.get_freeze_count() == 0
    (entry,) = next(iter(g._cache.values()))
    assert {id(r()) for r in entry.state} == {id(lin.weight), id(lin.bias)}


def test_a_dropped_to_static_function_frees_its_program_without_a_collection(no_automatic_gc):
    """Its cache entries do not refer back to it: no cycle holds the compiled program (and
    its memory mappings) until a full collection."""
    lin = paddle.nn.Linear(2, 2)
    g = paddle.jit.to_static(lambda x: lin(x) * 2)
    x = paddle.ones([1, 2])
    g(x), g(x)  # discovered, then traced and compiled
    assert next(iter(g._cache.values()))[0].pure is not None
    ref = weakref.ref(g)
    del g
    assert ref() is None


def test_backward_after_the_to_static_function_is_dropped():
    """The tape node of a compiled call runs the function again in backward: it keeps what it
    needs, not the StaticFunction (``paddle.jit.to_static(f)(x).backward()`` in a loop)."""
    lin = paddle.nn.Linear(3, 1)
    g = paddle.jit.to_static(lambda x: lin(x).sum())
    g(paddle.ones([2, 3]))  # discovered
    loss = g(paddle.ones([2, 3]))  # the compiled call, one tape node
    del g
    loss.backward()
    np.testing.assert_array_equal(lin.weight.grad.numpy(), np.full([3, 1], 2.0, "float32"))


_IMPORT_FREEZE_SCRIPT = """
import gc, sys
{before}
import paddle
from paddle_compat._core import gc_scope
print(gc.get_freeze_count() > 0, gc_scope._imported > 0)
with gc_scope.new_objects_only():
    pass
print(gc.get_freeze_count() > 0)
"""


@pytest.mark.parametrize(
    "before,env,expected",
    [
        ("", "1", ["True True", "False"]),  # frozen by the import, thawed by the first block
        ("", "0", ["False False", "False"]),  # PADDLE_COMPAT_GC_FREEZE=0
        ("gc.freeze()", "1", ["True False", "True"]),  # the user's own freeze is kept
    ],
    ids=["default", "switched_off", "users_freeze"],
)
def test_import_freezes_its_heap_until_the_first_scoped_collection(before, env, expected):
    import os
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _IMPORT_FREEZE_SCRIPT.format(before=before)],
        capture_output=True,
        text=True,
        env={**os.environ, "PADDLE_COMPAT_GC_FREEZE": env},
        timeout=120,
    )
    assert out.stdout.split("\n")[:2] == expected, out.stderr[-2000:]
