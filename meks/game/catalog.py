"""The catalog: chassis, weapons, systems, stock designs, skills, support tables, pilot
levels and terrain, loaded once from the YAML files in ``meks/game/data`` and checked against the
dataclasses below as they load.
"""

from __future__ import annotations

import enum
import functools
import math
import typing
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from meks.game import schema
from meks.game.errors import InputError, UnknownName
from meks.game.names import NameIndex, normalize, suggest
from meks.game.yamlio import parse_yaml


class Size(enum.Enum):
    """Chassis sizes, smallest first."""

    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    LIGHT = "Light"
    MEDIUM = "Medium"
    HEAVY = "Heavy"
    ASSAULT = "Assault"
    TITAN = "Titan"

    @property
    def rank(self) -> int:
        return _SIZE_RANK[self]

    def __lt__(self, other: Size) -> bool:
        return self.rank < other.rank

    def __le__(self, other: Size) -> bool:
        return self.rank <= other.rank

    def __gt__(self, other: Size) -> bool:
        return self.rank > other.rank

    def __ge__(self, other: Size) -> bool:
        return self.rank >= other.rank


_SIZE_RANK = {size: i for i, size in enumerate(Size)}


class Family(enum.Enum):
    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    CANNON = "cannon"
    LASER = "laser"
    MISSILE = "missile"
    SMALL = "small"


class Mount(enum.Enum):
    MASSIVE = "massive"
    HUGE = "huge"
    SMALL = "small"


class Band(enum.Enum):
    """Range bands, shortest first."""

    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"

    @property
    def rank(self) -> int:
        return _BAND_RANK[self]


_BAND_RANK = {band: i for i, band in enumerate(Band)}


class SystemKind(enum.Enum):
    ARMOR = "armor"
    SENSOR = "sensor"
    OTHER = "other"


class PriceBasis(enum.Enum):
    HITS = "hits"
    HALF_HITS = "half_hits"
    HEAT = "heat"


@dataclass(frozen=True)
class MoveDice:
    dice: int
    bonus: int = 0

    def __str__(self) -> str:
        text = f"{self.dice}d6"
        if self.bonus:
            text += f"{self.bonus:+d}"
        return text


@dataclass(frozen=True)
class Mounts:
    massive: int
    huge: int


@dataclass(frozen=True)
class Chassis:
    size: Size
    hits: int
    armor: int
    heat: int
    move: MoveDice
    mounts: Mounts

    @property
    def price(self) -> int:
        """Chassis price: two points per Hit (R1.1)."""
        return 2 * self.hits

    @property
    def slots(self) -> int:
        """System slots: half the Hits, rounded up (R1.4)."""
        return math.ceil(self.hits / 2)


@dataclass(frozen=True)
class Weapon:
    name: str
    family: Family
    mount: Mount
    range: Band
    heat: int
    price: int
    to_hit: int | dict[Band, int] | None = None
    dice: int = 1
    reroll_miss: bool = False
    kills: int = 0
    price_per: str = "weapon"
    ignores_terrain: bool = False
    long_range_crit_reroll: bool = False
    save_modifier: int = 0
    to_hit_vs_point_defense: int | None = None
    special: str = ""
    aliases: tuple[str, ...] = ()
    # Worked out once, as the engine asks them for every shot: whether it is a small weapon
    # (mounted as one), and ``to_hit_at`` for each band.
    is_small: bool = field(init=False, repr=False, compare=False)
    needs: dict[Band, int | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.mount is Mount.SMALL:
            if self.kills < 1:
                raise ValueError(f"small weapon {self.name} needs a kills dice count")
        elif self.to_hit is None:
            raise ValueError(f"{self.name} needs a to_hit number")
        object.__setattr__(self, "is_small", self.mount is Mount.SMALL)
        object.__setattr__(self, "needs", {band: self.to_hit_at(band) for band in Band})

    def to_hit_at(self, band: Band) -> int | None:
        """The number a to-hit die must reach at ``band``; None when out of range."""
        if band.rank > self.range.rank or self.to_hit is None:
            return None
        if isinstance(self.to_hit, int):
            return self.to_hit
        return self.to_hit.get(band, max(self.to_hit.values()))

    @property
    def to_hit_text(self) -> str:
        if self.to_hit is None:
            return f"{self.kills}d6 kills"
        if isinstance(self.to_hit, int):
            text = f"{self.to_hit}+"
        else:
            text = "/".join(f"{v}+ {b.value}" for b, v in self.to_hit.items())
        if self.dice > 1:
            text += f" x{self.dice} dice"
        return text


@dataclass(frozen=True)
class SystemPrice:
    per: PriceBasis | None = None
    less_armor: int | None = None

    def __post_init__(self) -> None:
        if (self.per is None) == (self.less_armor is None):
            raise ValueError("a price rule needs exactly one of 'per' or 'less_armor'")


@dataclass(frozen=True)
class System:
    name: str
    price: int | SystemPrice
    effect: str
    slots: int = 1
    min_size: Size | None = None
    max_size: Size | None = None
    category: SystemKind = SystemKind.OTHER
    repeatable: bool = False
    aliases: tuple[str, ...] = ()

    def price_for(self, chassis: Chassis) -> int:
        """The system's price on ``chassis`` (R1.5)."""
        rule = self.price
        if isinstance(rule, int):
            return rule
        if rule.less_armor is not None:
            return rule.less_armor - chassis.armor
        if rule.per is PriceBasis.HITS:
            return chassis.hits
        if rule.per is PriceBasis.HALF_HITS:
            return math.ceil(chassis.hits / 2)
        return chassis.heat

    @property
    def price_text(self) -> str:
        rule = self.price
        if isinstance(rule, int):
            return str(rule)
        if rule.less_armor is not None:
            return f"{rule.less_armor} - AR"
        return {PriceBasis.HITS: "Hits", PriceBasis.HALF_HITS: "Hits/2 (up)",
                PriceBasis.HEAT: "Heat"}[rule.per or PriceBasis.HITS]

    def allows(self, size: Size) -> bool:
        """Whether a Mek of ``size`` may carry this system (R1.6)."""
        if self.min_size is not None and size < self.min_size:
            return False
        return not (self.max_size is not None and size > self.max_size)

    @property
    def sizes_text(self) -> str:
        if self.min_size is not None:
            return f"{self.min_size.value} or larger"
        if self.max_size is not None:
            return f"{self.max_size.value} or smaller"
        return "any"


@dataclass(frozen=True)
class Design:
    """A Mek design: a chassis size and its parts. A CIWS entry is one pair.

    ``price`` is the printed price of a stock design; custom designs leave it out.
    """

    name: str
    size: Size
    weapons: tuple[str, ...] = ()
    systems: tuple[str, ...] = ()
    price: int | None = None
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("a design needs a name")


@dataclass(frozen=True)
class Skill:
    name: str
    effect: str
    parameter: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnitStats:
    hits: int
    armor: int
    move: MoveDice
    weapons: tuple[str, ...] = ()
    systems: tuple[str, ...] = ()
    carries_infantry: bool = False
    ignores_terrain_movement: bool = False

    def describe(self) -> str:
        """'3 Hits, AR 3, move 1d6+2, Rail Cannon': what a player needs to field the unit."""
        return (f"{self.hits} Hits, AR {self.armor}, move {self.move}, "
                f"{grouped(self.weapons) if self.weapons else 'unarmed'}")


def grouped(names: Iterable[str]) -> str:
    """'Rail Cannon, Rail Cannon, CIWS' as '2 x Rail Cannon, CIWS pair'."""
    parts = []
    for name, n in Counter(names).items():
        label = f"{name} pair" if name == "CIWS" else name
        parts.append(f"{n} x {label}" if n > 1 else label)
    return ", ".join(parts) or "-"


class SupportKind(enum.Enum):
    ASSET = "asset"
    UNIT = "unit"


@dataclass(frozen=True)
class SupportEntry:
    roll: int
    name: str
    kind: SupportKind
    effect: str
    unit: UnitStats | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class SupportTable:
    table: str
    low: int
    high: int
    entries: tuple[SupportEntry, ...]

    def __post_init__(self) -> None:
        if sorted(e.roll for e in self.entries) != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"support table {self.table} needs one entry for each roll 1-6")

    def entry(self, roll: int) -> SupportEntry:
        return next(e for e in self.entries if e.roll == roll)


@dataclass(frozen=True)
class Level:
    level: str
    move: int
    to_hit: int
    skill_roll: int
    kills: int
    scenarios: int
    can_learn: bool = True
    hire_price: int = 0


@dataclass(frozen=True)
class Terrain:
    name: str
    move: int
    to_hit: int
    heat: int = 0
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Indexes:
    weapon: NameIndex[Weapon]
    system: NameIndex[System]
    design: NameIndex[Design]
    skill: NameIndex[Skill]
    support: NameIndex[SupportEntry]
    terrain: NameIndex[Terrain]
    level: NameIndex[Level]

    def showable(self) -> tuple[NameIndex[Any], ...]:
        return (self.design, self.weapon, self.system, self.skill, self.support)


@dataclass(frozen=True)
class Catalog:
    chassis: tuple[Chassis, ...]
    weapons: tuple[Weapon, ...]
    systems: tuple[System, ...]
    designs: tuple[Design, ...]
    skills: tuple[Skill, ...]
    support: tuple[SupportTable, ...]
    levels: tuple[Level, ...]
    terrain: tuple[Terrain, ...]
    ix: _Indexes = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        indexes = _Indexes(
            weapon=NameIndex("weapon", ((w.name, w.aliases, w) for w in self.weapons)),
            system=NameIndex("system", ((s.name, s.aliases, s) for s in self.systems)),
            design=NameIndex("design", ((d.name, d.aliases, d) for d in self.designs)),
            skill=NameIndex("skill", ((s.name, s.aliases, s) for s in self.skills)),
            support=NameIndex(
                "support result",
                ((e.name, e.aliases, e) for t in self.support for e in t.entries),
            ),
            terrain=NameIndex("terrain", ((t.name, t.aliases, t) for t in self.terrain)),
            level=NameIndex("pilot level", ((lv.level, (), lv) for lv in self.levels)),
        )
        object.__setattr__(self, "ix", indexes)

    def for_size(self, size: Size) -> Chassis:
        return next(c for c in self.chassis if c.size is size)

    def weapon(self, name: str) -> Weapon:
        return self.ix.weapon.get(name)

    def system(self, name: str) -> System:
        return self.ix.system.get(name)

    def design(self, name: str) -> Design:
        return self.ix.design.get(name)

    def skill(self, name: str) -> Skill:
        return self.ix.skill.get(name)

    def support_entry(self, name: str) -> SupportEntry:
        return self.ix.support.get(name)

    def terrain_named(self, name: str) -> Terrain:
        return self.ix.terrain.get(name)

    def level(self, name: str) -> Level:
        return self.ix.level.get(name)

    def find_any(self, query: str) -> Chassis | Design | Weapon | System | Skill | SupportEntry:
        """The chassis, design, weapon, system, skill or support result ``query`` names.

        A kind where the query is a whole name wins over a shortened or partial match; if
        nothing matches, ``UnknownName`` carries the nearest names of every kind.
        """
        key = normalize(query)
        for chassis in self.chassis:
            if normalize(chassis.size.value) == key:
                return chassis
        indexes = self.ix.showable()
        whole = [ix for ix in indexes if key in {normalize(n) for n in ix.names}]
        for index in whole or indexes:
            found = index.find(query)
            if found is not None:
                return typing.cast(Design | Weapon | System | Skill | SupportEntry, found)
        forms: dict[str, str] = {}
        for index in indexes:
            for name in index.names:
                forms.setdefault(normalize(name), name)
        raise UnknownName("design, weapon, system or skill", query, suggest(query, forms))


_FILES: dict[str, Any] = {
    "chassis": Chassis,
    "weapons": Weapon,
    "systems": System,
    "designs": Design,
    "skills": Skill,
    "support": SupportTable,
    "pilots": Level,
    "terrain": Terrain,
}


def _load_file(name: str) -> tuple[Any, ...]:
    source = f"meks/game/data/{name}.yaml"
    text = resources.files("meks.game").joinpath("data", f"{name}.yaml").read_text("utf-8")
    return schema.build_list(_FILES[name], parse_yaml(text, source), source)


def catalog_from_data(data: dict[str, object], source: str = "catalog") -> Catalog:
    """Build a catalog from already-parsed data (one list per file name); for tests."""
    parts = {name: schema.build_list(cls, data[name], f"{source}:{name}")
             for name, cls in _FILES.items()}
    return _assemble(parts)


def _assemble(parts: dict[str, tuple[Any, ...]]) -> Catalog:
    catalog = Catalog(
        chassis=parts["chassis"],
        weapons=parts["weapons"],
        systems=parts["systems"],
        designs=parts["designs"],
        skills=parts["skills"],
        support=parts["support"],
        levels=parts["pilots"],
        terrain=parts["terrain"],
    )
    problems = _cross_check(catalog)
    if problems:
        raise InputError("meks/game/data", problems)
    return catalog


def _cross_check(catalog: Catalog) -> list[str]:
    """Checks that span files: every size has a chassis, every part named exists."""
    problems = []
    sizes = [c.size for c in catalog.chassis]
    for size in Size:
        if sizes.count(size) != 1:
            problems.append(f"chassis: {size.value} must appear exactly once")
    for design in catalog.designs:
        for part in design.weapons:
            if catalog.ix.weapon.find(part) is None:
                problems.append(f"designs: {design.name} names unknown weapon {part!r}")
        for part in design.systems:
            if catalog.ix.system.find(part) is None:
                problems.append(f"designs: {design.name} names unknown system {part!r}")
    for table in catalog.support:
        for entry in table.entries:
            if entry.unit is not None:
                for part in entry.unit.weapons:
                    if catalog.ix.weapon.find(part) is None:
                        problems.append(f"support: {entry.name} names unknown weapon {part!r}")
    return problems


@functools.cache
def load_catalog() -> Catalog:
    """The catalog from package data, loaded and checked once per process."""
    return _assemble({name: _load_file(name) for name in _FILES})
