"""``paddle.nn.utils.dygraph_utils``: exists in Paddle with no public names."""

__all__: list[str] = []
