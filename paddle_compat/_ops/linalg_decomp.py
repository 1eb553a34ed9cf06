"""Linear algebra, part 2: determinants, inverses, solvers and decompositions (cholesky, qr,
svd, eigh/eig, lu, lstsq), matrix_rank, matrix_exp, cond.

Paddle raises on singular or non-positive-definite inputs; XLA returns inf/NaN instead. The
public ops below check the result on the host in eager mode (one device sync) and raise
Paddle's ValueError; under to_static the check is skipped.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._core.registry import NO_TORCH_KEYWORDS, call_op, op
from .._core.tensor import Tensor
from .linalg import FLOATS, check_square

_BOTH = ("paddle", "paddle.linalg")
_LINALG = ("paddle.linalg",)


def _finite_or_raise(out: Tensor, msg: str) -> Tensor:
    v = out._value
    if not isinstance(v, jax.core.Tracer) and not np.isfinite(np.asarray(v)).all():
        raise ValueError(f"(InvalidArgument) {msg}")
    return out


def _mT(x):
    return jnp.swapaxes(x, -1, -2)


def _hermitian_from(x, lower: bool):
    """The Hermitian matrix built from one triangle of ``x``; its gradient is the symmetrized
    one, as Paddle's cholesky/eigh gradients are."""
    tri = jnp.tril(x) if lower else jnp.triu(x)
    off = jnp.tril(x, -1) if lower else jnp.triu(x, 1)
    value = tri + jnp.conj(_mT(off))
    sym = (x + jnp.conj(_mT(x))) / 2
    return jax.lax.stop_gradient(value) + (sym - jax.lax.stop_gradient(sym))


# -- determinants and inverses -----------------------------------------------------------------
@op("det", dtypes=FLOATS, kernel="determinant", namespaces=_LINALG, method=None)
def det(x: jax.Array, name: str | None = None) -> jax.Array:
    """Determinant of (batches of) square matrices."""
    check_square(x, "det")
    return jnp.linalg.det(x)


@op("slogdet", dtypes=FLOATS, namespaces=_LINALG)
def slogdet(x: jax.Array, name: str | None = None) -> jax.Array:
    """[sign, log|det|] stacked on a new leading axis of size 2."""
    check_square(x, "slogdet")
    sign, logabs = jnp.linalg.slogdet(x)
    return jnp.stack([sign.astype(logabs.dtype), logabs])


@op("_inv", dtypes=FLOATS, kernel="inverse", namespaces=(), method=None)
def _inv(x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(
            f"(InvalidArgument) The last two dimensions are expected to be equal. But received: "
            f"{list(x.shape[-2:])}; Input(Input)'s shape = {list(x.shape)}."
        )
    return jnp.linalg.inv(x)


@op("inv", composite=True, namespaces=_LINALG, method=None)
def inv(x: Tensor, name: str | None = None) -> Tensor:
    """Inverse of (batches of) square matrices; raises on a singular matrix."""
    return _finite_or_raise(_inv(x), "Input is not invertible.")


@op("inverse", tensor_modules=("math",), composite=True, aliases=NO_TORCH_KEYWORDS)
def inverse(x: Tensor, name: str | None = None) -> Tensor:
    """Same as ``paddle.linalg.inv``."""
    return inv(x)


@op("pinv", dtypes=FLOATS, namespaces=_LINALG)
def pinv(
    x: jax.Array, rcond: float = 1e-15, hermitian: bool = False, name: str | None = None
) -> jax.Array:
    """Moore-Penrose pseudo-inverse (singular values below rcond * max are dropped)."""
    return jnp.linalg.pinv(x, rtol=float(rcond), hermitian=bool(hermitian))


@op(
    "_solve",
    dtypes=FLOATS,
    kernel="solve",
    tensors=("x", "y"),
    promote=("x", "y"),
    namespaces=(),
    method=None,
)
def _solve(x, y, left):
    check_square(x, "solve")
    if not left:
        return _mT(_solve.__wrapped__(_mT(x), _mT(y), True))
    vec = y.ndim == 1
    if vec:
        y = y[:, None]
    if y.shape[-2] != x.shape[-1]:
        raise ValueError(
            f"(InvalidArgument) solve: x {list(x.shape)} and y {list(y.shape)} do not match."
        )
    batch = jnp.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    out = jnp.linalg.solve(
        jnp.broadcast_to(x, batch + x.shape[-2:]), jnp.broadcast_to(y, batch + y.shape[-2:])
    )
    return out[..., 0] if vec else out


@op(
    "solve",
    tensors=("x", "y"),
    composite=True,
    namespaces=_LINALG,
    aliases={"A": "x", "B": "y"},
)
def solve(
    x: Tensor, y: Tensor, left: bool = True, name: str | None = None, *, out: Tensor | None = None
) -> Tensor:
    """Solve x @ out = y (or out @ x = y when ``left`` is False)."""
    return _finite_or_raise(_solve(x, y, bool(left)), "Input is not invertible.")


@op(
    "triangular_solve",
    dtypes=FLOATS,
    tensors=("x", "y"),
    promote=("x", "y"),
    namespaces=_LINALG,
    method=None,
)
def triangular_solve(
    x: jax.Array,
    y: jax.Array,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
    name: str | None = None,
) -> jax.Array:
    """Solve x @ out = y for a triangular ``x`` (batched, broadcast)."""
    if y.ndim < 2:
        raise ValueError(
            f"(InvalidArgument) The input tensor Y's dimensions of TriangularSolveOp should be "
            f">=2. But received Y's shape = {list(y.shape)}"
        )
    check_square(x, "triangular_solve")
    batch = jnp.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    return jax.lax.linalg.triangular_solve(
        jnp.broadcast_to(x, batch + x.shape[-2:]),
        jnp.broadcast_to(y, batch + y.shape[-2:]),
        left_side=True,
        lower=not upper,
        transpose_a=bool(transpose),
        unit_diagonal=bool(unitriangular),
    )


# -- cholesky ----------------------------------------------------------------------------------
@op("_cholesky", dtypes=FLOATS, kernel="cholesky", namespaces=(), method=None)
def _cholesky(x, upper):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise AssertionError(
            "Shape must have at least 2 dimensions and last two dimensions must be equal."
        )
    low = jnp.linalg.cholesky(_hermitian_from(x, True), symmetrize_input=False)
    return jnp.conj(_mT(low)) if upper else low


@op("cholesky", composite=True, namespaces=_BOTH, aliases=NO_TORCH_KEYWORDS)
def cholesky(x: Tensor, upper: bool = False, name: str | None = None) -> Tensor:
    """Cholesky factor (lower, or upper if ``upper``) of Hermitian positive-definite matrices."""
    return _finite_or_raise(
        _cholesky(x, bool(upper)),
        "Cholesky decomposition was not successful. The input matrix might not be positive "
        "definite.",
    )


@op("cholesky_solve", tensors=("x", "y"), promote=("x", "y"), namespaces=_LINALG)
def cholesky_solve(
    x: jax.Array, y: jax.Array, upper: bool = False, name: str | None = None
) -> jax.Array:
    """Solve A @ out = x given the Cholesky factor ``y`` of A."""
    low = jnp.conj(_mT(y)) if upper else y
    batch = jnp.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    low = jnp.broadcast_to(low, batch + low.shape[-2:])
    b = jnp.broadcast_to(x, batch + x.shape[-2:])
    z = jax.lax.linalg.triangular_solve(low, b, left_side=True, lower=True)
    return jax.lax.linalg.triangular_solve(
        low, z, left_side=True, lower=True, transpose_a=True, conjugate_a=True
    )


@op("cholesky_inverse", namespaces=_LINALG)
def cholesky_inverse(x: jax.Array, upper: bool = False, name: str | None = None) -> jax.Array:
    """Inverse of A given its Cholesky factor ``x``."""
    low = jnp.conj(_mT(x)) if upper else x
    a = low @ jnp.conj(_mT(low))
    return jnp.linalg.inv(a)


# -- decompositions ----------------------------------------------------------------------------
@op("qr", dtypes=FLOATS, namespaces=_LINALG)
def qr(
    x: jax.Array, mode: str = "reduced", name: str | None = None
) -> jax.Array | tuple[jax.Array, jax.Array]:
    """QR decomposition: (Q, R), or only R when mode='r'."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    if mode == "r":
        return jnp.linalg.qr(x, mode="r")
    q, r = jnp.linalg.qr(x, mode=mode)
    return q, r


@op("svd", dtypes=FLOATS, namespaces=_LINALG, method=None)
def svd(
    x: jax.Array, full_matrices: bool = False, name: str | None = None, *, out: Tensor | None = None
) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Singular value decomposition: (U, S, VH) with x = U @ diag(S) @ VH."""
    u, s, vh = jnp.linalg.svd(x, full_matrices=bool(full_matrices))
    return u, s, vh


@op("svdvals", dtypes=FLOATS, kernel="svd", namespaces=_LINALG, method=None)
def svdvals(x: jax.Array, name: str | None = None) -> jax.Array:
    """Singular values in descending order."""
    return jnp.linalg.svd(x, compute_uv=False)


def _check_eigh(x, UPLO):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(
            f"The input matrix must be batches of square matrices. But received x's dimension: "
            f"{list(x.shape)}"
        )
    if UPLO not in ("L", "U"):
        raise ValueError(f"UPLO must be 'L' or 'U', got {UPLO!r}")


@op("eigh", dtypes=FLOATS, namespaces=_LINALG, method=None)
def eigh(x: jax.Array, UPLO: str = "L", name: str | None = None) -> tuple[jax.Array, jax.Array]:  # noqa: N803 - Paddle's name
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, read from one triangle."""
    _check_eigh(x, UPLO)
    w, v = jnp.linalg.eigh(_hermitian_from(x, UPLO == "L"), symmetrize_input=False)
    return w, v


@op("eigvalsh", dtypes=FLOATS, kernel="eigh", namespaces=_BOTH, aliases=NO_TORCH_KEYWORDS)
def eigvalsh(x: jax.Array, UPLO: str = "L", name: str | None = None) -> jax.Array:  # noqa: N803
    """Eigenvalues (ascending) of Hermitian matrices, read from one triangle."""
    _check_eigh(x, UPLO)
    return jnp.linalg.eigvalsh(_hermitian_from(x, UPLO == "L"), symmetrize_input=False)


@op("eig", dtypes=FLOATS, namespaces=_LINALG)
def eig(x: jax.Array, name: str | None = None) -> tuple[jax.Array, jax.Array]:
    """Eigenvalues and eigenvectors (complex) of general square matrices (CPU only)."""
    check_square(x, "eig")
    w, v = jnp.linalg.eig(x)
    return w, v


@op("eigvals", dtypes=FLOATS, kernel="eig", namespaces=_LINALG)
def eigvals(x: jax.Array, name: str | None = None) -> jax.Array:
    """Eigenvalues (complex) of general square matrices (CPU only)."""
    check_square(x, "eigvals")
    return jnp.linalg.eigvals(x)


@op(
    "matrix_rank",
    dtypes=FLOATS,
    tensors=("x", "tol", "atol", "rtol"),
    namespaces=_LINALG,
    method=None,
    differentiable=False,
)
def matrix_rank(
    x: jax.Array,
    tol: jax.Array | None = None,
    hermitian: bool = False,
    atol: jax.Array | None = None,
    rtol: jax.Array | None = None,
    name: str | None = None,
) -> jax.Array:
    """Number of singular values above the tolerance (int64)."""
    if hermitian:
        s = jnp.abs(jnp.linalg.eigvalsh(x))
    else:
        s = jnp.linalg.svd(x, compute_uv=False)
    smax = jnp.max(s, axis=-1, keepdims=True) if s.shape[-1] else jnp.zeros(s.shape[:-1] + (1,))
    if tol is not None:
        cut = jnp.asarray(tol, s.dtype)
        cut = cut[..., None] if cut.ndim else cut
    elif atol is None and rtol is None:
        cut = smax * (max(x.shape[-2:]) * jnp.finfo(s.dtype).eps)
    else:
        a = jnp.zeros((), s.dtype) if atol is None else jnp.asarray(atol, s.dtype)
        r = jnp.zeros((), s.dtype) if rtol is None else jnp.asarray(rtol, s.dtype)
        a = a[..., None] if a.ndim else a
        r = r[..., None] if r.ndim else r
        cut = jnp.maximum(a, r * smax)
    return jnp.sum(s > cut, axis=-1).astype(jnp.int64)


@op("lstsq", tensors=("x", "y"), composite=True, namespaces=_LINALG)
def lstsq(
    x: Tensor,
    y: Tensor,
    rcond: float | None = None,
    driver: str | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Least-squares solution of x @ out = y: (solution, residuals, rank, singular_values).

    As Paddle on CPU: the default driver 'gelsy' returns empty residuals and singular values;
    'gelsd'/'gelss' return both; 'gels' returns residuals and an empty int64 rank. Residuals
    are empty unless x is tall with full column rank (checked on the host in eager mode)."""
    sol, resid, rank, s = _lstsq(x, y, rcond, driver)
    n = x.shape[-1]
    rv = rank._value
    if resid.shape[-1:] != [0] and not isinstance(rv, jax.core.Tracer) and rv.size:
        if (np.asarray(rv) < n).any() and (driver or "gelsy") != "gels":
            resid = Tensor(jnp.zeros((0,), resid._value.dtype))
    return sol, resid, rank, s


@op(
    "_lstsq",
    dtypes=FLOATS,
    kernel="lstsq",
    tensors=("x", "y"),
    promote=("x", "y"),
    namespaces=(),
    method=None,
    differentiable=False,
)
def _lstsq(x, y, rcond, driver):
    if y.ndim < 2:
        raise ValueError(f"The shape of y should be (*, M, K), but received ndim is [{y.ndim} < 2]")
    driver = driver or "gelsy"
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise ValueError(f"lstsq: unknown driver {driver!r}")
    batch = jnp.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    xb = jnp.broadcast_to(x, batch + x.shape[-2:]).reshape((-1,) + x.shape[-2:])
    yb = jnp.broadcast_to(y, batch + y.shape[-2:]).reshape((-1,) + y.shape[-2:])
    m, n = x.shape[-2:]
    eps = jnp.finfo(x.dtype).eps
    rc = float(rcond) if rcond is not None else eps * max(m, n)

    def one(a, b):
        u, s, vh = jnp.linalg.svd(a, full_matrices=False)
        keep = s > rc * s[0] if s.shape[0] else s > 0
        sinv = jnp.where(keep, 1.0 / jnp.where(keep, s, 1.0), 0.0).astype(a.dtype)
        sol = jnp.conj(_mT(vh)) @ (sinv[:, None] * (jnp.conj(_mT(u)) @ b))
        return sol, jnp.sum(keep), s, jnp.sum(jnp.abs(a @ sol - b) ** 2, axis=0)

    sol, rank, s, resid = jax.vmap(one)(xb, yb)
    sol = sol.reshape(batch + sol.shape[-2:])
    rank = rank.reshape(batch).astype(jnp.int32)
    s = s.reshape(batch + s.shape[-1:])
    resid = resid.reshape(batch + resid.shape[-1:]).astype(x.dtype)
    empty_f = jnp.zeros((0,), x.dtype)
    full_rank = m > n
    if driver == "gelsy":
        return sol, empty_f, rank, empty_f
    if driver == "gels":
        return sol, resid if full_rank else empty_f, jnp.zeros((0,), jnp.int64), empty_f
    # gelsd/gelss: residuals only when m > n (and, in Paddle, full rank)
    return sol, resid if full_rank else empty_f, rank, s


# -- LU ----------------------------------------------------------------------------------------
@op("lu", dtypes=FLOATS, namespaces=_LINALG)
def lu(
    x: jax.Array, pivot: bool = True, get_infos: bool = False, name: str | None = None
) -> tuple[jax.Array, ...]:
    """Packed LU factorization with 1-based int32 pivots (and int32 infos on request)."""
    if not pivot:
        raise ValueError(  # Paddle's CPU kernel; its GPU kernel has no JAX counterpart here
            "(InvalidArgument) lu without pivoting is not implemented on the CPU, but got "
            "pivots=False"
        )
    packed, piv, _ = jax.lax.linalg.lu(x)
    piv = piv.astype(jnp.int32) + 1
    if get_infos:
        diag = jnp.diagonal(packed, axis1=-2, axis2=-1)
        info = jnp.where(jnp.any(diag == 0, axis=-1), jnp.argmax(diag == 0, axis=-1) + 1, 0).astype(
            jnp.int32
        )
        return packed, piv, info
    return packed, piv


def _perm_from_pivots(piv, m):
    """1-based LAPACK row swaps -> row permutation (A[perm] = L @ U)."""
    return jax.lax.linalg.lu_pivots_to_permutation(piv.astype(jnp.int32) - 1, m)


@op("lu_unpack", tensors=("x", "y"), namespaces=_LINALG)
def lu_unpack(
    x: jax.Array,
    y: jax.Array,
    unpack_ludata: bool = True,
    unpack_pivots: bool = True,
    name: str | None = None,
) -> tuple[jax.Array, jax.Array, jax.Array]:
    """(P, L, U) from a packed LU factorization ``x`` and its pivots ``y``."""
    m, n = x.shape[-2:]
    k = min(m, n)
    eye = jnp.eye(m, k, dtype=x.dtype)
    low = jnp.tril(x[..., :, :k], -1) + eye
    up = jnp.triu(x[..., :k, :])
    perm = _perm_from_pivots(y, m)
    p = jax.nn.one_hot(perm, m, dtype=x.dtype)  # row i of P^T picks row perm[i]
    return _mT(p), low, up


@op("lu_solve", tensors=("b", "lu", "pivots"), namespaces=_LINALG, method=None)
def lu_solve(
    b: jax.Array, lu: jax.Array, pivots: jax.Array, trans: str = "N", name: str | None = None
) -> jax.Array:
    """Solve A @ out = b (or A^T, A^H with trans 'T'/'C') from A's packed LU and pivots."""
    t = {"N": 0, "T": 1, "C": 2}[trans]
    return jax.scipy.linalg.lu_solve((lu, pivots.astype(jnp.int32) - 1), b, trans=t)


@op("matrix_exp", dtypes=FLOATS, namespaces=_LINALG, method=None)
def matrix_exp(x: jax.Array, name: str | None = None) -> jax.Array:
    """Matrix exponential of (batches of) square matrices."""
    check_square(x, "matrix_exp")
    return jax.scipy.linalg.expm(x)


@op("cond", dtypes=FLOATS, namespaces=_LINALG)
def cond(x: jax.Array, p: float | str | None = None, name: str | None = None) -> jax.Array:
    """Condition number: norm(x, p) * norm(inv(x), p) (ratio of singular values for +-2)."""
    if p in (None, 2, -2):
        s = jnp.linalg.svd(x, compute_uv=False)
        r = s[..., 0] / s[..., -1]
        return r if p != -2 else 1.0 / r
    check_square(x, "cond")
    xi = jnp.linalg.inv(x)
    if p in ("fro", "nuc") or p in (1, -1, np.inf, -np.inf):
        return jnp.linalg.norm(x, ord=p, axis=(-2, -1)) * jnp.linalg.norm(xi, ord=p, axis=(-2, -1))
    raise ValueError(f"cond: p must be None, 'fro', 'nuc', +-1, +-2 or +-inf, got {p!r}")


# -- Householder products and low-rank SVD -----------------------------------------------------
@op("householder_product", dtypes=FLOATS, tensors=("x", "tau"), namespaces=_LINALG)
def householder_product(x: jax.Array, tau: jax.Array, name: str | None = None) -> jax.Array:
    """The first n columns of the product of Householder reflectors (x, tau) as from geqrf."""
    return jax.lax.linalg.householder_product(x, tau.astype(x.dtype))


@op("ormqr", tensors=("x", "tau", "y"), namespaces=_LINALG)
def ormqr(
    x: jax.Array,
    tau: jax.Array,
    y: jax.Array,
    left: bool = True,
    transpose: bool = False,
    name: str | None = None,
) -> jax.Array:
    """Multiply ``y`` by the full Q of the reflectors (x, tau): Q @ y, Q^H @ y, y @ Q, ..."""
    if left and x.shape[-1] != y.shape[-2]:
        raise AssertionError(
            "The column dimension of x and the row dimension of y should be the same"
        )
    if not left and x.shape[-1] != y.shape[-1]:
        raise AssertionError("The column dimensions of x and y should be the same")
    m, k = x.shape[-2:]
    pad = [(0, 0)] * (x.ndim - 1) + [(0, m - k)] if m > k else None
    xf = jnp.pad(x, pad) if pad else x
    tf = jnp.pad(tau, [(0, 0)] * (tau.ndim - 1) + [(0, m - tau.shape[-1])]).astype(x.dtype)
    q = jax.lax.linalg.householder_product(xf, tf)
    if transpose:
        q = jnp.conj(_mT(q))
    return q @ y if left else y @ q


def _lowrank_args(x, q, niter, allow_empty: bool):
    if not isinstance(x, Tensor):
        raise ValueError(f"Input must be tensor, but got {type(x)}")
    m, n = x.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (allow_empty and min(m, n) == 0) and not 0 <= q <= min(m, n):
        raise ValueError(
            f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}"
        )
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    return m, n, q


def _approximate_basis(a, q, niter, m_mean):
    """Paddle's randomized range finder: an orthonormal basis of a's range from a Gaussian
    sketch drawn from the global generator, refined by ``niter`` power iterations."""

    def mm(p, r, mean=None):  # (p - mean) @ r
        out = call_op("matmul", p, r)
        return out if mean is None else out - call_op("matmul", mean, r)

    qr_q = lambda b: call_op("qr", b)[0]  # noqa: E731
    r = call_op("randn", [a.shape[-1], q], a.dtype)
    a_h, mean_h = _transjugate(a), None if m_mean is None else _transjugate(m_mean)
    basis = qr_q(mm(a, r, m_mean))
    for _ in range(niter):
        basis = qr_q(mm(a_h, basis, mean_h))
        basis = qr_q(mm(a, basis, m_mean))
    return basis


def _transjugate(t):
    t = call_op("matrix_transpose", t)
    return call_op("conj", t) if t.is_complex() else t


@op("svd_lowrank", tensors=("x", "M"), namespaces=_LINALG, composite=True)
def svd_lowrank(
    x: Tensor,
    q: int | None = None,
    niter: int = 2,
    M: Tensor | None = None,  # noqa: N803 - Paddle's name
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """Approximate rank-q SVD (U [m, q], S [q], V [n, q]) of x - M by Paddle's randomized
    algorithm: its Gaussian sketch comes from the global generator, as in Paddle, so results
    (signs included) and the generator's state afterwards match Paddle's."""
    m, n, q = _lowrank_args(x, q, niter, allow_empty=True)
    if M is not None:
        M = call_op("broadcast_to", M, list(x.shape))
    conj = (lambda t: call_op("conj", t)) if x.is_complex() else (lambda t: t)  # noqa: E731
    mt = lambda t: call_op("matrix_transpose", t)  # noqa: E731
    if m < n or n > q:  # the basis of x^T's range
        basis = _approximate_basis(mt(x), q, niter, None if M is None else mt(M))
        b_t = call_op("matmul", x, conj(basis))
        if M is not None:
            b_t = b_t - call_op("matmul", M, conj(basis))
        u, s, vh = call_op("svd", b_t, False)
        return u, s, call_op("matmul", basis, _transjugate(vh))
    basis = _approximate_basis(x, q, niter, M)
    b = call_op("matmul", mt(x), conj(basis))
    if M is not None:
        b = b - call_op("matmul", mt(M), conj(basis))
    u, s, vh = call_op("svd", mt(b), False)
    return call_op("matmul", basis, u), s, _transjugate(vh)


@op("pca_lowrank", namespaces=_LINALG, composite=True)
def pca_lowrank(
    x: Tensor, q: int | None = None, center: bool = True, niter: int = 2, name: str | None = None
) -> tuple[Tensor, Tensor, Tensor]:
    """Principal components: svd_lowrank of x (centered over rows when ``center``)."""
    _, _, q = _lowrank_args(x, q, niter, allow_empty=False)
    if center:
        x = x - call_op("mean", x, axis=-2, keepdim=True)
    return svd_lowrank(x, q, niter=niter)
