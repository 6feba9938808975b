"""A scenario's victory conditions in the game's own words: what a side wins by (occupy,
hold, destroy_all, exit...), the combinators that join conditions (all, any, not), and each
side's condition with the result at the turn limit (``Victory``). What each condition means
on a battle is judged by ``meks.game.victory``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import ClassVar, TypeAlias

from meks.game.vocabulary import (
    DEFAULT_TURN_LIMIT,
    KEY,
    SIDES,
    Edge,
    Measure,
    Path,
    Result,
    Side,
    UnitKind,
    units_text,
    zones_text,
)


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Condition:
    tag: ClassVar[str]

    def describe(self) -> str:
        raise NotImplementedError

    def children(self) -> Iterator[tuple[Path, Condition]]:
        """Nested conditions, with their path below this one."""
        return iter(())


@dataclasses.dataclass(frozen=True, kw_only=True)
class AllOf(_Condition):
    """Every listed condition holds."""

    tag: ClassVar[str] = "all"
    all: tuple[Condition, ...]

    def describe(self) -> str:
        return " and ".join(_nested(c) for c in self.all)

    def children(self) -> Iterator[tuple[Path, Condition]]:
        return ((("all", i), c) for i, c in enumerate(self.all))


@dataclasses.dataclass(frozen=True, kw_only=True)
class AnyOf(_Condition):
    """At least one listed condition holds."""

    tag: ClassVar[str] = "any"
    any: tuple[Condition, ...]

    def describe(self) -> str:
        return " or ".join(_nested(c) for c in self.any)

    def children(self) -> Iterator[tuple[Path, Condition]]:
        return ((("any", i), c) for i, c in enumerate(self.any))


@dataclasses.dataclass(frozen=True, kw_only=True)
class NotOf(_Condition):
    """The condition does not hold."""

    tag: ClassVar[str] = "not"
    negated: Condition = dataclasses.field(metadata={KEY: "not"})

    def describe(self) -> str:
        return f"not ({self.negated.describe()})"

    def children(self) -> Iterator[tuple[Path, Condition]]:
        return iter(((("not",), self.negated),))


def _nested(condition: Condition) -> str:
    text = condition.describe()
    return f"({text})" if isinstance(condition, AllOf | AnyOf) else text


@dataclasses.dataclass(frozen=True, kw_only=True)
class _ZoneRef(_Condition):
    """A zone given by its number, or as the zone a named set-up group started in (exactly
    one of the two)."""

    zone: int | None = None
    zone_of_group: str | None = None

    @property
    def zone_text(self) -> str:
        if self.zone is not None:
            return f"zone {self.zone}"
        return f"the zone the {self.zone_of_group} group set up in"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Occupy(_ZoneRef):
    """At the end of a turn the side has a unit in the zone and the enemy has none."""

    tag: ClassVar[str] = "occupy"
    side: Side

    def describe(self) -> str:
        return f"{self.side} occupies {self.zone_text}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class NeverOccupied(_Condition):
    """The side has not occupied the zone at the end of any turn so far."""

    tag: ClassVar[str] = "never_occupied"
    side: Side
    zone: int

    def describe(self) -> str:
        return f"{self.side} has never occupied zone {self.zone}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Hold(_ZoneRef):
    """The side occupied the zone at the end of each of the last N turns; with 'after', that
    condition already held at the end of the first of those turns."""

    tag: ClassVar[str] = "hold"
    side: Side
    turns: int
    after: Condition | None = None

    def describe(self) -> str:
        text = (f"{self.side} holds {self.zone_text} for {self.turns} consecutive "
                f"turn{'s' * (self.turns != 1)}")
        if self.after is not None:
            text = f"{text}, counting from when {self.after.describe()}"
        return text

    def children(self) -> Iterator[tuple[Path, Condition]]:
        if self.after is not None:
            yield ("after",), self.after


@dataclasses.dataclass(frozen=True, kw_only=True)
class DestroyAll(_Condition):
    """Every enemy unit of the kind (and group) is destroyed, and there was at least one."""

    tag: ClassVar[str] = "destroy_all"
    side: Side
    kind: UnitKind | None = None
    group: str | None = None

    def describe(self) -> str:
        what = f"every {self.side.enemy.adjective} {units_text(self.kind, plural=False)}"
        if self.group:
            what += f" of the {self.group} group"
        return f"{self.side} has destroyed {what}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class ExitMap(_Condition):
    """Enough of the side's units have left the map across the edge, from the given zones:
    at least ``percent`` of them or at least ``count`` (exactly one of the two)."""

    tag: ClassVar[str] = "exit"
    side: Side
    edge: Edge
    from_zones: tuple[int, ...] = ()
    kind: UnitKind | None = None
    percent: float | None = None
    count: int | None = None
    of: Measure = Measure.UNITS

    @property
    def zones(self) -> tuple[int, ...]:
        return self.from_zones or self.edge.zones

    def describe(self) -> str:
        of = "points" if self.of is Measure.POINTS else units_text(self.kind)
        if self.percent is not None:
            amount, verb = f"at least {self.percent:g}% of {self.side}'s {of}", "have"
        else:
            amount = f"at least {self.count} of {self.side}'s {of}"
            verb = "has" if self.count == 1 else "have"
        where = zones_text(self.zones).replace(" and ", " or ")
        return f"{amount} {verb} left the map across the {self.edge.value} edge from {where}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class KeepUnits(_Condition):
    """The side still has at least N units (of the kind) neither destroyed nor gone."""

    tag: ClassVar[str] = "keep_units"
    side: Side
    count: int = 1
    kind: UnitKind | None = None

    def describe(self) -> str:
        return (f"{self.side} keeps at least {self.count} "
                f"{units_text(self.kind, plural=self.count != 1)}")


@dataclasses.dataclass(frozen=True, kw_only=True)
class LastStanding(_Condition):
    """The side has a unit of the kind left and the enemy has none."""

    tag: ClassVar[str] = "last_standing"
    side: Side
    kind: UnitKind | None = UnitKind.MEK

    def describe(self) -> str:
        return f"{self.side} has the last {units_text(self.kind, plural=False)} standing"


@dataclasses.dataclass(frozen=True, kw_only=True)
class InZone(_Condition):
    """The side had a unit in the zone at the end of the given turn (enemies or not)."""

    tag: ClassVar[str] = "in_zone"
    side: Side
    zone: int
    at_turn: int

    def describe(self) -> str:
        return f"{self.side} has a unit in zone {self.zone} at the end of turn {self.at_turn}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class TurnLimit(_Condition):
    """The last turn has ended."""

    tag: ClassVar[str] = "turn_limit"

    def describe(self) -> str:
        return "the turn limit is reached"


Condition: TypeAlias = (AllOf | AnyOf | NotOf | Occupy | NeverOccupied | Hold | DestroyAll
                        | ExitMap | KeepUnits | LastStanding | InZone | TurnLimit)

CONDITION_TYPES: dict[str, type[_Condition]] = {
    c.tag: c for c in (AllOf, AnyOf, NotOf, Occupy, NeverOccupied, Hold, DestroyAll, ExitMap,
                       KeepUnits, LastStanding, InZone, TurnLimit)
}
COMBINATORS = ("all", "any", "not")


def walk(condition: Condition, path: Path = ()) -> Iterator[tuple[Path, Condition]]:
    """``condition`` and every condition nested in it, each with its path."""
    yield path, condition
    for sub, child in condition.children():
        yield from walk(child, path + sub)


def parts(condition: Condition | None) -> Iterator[Condition]:
    """The conditions that ``condition`` joins with 'all' or 'any', however deeply (itself
    when it joins nothing); a 'not' is one part, its inside left to the caller."""
    if isinstance(condition, AllOf | AnyOf):
        for child in condition.all if isinstance(condition, AllOf) else condition.any:
            yield from parts(child)
    elif condition is not None:
        yield condition


@dataclasses.dataclass(frozen=True, kw_only=True)
class Victory:
    """Each side's victory condition, and the result when the turn limit is reached."""

    attacker: Condition | None = None
    defender: Condition | None = None
    at_turn_limit: Result = Result.DRAW

    def condition(self, side: Side) -> Condition | None:
        return self.attacker if side is Side.ATTACKER else self.defender

    def conditions(self) -> Iterator[tuple[Path, Condition]]:
        """Every victory condition, nested ones included, with its path in the file."""
        for side in SIDES:
            top = self.condition(side)
            if top is not None:
                yield from walk(top, ("victory", side.value))

    def needed_turns(self) -> int:
        """R7.1: the turn limit of a scenario that gives none: 12 turns, unless an
        'in_zone' condition is decided earlier."""
        needed = [c.at_turn for _, c in self.conditions() if isinstance(c, InZone)]
        if needed and max(needed) < DEFAULT_TURN_LIMIT:
            return max(needed)
        return DEFAULT_TURN_LIMIT



__all__ = [
    "COMBINATORS",
    "CONDITION_TYPES",
    "AllOf",
    "AnyOf",
    "Condition",
    "DestroyAll",
    "ExitMap",
    "Hold",
    "InZone",
    "KeepUnits",
    "LastStanding",
    "NeverOccupied",
    "NotOf",
    "Occupy",
    "TurnLimit",
    "Victory",
    "walk",
]
