"""``paddle.utils.unique_name``: see ``paddle.base.unique_name``."""

from ..base.unique_name import generate, generate_with_ignorable_key, guard, switch  # noqa: F401

__all__ = ["generate", "generate_with_ignorable_key", "guard", "switch"]
