"""Construction rules: whether a design is legal, and what it costs.

``check_design`` never stops at the first problem: it returns a ``DesignReport`` listing every
problem found, each tagged with the rule it breaks (see docs/rules.md, section 1), together
with the price computed from the parts and how mounts and slots are used.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any, TypeVar

from meks.game.catalog import Catalog, Design, Mount, Size, System, SystemKind, Weapon
from meks.game.errors import AmbiguousName, MeksError
from meks.game.names import NameIndex, normalize
from meks.game.text import a_or_an

T = TypeVar("T")


class Pricing(enum.Enum):
    """House rule R1.7: which price a stock design is bought at."""

    PRINTED = "printed"
    COMPUTED = "computed"


class Rule(enum.Enum):
    """The construction rules a design can break, by their numbers in docs/rules.md."""

    UNKNOWN_PART = "R1.0"
    MOUNT_SIZE = "R1.2"
    SMALL_WEAPONS = "R1.3"
    SLOTS = "R1.4"
    ONE_OF_EACH = "R1.4a"
    SIZE_LIMIT = "R1.6"
    OWN_NAME = "R1.8"


@dataclass(frozen=True)
class Problem:
    rule: Rule
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class PricedPart:
    kind: str  # "chassis", "weapon" or "system"
    name: str
    price: int


@dataclass(frozen=True)
class Usage:
    used: int
    available: int

    def __str__(self) -> str:
        return f"{self.used}/{self.available}"


@dataclass(frozen=True)
class DesignReport:
    design: Design
    problems: tuple[Problem, ...]
    parts: tuple[PricedPart, ...]
    massive: Usage
    huge: Usage
    ciws_pairs: Usage
    other_small: Usage
    slots: Usage

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def price(self) -> int:
        """The price computed from the parts: chassis, weapons and systems (R1.5)."""
        return sum(p.price for p in self.parts)

    @property
    def printed_price(self) -> int | None:
        return self.design.price

    def purchase_price(self, pricing: Pricing = Pricing.PRINTED) -> int:
        """What the design costs to buy: a stock design's printed price unless the
        ``pricing: computed`` house rule is in force; always the computed price otherwise."""
        if pricing is Pricing.PRINTED and self.design.price is not None:
            return self.design.price
        return self.price


def check_design(design: Design, catalog: Catalog) -> DesignReport:
    """Every construction problem of ``design`` and its computed price."""
    chassis = catalog.for_size(design.size)
    problems: list[Problem] = []
    stock = next((d for d in catalog.designs if normalize(design.name) in
                  {normalize(form) for form in (d.name, *d.aliases)}), None)
    if stock is not None and stock != design:
        problems.append(Problem(Rule.OWN_NAME, f"{design.name!r} is the name of the stock "
                                f"{stock.name}; give your design its own name."))
    parts = [PricedPart("chassis", f"{design.size.value} chassis", chassis.price)]

    weapons: list[Weapon] = []
    for name in design.weapons:
        weapon = _resolve(catalog.ix.weapon, name, problems, catalog.ix.system)
        if weapon is not None:
            weapons.append(weapon)
            label = f"{weapon.name} pair" if weapon.price_per == "pair" else weapon.name
            parts.append(PricedPart("weapon", label, weapon.price))
    systems: list[System] = []
    for name in design.systems:
        system = _resolve(catalog.ix.system, name, problems, catalog.ix.weapon)
        if system is not None:
            systems.append(system)
            parts.append(PricedPart("system", system.name, system.price_for(chassis)))

    count = Counter(w.mount for w in weapons)
    massive = Usage(count[Mount.MASSIVE], chassis.mounts.massive)
    huge = Usage(count[Mount.HUGE], chassis.mounts.huge)
    for usage, label in ((massive, "Massive"), (huge, "Huge")):
        if usage.used > usage.available:
            problems.append(Problem(
                Rule.MOUNT_SIZE,
                f"{_count(usage.used, label + ' weapon')} but "
                f"{a_or_an(design.size.value)} chassis has "
                f"{_count(usage.available, label + ' mount')}.",
            ))

    pairs = sum(1 for w in weapons if w.is_small and w.price_per == "pair")
    others = sum(1 for w in weapons if w.is_small and w.price_per != "pair")
    ciws = Usage(pairs, chassis.mounts.massive)
    small = Usage(others, chassis.mounts.massive)
    if ciws.used > ciws.available:
        problems.append(Problem(
            Rule.SMALL_WEAPONS,
            f"{_count(ciws.used, 'CIWS pair')} but at most {ciws.available} "
            "(one per Massive mount).",
        ))
    if small.used > small.available:
        problems.append(Problem(
            Rule.SMALL_WEAPONS,
            f"{_count(small.used, 'small weapon')} besides CIWS but at most {small.available} "
            "(one per Massive mount).",
        ))

    slots = Usage(sum(s.slots for s in systems), chassis.slots)
    if slots.used > slots.available:
        problems.append(Problem(
            Rule.SLOTS,
            f"systems need {slots.used} slots but {a_or_an(design.size.value)} chassis has "
            f"{slots.available}.",
        ))

    for system, n in Counter(systems).items():
        if n > 1 and not system.repeatable:
            problems.append(Problem(
                Rule.ONE_OF_EACH, f"{system.name} is fitted {n} times; a Mek carries one."
            ))
    sensors = sorted({s.name for s in systems if s.category is SystemKind.SENSOR})
    if len(sensors) > 1:
        problems.append(Problem(
            Rule.ONE_OF_EACH, f"{' and '.join(sensors)} both fitted; a Mek carries one sensor "
            "upgrade."
        ))

    for system in dict.fromkeys(systems):
        if not system.allows(design.size):
            problems.append(Problem(
                Rule.SIZE_LIMIT,
                f"{system.name} fits only {system.sizes_text} Meks, not {design.size.value}.",
            ))

    canonical = dataclasses.replace(
        design,
        weapons=tuple(_canonical(catalog.ix.weapon, n) for n in design.weapons),
        systems=tuple(_canonical(catalog.ix.system, n) for n in design.systems),
    )
    return DesignReport(
        design=canonical,
        problems=tuple(problems),
        parts=tuple(parts),
        massive=massive,
        huge=huge,
        ciws_pairs=ciws,
        other_small=small,
        slots=slots,
    )


def most_carried(part: Weapon | System, catalog: Catalog) -> int:
    """The most of ``part`` one legal Mek can carry (R1.2 to R1.4), on the chassis that
    takes the most: a weapon on every mount of its size (a small weapon or a CIWS pair one
    per Massive mount), a system once, or in every slot where it may be fitted again."""
    most = 0
    for chassis in catalog.chassis:
        if isinstance(part, Weapon):
            n = chassis.mounts.huge if part.mount is Mount.HUGE else chassis.mounts.massive
        elif not part.allows(chassis.size):
            n = 0
        elif not part.repeatable:
            n = 1
        else:
            n = chassis.slots // max(part.slots, 1)
        most = max(most, n)
    return most


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _canonical(index: NameIndex[Any], name: str) -> str:
    try:
        return index.canonical(name)
    except MeksError:
        return name


_COUNT_PREFIX = re.compile(r"^\s*\d+\s*x\s*", re.IGNORECASE)


def _resolve(index: NameIndex[T], name: str, problems: list[Problem],
             other: NameIndex[Any] | None = None) -> T | None:
    """The part ``name`` names in ``index``; else a problem saying so, and, when ``other``
    (the other list's index) knows the name, that it belongs in the other list."""
    try:
        found = index.find(name)
    except AmbiguousName as exc:
        problems.append(Problem(Rule.UNKNOWN_PART, exc.message))
        return None
    if found is not None:
        return found
    elsewhere = _found(other, name) if other is not None else None
    if other is not None and elsewhere is not None:
        problems.append(Problem(Rule.UNKNOWN_PART, f"{elsewhere.name} is a {other.kind}, not a "
                                f"{index.kind}; list it under {other.kind}s."))
        return None
    message = f"unknown {index.kind} {name!r}"
    if _COUNT_PREFIX.match(name):
        message += " (list each copy as its own entry; a CIWS entry is one pair)"
    else:
        near = index.suggest(name)
        if near:
            message += " (did you mean " + " or ".join(repr(n) for n in near) + "?)"
    problems.append(Problem(Rule.UNKNOWN_PART, message + "."))
    return None


def _found(index: NameIndex[Any], name: str) -> Any | None:
    try:
        return index.find(name)
    except AmbiguousName:
        return None


def design_name_problem(name: str) -> str | None:
    """What is wrong with the name of a custom design, as its file gives it, or None: a
    control or invisible character, or more characters than a callsign leaves room for."""
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in name):
        return ("the name holds a control or invisible character (a tab or a line break, "
                "say); write it on one line with plain spaces")
    if len(name) > MAX_DESIGN_NAME:
        return (f"the name has {len(name)} characters; keep it to {MAX_DESIGN_NAME}, so that "
                "the Meks' callsigns (the name and a number) stay readable")
    return None


MAX_DESIGN_NAME = 50  # a default callsign, DESIGN-N, must fit within 60 characters


def stock_reports(catalog: Catalog) -> list[DesignReport]:
    """A report for every stock design, in catalog order."""
    return [check_design(d, catalog) for d in catalog.designs]


__all__ = [
    "DesignReport",
    "PricedPart",
    "Pricing",
    "Problem",
    "Rule",
    "Size",
    "Usage",
    "check_design",
    "design_name_problem",
    "most_carried",
    "stock_reports",
]
