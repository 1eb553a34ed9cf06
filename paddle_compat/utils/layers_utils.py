"""Nested-structure helpers of ``paddle.utils`` (``flatten``, ``map_structure``,
``pack_sequence_as``...) and the shape/list argument checks layers use.

A structure is a nest of lists, tuples (namedtuples included) and dicts; dict entries are
visited in sorted key order, as in Paddle."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def is_sequence(seq) -> bool:
    """True for dicts and for non-string sequences (lists, tuples)."""
    if isinstance(seq, dict):
        return True
    return isinstance(seq, Sequence) and not isinstance(seq, str)


def to_sequence(nest):
    """``nest`` itself when it is a sequence, else ``[nest]``."""
    return nest if is_sequence(nest) else [nest]


def _children(nest) -> list:
    if isinstance(nest, dict):
        return [nest[k] for k in sorted(nest)]
    return list(nest)


def flatten(nest) -> list:
    """The leaves of ``nest`` in order (a non-sequence is one leaf)."""
    if not is_sequence(nest):
        return [nest]
    out = []
    for c in _children(nest):
        out.extend(flatten(c))
    return out


def _rebuild(structure, values: list):
    if isinstance(structure, dict):
        by_key = dict(zip(sorted(structure), values))
        return type(structure)((k, by_key[k]) for k in structure)
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):  # namedtuple
        return type(structure)(*values)
    return type(structure)(values)


def _pack(structure, flat: list, index: int):
    packed = []
    for c in _children(structure):
        if is_sequence(c):
            index, child = _pack(c, flat, index)
            packed.append(child)
        else:
            packed.append(flat[index])
            index += 1
    return index, _rebuild(structure, packed)


def pack_sequence_as(structure, flat_sequence):
    """Refill ``structure``'s leaves, in ``flatten`` order, from ``flat_sequence``."""
    if not is_sequence(flat_sequence):
        raise TypeError("flat_sequence must be a sequence")
    if not is_sequence(structure):
        if len(flat_sequence) != 1:
            raise ValueError(
                f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1"
            )
        return flat_sequence[0]
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(
            f"Could not pack sequence. Structure had {n} elements, but flat_sequence had "
            f"{len(flat_sequence)} elements. Structure: {structure}, flat_sequence: "
            f"{flat_sequence}."
        )
    return _pack(structure, list(flat_sequence), 0)[1]


def map_structure(func, *structure):
    """``func`` applied leaf by leaf across structures of the same shape."""
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flats)])


def assert_same_structure(nest1, nest2, check_types: bool = True, skip_if=None) -> None:
    """Raise ValueError (TypeError for differing types) unless the nests match."""
    if skip_if is not None and skip_if(nest1):
        return
    n1, n2 = len(flatten(nest1)), len(flatten(nest2))
    if n1 != n2:
        raise ValueError(
            "The two structures don't have the same number of elements.\n\n"
            f"First structure ({n1} elements): {nest1}\n\nSecond structure ({n2} elements): "
            f"{nest2}"
        )
    _check_same(nest1, nest2, check_types, skip_if)


def _check_same(a, b, check_types, skip_if) -> None:
    if skip_if is not None and skip_if(a):
        return
    if is_sequence(a) != is_sequence(b):
        raise ValueError(
            f"The two structures don't have the same nested structure.\n\nFirst structure: "
            f"{a}\n\nSecond structure: {b}"
        )
    if not is_sequence(a):
        return
    if check_types and type(a) is not type(b):
        raise TypeError(
            "The two structures don't have the same sequence type. First structure has type "
            f"{type(a)}, while second structure has type {type(b)}."
        )
    if isinstance(a, dict) and set(a) != set(b):
        raise ValueError(
            f"The two dictionaries don't have the same set of keys. First structure has keys "
            f"{sorted(a)}, while second structure has keys {sorted(b)}."
        )
    for x, y in zip(_children(a), _children(b)):
        _check_same(x, y, check_types, skip_if)


def padding_to_same_structure(nest1, nest2, obj=None):
    """Both nests with their ``None`` leaves replaced by ``obj``."""

    def fill(nest):
        if not is_sequence(nest):
            return obj if nest is None else nest
        return pack_sequence_as(nest, [obj if v is None else v for v in flatten(nest)])

    return fill(nest1), fill(nest2)


def convert_to_list(value, n: int, name: str, dtype=int) -> list:
    """``[value] * n`` for a single value, else ``value`` as a list of ``n`` ``dtype``s."""
    if isinstance(value, dtype):
        return [value] * n
    try:
        value_list = list(value)
    except TypeError:
        raise ValueError(f"The {name}'s type must be list or tuple. Received: {value}") from None
    if len(value_list) != n:
        raise ValueError(f"The {name}'s length must be {n}. Received: {value}")
    for v in value_list:
        if not isinstance(v, dtype | np.integer if dtype is int else dtype):
            raise ValueError(
                f"The {name}'s type must be a list or tuple of {n} {dtype}. Received: {value} "
                f"including element {v} of type {type(v)}"
            )
    return value_list


def convert_shape_to_list(shape):
    """A shape as a list of Python ints (Tensor entries read out)."""
    if hasattr(shape, "tolist") and not isinstance(shape, list | tuple):
        return [int(v) for v in np.asarray(shape).reshape(-1)]
    return [int(v.item()) if hasattr(v, "item") else int(v) for v in shape]


def check_shape(shape) -> None:
    """ValueError when an int entry of a list or tuple ``shape`` is negative."""
    if isinstance(shape, list | tuple):
        for v in shape:
            if isinstance(v, int | np.integer) and v < 0:
                raise ValueError(
                    "All elements in ``shape`` must be positive when it's a list or tuple"
                )


def is_same_shape(shape1, shape2) -> bool:
    """True when two shapes are equal, entry by entry."""
    return list(shape1) == list(shape2)
