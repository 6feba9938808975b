"""Who has won: a scenario's victory conditions judged against the state of a battle.

The battle engine supplies a read-only view of its state (``BattleView``, made of
``UnitView``s) at the end of a turn and calls ``judge``. Nothing here changes the state or
rolls dice; the functions are pure, so a battle report can be re-judged at any turn.

How a battle is judged (RULINGS R7.2, with the project's choices for what it leaves open):

1. At the end of each turn both sides' conditions are checked. If exactly one holds, that
   side wins; if both hold, the battle is a draw.
2. Otherwise, when the last turn has ended, the scenario's ``at_turn_limit`` result applies.
3. Otherwise, when a side has nothing left in the fight (every unit destroyed or gone off the
   map, none still to arrive), the rest of the battle is played out in thought with every
   unit staying where it is, and judged as at the end of the last turn (steps 1 and 2). If
   that gives the win to the side still fighting, the battle ends now: nothing the spent
   side could do remains, and the other side can keep the win by standing still. If neither
   side has anything left, that result stands. Otherwise play goes on, since the side still
   fighting may yet meet its conditions (leave the map, take a zone).
4. Otherwise the battle is undecided and goes on.

What the engine must provide, per unit: ``id``, ``kind`` (``UnitKind``), ``zone`` (None when
destroyed, gone off the map, or not yet arrived), ``points``, ``group`` (the set-up group
tag, e.g. "breach", or None), ``setup_zone`` (where it started; None for reinforcements),
``destroyed_turn`` (the turn it was destroyed or routed, None while it fights on),
``exited_turn``, ``exit_edge`` and ``exit_zone`` (the turn, edge and zone it left the map
by; None unless it left). Per battle: ``turn`` (the turn that has just ended), ``units(side)``
and ``presence(side, turn)``: the zones in which the side had at least one unit at the end
of an earlier turn (1 <= turn < the current one). A list with one small record per turn
is enough; the current turn is read from the units' zones.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from meks.game.conditions import (
    AllOf,
    AnyOf,
    Condition,
    DestroyAll,
    ExitMap,
    Hold,
    InZone,
    KeepUnits,
    LastStanding,
    NeverOccupied,
    NotOf,
    Occupy,
    TurnLimit,
)
from meks.game.scenario import Scenario
from meks.game.vocabulary import SIDES, Edge, Measure, Result, Side, UnitKind

# ---- what the engine provides ------------------------------------------------------------


class UnitView(Protocol):
    """One unit of a side, as the victory conditions see it."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> UnitKind: ...

    @property
    def zone(self) -> int | None: ...

    @property
    def points(self) -> int: ...

    @property
    def group(self) -> str | None: ...

    @property
    def setup_zone(self) -> int | None: ...

    @property
    def destroyed_turn(self) -> int | None: ...

    @property
    def exited_turn(self) -> int | None: ...

    @property
    def exit_edge(self) -> Edge | None: ...

    @property
    def exit_zone(self) -> int | None: ...


class BattleView(Protocol):
    """A battle at the end of turn ``turn``."""

    @property
    def turn(self) -> int: ...

    def units(self, side: Side) -> Sequence[UnitView]: ...

    def presence(self, side: Side, turn: int) -> Set[int]: ...


# ---- a ready-made view, for tests and simple callers -------------------------------------


class UnitState(NamedTuple):
    """A plain ``UnitView``. (A named tuple: the engine makes one for every unit at the end
    of every turn, and a tuple is the cheapest read-only record to make.)"""

    id: str
    kind: UnitKind = UnitKind.MEK
    zone: int | None = None
    points: int = 0
    group: str | None = None
    setup_zone: int | None = None
    destroyed_turn: int | None = None
    exited_turn: int | None = None
    exit_edge: Edge | None = None
    exit_zone: int | None = None

    @property
    def destroyed(self) -> bool:
        return self.destroyed_turn is not None

    @property
    def exited(self) -> bool:
        return self.exited_turn is not None


@dataclass(frozen=True)
class BattleState:
    """A plain ``BattleView``. ``history[t - 1]`` holds, for the end of turn ``t``, the zones
    each side had units in."""

    turn: int
    attacker: tuple[UnitState, ...] = ()
    defender: tuple[UnitState, ...] = ()
    history: tuple[Mapping[Side, frozenset[int]], ...] = field(default=())

    def units(self, side: Side) -> Sequence[UnitView]:
        return self.attacker if side is Side.ATTACKER else self.defender

    def presence(self, side: Side, turn: int) -> Set[int]:
        if 1 <= turn <= len(self.history):
            return self.history[turn - 1].get(side, frozenset())
        return frozenset()


# ---- the result --------------------------------------------------------------------------


class Outcome(enum.Enum):
    ATTACKER_WINS = "attacker wins"
    DEFENDER_WINS = "defender wins"
    DRAW = "draw"
    UNDECIDED = "undecided"

    @classmethod
    def win_for(cls, side: Side) -> Outcome:
        return cls.ATTACKER_WINS if side is Side.ATTACKER else cls.DEFENDER_WINS


_AT_LIMIT = {
    Result.ATTACKER: Outcome.ATTACKER_WINS,
    Result.DEFENDER: Outcome.DEFENDER_WINS,
    Result.DRAW: Outcome.DRAW,
}


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    reason: str

    @property
    def decided(self) -> bool:
        return self.outcome is not Outcome.UNDECIDED

    def __str__(self) -> str:
        return f"{self.outcome.value}: {self.reason}"


# ---- judging -----------------------------------------------------------------------------


class _Judge:
    """Evaluates conditions against ``view``; ``now`` is the turn judged, which is later than
    ``view.turn`` when the remaining turns are skipped (the units then stay where they are).
    A judge is made for one judgement: the zones each side holds now are worked out once."""

    __slots__ = ("_now_zones", "now", "turn_limit", "view")

    def __init__(self, view: BattleView, turn_limit: int, now: int) -> None:
        self.view = view
        self.turn_limit = turn_limit
        self.now = now
        self._now_zones: dict[Side, Set[int]] = {}

    def zones(self, side: Side, turn: int) -> Set[int]:
        if turn >= self.view.turn:
            known = self._now_zones.get(side)
            if known is None:
                known = self._now_zones[side] = {u.zone for u in self.view.units(side)
                                                 if u.zone is not None}
            return known
        return self.view.presence(side, turn)

    def occupied(self, side: Side, zone: int, turn: int) -> bool:
        """R7.2: the side has a unit in the zone and the enemy has none, at the end of
        ``turn``."""
        return zone in self.zones(side, turn) and zone not in self.zones(side.enemy, turn)

    def group_zone(self, name: str) -> int | None:
        for side in SIDES:
            for unit in self.view.units(side):
                if unit.group == name and unit.setup_zone is not None:
                    return unit.setup_zone
        return None

    def holds(self, condition: Condition, turn: int) -> bool:
        """Whether ``condition`` held at the end of ``turn``."""
        # (Loops rather than any()/all() over a generator: this runs every turn.)
        if isinstance(condition, AnyOf):
            for c in condition.any:  # noqa: SIM110
                if self.holds(c, turn):
                    return True
            return False
        if isinstance(condition, AllOf):
            for c in condition.all:  # noqa: SIM110
                if not self.holds(c, turn):
                    return False
            return True
        if isinstance(condition, NotOf):
            return not self.holds(condition.negated, turn)
        if isinstance(condition, TurnLimit):
            return turn >= self.turn_limit
        if isinstance(condition, Occupy):
            zone = self._zone_of(condition.zone, condition.zone_of_group)
            return zone is not None and self.occupied(condition.side, zone, turn)
        if isinstance(condition, DestroyAll):
            kind, group = condition.kind, condition.group
            found = False
            for u in self.view.units(condition.side.enemy):
                if (kind is None or u.kind is kind) and (group is None or u.group == group):
                    if not _gone(u.destroyed_turn, turn):
                        return False
                    found = True
            return found
        if isinstance(condition, NeverOccupied):
            return not any(self.occupied(condition.side, condition.zone, t)
                           for t in range(1, turn + 1))
        if isinstance(condition, Hold):
            return self._hold(condition, turn)
        if isinstance(condition, InZone):
            return turn >= condition.at_turn and \
                condition.zone in self.zones(condition.side, condition.at_turn)
        if isinstance(condition, ExitMap):
            return self._exit(condition, turn)
        if isinstance(condition, KeepUnits):
            return sum(1 for u in self.view.units(condition.side)
                       if _kind_matches(u, condition.kind) and _fighting(u, turn)
                       ) >= condition.count
        if isinstance(condition, LastStanding):
            def standing(side: Side) -> bool:
                return any(_kind_matches(u, condition.kind) and _fighting(u, turn)
                           for u in self.view.units(side))
            return standing(condition.side) and not standing(condition.side.enemy)
        raise TypeError(f"unknown condition {type(condition).__name__}")  # pragma: no cover

    def _zone_of(self, zone: int | None, group: str | None) -> int | None:
        return zone if zone is not None else self.group_zone(group or "")

    def _hold(self, condition: Hold, turn: int) -> bool:
        zone = self._zone_of(condition.zone, condition.zone_of_group)
        first = turn - condition.turns + 1
        if zone is None or first < 1:
            return False
        if not all(self.occupied(condition.side, zone, t) for t in range(first, turn + 1)):
            return False
        return condition.after is None or self.holds(condition.after, first)

    def _exit(self, condition: ExitMap, turn: int) -> bool:
        force = [u for u in self.view.units(condition.side) if _kind_matches(u, condition.kind)]
        left = [u for u in force
                if _gone(u.exited_turn, turn) and u.exit_edge is condition.edge
                and (u.exit_zone is None or u.exit_zone in condition.zones)]

        def amount(units: Sequence[UnitView]) -> int:
            if condition.of is Measure.POINTS:
                return sum(u.points for u in units)
            return len(units)

        if condition.count is not None:
            return amount(left) >= condition.count
        total = amount(force)
        return total > 0 and amount(left) * 100 >= (condition.percent or 0) * total

    def first_reason(self, condition: Condition, turn: int) -> str:
        """The part of a condition that made it hold, in words."""
        if isinstance(condition, AnyOf):
            for child in condition.any:
                if self.holds(child, turn):
                    return self.first_reason(child, turn)
        if isinstance(condition, AllOf):
            return " and ".join(self.first_reason(c, turn) for c in condition.all)
        return condition.describe()


def _kind_matches(unit: UnitView, kind: UnitKind | None) -> bool:
    return kind is None or unit.kind is kind


def _gone(when: int | None, turn: int) -> bool:
    return when is not None and when <= turn


def _fighting(unit: UnitView, turn: int) -> bool:
    """Neither destroyed nor gone off the map by the end of ``turn`` (units still to arrive
    count: they are not lost)."""
    return not _gone(unit.destroyed_turn, turn) and not _gone(unit.exited_turn, turn)


def spent(view: BattleView, side: Side) -> bool:
    """Whether the side has nothing left in the fight."""
    return not any(_fighting(u, view.turn) for u in view.units(side))


def holds(condition: Condition, view: BattleView, turn_limit: int,
          turn: int | None = None) -> bool:
    """Whether ``condition`` held at the end of ``turn`` (default: the view's turn)."""
    return _Judge(view, turn_limit, view.turn).holds(condition, view.turn if turn is None
                                                     else turn)


def judge(scenario: Scenario, view: BattleView, *, played_out_words: bool = True) -> Verdict:
    """The result of the battle at the end of ``view.turn`` (see the module notes). A battle
    ended because a side has nothing left says that the rest was judged as it would stand at
    the turn limit; with ``played_out_words`` false it reads as it did before engine
    revision 15 (the reason of that judgment only, which may begin "the turn limit is
    reached"), as the replays of battles stored before it must."""
    limit = scenario.turn_limit
    verdict = _check(scenario, _Judge(view, limit, view.turn))
    if verdict is not None:
        return verdict
    if view.turn >= limit:
        return _at_limit(scenario, f"the last turn ({limit}) has ended and neither side met its "
                                   "conditions", view)
    out = [side for side in SIDES if spent(view, side)]
    if out:
        who = "both sides have" if len(out) == 2 else f"{out[0]} has"
        played_out = _check(scenario, _Judge(view, limit, limit)) or _at_limit(
            scenario, "neither side can meet its conditions", view)
        fighting = [side for side in SIDES if side not in out]
        if not fighting or played_out.outcome is Outcome.win_for(fighting[0]):
            how = (", so the battle is judged as it would stand at the turn limit:"
                   if played_out_words else ";")
            return Verdict(played_out.outcome, f"{who} nothing left in the fight after turn "
                                               f"{view.turn}{how} {played_out.reason}")
    return Verdict(Outcome.UNDECIDED, f"neither side has met its conditions after turn "
                                      f"{view.turn}")


def _check(scenario: Scenario, judge_: _Judge) -> Verdict | None:
    met: dict[Side, str] = {}
    for side in SIDES:
        condition = scenario.victory.condition(side)
        if condition is not None and judge_.holds(condition, judge_.now):
            met[side] = judge_.first_reason(condition, judge_.now)
    if len(met) == 2:
        return Verdict(Outcome.DRAW, "both sides met their conditions at once ("
                       + "; ".join(met.values()) + ")")
    if met:
        side, reason = next(iter(met.items()))
        return Verdict(Outcome.win_for(side), reason)
    return None


def mek_points(view: BattleView, side: Side) -> int:
    """The points of the enemy's Meks that ``side`` has destroyed so far (R7.3, Head to
    Head at the turn limit): their price as mustered, a Mek whose pilot bailed out
    included, one that left the map not."""
    return sum(u.points for u in view.units(side.enemy)
               if u.kind is UnitKind.MEK and u.destroyed_turn is not None)


def _at_limit(scenario: Scenario, why: str, view: BattleView) -> Verdict:
    result = scenario.victory.at_turn_limit
    if result is Result.MEK_POINTS:
        a, d = mek_points(view, Side.ATTACKER), mek_points(view, Side.DEFENDER)
        if a == d:
            return Verdict(Outcome.DRAW, f"{why}; each side destroyed {a} points of the "
                                         "enemy's Meks: a draw")
        side = Side.ATTACKER if a > d else Side.DEFENDER
        return Verdict(Outcome.win_for(side), f"{why}; the {side.value} destroyed {max(a, d)} "
                                              f"points of Meks to the {side.enemy.value}'s "
                                              f"{min(a, d)} and wins")
    outcome = _AT_LIMIT[result]
    if result is Result.DRAW:
        return Verdict(outcome, f"{why}; the scenario calls that a draw")
    return Verdict(outcome, f"{why}; the scenario gives that to the {result.value}")


__all__ = [
    "BattleState",
    "BattleView",
    "Outcome",
    "UnitState",
    "UnitView",
    "Verdict",
    "holds",
    "judge",
    "mek_points",
    "spent",
]
