"""Stand-ins for what a shot of the exact duel reads (``meks.analysis.duel_chain``).

A shot of the duel is gathered by ``meks.engine.inputs`` as the engine's and the bot's are;
these stand for what it reads there: two Meks on open ground, one zone between them.
"""

from __future__ import annotations

from dataclasses import dataclass

from meks.engine.inputs import Aimer
from meks.game.catalog import MoveDice
from meks.game.scenario import HouseRules
from meks.game.vocabulary import SIDES, Side, UnitKind


@dataclass(frozen=True)
class Grade:
    to_hit: int  # the pilot level's to-hit modifier
    move: int = 0  # and its movement modifier
    level: str = ""


@dataclass(frozen=True)
class Seat:
    level: Grade
    familiarity: None = None  # the duel's pilots have no skills

    def has(self, skill: str) -> bool:
        return False


STILL = MoveDice(0)  # a Mek whose movement the duel does not ask


@dataclass(frozen=True)
class DuelMek:
    """One Mek of the duel as a shot reads it (``meks.engine.inputs.Aimer``): its live
    non-armor systems; its pilot has no skills; it never digs in."""

    side: Side
    pilot: Seat
    systems: tuple[str, ...]
    computers_turns: tuple[int, ...] = ()  # (0,): its Computers are damaged now
    zone: int = 5
    dug_in_zone: None = None
    turn_skills: frozenset[str] = frozenset()
    rounds: int = 0
    move: MoveDice = STILL
    legs: int = 0
    kind: UnitKind = UnitKind.MEK
    size: None = None
    ignores_terrain_movement: bool = False

    @property
    def id(self) -> str:
        return self.side.value

    def has_system(self, name: str) -> bool:
        return name in self.systems

    def skill(self, name: str) -> bool:
        return False


class OpenGround:
    """The duel's ground (``meks.engine.inputs.Ground``): one terrain, never doubled, nobody
    marked, a Phalanx only on the target itself (``phalanx``), the printed rules."""

    house = HouseRules()

    def __init__(self, terrain_to_hit: int, phalanx: bool) -> None:
        self._terrain = terrain_to_hit
        self._phalanx = phalanx
        self.marked = {s: frozenset[str]() for s in SIDES}

    def terrain_to_hit(self, zone: int) -> int:
        return self._terrain

    def terrain_name(self, zone: int) -> str:
        return ""

    def doubled_against(self, zone: int, side: Side) -> bool:
        return False

    def computers_damaged(self, unit: Aimer) -> bool:
        return bool(unit.computers_turns)

    def phalanx_in(self, zone: int, side: Side) -> bool:
        return self._phalanx


__all__ = ["STILL", "DuelMek", "Grade", "OpenGround", "Seat"]
