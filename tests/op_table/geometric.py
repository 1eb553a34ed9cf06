"""paddle.geometric message passing and segment reductions, the incubate ops beside them, and
paddle.text's viterbi_decode."""

from __future__ import annotations

import numpy as np

from . import Row, rand

X = rand(4, 3)  # node features
E = rand(5, 3, seed=1)  # edge features
SRC = np.array([0, 1, 2, 0, 3], "int64")
DST = np.array([1, 2, 1, 0, 1], "int64")  # node 3 receives nothing: Paddle fills 0
SEG = np.array([0, 0, 1, 1, 3], "int64")  # segment 2 is empty
D = rand(5, 3, seed=2)


def G(op, *args, **kw):
    return Row(op, *args, api=f"geometric.{op}", **kw)


POT = rand(2, 4, 3, seed=3)  # viterbi potentials [batch, length, tags]
TRANS = rand(3, 3, seed=4)
LENS = np.array([4, 2], "int64")

ROWS: list[Row] = [
    *(
        G("send_u_recv", (X, SRC, DST), {"reduce_op": r}, tag=r)
        for r in ("sum", "mean", "max", "min")
    ),
    G("send_u_recv", (X, SRC, DST), {"out_size": 6}, tag="out_size"),
    *(
        G("send_ue_recv", (X, E, SRC, DST), {"message_op": m, "reduce_op": r}, tag=f"{m}-{r}")
        for m, r in (("add", "sum"), ("mul", "mean"), ("sub", "max"), ("div", "min"))
    ),
    *(G("send_uv", (X, X * 2 + 1, SRC, DST), {"message_op": m}, tag=m) for m in ("add", "mul")),
    *(G(f"segment_{r}", (D, SEG)) for r in ("sum", "mean", "max", "min")),
    G(
        "reindex_graph",
        (np.array([0, 5], "int64"), np.array([5, 9, 0, 7], "int64"), np.array([3, 1], "int32")),
        grad=False,
    ),
    G(
        "reindex_heter_graph",
        (
            np.array([0, 5], "int64"),
            [np.array([5, 9], "int64"), np.array([0, 8, 9], "int64")],
            [np.array([1, 1], "int32"), np.array([2, 1], "int32")],
        ),
        grad=False,
    ),
    *(
        Row("identity_loss", (X,), {"reduction": r}, api="incubate.identity_loss", tag=str(r))
        for r in ("none", "sum", "mean", 0, 1, 2)
    ),
    Row(
        "softmax_mask_fuse",
        (rand(1, 2, 4, 4), np.triu(np.full((1, 1, 4, 4), -1e4, "float32"), 1)),
        api="incubate.softmax_mask_fuse",
        xfail={"grad": "Paddle 3.3.1 gives no gradient for mask; we differentiate it"},
    ),
    *(
        Row(
            "viterbi_decode",
            (POT, TRANS, LENS),
            {"include_bos_eos_tag": b},
            api="text.viterbi_decode",
            tag=str(b),
            grad=False,
        )
        for b in (True, False)
    ),
]
