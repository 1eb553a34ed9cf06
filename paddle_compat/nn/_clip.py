"""Gradient clipping: ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue (being written)."""
__all__ = []
