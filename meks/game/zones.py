"""The map's geometry (R5): nine zones in three rows of three, numbered 1 to 9 from the top
left, a zone next to those that share a side with it (and its corners too under the house
rule ``diagonal_moves``). Worked out here once, for the engine and the controllers alike.
"""

from __future__ import annotations

ZONES = tuple(range(1, 10))


def cell(zone: int) -> tuple[int, int]:
    """The zone's row and column, each 0 to 2."""
    return divmod(zone - 1, 3)


def distance(a: int, b: int, diagonal: bool = False) -> int:
    """How many moves it takes from zone ``a`` to zone ``b`` on an empty map."""
    ra, ca = cell(a)
    rb, cb = cell(b)
    if diagonal:
        return max(abs(ra - rb), abs(ca - cb))
    return abs(ra - rb) + abs(ca - cb)


def neighbours(zone: int, diagonal: bool = False) -> tuple[int, ...]:
    """The zones next to ``zone``, in order."""
    return tuple(z for z in ZONES if distance(zone, z, diagonal) == 1)


__all__ = ["ZONES", "cell", "distance", "neighbours"]
