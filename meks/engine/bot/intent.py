"""The bot's intent: what the victory conditions ask of each side.

``read_intent`` turns a side's own condition and the enemy's into tasks for the whole side
(zones to occupy, hold, be in or deny, exits to take or block, units to destroy or keep);
``standing_still`` says who gains by waiting: whether the side wins, draws or loses if
nothing changes until the last turn. Set-up groups named by a condition are found on the
map by ``group_zone`` and ``group_gone``; ``held_zones`` are where a hidden unit counts as
present, and ``stays_hidden`` says whether a hidden Mek keeps out of sight.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from meks.game.conditions import (
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
    parts,
)
from meks.game.victory import holds, mek_points
from meks.game.vocabulary import Result, Side, UnitKind

if TYPE_CHECKING:
    from meks.engine.values import UnitView
    from meks.engine.view import SideView



@dataclass
class Intent:
    """What a side's victory conditions ask of it, as tasks."""

    occupy: list[int] = field(default_factory=list)  # zones whose occupation wins at once
    hold: list[int] = field(default_factory=list)  # zones to hold for some turns
    hold_group: str | None = None  # hold the zone this set-up group started in
    after_group: str | None = None  # ... once that group is destroyed
    be_in: list[int] = field(default_factory=list)  # zones to have units in at the end
    exits: list[ExitMap] = field(default_factory=list)
    hunt: bool = False
    hunt_group: str | None = None
    hunt_kind: UnitKind | None = None
    deny: list[int] = field(default_factory=list)  # zones the enemy wants
    deny_group: str | None = None
    clear: list[int] = field(default_factory=list)  # zones the enemy must not be in
    enemy_exits: list[ExitMap] = field(default_factory=list)
    keep: int = 0

    @property
    def goto(self) -> list[int]:
        return sorted(set(self.occupy + self.hold + self.be_in))

    @property
    def to_clear(self) -> list[int]:
        """The zones the enemy must not hold: those it wants, and those it must not be in."""
        return sorted(set(self.deny + self.clear))

    @property
    def zones(self) -> list[int]:
        """Every zone the side's conditions name: to take, hold or be in (``goto``), and to
        keep the enemy out of (``to_clear``)."""
        return sorted(set(self.goto + self.to_clear))


def read_intent(condition: Condition | None, enemy_condition: Condition | None,
                side: Side) -> Intent:
    """The tasks a side's own conditions and the enemy's conditions give it."""
    intent = Intent()

    for c in parts(condition):
        if isinstance(c, NotOf):
            neg = c.negated
            if isinstance(neg, ExitMap) and neg.side is not side:
                intent.enemy_exits.append(neg)
            elif isinstance(neg, Occupy | Hold) and neg.side is not side:
                _add_deny(intent, neg)
        elif isinstance(c, Occupy) and c.side is side:
            if c.zone is not None:
                intent.occupy.append(c.zone)
            else:
                intent.hold_group = c.zone_of_group
        elif isinstance(c, Hold) and c.side is side:
            if c.zone is not None:
                intent.hold.append(c.zone)
            else:
                intent.hold_group = c.zone_of_group
            if isinstance(c.after, DestroyAll) and c.after.group:
                intent.after_group = c.after.group
        elif isinstance(c, InZone) and c.side is side:
            intent.be_in.append(c.zone)
        elif isinstance(c, NeverOccupied) and c.side is not side:
            intent.deny.append(c.zone)
        elif isinstance(c, DestroyAll) and c.side is side:
            intent.hunt = True
            intent.hunt_group = c.group
            intent.hunt_kind = c.kind
        elif isinstance(c, LastStanding) and c.side is side:
            intent.hunt = True
            intent.hunt_kind = c.kind
        elif isinstance(c, ExitMap) and c.side is side:
            intent.exits.append(c)
        elif isinstance(c, KeepUnits) and c.side is side:
            intent.keep = max(intent.keep, c.count)

    for c in parts(enemy_condition):
        if isinstance(c, Occupy | Hold) and c.side is not side:
            _add_deny(intent, c)
        elif isinstance(c, InZone) and c.side is not side:
            intent.clear.append(c.zone)
        elif isinstance(c, ExitMap) and c.side is not side:
            intent.enemy_exits.append(c)

    for name in ("occupy", "hold", "be_in", "deny", "clear"):
        setattr(intent, name, sorted(set(getattr(intent, name))))
    return intent


def _add_deny(intent: Intent, c: Occupy | Hold) -> None:
    if c.zone is not None:
        intent.deny.append(c.zone)
    else:
        intent.deny_group = c.zone_of_group


def group_zone(battle: SideView, name: str | None) -> int | None:
    """The zone where the set-up group ``name`` started, if it is on the map."""
    if name is None:
        return None
    for unit in battle.units:
        if unit.group == name and unit.setup_zone is not None:
            return unit.setup_zone
    return None


def group_gone(battle: SideView, group: str) -> bool:
    """Whether every unit of the set-up group ``group`` is destroyed."""
    members = [u for u in battle.units if u.group == group]
    return bool(members) and all(not u.alive for u in members)


def held_zones(battle: SideView, intent: Intent) -> list[int]:
    """Zones a side with ``intent`` must hold, deny or be in (and the zone of a set-up group
    the enemy must take): there a hidden unit counts as present. (Not an exit zone: only
    units the enemy can see stop it leaving.)"""
    held = intent.deny + intent.goto
    group = group_zone(battle, intent.deny_group)
    if group is not None:
        held.append(group)
    return held


def stays_hidden(battle: SideView, intent: Intent, unit: UnitView) -> bool:
    """Whether a hidden Mek of the side with ``intent`` stays hidden (unseen, and never a
    target): on a zone its side must hold, deny or be in, or anywhere when the side must
    keep units."""
    return (unit.zone or 0) in held_zones(battle, intent) or bool(intent.keep)


def standing_still(battle: SideView, side: Side) -> int:
    """+1 when standing still until the last turn wins for ``side``, -1 when it loses,
    0 when it draws: who has to act."""
    view = battle.state()
    limit = battle.scenario.turn_limit
    met = {}
    for s in Side:
        cond = battle.scenario.victory.condition(s)
        met[s] = cond is not None and holds(cond, view, limit, limit)
    if met[side] != met[side.enemy]:
        return 1 if met[side] else -1
    result = battle.scenario.victory.at_turn_limit
    if result is Result.MEK_POINTS and not met[side]:  # R7.3: as the destroyed points stand
        lead = mek_points(view, side) - mek_points(view, side.enemy)
        return (lead > 0) - (lead < 0)
    return 0 if result is Result.DRAW or met[side] else (
        1 if result.value == side.value else -1)
