"""Paddle's tensor-array API in dynamic mode (a Python list of Tensors): create_array,
array_write (replace or append), array_read, array_length, and their errors."""

from _util import expect_error

import paddle

A = paddle.tensor


def case_write_read_length():
    arr = A.create_array(dtype="float32")
    x = paddle.full([1, 3], 5, "float32")
    arr = A.array_write(x, paddle.to_tensor([0]), array=arr)
    arr = A.array_write(x * 2, paddle.to_tensor([1]), array=arr)
    arr = A.array_write(x * 3, paddle.to_tensor([0]), array=arr)
    return [
        A.array_length(arr),
        A.array_read(arr, paddle.to_tensor([0])),
        A.array_read(arr, paddle.to_tensor([1])),
        len(A.create_array("float32", [x, x])),
        len(A.array_write(x, paddle.to_tensor([0]))),
        A.array_length([1]),
    ]


def case_errors():
    x = paddle.full([1, 3], 5, "float32")
    arr = A.array_write(x, paddle.to_tensor([0]))
    return [
        expect_error(lambda: A.array_write(x, 3, array=arr)),
        expect_error(lambda: A.array_read(arr, paddle.to_tensor([7]))),
        expect_error(lambda: A.create_array("float32", [1])),
        expect_error(lambda: A.array_write(x, paddle.to_tensor([0, 1]), array=arr)),
        expect_error(lambda: A.array_read([x], 0)),
        expect_error(lambda: A.array_write(x, paddle.to_tensor([5]), array=arr)),
    ]
