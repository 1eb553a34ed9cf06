"""paddle.text.datasets: Paddle's text datasets, read from local files in Paddle's formats
(the path given, else Paddle's download cache; paddle-compat never downloads)."""

from .conll05 import Conll05st  # noqa: F401
from .imdb import Imdb  # noqa: F401
from .imikolov import Imikolov  # noqa: F401
from .movielens import Movielens  # noqa: F401
from .uci_housing import UCIHousing  # noqa: F401
from .wmt14 import WMT14  # noqa: F401
from .wmt16 import WMT16  # noqa: F401

__all__: list[str] = []
