"""paddle.text: Viterbi decoding (``viterbi_decode``, ``ViterbiDecoder``) and the text datasets,
read from local files in Paddle's formats (paddle-compat never downloads)."""

from .datasets import WMT14, WMT16, Conll05st, Imdb, Imikolov, Movielens, UCIHousing
from .viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = [
    "Conll05st",
    "Imdb",
    "Imikolov",
    "Movielens",
    "UCIHousing",
    "WMT14",
    "WMT16",
    "ViterbiDecoder",
    "viterbi_decode",
]
