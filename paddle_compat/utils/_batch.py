"""``paddle.batch``: group a sample reader's items into lists."""

from __future__ import annotations


def batch(reader, batch_size: int, drop_last: bool = False):
    """A reader creator yielding lists of ``batch_size`` samples from ``reader()`` (the last,
    shorter list is dropped when ``drop_last``)."""
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError(
            f"batch_size should be a positive integer value, but got batch_size={batch_size}"
        )

    def batch_reader():
        b = []
        for item in reader():
            b.append(item)
            if len(b) == batch_size:
                yield b
                b = []
        if b and not drop_last:
            yield b

    return batch_reader
