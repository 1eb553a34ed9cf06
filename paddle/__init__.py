"""``import paddle`` -> paddle_compat: the same module objects at any depth."""

from paddle_compat._install import install

install()
