"""``paddle.tensor.array`` (generated from the op registry)."""

from .._ops._methods import namespace as _namespace

globals().update(_namespace("paddle.tensor.array"))


# -- Paddle's tensor arrays: in dynamic mode a Python list of Tensors ---------------------------
def _index(i, what: str) -> int:
    from .._core.tensor import Tensor

    assert isinstance(i, Tensor), f"The index 'i' in {what} must be Variable in dygraph mode"
    assert i.shape == [1], "The shape of index 'i' should be [1] in dygraph mode"
    return int(i.item())


def create_array(dtype, initialized_list=None):
    """A tensor array (a list of Tensors in dynamic mode), empty or a copy of
    ``initialized_list``; ``dtype`` is what Paddle's static mode records."""
    from .._core.tensor import Tensor

    items = list(initialized_list) if initialized_list is not None else []
    for v in items:
        if not isinstance(v, Tensor):
            raise TypeError(
                "All values in `initialized_list` should be Variable or pir.Value, but "
                f"received {type(v)}."
            )
    return items


def array_write(x, i, array=None):
    """Write ``x`` at position ``i`` (a shape-[1] int Tensor) of ``array`` (a new one if None):
    replaces an element or appends at the end; returns the array."""
    k = _index(i, "array_write")
    array = [] if array is None else array
    assert k <= len(array), (
        "The index 'i' should not be greater than the length of 'array' in dygraph mode"
    )
    if k < len(array):
        array[k] = x
    else:
        array.append(x)
    return array


def array_read(array, i):
    """The element at position ``i`` (a shape-[1] int Tensor) of ``array``."""
    return array[_index(i, "array_read")]


def array_length(array) -> int:
    """The number of elements of ``array`` (a Python int in dynamic mode)."""
    return len(array)
