"""Recorded decisions: a controller that keeps every answer its side gives, as plain data.

``Recorded`` wraps another controller. For the i-th decision the engine asks of it, a
recorded answer (if there is one) is decoded and returned without asking the inner
controller; past the end of the record, the inner controller is asked, its answer encoded
(unit ids for units, a weapon's index in its unit's ``weapons`` for weapon slots, a
``RangeChoice`` by name, an ``Edge`` by value), appended, and passed to ``on_decision``.

The engine is deterministic given its dice and its decisions, so fighting a battle again from
the same seed with the recorded decisions brings it to exactly the same point: that is how an
interrupted battle is resumed. Each recorded answer also names the decision it answers and
the turn it was made in; an answer that does not fit the decision asked raises
``ReplayMismatch`` instead of silently steering the battle somewhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from meks.engine.values import SlotView, UnitView
from meks.game.catalog import Band, Weapon
from meks.game.errors import MeksError
from meks.game.vocabulary import Edge, Side

if TYPE_CHECKING:
    from meks.engine.controllers import Controller, Order
    from meks.engine.decisions import RangeChoice, Retreat
    from meks.engine.view import SideView

Decision = dict[str, Any]
"""One recorded answer: ``{"ask": method, "turn": n, "value": JSON-able data}``."""

T = TypeVar("T")


class ReplayMismatch(MeksError):
    """A recorded decision that does not fit the battle being fought again."""


class Recorded:
    """A controller wrapper that records its side's decisions and replays them.

    ``decisions`` is used as given (answers are appended to it); ``position`` counts the
    decisions made so far, replayed or live; ``log_mark`` is the length of the battle log
    when the last one was made, and ``caught_up`` what it was when the record ran out (set
    when the first decision past the record is asked)."""

    def __init__(self, inner: Controller, decisions: list[Decision] | None = None,
                 on_decision: Callable[[int, Decision], None] | None = None) -> None:
        self.inner = inner
        self.decisions: list[Decision] = decisions if decisions is not None else []
        self.on_decision = on_decision
        self.position = 0
        self.log_mark = 0
        self.caught_up: int | None = None
        self.last_replayed: int | None = None  # the index of the answer just replayed

    @property
    def replaying(self) -> bool:
        """Whether recorded answers remain to be replayed."""
        return self.position < len(self.decisions)

    def _decide(self, ask: str, battle: SideView, live: Callable[[], T],
                encode: Callable[[T], Any], decode: Callable[[Any], T]) -> T:
        index = self.position
        if index < len(self.decisions):
            data = self.decisions[index]
            if not isinstance(data, dict) or data.get("ask") != ask or \
                    data.get("turn", battle.turn) != battle.turn:
                got = data.get("ask") if isinstance(data, dict) else data
                turn = data.get("turn") if isinstance(data, dict) else None
                raise ReplayMismatch(
                    f"Recorded decision {index + 1} answers {got!r} (turn {turn}), but the "
                    f"battle now asks {ask!r} (turn {battle.turn}): the record does not fit "
                    "this battle.")
            try:
                value = decode(data.get("value"))
            except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
                raise ReplayMismatch(
                    f"Recorded decision {index + 1} ({ask}) cannot be used in this battle: "
                    f"{exc}.") from None
            self.position += 1
            self.last_replayed = index
        else:
            self.last_replayed = None
            if self.caught_up is None:
                self.caught_up = self.log_mark
            value = live()
            data = {"ask": ask, "turn": battle.turn, "value": encode(value)}
            self.decisions.append(data)
            self.position += 1
            if self.on_decision is not None:
                self.on_decision(index, data)
        self.log_mark = battle.stamp
        return value

    # ---- set-up ---------------------------------------------------------------------------

    def deploy(self, battle: SideView, side: Side, units: Sequence[UnitView]) -> dict[str, int]:
        return self._decide(
            "deploy", battle, lambda: self.inner.deploy(battle, side, units),
            lambda v: {str(k): int(z) for k, z in v.items()},
            lambda d: {str(k): _int(z) for k, z in _mapping(d).items()})

    def setup_support(self, battle: SideView, side: Side, asset: str) -> int | str | None:
        return self._decide(
            "setup_support", battle, lambda: self.inner.setup_support(battle, side, asset),
            _plain, _plain)

    # ---- movement -------------------------------------------------------------------------

    def move_first(self, battle: SideView, side: Side) -> bool:
        return self._decide("move_first", battle,
                            lambda: self.inner.move_first(battle, side), bool, _bool)

    def movement(self, battle: SideView, side: Side) -> dict[str, Order]:
        return self._decide("movement", battle, lambda: self.inner.movement(battle, side),
                            _encode_orders, _decode_orders)

    def second_move(self, battle: SideView, side: Side) -> dict[str, Order]:
        return self._decide("second_move", battle,
                            lambda: self.inner.second_move(battle, side),
                            _encode_orders, _decode_orders)

    def arrival_zone(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        return self._decide("arrival_zone", battle,
                            lambda: self.inner.arrival_zone(battle, unit, zones), int, _int)

    def jump(self, battle: SideView, unit: UnitView) -> bool:
        return self._decide("jump", battle, lambda: self.inner.jump(battle, unit), bool, _bool)

    # ---- combat ---------------------------------------------------------------------------

    def range_choice(self, battle: SideView, zone: int, side: Side,
                     options: list[RangeChoice]) -> RangeChoice:
        from meks.engine.decisions import RangeChoice

        return self._decide(
            "range_choice", battle,
            lambda: self.inner.range_choice(battle, zone, side, options),
            lambda c: c.name, lambda name: RangeChoice[str(name)])

    def targets(self, battle: SideView, unit: UnitView, candidates: list[UnitView],
                limit: int) -> list[UnitView]:
        return self._decide(
            "targets", battle, lambda: self.inner.targets(battle, unit, candidates, limit),
            lambda chosen: [t.id for t in chosen],
            lambda ids: [_unit(battle, uid) for uid in _list(ids)])

    def fire_plan(self, battle: SideView, unit: UnitView, targets: list[UnitView],
                  band: Band) -> list[tuple[SlotView, UnitView]]:
        def encode(plan: list[tuple[SlotView, UnitView]]) -> list[list[Any]]:
            out: list[list[Any]] = []
            for slot, target in plan:
                index = next((i for i, s in enumerate(unit.weapons) if s is slot), None)
                if index is not None:  # a slot the unit does not carry is ignored anyway
                    out.append([index, target.id])
            return out

        def decode(data: Any) -> list[tuple[SlotView, UnitView]]:
            plan = []
            for entry in _list(data):
                index, uid = _list(entry)
                plan.append((unit.weapons[_int(index)], _unit(battle, uid)))
            return plan

        return self._decide("fire_plan", battle,
                            lambda: self.inner.fire_plan(battle, unit, targets, band),
                            encode, decode)

    def dodge(self, battle: SideView, unit: UnitView, weapon: Weapon, hits: int) -> bool:
        return self._decide("dodge", battle,
                            lambda: self.inner.dodge(battle, unit, weapon, hits), bool, _bool)

    def support(self, battle: SideView, side: Side, moment: str,
                zone: int | None) -> list[tuple[str, object]]:
        return self._decide(
            "support", battle, lambda: self.inner.support(battle, side, moment, zone),
            lambda uses: [[str(asset), _plain(choice)] for asset, choice in uses],
            lambda data: [(str(a), _plain(c)) for a, c in map(_list, _list(data))])

    def ambush(self, battle: SideView, side: Side, zone: int) -> str | None:
        return self._decide("ambush", battle, lambda: self.inner.ambush(battle, side, zone),
                            _optional_str, _optional_str)

    def dismount(self, battle: SideView, apc: UnitView) -> bool:
        return self._decide("dismount", battle, lambda: self.inner.dismount(battle, apc),
                            bool, _bool)

    def reveal(self, battle: SideView, unit: UnitView) -> bool:
        return self._decide("reveal", battle, lambda: self.inner.reveal(battle, unit),
                            bool, _bool)

    def commando(self, battle: SideView, unit: UnitView,
                 enemies: list[UnitView]) -> tuple[str, UnitView] | None:
        def decode(data: Any) -> tuple[str, UnitView] | None:
            if data is None:
                return None
            what, uid = _list(data)
            return str(what), _unit(battle, uid)

        return self._decide(
            "commando", battle, lambda: self.inner.commando(battle, unit, enemies),
            lambda action: None if action is None else [action[0], action[1].id], decode)

    def hawkeye(self, battle: SideView, unit: UnitView,
                candidates: list[UnitView]) -> UnitView | None:
        return self._decide(
            "hawkeye", battle, lambda: self.inner.hawkeye(battle, unit, candidates),
            lambda chosen: None if chosen is None else chosen.id,
            lambda uid: None if uid is None else _unit(battle, uid))

    # ---- house rules bail_out and withdrawal (R6.12, R6.13) --------------------------------

    def bail_out(self, battle: SideView, unit: UnitView) -> bool:
        return self._decide("bail_out", battle, lambda: self.inner.bail_out(battle, unit),
                            bool, _bool)

    def withdraw(self, battle: SideView, unit: UnitView, zones: list[int]) -> int:
        return self._decide("withdraw", battle,
                            lambda: self.inner.withdraw(battle, unit, zones), int, _int)

    def withdrawal(self, battle: SideView, side: Side, options: list[Retreat]) -> Retreat:
        from meks.engine.decisions import Retreat

        return self._decide(
            "withdrawal", battle, lambda: self.inner.withdrawal(battle, side, options),
            lambda c: c.name, lambda name: Retreat[str(name)])


# ---- encoding helpers -------------------------------------------------------------------------

def _unit(battle: SideView, uid: object) -> UnitView:
    unit = battle.find(uid)
    if unit is None:
        raise ValueError(f"the side sees no unit with the id {uid!r}")
    return unit


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"{value!r} is not a list")
    return list(value)


def _mapping(value: object) -> dict[Any, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"{value!r} is not a mapping")
    return value


def _optional_str(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{value!r} is not a unit id")
    return value


def _plain(value: object) -> int | str | None:
    """A zone, a unit id or nothing (set-up and support choices)."""
    if isinstance(value, UnitView):
        return value.id
    if value is None or isinstance(value, int | str):
        return value
    raise TypeError(f"{value!r} is not a zone or a unit id")


def _encode_orders(orders: dict[str, Order]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for uid, where in orders.items():
        out[str(uid)] = {"edge": where.value} if isinstance(where, Edge) else where
    return out


def _decode_orders(data: object) -> dict[str, Order]:
    out: dict[str, Order] = {}
    for uid, where in _mapping(data).items():
        if isinstance(where, dict):
            out[str(uid)] = Edge(where["edge"])
        elif where is None or isinstance(where, int | str):
            out[str(uid)] = where
        else:
            raise TypeError(f"{where!r} is not a move order")
    return out


__all__ = ["Decision", "Recorded", "ReplayMismatch"]
