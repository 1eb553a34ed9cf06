"""``paddle.dataset``: Paddle's legacy dataset readers (superseded by ``paddle.vision.datasets``
and ``paddle.text.datasets``). They read the files from Paddle's cache
(``paddle.dataset.common.DATA_HOME``, ``~/.cache/paddle/dataset``) and never download: a
missing file raises a RuntimeError that says where to put it."""

from . import (  # noqa: F401
    cifar,
    common,
    conll05,
    flowers,
    image,
    imdb,
    imikolov,
    mnist,
    uci_housing,
    voc2012,
    wmt14,
)

# the modules that common.fetch_all() visits
__all_modules__ = (
    "cifar", "conll05", "flowers", "imdb", "imikolov", "mnist", "uci_housing", "voc2012", "wmt14",
)  # fmt: skip

__all__ = []
