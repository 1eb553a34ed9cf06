"""``import paddle`` -> paddle_compat: the same module objects at any depth."""

from paddle_compat import install

install()
