"""What a controller is handed of a unit: values that cannot be changed (issue 26).

A side's view (``meks.engine.view.SideView``) never hands a controller the engine's own
``Unit``: it hands out a ``UnitView``, a copy of what the side may see of the unit at the
moment of the question, with the same names as the unit's (``hits``, ``zone``, ``weapons``
...) and the same reading methods (``alive``, ``on_map``, ``has_system`` ...). Its weapons
are ``SlotView`` values (their ``index`` is the weapon's place on the unit, which is how a
fire plan names it), its systems ``SystemView`` values, its pilot a ``PilotView``; its sets
are frozensets and its lists tuples. Setting or deleting any attribute raises
``FrozenError``, so a controller cannot change the battle, not even by mistake, and holds
no path back to the engine's objects.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence, Set
from typing import Any

from meks.engine.units import Pilot, Sensors, SystemSlot, Unit, WeaponSlot, sensors_of, working
from meks.game.catalog import Level, MoveDice, Size, System, Weapon
from meks.game.shots import heat_rating
from meks.game.vocabulary import Edge, Side, UnitKind


class FrozenError(AttributeError):
    """An attempt to change a value a view handed out."""


class _Frozen:
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenError(f"{type(self).__name__} is a value of the side's view: its "
                          f"{name!r} cannot be changed")

    def __delattr__(self, name: str) -> None:
        raise FrozenError(f"{type(self).__name__} is a value of the side's view: its "
                          f"{name!r} cannot be deleted")

    def __repr__(self) -> str:
        names: tuple[str, ...] = getattr(type(self).__mro__[2], "__slots__", ())  # (fields)
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in names[:3])
        return f"{type(self).__name__}({shown})"


class _SlotFields:
    __slots__ = ("destroyed", "fired", "index", "weapon")


class SlotView(_Frozen, _SlotFields):
    """One weapon of a unit: the weapon, whether it is destroyed, how many times it has
    fired this turn, and its place in the unit's ``weapons`` (how a fire plan names it)."""

    __slots__ = ()
    weapon: Weapon
    destroyed: bool
    fired: int
    index: int

    @property
    def name(self) -> str:
        return self.weapon.name


class _SystemFields:
    __slots__ = ("destroyed", "system")


class SystemView(_Frozen, _SystemFields):
    __slots__ = ()
    system: System
    destroyed: bool


class _PilotFields:
    __slots__ = ("dead", "familiarity", "level", "name", "skills", "wounded")


class PilotView(_Frozen, _PilotFields):
    __slots__ = ()
    name: str
    level: Level
    skills: Set[str]
    familiarity: Size | None
    wounded: bool
    dead: bool

    def has(self, skill: str) -> bool:
        return skill in self.skills


# Every field of the engine's ``Unit``, in its order. Kept in step with the dataclass by a
# test (tests/test_observation.py).
UNIT_FIELDS = (
    "id", "side", "name", "kind", "max_hits", "armor", "move", "base_heat", "size", "design",
    "points", "ref", "weapons", "systems", "pilot", "vehicle", "mobile",
    "ignores_terrain_movement", "carries_infantry", "commando", "decoy", "hits", "zone",
    "setup_zone", "group", "destroyed_turn", "exited_turn", "exit_edge", "exit_zone",
    "arrived", "doomed", "exploded", "legs", "computers_turns", "rounds", "wounded",
    "fought", "crits_taken", "pending", "infantry_kills", "losses_this_combat", "detected",
    "hidden", "dug_in_zone", "heat", "carried_heat", "ice_man_used", "can_act", "moved",
    "may_leave", "move_roll", "mek_kills", "dodged", "turn_skills", "reactor_scare", "bailed",
    "last_hit_by")


class UnitView(_Frozen):
    """A unit as a side sees it at one moment (see the module docstring). Its containers
    are tuples and frozensets, declared as their abstract types so that code compiled with
    mypyc also reads an engine ``Unit`` handed to it directly (as tests do). (Its fields
    live in an instance dictionary, filled in one step from the unit's, see ``unit_value``.)
    """

    id: str
    side: Side
    name: str
    kind: UnitKind
    max_hits: int
    armor: int
    move: MoveDice
    base_heat: int
    size: Size | None
    design: str
    points: int
    ref: str | None
    weapons: Sequence[SlotView]
    systems: Sequence[SystemView]
    pilot: PilotView | None
    vehicle: bool
    mobile: bool
    ignores_terrain_movement: bool
    carries_infantry: bool
    commando: bool
    decoy: bool
    hits: int
    zone: int | None
    setup_zone: int | None
    group: str | None
    destroyed_turn: int | None
    exited_turn: int | None
    exit_edge: Edge | None
    exit_zone: int | None
    arrived: bool
    doomed: bool
    exploded: bool
    legs: int
    computers_turns: Set[int]
    rounds: int
    wounded: bool
    fought: bool
    crits_taken: int
    pending: Sequence[tuple[int, int]]
    infantry_kills: int
    losses_this_combat: bool
    detected: bool
    hidden: bool
    dug_in_zone: int | None
    heat: int
    carried_heat: int
    ice_man_used: bool
    can_act: bool
    moved: bool
    may_leave: int | None
    move_roll: int
    mek_kills: int
    dodged: bool
    turn_skills: Set[str]
    reactor_scare: bool
    bailed: bool
    last_hit_by: str | None

    # ---- the same readings as the engine's ``Unit`` -------------------------------------

    @property
    def alive(self) -> bool:
        return self.destroyed_turn is None and self.exited_turn is None

    @property
    def on_map(self) -> bool:
        return (self.destroyed_turn is None and self.exited_turn is None and self.arrived
                and self.zone is not None)

    @property
    def is_mek(self) -> bool:
        return self.kind is UnitKind.MEK

    @property
    def is_infantry(self) -> bool:
        return self.kind is UnitKind.INFANTRY

    @property
    def remaining(self) -> int:
        return self.max_hits - self.hits

    def has_system(self, name: str) -> bool:
        for s in self.systems:  # noqa: SIM110 (as the engine's Unit: a loop costs least)
            if s.system.name == name and not s.destroyed:
                return True
        return False

    def skill(self, name: str) -> bool:
        pilot = self.pilot
        return pilot is not None and name in pilot.skills

    @property
    def sensors(self) -> Sensors:
        return sensors_of(self.systems)

    @property
    def masked(self) -> bool:
        return self.has_system("Masking & Insulation")

    def live_weapons(self) -> list[SlotView]:
        return [w for w in self.weapons if not w.destroyed]

    def heat_rating(self, moors: bool) -> int:
        """R6.10 (``shots.heat_rating``), ``moors``: whether the unit stands in Moors."""
        pilot = self.pilot
        return heat_rating(self.base_heat, working(self.systems, "Heat Sink"), moors=moors,
                           familiar=pilot is not None and pilot.familiarity is self.size)

    def __repr__(self) -> str:
        return f"UnitView({self.id!r}, {self.name!r})"


# Building a value is on the hot path of every battle, so it is done on drafts: an object of
# a class with the very same slots that may be set (plain attribute stores, the cheapest
# Python has), turned into the frozen class once filled (``__class__``, allowed between
# classes of one layout). A unit's value copies the unit's fields in one step (its instance
# dictionary, or all fields read at once where the engine is compiled and units have none),
# then puts values in place of its weapons, systems and pilot and freezes its containers.
# The weapons, systems and pilot values of a unit are kept (``Parts``) and handed out again
# while nothing in them has changed: they are most of a value's cost, and change seldom.

class _SlotDraft(_SlotFields):
    __slots__ = ()


class _SystemDraft(_SystemFields):
    __slots__ = ()


class _PilotDraft(_PilotFields):
    __slots__ = ()


def slot_value(slot: WeaponSlot, index: int) -> SlotView:
    v: Any = _SlotDraft()
    v.weapon = slot.weapon
    v.destroyed = slot.destroyed
    v.fired = slot.fired
    v.index = index
    v.__class__ = SlotView
    return v  # type: ignore[no-any-return]


def _system_value(slot: SystemSlot) -> SystemView:
    v: Any = _SystemDraft()
    v.system = slot.system
    v.destroyed = slot.destroyed
    v.__class__ = SystemView
    return v  # type: ignore[no-any-return]


def _pilot_value(p: Pilot) -> PilotView:
    v: Any = _PilotDraft()
    v.name = p.name
    v.level = p.level
    v.skills = p.skills
    v.familiarity = p.familiarity
    v.wounded = p.wounded
    v.dead = p.dead
    v.__class__ = PilotView
    return v  # type: ignore[no-any-return]


Parts = tuple[tuple[SlotView, ...], tuple[SystemView, ...], PilotView | None]
"""A unit's weapons, systems and pilot as values."""


def _parts_hold(unit: Unit, parts: Parts) -> bool:
    """Whether ``parts`` are still the values of ``unit``'s weapons, systems and pilot."""
    weapons, systems, pilot = parts
    slots = unit.weapons
    if len(slots) != len(weapons):
        return False
    for i, w in enumerate(weapons):
        s = slots[i]
        if w.weapon is not s.weapon or w.destroyed != s.destroyed or w.fired != s.fired:
            return False
    held = unit.systems
    if len(held) != len(systems):
        return False
    for i, y in enumerate(systems):
        h = held[i]
        if y.system is not h.system or y.destroyed != h.destroyed:
            return False
    p = unit.pilot
    if p is None:
        return pilot is None
    return (pilot is not None and pilot.wounded == p.wounded and pilot.dead == p.dead
            and pilot.skills is p.skills and pilot.name == p.name and pilot.level is p.level
            and pilot.familiarity is p.familiarity)


def parts_of(unit: Unit, kept: dict[Unit, Parts] | None = None) -> Parts:
    """The values of ``unit``'s weapons, systems and pilot: those in ``kept`` while they
    still hold, else new ones (kept there)."""
    if kept is not None:
        parts = kept.get(unit)
        if parts is not None and _parts_hold(unit, parts):
            return parts
    p = unit.pilot
    parts = (tuple([slot_value(w, i) for i, w in enumerate(unit.weapons)]),
             tuple([_system_value(s) for s in unit.systems]),
             None if p is None else _pilot_value(p))
    if kept is not None:
        kept[unit] = parts
    return parts


_new = object.__new__
_NONE: frozenset[Any] = frozenset()
_fields_of = operator.attrgetter(*UNIT_FIELDS)
_HAS_DICT = bool(getattr(Unit, "__dictoffset__", 0))  # (not where the engine is compiled)


def unit_value(u: Unit, name: str | None = None, uid: str | None = None,
               kept: dict[Unit, Parts] | None = None) -> UnitView:
    """The value of ``u`` as it is now (every field copied, containers frozen), under
    ``name`` and ``uid`` if given (the name and the label its viewer knows it by); its
    weapons, systems and pilot values taken from ``kept`` while they hold (``parts_of``)."""
    v = _new(UnitView)
    d = v.__dict__
    if _HAS_DICT:
        d.update(u.__dict__)
    else:
        d.update(zip(UNIT_FIELDS, _fields_of(u), strict=True))
    if uid is not None:
        d["id"] = uid
    if name is not None:
        d["name"] = name
    d["weapons"], d["systems"], d["pilot"] = parts_of(u, kept)
    turns = u.computers_turns
    d["computers_turns"] = frozenset(turns) if turns else _NONE
    d["pending"] = tuple(u.pending)
    skills = u.turn_skills
    d["turn_skills"] = frozenset(skills) if skills else _NONE
    return v


__all__ = ["UNIT_FIELDS", "FrozenError", "Parts", "PilotView", "SlotView", "SystemView",
           "UnitView", "parts_of", "slot_value", "unit_value"]
