"""``paddle.base.dygraph.tracer.Tracer``: the dynamic-mode tracer as Python code reads it
(``framework._dygraph_tracer()``): whether gradients are recorded, the AMP level and dtype,
the AMP op lists and the expected place, read from paddle-compat's own state."""

from __future__ import annotations

from ..._core import amp_state
from ..._core.autograd import is_grad_enabled, set_grad_enabled
from ..core import AmpLevel


class Tracer:
    """A view of the eager state (one per process); setting ``_has_grad`` switches gradient
    recording as ``paddle.set_grad_enabled`` does."""

    @property
    def _has_grad(self) -> bool:
        return is_grad_enabled()

    @_has_grad.setter
    def _has_grad(self, value: bool) -> None:
        set_grad_enabled(bool(value))

    @property
    def _amp_level(self) -> AmpLevel:
        s = amp_state.current()
        return AmpLevel.O0 if s is None else AmpLevel[s.level]

    @property
    def _amp_dtype(self) -> str:
        s = amp_state.current()
        return "float32" if s is None else s.dtype.name

    @property
    def _train_mode(self) -> bool:
        return True

    @property
    def _expected_place(self):
        from ..framework import _current_expected_place

        return _current_expected_place()

    def _get_amp_op_list(self) -> tuple[set, set]:
        """The white and black op lists of the active ``auto_cast`` (empty outside one)."""
        s = amp_state.current()
        if s is None:
            return set(), set()
        white = {n for op in s.white for n in amp_state.amp_names(op)}
        black = {n for op in s.black for n in amp_state.amp_names(op)}
        return white, black


_TRACER = Tracer()


def _dygraph_tracer() -> Tracer:
    return _TRACER
