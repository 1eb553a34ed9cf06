"""``paddle.utils.dlpack``: ``to_dlpack`` / ``from_dlpack`` (over ``jax.dlpack``)."""

from .._api_extra import from_dlpack, to_dlpack  # noqa: F401

__all__ = ["to_dlpack", "from_dlpack"]
