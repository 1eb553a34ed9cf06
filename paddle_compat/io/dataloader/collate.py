"""paddle.io.dataloader.collate."""

from ..._io.collate import default_collate_fn, default_convert_fn  # noqa: F401
