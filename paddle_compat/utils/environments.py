"""``paddle.utils.environments``: ``strtobool``."""


def strtobool(val: str) -> bool:
    """True for y/yes/t/true/on/1, False for n/no/f/false/off/0 (any case)."""
    v = val.lower()
    if v in ("y", "yes", "t", "true", "on", "1"):
        return True
    if v in ("n", "no", "f", "false", "off", "0"):
        return False
    raise ValueError(f"Invalid truth value {val!r}")
