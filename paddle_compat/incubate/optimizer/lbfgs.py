"""``paddle.incubate.optimizer.LBFGS``: Paddle's deprecated name of ``paddle.optimizer.LBFGS``
(the same algorithm); warns on construction, as Paddle does."""

from __future__ import annotations

from ...optimizer import LBFGS as _LBFGS
from ...utils.deprecated import deprecated

__all__: list[str] = []


@deprecated(since="2.5.0", update_to="paddle.optimizer.LBFGS", level=1)
class LBFGS(_LBFGS):
    """Limited-memory BFGS (deprecated here since Paddle 2.5: use paddle.optimizer.LBFGS)."""
