"""``paddle.sparse.nn.BatchNorm`` and ``SyncBatchNorm``: batch normalization of a COO
Tensor's stored values [nnz, C] (each stored site is one sample; the zeros between them do
not count). The structure is kept."""

from __future__ import annotations

import warnings

from ..nn import BatchNorm1D
from ..nn import SyncBatchNorm as _DenseSyncBatchNorm
from ..nn import functional as F
from ._conv import unimplemented
from ._tensor import SparseCooTensor
from ._values import coo_from, values_tensor


def _normalize(layer, x, use_global_stats, op: str):
    if not isinstance(x, SparseCooTensor):
        raise unimplemented(op)
    if layer._num_features != x.shape[-1]:
        c, n = x.shape[-1], layer._num_features
        raise ValueError(
            f"(InvalidArgument) ShapeError: the shape of scale must equal to [{c}]But "
            f"received: the shape of scale is [{n}]\n  [Hint: Expected scale.dims()[0] == C, "
            f"but received scale.dims()[0]:{n} != C:{c}.]"
        )
    stats = (layer._mean, layer._variance)
    for s in stats:  # never differentiated (see below)
        s.stop_gradient = True
    vals = F.batch_norm(
        values_tensor(x),
        layer._mean,
        layer._variance,
        weight=layer.weight,
        bias=layer.bias,
        training=layer.training,
        momentum=layer._momentum,
        epsilon=layer._epsilon,
        data_format="NCHW",
        use_global_stats=use_global_stats,
    )
    if not vals.stop_gradient:  # Paddle's in-place kernel marks its statistics as outputs
        for s in stats:
            s.stop_gradient = False
    return coo_from(x._sp_indices, vals, x.shape, coalesced=x._sp_coalesced)


class BatchNorm(BatchNorm1D):
    """Batch normalization of a sparse COO Tensor's values (``data_format`` NDHWC or NHWC).
    As in Paddle, the first call fixes ``use_global_stats`` (when it is None) to ``not
    training``, and later calls keep it: a layer first called in training mode keeps using
    (and updating) batch statistics in eval mode."""

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NDHWC",
        use_global_stats: bool | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            num_features,
            momentum=momentum,
            epsilon=epsilon,
            weight_attr=weight_attr,
            bias_attr=bias_attr,
            data_format=data_format,
            use_global_stats=use_global_stats,
            name=name,
        )

    def _check_data_format(self, input) -> None:  # noqa: A002 - Paddle's name
        if input not in ("NDHWC", "NHWC"):
            raise ValueError('sparse BatchNorm only support layout of "NDHWC" and "NHWC"')

    def forward(self, input):  # noqa: A002
        self._check_data_format(self._data_format)
        if self.training:
            warnings.warn(
                "When training, we now always track global mean and variance.", stacklevel=2
            )
        ugs = self._use_global_stats
        if ugs is None:
            self._use_global_stats = not self.training
        return _normalize(self, input, ugs, "batch_norm_")


class SyncBatchNorm(_DenseSyncBatchNorm):
    """``BatchNorm`` of a sparse COO Tensor's values; on one process the statistics are this
    process's (Paddle's CPU build has no kernel for it)."""

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, name)

    def forward(self, x):
        # Paddle's kernel runs with use_global_stats False and trainable_statistics False:
        # batch statistics in training, the running ones in eval (F.batch_norm's None)
        return _normalize(self, x, None, "sync_batch_norm_")

    @classmethod
    def _sync_class_of(cls, layer) -> type:
        """``convert_sync_batchnorm`` (inherited) turns the sparse ``BatchNorm`` into this class
        and a dense batch norm into ``paddle.nn.SyncBatchNorm``."""
        return SyncBatchNorm if isinstance(layer, BatchNorm) else _DenseSyncBatchNorm
