"""paddle.nn.quant.stub."""

from quant import QuanterStub, Stub

__all__ = ["QuanterStub", "Stub"]
