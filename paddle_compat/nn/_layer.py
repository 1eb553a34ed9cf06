"""paddle.nn.Layer, ParamAttr (being written)."""
__all__ = []
