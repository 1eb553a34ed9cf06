"""Linear algebra: norms, distances, products, decompositions and solvers."""

from __future__ import annotations

import numpy as np

from . import Row, ints, rand

A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], "float32")  # SPD
B = rand(3, 2, seed=1)
X = rand(2, 3, 4)
M = rand(3, 4, seed=2)
A64 = A.astype("float64")
BA = np.stack([A, A + np.eye(3, dtype="float32")])  # batch of SPD matrices
U = np.triu(A)
T4 = (1e-4, 1e-5)


def L(op, *args, **kw):
    return Row(op, *args, api=f"linalg.{op}", **kw)


ROWS: list[Row] = [
    Row("norm", (X,)),
    Row("norm", (X,), {"p": 1, "axis": -1, "keepdim": True}, tag="p1-axis"),
    Row("norm", (M,), {"p": "fro"}, tag="fro"),
    Row("norm", (M,), {"p": "nuc"}, tag="nuc", tol=T4),
    Row("norm", (X,), {"p": float("inf"), "axis": [1, 2]}, tag="inf-matrix"),
    Row("norm", (rand(dtype="float64"),), tag="f64-0d"),
    L("vector_norm", (X,)),
    L("vector_norm", (X,), {"p": 3, "axis": [0, 2]}, tag="p3"),
    L("vector_norm", (X,), {"p": 0}, tag="p0"),
    L("matrix_norm", (X,)),
    L("matrix_norm", (X,), {"p": 1, "axis": [-1, -2], "keepdim": True}, tag="p1"),
    L("matrix_norm", (M,), {"p": 2}, tag="p2", tol=T4),
    Row("dist", (M, rand(4, seed=3))),
    Row("dist", (M, rand(3, 4, seed=3)), {"p": 1}, tag="p1"),
    Row("dist", (M, rand(3, 4, seed=3)), {"p": float("inf")}, tag="inf"),
    Row("cdist", (rand(3, 2), rand(4, 2, seed=1))),
    Row("cdist", (rand(2, 3, 2), rand(2, 4, 2, seed=1)), {"p": 1.0}, tag="p1-batch"),
    Row("cross", (rand(2, 3), rand(2, 3, seed=1)), bad=(((rand(2, 2), rand(2, 2)), {}),)),
    Row("cross", (rand(3, 2), rand(3, 2, seed=1)), {"axis": 0}, tag="axis0"),
    Row("t", (M,), tag="linalg"),
    Row(
        "mv",
        (M, rand(4, seed=3)),
        bad=(
            ((M, rand(3)), {}),
            ((rand(4), rand(4)), {}),
            ((M, rand(4, 1)), {}),
            ((M, rand(4, dtype="float64")), {}),
            ((ints(3, 4), ints(4)), {}),
            ((M, [1.0, 2.0, 3.0, 4.0]), {}),
            (([[1.0, 2.0, 3.0, 4.0]], rand(4)), {}),
        ),
    ),
    Row("mv", (rand(2, 3, dtype="float64"), rand(3, dtype="float64", seed=1)), tag="f64"),
    Row("matrix_transpose", (X,), bad=(((rand(3),), {}), ((rand(),), {}))),
    Row("matrix_transpose", (ints(2, 3),), tag="int64"),
    L("matrix_transpose", (M,), tag="linalg"),
    Row("trace", (M,), bad=(((rand(3),), {}),)),
    Row("trace", (X,), {"offset": 1, "axis1": 1, "axis2": 2}, tag="batch"),
    Row("trace", (ints(3, 3),), tag="int64"),
    Row("vecdot", (M, rand(3, 4, seed=3))),
    Row("vecdot", (M, rand(4, seed=3)), {"axis": -1}, tag="bcast"),
    L("multi_dot", ([rand(2, 3), rand(3, 4, seed=1), rand(4, 2, seed=2)],)),
    L("multi_dot", ([rand(3), rand(3, 2, seed=1)],), tag="vec"),
    L("matrix_power", (A, 3)),
    L("matrix_power", (A, -2), tag="neg", tol=T4),
    L("matrix_power", (A, 0), tag="zero"),
    L("cov", (M,)),
    L("cov", (M,), {"rowvar": False, "ddof": False}, tag="cols"),
    L(
        "cov",
        (M,),
        {"fweights": np.array([1, 2, 1, 3]), "aweights": rand(4, low=0.5)},
        tag="weights",
    ),
    L("corrcoef", (M,)),
    L("corrcoef", (M,), {"rowvar": False}, tag="cols"),
    # decompositions
    L("det", (A,), bad=(((M,), {}),)),
    L("det", (BA,), tag="batch"),
    L("det", (A64,), tag="f64"),
    L("slogdet", (A,)),
    L("slogdet", (-A,), tag="neg"),
    L("inv", (A,), tol=T4, bad=(((M,), {}),)),
    L("inv", (BA,), tag="batch", tol=T4),
    Row("inverse", (A,), tol=T4),
    L("pinv", (M,), tol=T4),
    L("pinv", (A,), {"hermitian": True}, tag="hermitian", tol=T4),
    L("matrix_rank", (A,)),
    L("matrix_rank", (np.ones((3, 3), "float32"),), tag="rank1"),
    L("matrix_rank", (A,), {"tol": 2.0}, tag="tol"),
    L("matrix_exp", (rand(3, 3) / 2,), tol=T4),
    L("cholesky", (A,), tol=T4),
    L("cholesky", (A,), {"upper": True}, tag="upper", tol=T4),
    Row("cholesky", (BA,), tag="paddle-batch", tol=T4),
    L("cholesky_inverse", (np.linalg.cholesky(A).astype("float32"),), tol=T4),
    L("cholesky_solve", (B, np.linalg.cholesky(A).astype("float32")), tol=T4),
    L("eigh", (A,), tol=T4),
    L(
        "eigh",
        (A,),
        {"UPLO": "U"},
        tag="upper",
        tol=T4,
        xfail={
            "value": "eigenvector signs are arbitrary; ours differ from Paddle's for UPLO='U'",
            "grad": "the weighted loss follows the eigenvector signs",
        },
    ),
    L("eigvalsh", (A,), tol=T4),
    Row(
        "eigvalsh",
        (BA,),
        tag="paddle-batch",
        tol=T4,
        xfail={
            "grad": "Paddle 3.3.1's batched gradient is not symmetric and swaps entries "
            "between the batch's matrices; ours (= jax.grad) is V diag(g) V^T each"
        },
    ),
    L("eig", (A,), tol=T4, grad=False),
    L("eigvals", (A,), tol=T4, grad=False),
    L("svd", (M,), tol=T4),
    L("svd", (M,), {"full_matrices": True}, tag="full", tol=T4, grad=False),
    L("svdvals", (M,), tol=T4),
    L("qr", (M.T.copy(),), tol=T4),
    L("qr", (M.T.copy(),), {"mode": "r"}, tag="r", tol=T4, grad=False),  # Paddle: ValueError
    L("qr", (M.T.copy(),), {"mode": "complete"}, tag="complete", tol=T4, grad=False),
    L("lu", (A,), tol=T4),
    L("lu", (A,), {"get_infos": True}, tag="infos", tol=T4),
    L("cond", (A,), tol=T4),
    L("cond", (A,), {"p": "fro"}, tag="fro", tol=T4),
    L("solve", (A, B), tol=T4, bad=(((A, rand(4, 2)), {}),)),
    L("solve", (A, rand(3, seed=4)), tag="vec", tol=T4),
    L("triangular_solve", (U, B), tol=T4),
    L(
        "triangular_solve",
        (U.T.copy(), B),
        {"upper": False, "transpose": True},
        tag="lower-t",
        tol=T4,
    ),
    L("triangular_solve", (U, B), {"unitriangular": True}, tag="unit", tol=T4),
    L("lstsq", (M.T.copy(), rand(4, 2, seed=5)), tol=T4, grad=False),
    # Paddle 3.3.1's householder_product backward raises RuntimeError
    L("householder_product", (M.T.copy(), rand(2, seed=5)), tol=T4, grad=False),
    L("ormqr", (rand(3, 3, seed=7), rand(3, seed=5), B), tol=T4, grad=False),  # Paddle: no grad
    L(
        "lu_solve",
        (
            B,
            np.array([[4.0, 1.0, 0.5], [0.25, 2.75, 0.075], [0.125, 0.027, 1.93]], "float32"),
            np.array([1, 2, 3], "int32"),
        ),
        tol=T4,
    ),
    L(
        "lu_unpack",
        (np.array([[4.0, 1.0], [0.25, 2.75]], "float32"), np.array([1, 2], "int32")),
        tol=T4,
    ),
]
