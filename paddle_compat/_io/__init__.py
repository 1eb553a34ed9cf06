"""Private implementation modules for paddle.save/load and paddle.io."""
