"""Dice: the one place where every die in the product is rolled.

A ``Dice`` is built from a seed (a seeded ``random.Random`` of its own), from a fixed sequence
of values (tests, replays, dice files), or from a callback (a player rolling real dice at the
table). Every roll is recorded with what it was for.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from meks.game.errors import DiceError
from meks.game.rules import Roller

SIDES = 6


class Roll(NamedTuple):
    """One die: its value and what it was rolled for. (A named tuple: every die makes one.)"""

    purpose: str
    value: int


_new_roll = tuple.__new__  # builds a Roll from its fields without NamedTuple.__new__


class Dice(Roller):
    """Six-sided dice with a log. Use the classmethods to build one."""

    def __init__(self, source: Callable[[str], object], seed: int | None = None) -> None:
        # ``object``: what a callback hands back is checked in ``d6``, not assumed.
        self._source = source
        # Seeded dice roll straight from their generator's bits (see ``d6``).
        self._bits: Callable[[int], int] | None = None
        self.seed = seed
        self.log: list[Roll] = []

    @classmethod
    def from_seed(cls, seed: int | None = None) -> Dice:
        """Pseudo-random dice; with no seed, one is drawn and kept in ``seed``."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(seed)
        dice = cls(lambda _purpose: rng.randint(1, SIDES), seed)
        dice._bits = rng.getrandbits
        return dice

    @classmethod
    def from_sequence(cls, values: Iterable[int], seed: int | None = None) -> Dice:
        """Dice that return ``values`` in order, then refuse to roll. ``seed``: the seed
        they were first rolled from, when they replay a seeded battle: a battle reads its
        seed for more than dice (the order in which a side labels enemies it cannot tell
        apart, R8.1)."""
        it: Iterator[int] = iter(values)

        def next_value(purpose: str) -> int:
            try:
                return next(it)
            except StopIteration:
                raise DiceError(f"The fixed dice ran out when a die was needed for {purpose}; "
                                "add more values.") from None

        return cls(next_value, seed)

    @classmethod
    def from_callback(cls, ask: Callable[[str], int]) -> Dice:
        """Dice whose every value is asked of ``ask`` (given the roll's purpose)."""
        return cls(ask)

    def d6(self, purpose: str) -> int:
        """Roll one die for ``purpose``."""
        bits = self._bits
        if bits is not None:
            # Seeded: exactly ``randint(1, 6)``, which is 1 + r for r = getrandbits(3) drawn
            # again while r >= 6 (``Random._randbelow``), without randint's and randrange's
            # calls and checks; ``tests/test_dice.py`` holds it to randint's values. The
            # value is always 1 to 6, so it needs no check.
            r = bits(3)
            while r >= SIDES:
                r = bits(3)
            value = r + 1
        else:
            given = self._source(purpose)
            if not isinstance(given, int) or isinstance(given, bool) or not 1 <= given <= SIDES:
                raise DiceError(f"A die for {purpose} came up {given!r}; a die shows 1 to 6.")
            value = given
        self.log.append(_new_roll(Roll, (purpose, value)))
        return value

    def roll(self, count: int, purpose: str) -> tuple[int, ...]:
        """Roll ``count`` dice for ``purpose``, each recorded."""
        return tuple(self.d6(purpose) for _ in range(count))

    def total(self, count: int, purpose: str) -> int:
        """The sum of ``count`` dice rolled for ``purpose``."""
        return sum(self.roll(count, purpose))

    @property
    def values(self) -> tuple[int, ...]:
        """Every value rolled so far, in order."""
        return tuple(r.value for r in self.log)
