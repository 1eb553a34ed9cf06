"""tools/doc_examples.py: extracting docstring examples, comparing printed output, the worker."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import doc_examples as de  # noqa: E402

DOC = """Adds.

    Examples:
        .. code-block:: python

            >>> import paddle
            >>> x = paddle.to_tensor([1.0,
            ...                       2.0])
            >>> print(x + 1)
            Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
            [2., 3.])

        .. code-block:: python

            import paddle
            print(1)

        .. code-block:: text

            not python
"""


def test_code_blocks_strip_prompts_and_expected_output():
    blocks = de.code_blocks(DOC)
    assert blocks == [
        "import paddle\nx = paddle.to_tensor([1.0,\n                      2.0])\nprint(x + 1)\n",
        "import paddle\nprint(1)\n",
    ]


@pytest.mark.parametrize(
    "qualname,area",
    [
        ("paddle.add", "tensor"),
        ("paddle.Tensor.add", "tensor"),
        ("paddle.nn.functional.relu", "nn"),
        ("paddle.vision.transforms.Resize", "vision"),
        ("paddle.Model", "hapi"),
        ("paddle.callbacks.EarlyStopping", "hapi"),
    ],
)
def test_area_of(qualname, area):
    assert de.area_of(qualname) == area


@pytest.mark.parametrize(
    "got,want,same",
    [
        ("Tensor([1.00000000, 2.])", "Tensor([1.00001000, 2.])", True),  # within 1e-4
        ("Tensor([1.0, 2.0])", "Tensor([1.1, 2.0])", False),
        ("a  b\n c", "a b c", True),  # whitespace collapsed
        ("dtype=float32", "dtype=float64", False),  # words must match
        ("[nan, 1.]", "[nan, 1.]", True),
        ("[nan]", "[1.]", False),
        ("[1., 2.]", "[1., 2., 3.]", False),
        ("1e-08", "0.", True),  # atol
        ("-inf", "-inf", True),
        ("1.", "inf", False),  # infinities exact
        ("-inf", "inf", False),
        ("[1 2 3]", "[1. 2. 3.]", False),  # an integer is not a float
        ("123456789", "123456790", False),  # integers exact
        ("shape=[100001]", "shape=[100000]", False),
        ("loss: 0.6182 - 43ms/step", "loss: 0.6182 - 3ms/step", True),  # measured times
        ("step 1/3 - ETA: 2s - 1s/step", "step 1/3 - ETA: 0:12 - 840us/step", True),
        ("loss: 0.6182 - 43ms/step", "loss: 0.7182 - 3ms/step", False),  # values still count
    ],
)
def test_same_output(got, want, same):
    assert de.same_output(got, want) is same


def test_worker_runs_captures_and_recovers():
    w = de.compat_worker()
    try:
        ok = w.run("import paddle\nprint(paddle.to_tensor([1.5, 2.0]).sum().item())\n")
        assert ok["status"] == "ok" and ok["out"].strip() == "3.5"
        bad = w.run("import paddle\npaddle.no_such_api()\n")
        assert bad["status"] == "error" and bad["error"].startswith("AttributeError")
        seeded = [w.run("import paddle\nprint(paddle.rand([2]).tolist())\n")["out"] for _ in "ab"]
        assert seeded[0] == seeded[1]  # the same seed before every example
        assert w.run("print(input())\n")["status"] == "error"  # stdin is not the request pipe
        w.run("import os, threading\nthreading.Timer(0.2, os._exit, (0,)).start()\n")
        time.sleep(0.5)  # the worker died after answering: the next example is not blamed
        assert w.run("print(7)\n")["out"] == "7\n"
    finally:
        w.stop()


SHARDS = 4  # separate tests, so that pytest-xdist spreads the ~200 s of examples over workers


@pytest.mark.parametrize("shard", range(SHARDS))
def test_examples_that_passed_still_pass(shard):
    """Every docstring example listed in tests/data/doc_examples_passing.txt (the conformance
    floor) still prints what real Paddle printed; each shard's worker runs every SHARDS-th."""
    data = de.load()
    floor = set(de.PASSING.read_text().split())
    examples = [e for e in data["examples"] if e["id"] in floor]
    assert len(examples) == len(floor), "passing list names examples the data file lacks"
    examples = examples[shard::SHARDS]
    w, failed = de.compat_worker(), []
    try:
        for ex in examples:
            res = w.run(ex["code"])
            if res["status"] != "ok" or not de.same_output(res["out"], ex["out"]):
                failed.append(f"{ex['id']}: {res['error'] or 'output differs'}")
    finally:
        w.stop()
    assert not failed, f"{len(failed)} examples regressed:\n" + "\n".join(failed[:20])
