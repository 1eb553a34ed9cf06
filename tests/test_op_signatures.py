"""Public op signatures: every op function is annotated for what it receives (``jax.Array`` for
tensor parameters, Python types for static ones, ``Tensor`` in composite ops) and what it
returns; ``inspect.signature(paddle.<op>)`` shows what users call, with ``Tensor``."""

from __future__ import annotations

import importlib
import inspect
import pydoc
import subprocess
import sys
from pathlib import Path

import pytest

import paddle
from paddle_compat._core.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = sorted((n, od) for n, od in REGISTRY.items() if not n.startswith("_") and od.namespaces)

# Deliberate exceptions, as data: (op, parameter or "return") -> why it has no annotation.
UNANNOTATED: dict[tuple[str, str], str] = {}


def _annotations(od) -> dict[str, object]:
    sig = inspect.signature(od.fn)
    out = {p.name: p.annotation for p in sig.parameters.values()}
    out["return"] = sig.return_annotation
    return out


def test_every_public_op_annotates_every_parameter_and_its_return():
    missing = [
        f"{name}.{p}"
        for name, od in PUBLIC
        for p, a in _annotations(od).items()
        if a is inspect.Parameter.empty and (name, p) not in UNANNOTATED
    ]
    assert len(PUBLIC) > 400
    assert not missing, f"unannotated: {missing}"


def test_annotations_resolve_in_their_modules():
    """No typo or missing import hides behind a string annotation."""
    bad = []
    for name, od in PUBLIC:
        env = vars(inspect.getmodule(od.fn))
        for p, a in _annotations(od).items():
            if isinstance(a, str):
                try:
                    eval(a, env)
                except Exception as e:
                    bad.append(f"{name}.{p}: {a!r} ({type(e).__name__}: {e})")
    assert not bad, bad


def test_tensor_parameters_are_arrays_and_static_ones_are_not():
    """A plain op receives jax.Arrays exactly in its ``tensors`` parameters; a composite op
    receives Tensors (and Python values), never jax.Arrays."""
    bad = []
    for name, od in PUBLIC:
        for p, a in _annotations(od).items():
            text = str(a)
            if p in od.reserved:  # name / out: handled by call_op, annotated as users pass them
                wrong = p == "out" and "Tensor" not in text and text != "None"
            elif od.composite:
                wrong = "jax.Array" in text
            elif p == "return":
                wrong = "jax.Array" not in text and "Tensor" in text
            elif p in od.tensors:
                wrong = "jax.Array" not in text
            else:
                wrong = "jax.Array" in text or "Tensor" in text
            if wrong:
                bad.append(f"{name}.{p}: {text}")
    assert not bad, bad


def _public_objects():
    for name, od in PUBLIC:
        for ns in od.namespaces:
            mod = importlib.import_module(ns.replace("paddle", "paddle_compat", 1))
            for n in (name, *od.extra_names):
                yield f"{ns}.{n}", getattr(mod, n)


def test_every_public_op_signature_shows_tensor_never_jax_array():
    bad = [qual for qual, obj in _public_objects() if "Array" in str(inspect.signature(obj))]
    assert not bad, bad


CASES = [
    (
        paddle.add,
        "(x: 'Tensor', y: 'Tensor', name: 'str | None' = None, *, alpha: 'float' = 1, "
        "out: 'Tensor | None' = None) -> 'Tensor'",
    ),
    (
        paddle.exp,
        "(x: 'Tensor', name: 'str | None' = None, *, out: 'Tensor | None' = None) -> 'Tensor'",
    ),
    (paddle.tan, "(x: 'Tensor', name: 'str | None' = None) -> 'Tensor'"),  # no out in Paddle
    (paddle.trunc, "(input: 'Tensor', name: 'str | None' = None) -> 'Tensor'"),
    (
        paddle.divide,
        "(x: 'Tensor', y: 'Tensor', name: 'str | None' = None, *, "
        "rounding_mode: 'str | None' = None, out: 'Tensor | None' = None) -> 'Tensor'",
    ),
    (
        paddle.zeros,  # composite: device placement and requires_grad on the new Tensor
        "(shape: 'int | Sequence[int]', dtype: 'DTypeLike | None' = None, "
        "name: 'str | None' = None, *, out: 'Tensor | None' = None, "
        "device: 'str | Place | None' = None, requires_grad: 'bool' = False, "
        "pin_memory: 'bool' = False) -> 'Tensor'",
    ),
    (
        paddle.concat,
        "(x: 'Sequence[Tensor]', axis: 'int' = 0, name: 'str | None' = None, *, "
        "out: 'Tensor | None' = None) -> 'Tensor'",
    ),
    (
        paddle.clip,  # composite: Python number bounds become Tensors of x's dtype
        "(x: 'Tensor', min: 'float | Tensor | None' = None, max: 'float | Tensor | None' = None, "
        "name: 'str | None' = None, *, out: 'Tensor | None' = None) -> 'Tensor'",
    ),
    (
        paddle.split,
        "(x: 'Tensor', num_or_sections: 'int | Sequence[int]', axis: 'int' = 0, "
        "name: 'str | None' = None) -> 'list[Tensor]'",
    ),
    (
        paddle.sum,
        "(x: 'Tensor', axis: 'int | Sequence[int] | None' = None, "
        "dtype: 'DTypeLike | None' = None, keepdim: 'bool' = False, "
        "name: 'str | None' = None, *, out: 'Tensor | None' = None) -> 'Tensor'",
    ),
    (paddle.einsum, "(equation: 'str', *operands: 'Tensor') -> 'Tensor'"),
    (
        paddle.topk,
        "(x: 'Tensor', k: 'int | Tensor', axis: 'int | None' = None, "  # composite
        "largest: 'bool' = True, sorted: 'bool' = True, name: 'str | None' = None, *, "
        "out: 'Tensor | None' = None) "
        "-> 'tuple[Tensor, Tensor]'",
    ),
    (
        paddle.linalg.svd,
        "(x: 'Tensor', full_matrices: 'bool' = False, name: 'str | None' = None, *, "
        "out: 'Tensor | None' = None) "
        "-> 'tuple[Tensor, Tensor, Tensor]'",
    ),
    (paddle.nn.functional.relu, "(x: 'Tensor') -> 'Tensor'"),
    # a composite wrapper (detaching the label) over a private kernel written on jax arrays
    (
        paddle.nn.functional.log_loss,
        "(input: 'Tensor', label: 'Tensor', epsilon: 'float' = 0.0001) -> 'Tensor'",
    ),
    (
        paddle.hann_window,
        "(window_length: 'int', periodic: 'bool' = True, *, "
        "dtype: 'DTypeLike' = 'float32', layout: 'None' = None, "
        "device: 'str | None' = None, pin_memory: 'bool' = False, "
        "requires_grad: 'bool' = False) -> 'Tensor'",
    ),
]


@pytest.mark.parametrize("obj, expected", CASES, ids=[o.__name__ for o, _ in CASES])
def test_public_signature_reads_tensor(obj, expected):
    assert str(inspect.signature(obj)) == expected


def test_help_shows_the_signature_and_docstring():
    text = pydoc.render_doc(paddle.concat, renderer=pydoc.plaintext)
    assert (
        "concat(x: 'Sequence[Tensor]', axis: 'int' = 0, name: 'str | None' = None, *, "
        "out: 'Tensor | None' = None) -> 'Tensor'"
    ) in text
    assert paddle.concat.__doc__.strip() in text


def test_an_op_stored_on_a_class_is_not_bound():
    class Holder:
        fn = paddle.exp

    assert Holder.fn is paddle.exp and Holder().fn is paddle.exp


def test_calling_an_op_does_not_build_its_signature():
    """The public signature is built on first inspection, never on the call path."""
    code = (
        "import paddle; from paddle_compat._core.registry import REGISTRY; "
        "x = paddle.ones([2]); paddle.add(x, 1.0); paddle.concat([x, x]); x.exp(); "
        "assert not [n for n, od in REGISTRY.items() if '__signature__' in vars(od)]"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
