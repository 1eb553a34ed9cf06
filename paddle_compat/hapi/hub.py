"""``paddle.hapi.hub``: the same functions as ``paddle.hub``."""

from ..hub import help, list, load, load_state_dict_from_url  # noqa: A004, F401

__all__ = []
