"""The small vocabularies of a scenario, in the game's own words: sides, map edges, kinds of
unit, what a count measures, results, the house rules' choices (skills, repairs, breaking
contact, salvage, reinforcement zones), the R7.1 defaults, and the few words a scenario's
parts are described in. ``meks.game.scenario`` builds its set-up rules and scenarios from
them, ``meks.game.conditions`` its victory conditions.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

DEFAULT_BUDGET = 60
MAX_BUDGET = 10_000  # the largest points budget a muster takes
DEFAULT_SUPPORT_ROLLS = 1
DEFAULT_TURN_LIMIT = 12
DEFAULT_TERRAIN = "Plains"

Path = tuple[str | int, ...]


# ---- small vocabularies ------------------------------------------------------------------

class Side(enum.Enum):
    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def enemy(self) -> Side:
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER

    @property
    def adjective(self) -> str:
        """'attacking' or 'defending'."""
        return "attacking" if self is Side.ATTACKER else "defending"

    def __str__(self) -> str:
        return f"the {self.value}"



# Side's members in order, as a tuple: iterating the Enum class itself is a Python-level
# generator, and the engine and the victory check go over both sides many times a turn.
SIDES: tuple[Side, Side] = (Side.ATTACKER, Side.DEFENDER)

class Edge(enum.Enum):
    """Map edges; the top edge is north (R5.1)."""

    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    NORTH = "north"
    SOUTH = "south"
    EAST = "east"
    WEST = "west"

    @property
    def zones(self) -> tuple[int, ...]:
        """The zones along this edge; only from these can a unit leave across it."""
        return _EDGE_ZONES[self]


_EDGE_ZONES = {
    Edge.NORTH: (1, 2, 3),
    Edge.SOUTH: (7, 8, 9),
    Edge.WEST: (1, 4, 7),
    Edge.EAST: (3, 6, 9),
}


class UnitKind(enum.Enum):
    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    MEK = "mek"
    VEHICLE = "vehicle"
    INFANTRY = "infantry"


class Measure(enum.Enum):
    """What a share of a force is counted in."""

    UNITS = "units"
    POINTS = "points"


class Result(enum.Enum):
    """Who wins when the turn limit is reached and no side has met its conditions
    (``mek_points``: the side that destroyed more of the enemy's Mek points, R7.3; equal
    points are a draw)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"
    DRAW = "draw"
    MEK_POINTS = "mek_points"


class SkillChoice(enum.Enum):
    """House rule R2.4."""

    CHOOSE = "choose"
    RANDOM = "random"


class Repair(enum.Enum):
    """House rule R3.4: free repairs, none (Hits carry over), or paid (Hits mended at a
    price, R3.7)."""

    FREE = "free"
    NONE = "none"
    PAID = "paid"


class BreakContact(enum.Enum):
    """R6.3: what breaking contact does. ``withdraw``: the winner's units pull out at once
    into adjacent zones free of enemies; ``stay``: the earlier reading, no fire there this
    turn and the units may leave in their next movement."""

    WITHDRAW = "withdraw"
    STAY = "stay"


# R5.2: the most rounds one zone combat fights in one combat step (docs/rules.md, "The cap on
# rounds"); 1 is the earlier reading, one exchange per zone per turn.
COMBAT_ROUNDS = 3
MAX_COMBAT_ROUNDS = 12


class Salvage(enum.Enum):
    """House rule R3.6: who recovers the parts of the enemy's destroyed Meks."""

    NONE = "none"
    WINNER = "winner"
    BOTH = "both"


class ZoneChoice(enum.Enum):
    """Who picks the arrival zone of a reinforcement: its owner, or a die."""

    CHOOSE = "choose"
    RANDOM = "random"


# ---- the parts of a scenario -------------------------------------------------------------

def zones_text(zones: Sequence[int]) -> str:
    zones = sorted(zones)
    if len(zones) == 1:
        return f"zone {zones[0]}"
    return "zones " + ", ".join(str(z) for z in zones[:-1]) + f" and {zones[-1]}"


def units_text(kind: UnitKind | None, plural: bool = True) -> str:
    word = {None: "unit", UnitKind.MEK: "Mek", UnitKind.VEHICLE: "vehicle",
            UnitKind.INFANTRY: "infantry unit"}[kind]
    return word + "s" if plural else word


KEY = "key"
"""A field's ``metadata`` entry naming its key in a scenario file when that differs from the
field's name; None for a field that is not in the file at all."""


__all__ = [
    "COMBAT_ROUNDS",
    "KEY",
    "MAX_COMBAT_ROUNDS",
    "BreakContact",
    "Edge",
    "Measure",
    "Repair",
    "Result",
    "Salvage",
    "Side",
    "SkillChoice",
    "UnitKind",
    "ZoneChoice",
]
