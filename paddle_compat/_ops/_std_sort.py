"""Paddle's CPU argsort without ``stable``: libstdc++'s ``std::sort`` (introsort: median-of-3
quicksort, heapsort past a depth limit, a final insertion sort) on (value, index) pairs. The
order it leaves equal values in is this algorithm's, so it is reproduced step by step (checked
against Paddle 3.3.1 on tie-heavy and NaN inputs of 5 to 3000 elements)."""

from __future__ import annotations

import math

import numpy as np

_THRESHOLD = 16  # libstdc++'s _S_threshold


def _asc(a, b) -> bool:  # NaN last
    return (not math.isnan(a[0]) and math.isnan(b[0])) or a[0] < b[0]


def _desc(a, b) -> bool:  # NaN first
    return (math.isnan(a[0]) and not math.isnan(b[0])) or a[0] > b[0]


def argsort_row(values: np.ndarray, descending: bool) -> list[int]:
    """The permutation ``std::sort`` gives a 1-D row of (value, index) pairs."""
    a = [(v, i) for i, v in enumerate(values.tolist())]
    n = len(a)
    if n > 1:
        comp = _desc if descending else _asc
        _introsort_loop(a, 0, n, 2 * (n.bit_length() - 1), comp)
        _final_insertion_sort(a, 0, n, comp)
    return [i for _, i in a]


def has_ties(sorted_rows: np.ndarray) -> bool:
    """Whether some row (last axis, sorted) holds two equal values or two NaNs."""
    if sorted_rows.shape[-1] < 2:
        return False
    left, right = sorted_rows[..., 1:], sorted_rows[..., :-1]
    same = left == right
    if sorted_rows.dtype.kind in "fc":
        same |= np.isnan(left) & np.isnan(right)
    return bool(same.any())


def _introsort_loop(a, first, last, depth, comp):
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, comp)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, comp)
        _introsort_loop(a, cut, last, depth, comp)
        last = cut


def _partition_pivot(a, first, last, comp):
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, comp)
    return _unguarded_partition(a, first + 1, last, first, comp)


def _move_median_to_first(a, result, x, y, z, comp):
    if comp(a[x], a[y]):
        i = y if comp(a[y], a[z]) else z if comp(a[x], a[z]) else x
    else:
        i = x if comp(a[x], a[z]) else z if comp(a[y], a[z]) else y
    a[result], a[i] = a[i], a[result]


def _unguarded_partition(a, first, last, pivot, comp):
    while True:
        while comp(a[first], a[pivot]):
            first += 1
        last -= 1
        while comp(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _final_insertion_sort(a, first, last, comp):
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, comp)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(a, i, comp)
    else:
        _insertion_sort(a, first, last, comp)


def _insertion_sort(a, first, last, comp):
    for i in range(first + 1, last):
        if comp(a[i], a[first]):
            v = a[i]
            a[first + 1 : i + 1] = a[first:i]
            a[first] = v
        else:
            _unguarded_linear_insert(a, i, comp)


def _unguarded_linear_insert(a, last, comp):
    v = a[last]
    nxt = last - 1
    while comp(v, a[nxt]):
        a[last] = a[nxt]
        last = nxt
        nxt -= 1
    a[last] = v


def _adjust_heap(a, first, hole, length, value, comp):
    top = child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if comp(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and comp(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _heap_sort(a, first, last, comp):
    """``std::partial_sort(first, last, last)``: make_heap, then sort_heap."""
    length = last - first
    for parent in range((length - 2) // 2, -1, -1):
        _adjust_heap(a, first, parent, length, a[first + parent], comp)
    while last - first > 1:
        last -= 1
        v = a[last]
        a[last] = a[first]
        _adjust_heap(a, first, 0, last - first, v, comp)
