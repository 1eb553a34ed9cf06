"""``paddle.nn.decode``: the ``Decoder`` base class, ``BeamSearchDecoder`` and
``dynamic_decode`` (implemented in ``nn/_layers/decode.py``)."""

from ._layers.decode import BeamSearchDecoder, Decoder, dynamic_decode

__all__ = ["BeamSearchDecoder", "Decoder", "dynamic_decode"]
