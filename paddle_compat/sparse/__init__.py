"""``paddle.sparse``: COO and CSR Tensors (``paddle.Tensor`` subclasses holding their parts
as dense arrays) and their creation."""

from ._creation import sparse_coo_tensor, sparse_csr_tensor

__all__ = ["sparse_coo_tensor", "sparse_csr_tensor"]
