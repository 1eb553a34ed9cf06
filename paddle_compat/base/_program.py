"""The legacy ``Program``/``Block`` that dynamic-mode Tensors point at (``Tensor.block``).

In dynamic mode Paddle's default main program has one empty global block; paddle-compat has
no static-graph program, so this is all there is: Tensors report it, and it stays empty
(programs come from ``paddle.jit.to_static``)."""

from __future__ import annotations

from collections import OrderedDict


class Block:
    """A block of a Program: ``idx``, ``parent_idx``, its (empty) ``vars`` and ``ops``."""

    def __init__(self, program: Program, idx: int = 0, parent_idx: int = -1):
        self.program = program
        self.idx = idx
        self.parent_idx = parent_idx
        self.forward_block_idx = -1
        self.backward_block_idx = -1
        self.vars: OrderedDict = OrderedDict()
        self.ops: list = []

    def has_var(self, name: str) -> bool:
        return name in self.vars

    def var(self, name: str):
        if name not in self.vars:
            raise ValueError(f"var {name} not in this block")
        return self.vars[name]

    def all_parameters(self) -> list:
        return []

    def iter_parameters(self):
        return iter(())

    def to_string(self, throw_on_error: bool = False, with_details: bool = False) -> str:
        return (
            f"{{ // block_idx:{self.idx}  parent_idx:{self.parent_idx}  "
            f"forward_idx:{self.forward_block_idx}  backward_idx:{self.backward_block_idx}\n\n}}"
        )

    __str__ = __repr__ = to_string


class Program:
    """The legacy static Program as dynamic mode sees it: one empty global block."""

    def __init__(self):
        self.blocks = [Block(self)]
        self.current_block_idx = 0
        self.random_seed = 0

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    def global_block(self) -> Block:
        return self.blocks[0]

    def block(self, index: int) -> Block:
        return self.blocks[index]

    def current_block(self) -> Block:
        return self.blocks[self.current_block_idx]

    def to_string(self, throw_on_error: bool = False, with_details: bool = False) -> str:
        return "".join(b.to_string() + "\n" for b in self.blocks)

    __str__ = __repr__ = to_string


_main = Program()
_startup = Program()


def default_main_program() -> Program:
    return _main


def default_startup_program() -> Program:
    return _startup
