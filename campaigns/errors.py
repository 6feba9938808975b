"""The errors of the campaigns layer, in a module of their own so that code with no use for
the store (the odds' worker processes) can raise them without importing it."""

from __future__ import annotations

from meks.game.errors import MeksError


class NotFound(MeksError):
    """A company, Mek or pilot that does not exist."""


class Refused(MeksError):
    """A change the rules or the company's state do not allow."""


__all__ = ["NotFound", "Refused"]
