"""Forces and the units that fight: what a side brings (``ForceSpec``), and the mutable
``Unit`` the engine moves, damages and destroys."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from meks.game.catalog import (
    Catalog,
    Design,
    Family,
    Level,
    MoveDice,
    Size,
    SupportEntry,
    SupportKind,
    System,
    SystemKind,
    UnitStats,
    Weapon,
)
from meks.game.pilots import FAMILIARITY, base_skill
from meks.game.shots import heat_rating
from meks.game.vocabulary import Edge, Side, UnitKind


class Sensors(enum.IntEnum):
    BASIC = 0
    IMPROVED = 1
    ADVANCED = 2


class Carried(Protocol):
    """A system a unit carries, as the engine holds it (``SystemSlot``) or as a side is
    shown it (``meks.engine.values.SystemView``)."""

    @property
    def system(self) -> System: ...

    @property
    def destroyed(self) -> bool: ...


def sensors_of(systems: Iterable[Carried]) -> Sensors:
    """The best working sensors among ``systems`` (R4.1)."""
    improved = False
    for s in systems:
        if not s.destroyed:
            name = s.system.name
            if name == "Advanced Sensors":
                return Sensors.ADVANCED
            if name == "Improved Sensors":
                improved = True
    return Sensors.IMPROVED if improved else Sensors.BASIC


def working(systems: Iterable[Carried], name: str) -> int:
    """How many of ``systems`` are a working ``name``."""
    count = 0
    for s in systems:
        if s.system.name == name and not s.destroyed:
            count += 1
    return count


@dataclass(frozen=True)
class PilotSpec:
    name: str
    level: str = "Regular"
    skills: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnitSpec:
    """One unit a side brings: a Mek (design and pilot), or a support unit by name."""

    name: str
    design: Design | None = None
    pilot: PilotSpec | None = None
    support: str | None = None  # a support unit's name (Gun Sled, Panzer, ...)
    points: int = 0
    ref: str | None = None  # the company's Mek id, to report back after the battle
    damage: int = 0  # hits carried from an earlier battle (house rule repair: none)
    heat_loss: int = 0  # heat rating lost to wear (house rule wear, R3.8)


@dataclass(frozen=True)
class ForceSpec:
    """A side's force: its units and the support results it rolled."""

    units: tuple[UnitSpec, ...]
    support: tuple[str, ...] = ()
    name: str = ""


@dataclass
class WeaponSlot:
    weapon: Weapon
    destroyed: bool = False
    fired: int = 0  # times fired this turn

    @property
    def name(self) -> str:
        return self.weapon.name


@dataclass
class SystemSlot:
    system: System
    destroyed: bool = False


@dataclass
class Pilot:
    name: str
    level: Level
    skills: frozenset[str]
    familiarity: Size | None = None
    wounded: bool = False
    dead: bool = False

    def has(self, skill: str) -> bool:
        return skill in self.skills


@dataclass(eq=False)
class Unit:
    """A unit in battle. Hits counts damage taken; ``doomed`` marks a unit whose
    destruction takes effect when its zone's combat ends (R6.0)."""

    id: str
    side: Side
    name: str
    kind: UnitKind
    max_hits: int
    armor: int
    move: MoveDice
    base_heat: int = 0
    size: Size | None = None
    design: str = ""
    points: int = 0
    ref: str | None = None
    weapons: list[WeaponSlot] = field(default_factory=list)
    systems: list[SystemSlot] = field(default_factory=list)
    pilot: Pilot | None = None
    vehicle: bool = False
    mobile: bool = True
    ignores_terrain_movement: bool = False
    carries_infantry: bool = False
    commando: bool = False
    decoy: bool = False
    # state
    hits: int = 0
    zone: int | None = None
    setup_zone: int | None = None
    group: str | None = None
    destroyed_turn: int | None = None
    exited_turn: int | None = None
    exit_edge: Edge | None = None
    exit_zone: int | None = None
    arrived: bool = True
    doomed: bool = False
    exploded: bool = False
    legs: int = 0
    # turns (or, fighting in rounds, the unit's rounds) with Computers' -1 (R6.9)
    computers_turns: set[int] = field(default_factory=set)
    rounds: int = 0  # rounds of zone combat fought so far (R5.2)
    wounded: bool = False  # Pilot Wounded critical: acts only on 5+ (a vehicle's crew too)
    fought: bool = False  # has taken part in a zone combat (Ambush comes before the first)
    crits_taken: int = 0
    # Critical effects rolled in a zone combat's exchange, waiting for its end (R6.0): the
    # critical table's roll and, for a lost weapon or system, its index in weapons/systems.
    pending: list[tuple[int, int]] = field(default_factory=list)
    infantry_kills: int = 0  # losses suffered by infantry
    losses_this_combat: bool = False
    detected: bool = False  # infantry / commandos, once found
    hidden: bool = False
    dug_in_zone: int | None = None
    heat: int = 0
    carried_heat: int = 0
    ice_man_used: bool = False
    can_act: bool = True
    moved: bool = False
    may_leave: int | None = None  # zone this unit's side broke contact in
    move_roll: int = 0
    mek_kills: int = 0
    dodged: bool = False
    turn_skills: set[str] = field(default_factory=set)  # once-a-turn skills already used
    reactor_scare: bool = False  # took a Reactor Core critical that held (bail out, R6.12)
    bailed: bool = False  # its pilot bailed out (house rule bail_out, R6.12)
    last_hit_by: str | None = None  # the unit that dealt its last Hit (its kill, R6.12)

    # ---- what the victory conditions read (meks.game.victory.UnitView) ----------------------

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

    # The engine asks these many times a turn; plain loops over the few systems a unit
    # carries are the cheapest way to answer (systems can be lost and repaired, so nothing
    # about them is remembered).

    def has_system(self, name: str) -> bool:
        for s in self.systems:  # noqa: SIM110 (a loop costs less than any() and a generator)
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

    def live_weapons(self) -> list[WeaponSlot]:
        return [w for w in self.weapons if not w.destroyed]

    def heat_rating(self, moors: bool) -> int:
        """R6.10 (``shots.heat_rating``), ``moors``: whether the unit stands in Moors."""
        pilot = self.pilot
        return heat_rating(self.base_heat, working(self.systems, "Heat Sink"), moors=moors,
                           familiar=pilot is not None and pilot.familiarity is self.size)

    def __repr__(self) -> str:
        return f"Unit({self.id!r}, {self.name!r})"


def _pilot(spec: PilotSpec | None, catalog: Catalog) -> Pilot | None:
    if spec is None:
        return None
    names = set()
    familiarity = None
    for label in spec.skills:
        name = base_skill(label)
        names.add(catalog.skill(name).name)
        if name == FAMILIARITY and "(" in label:
            familiarity = Size(label.split("(")[1].rstrip(")").strip().capitalize())
    return Pilot(spec.name, catalog.level(spec.level), frozenset(names), familiarity)


def support_units(support: tuple[str, ...], catalog: Catalog) -> tuple[UnitSpec, ...]:
    """The units a side's support results bring to the battle (R4.2: those of kind unit, in
    the order rolled), each named after its result; the other results are assets."""
    return tuple(UnitSpec(name=entry.name, support=entry.name)
                 for entry in map(catalog.support_entry, support)
                 if entry.kind is SupportKind.UNIT)


def build_unit(spec: UnitSpec, uid: str, side: Side, catalog: Catalog) -> Unit:
    """The battle unit for ``spec``."""
    if spec.design is not None:
        design = spec.design
        chassis = catalog.for_size(design.size)
        pilot = _pilot(spec.pilot or PilotSpec(spec.name), catalog)
        if pilot is not None and pilot.familiarity is None and FAMILIARITY in pilot.skills:
            pilot.familiarity = design.size
        return Unit(
            id=uid, side=side, name=spec.name, kind=UnitKind.MEK, max_hits=chassis.hits,
            armor=chassis.armor, move=chassis.move,
            base_heat=max(1, chassis.heat - spec.heat_loss) if spec.heat_loss else chassis.heat,
            size=design.size,
            design=design.name, points=spec.points, ref=spec.ref,
            weapons=[WeaponSlot(catalog.weapon(w)) for w in design.weapons],
            systems=[SystemSlot(catalog.system(s)) for s in design.systems],
            pilot=pilot, hits=max(0, min(spec.damage, chassis.hits - 1)),
        )
    if spec.support is None:
        raise ValueError(f"unit {spec.name!r} has neither a design nor a support type")
    entry = catalog.support_entry(spec.support)
    stats = vehicle_stats(entry)
    if stats is None:
        return Unit(id=uid, side=side, name=spec.name, kind=UnitKind.INFANTRY, max_hits=1,
                    armor=6, move=MoveDice(1), commando=True, design=entry.name)
    return vehicle(uid, side, spec.name, entry.name, stats, catalog)


def vehicle_stats(entry: SupportEntry) -> UnitStats | None:
    """The vehicle a support result brings (R4.2), or None when it brings none: an asset,
    or Commandos, who fight as infantry."""
    if entry.kind is not SupportKind.UNIT or entry.name == "Commandos":
        return None
    return entry.unit


def vehicle(uid: str, side: Side, name: str, design: str, stats: UnitStats,
            catalog: Catalog) -> Unit:
    return Unit(
        id=uid, side=side, name=name, kind=UnitKind.VEHICLE, max_hits=stats.hits,
        armor=stats.armor, move=stats.move, design=design, vehicle=True,
        weapons=[WeaponSlot(catalog.weapon(w)) for w in stats.weapons],
        systems=[SystemSlot(catalog.system(s)) for s in stats.systems],
        ignores_terrain_movement=stats.ignores_terrain_movement,
        carries_infantry=stats.carries_infantry,
    )


def strongpoint(uid: str, side: Side, zone: int) -> Unit:
    """An Infantry Strongpoint (R6.11): never moves, never hit, broken by morale."""
    return Unit(id=uid, side=side, name=f"Strongpoint {uid}", kind=UnitKind.INFANTRY,
                max_hits=1, armor=6, move=MoveDice(1), mobile=False, zone=zone,
                setup_zone=zone, design="Infantry Strongpoint")


def decoy(uid: str, side: Side, zone: int) -> Unit:
    """A false Mek contact (support result Decoy)."""
    return Unit(id=uid, side=side, name=f"Decoy {uid}", kind=UnitKind.MEK, max_hits=1,
                armor=6, move=MoveDice(0), mobile=False, zone=zone, decoy=True,
                design="Decoy")


def family_of(weapon: Weapon) -> Family:
    return weapon.family


def armor_systems(unit: Unit) -> list[SystemSlot]:
    return [s for s in unit.systems if s.system.category is SystemKind.ARMOR]


def copy_unit(model: Unit, uid: str, zone: int) -> Unit:
    """A fresh unit with ``model``'s make (name, design, weapons, systems, pilot) set up in
    ``zone``, undamaged: what a Decoy's contact shows the enemy (R4.3, R8.1)."""
    pilot = model.pilot
    return Unit(
        id=uid, side=model.side, name=model.name, kind=model.kind, max_hits=model.max_hits,
        armor=model.armor, move=model.move, base_heat=model.base_heat, size=model.size,
        design=model.design, points=model.points, ref=model.ref,
        weapons=[WeaponSlot(w.weapon) for w in model.weapons],
        systems=[SystemSlot(s.system) for s in model.systems],
        pilot=None if pilot is None else Pilot(pilot.name, pilot.level, pilot.skills,
                                               pilot.familiarity),
        zone=zone, setup_zone=zone, group=model.group)
