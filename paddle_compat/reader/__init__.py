"""``paddle.reader``: decorators that build data readers (functions returning iterables of
samples) from other readers: caching, mapping, shuffling, chaining, composing, buffering."""

from .decorator import (  # noqa: F401
    ComposeNotAligned,
    buffered,
    cache,
    chain,
    compose,
    firstn,
    map_readers,
    multiprocess_reader,
    shuffle,
    xmap_readers,
)

__all__ = []
