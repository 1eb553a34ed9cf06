"""Paddle's import paths for ``paddle.nn`` names: ``paddle.nn.layer.<m>`` and
``paddle.nn.functional.<m>`` (``from paddle.nn.layer.transformer import
TransformerEncoderLayer``). Each such module is a small file that calls ``alias_module``: it
holds the names real Paddle's module holds (``_module_paths.MODULES``, recorded by
tools/record_nn_modules.py), resolved on access in ``paddle.nn`` or ``paddle.nn.functional``,
so each name is the same object there and here."""

from __future__ import annotations

import importlib

from ._module_paths import MODULES


def alias_module(module: str, source: str):
    """``(__getattr__, __dir__)`` for the alias module ``module`` (a ``paddle_compat.nn...``
    name) whose names come from the module ``source``. ``__all__`` lists the recorded names
    paddle-compat has; a recorded name it lacks raises AttributeError saying so."""
    paddle_name = "paddle" + module[len("paddle_compat") :]
    names = MODULES[paddle_name]

    def __getattr__(attr: str):
        src = importlib.import_module(source)
        if attr == "__all__":
            return [n for n in names if hasattr(src, n)]
        if attr in names and hasattr(src, attr):
            return getattr(src, attr)
        missing = " (Paddle has it; paddle-compat does not yet)" if attr in names else ""
        raise AttributeError(f"module '{paddle_name}' has no attribute '{attr}'{missing}")

    def __dir__():
        return sorted(__getattr__("__all__"))

    return __getattr__, __dir__
