"""paddle.nn.initializer (being written)."""
