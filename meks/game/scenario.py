"""Scenarios in the game's own words: set-up rules, arrivals, exits, house rules, the scenario.

A ``Scenario`` is a plain, frozen value: the map, both sides' forces and set-up, and how each
side wins. Reading one from a file (shapes, single values, the JSON Schema, every problem
worded for a player) is the files layer's job (``campaigns.files.scenario_model``); this
module only holds the parts and what each means. Its words (sides, edges, kinds of unit,
results, the house rules' choices) are ``meks.game.vocabulary``, its victory conditions
``meks.game.conditions``. The checks that span several values of a scenario are
``meks.game.scenario_checks``.

Defaults follow RULINGS R7.1 (all Plains, 60 points, 1 support roll, 12 turns unless a
condition needs fewer). A value the rules do not give is listed in the top-level ``assumed``
list by its dotted path; values a file leaves out and that take an R7.1 default count as
assumed too (``Scenario.assumptions``).
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterator, Sequence
from typing import ClassVar, Literal, TypeAlias

from meks.game.catalog import Size, load_catalog
from meks.game.conditions import Condition, LastStanding, Victory
from meks.game.construction import Pricing
from meks.game.vocabulary import (
    COMBAT_ROUNDS,
    DEFAULT_BUDGET,
    DEFAULT_SUPPORT_ROLLS,
    DEFAULT_TERRAIN,
    DEFAULT_TURN_LIMIT,
    KEY,
    BreakContact,
    Edge,
    Measure,
    Path,
    Repair,
    Salvage,
    Side,
    SkillChoice,
    UnitKind,
    ZoneChoice,
    units_text,
    zones_text,
)
from meks.game.zones import ZONES

# ---- set-up, arrivals, exits -------------------------------------------------------------

@dataclasses.dataclass(frozen=True, kw_only=True)
class SetupRule:
    """A constraint on where a side's units start: at least a number of units (or points),
    or a percentage of the force, in the given zones."""

    zones: tuple[int, ...]
    at_least: int | None = None
    percent: float | None = None
    of: Measure = Measure.UNITS
    kind: UnitKind | None = None
    same_zone: bool = False
    group: str | None = None

    def describe(self) -> str:
        of = "points" if self.of is Measure.POINTS else units_text(self.kind)
        if self.percent is not None:
            amount = f"at least {self.percent:g}% of the {of}"
        else:
            if self.of is Measure.UNITS:
                of = units_text(self.kind, plural=self.at_least != 1)
            amount = f"at least {self.at_least} {of}"
        where = zones_text(self.zones)
        if self.same_zone and len(self.zones) > 1:
            where = "one of " + where.replace(" and ", " or ")
        text = f"{amount} in {where}"
        if self.group:
            text += f" (the {self.group} group)"
        return text


@dataclasses.dataclass(frozen=True)
class Placed:
    """A unit placed at set-up, as ``Setup.problems`` counts it."""

    zone: int
    kind: UnitKind = UnitKind.MEK
    points: int = 0


@dataclasses.dataclass(frozen=True, kw_only=True)
class Setup:
    """The zones a side's units may start in, and the rules within them."""

    zones: tuple[int, ...]
    rules: tuple[SetupRule, ...] = ()

    def describe(self) -> str:
        text = f"in {zones_text(self.zones)}"
        if self.rules:
            text += "; " + "; ".join(r.describe() for r in self.rules)
        return text

    def problems(self, placed: Sequence[Placed],
                 strongpoints: Sequence[Strongpoint] = ()) -> list[str]:
        """What is wrong with placing the side's units so; empty when the set-up is legal.

        ``strongpoints`` are counted as infantry worth 0 points, wherever the scenario puts
        them. A percentage of units is rounded down (half of 3 units is 1), a percentage of
        points is not. A unit belongs to a rule's group when it starts in the rule's zones.
        """
        problems = [f"a unit may not start in zone {p.zone} (set-up zones: "
                    f"{', '.join(map(str, self.zones))})" for p in placed
                    if p.zone not in self.zones]
        everyone = [*placed, *(Placed(s.zone, UnitKind.INFANTRY) for s in strongpoints
                               for _ in range(s.count))]
        for rule in self.rules:
            counted = [p for p in everyone if rule.kind is None or p.kind is rule.kind]

            def amount(units: Sequence[Placed], rule: SetupRule = rule) -> int:
                return sum(u.points for u in units) if rule.of is Measure.POINTS else len(units)

            inside = [p for p in counted if p.zone in rule.zones]
            have = amount(inside)
            if rule.percent is not None:
                total = amount(counted)
                met = have * 100 >= rule.percent * total if rule.of is Measure.POINTS \
                    else have >= math.floor(rule.percent * total / 100)
            else:
                met = have >= (rule.at_least or 0)
            if not met:
                problems.append(f"the set-up needs {rule.describe()}")
            if rule.same_zone and len({p.zone for p in inside}) > 1:
                problems.append(f"the units in {zones_text(rule.zones)} must all start in the "
                                "same zone")
        return problems


@dataclasses.dataclass(frozen=True, kw_only=True)
class Strongpoint:
    """Infantry strongpoints a side starts with, free of charge, dug in in one zone."""

    zone: int
    count: int = 1

    def describe(self) -> str:
        return f"{self.count} in zone {self.zone}"


ArrivalRoll: TypeAlias = int | Literal["all"]
"""The roll each waiting unit needs to arrive (1 to 6), or 'all'."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Reinforcements:
    """Units that are not set up but arrive during the battle: each turn in the schedule,
    every unit still waiting rolls one die and arrives on the roll given (or all arrive)."""

    zones: tuple[int, ...]
    zone_choice: ZoneChoice = ZoneChoice.CHOOSE
    schedule: dict[int, ArrivalRoll]

    def describe(self) -> str:
        steps = [f"turn {t}: {'all remaining' if r == 'all' else f'{r}+'}"
                 for t, r in sorted(self.schedule.items())]
        how = "chosen by the owner" if self.zone_choice is ZoneChoice.CHOOSE else "by a die"
        where = zones_text(self.zones).replace(" and ", " or ")
        return f"arrive in {where} ({how}); " + ", ".join(steps)


@dataclasses.dataclass(frozen=True, kw_only=True)
class ExitRule:
    """A map edge the side's units may leave across, and from which zones."""

    edge: Edge
    from_zones: tuple[int, ...] = ()

    @property
    def zones(self) -> tuple[int, ...]:
        return self.from_zones or self.edge.zones

    def describe(self) -> str:
        return f"{self.edge.value} edge from {zones_text(self.zones)}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class SideRules:
    """What one side brings and where it starts.

    For the muster (R3.3): the force must cost at most ``budget`` (Meks at their price, plus
    5 points for each pilot hired as Regular); ``pilots`` come free on top and cost nothing;
    ``max_size`` and ``composition`` are checked by ``size_problems``. ``support_rolls`` is
    the number of support rolls before the muster (plus one for a pilot with Log Hero).
    """

    budget: int = DEFAULT_BUDGET
    max_size: Size | None = None
    composition: dict[Size, int] | None = None
    pilots: dict[str, int] = dataclasses.field(default_factory=dict)
    support_rolls: int = DEFAULT_SUPPORT_ROLLS
    setup: Setup | None = None
    strongpoints: tuple[Strongpoint, ...] = ()
    reinforcements: Reinforcements | None = None
    exits: tuple[ExitRule, ...] = ()

    @property
    def strongpoint_count(self) -> int:
        return sum(s.count for s in self.strongpoints)

    def size_problems(self, sizes: Sequence[Size]) -> list[str]:
        """What is wrong with a force of Meks of these sizes under this side's limits
        (largest size, exact composition); empty when it is allowed. Budget is not checked."""
        problems = []
        if self.max_size is not None:
            for size in sorted(set(sizes)):
                if size > self.max_size:
                    problems.append(f"{size.value} Meks are larger than allowed "
                                    f"(largest: {self.max_size.value})")
        if self.composition is not None:
            for size in Size:
                have, need = sizes.count(size), self.composition.get(size, 0)
                if have != need and not need:
                    problems.append(f"the force may have no {size.value} Meks, but it has {have}")
                elif have != need:
                    problems.append(f"the force needs exactly {need} {size.value} "
                                    f"Mek{'s' * (need != 1)}, not {have}")
        return problems


@dataclasses.dataclass(frozen=True, kw_only=True)
class HouseRules:
    """The RULINGS options a scenario may switch; the defaults are the rulings'."""

    pricing: Pricing = Pricing.PRINTED
    skill_choice: SkillChoice = SkillChoice.CHOOSE
    repair: Repair = Repair.FREE
    diagonal_moves: bool = False
    six_always_hits: bool = False
    # The campaign house rules from the wider family (R3.6 to R3.8). A scenario stores them
    # only when they are switched on (``QUIET``), so that scenarios stored before they
    # existed keep their stored form.
    salvage: Salvage = Salvage.NONE
    spare_parts: bool = False
    wear: bool = False
    bail_out: bool = False  # R6.12: a pilot in danger may eject
    withdrawal: bool = False  # R6.13: graceful withdrawal and overrun
    # R5.2 and R6.3 as revised; ``combat_rounds: 1`` with ``break_contact: stay`` is the
    # earlier reading, under which battles of engine revisions before 8 were fought.
    combat_rounds: int = COMBAT_ROUNDS
    break_contact: BreakContact = BreakContact.WITHDRAW
    # A campaign house rule of our own (docs/rules.md, "The treasury"): the company's points
    # pay for what it buys, and each battle pays by its result.
    treasury: bool = False

    QUIET: ClassVar[tuple[str, ...]] = ("salvage", "spare_parts", "wear", "bail_out",
                                        "withdrawal", "combat_rounds", "break_contact",
                                        "treasury")

    @property
    def one_exchange(self) -> bool:
        """Whether a zone combat is one exchange a turn (the earlier reading of R5.2)."""
        return self.combat_rounds == 1

    def changed(self) -> list[str]:
        """The house rules that differ from the rulings' defaults, as 'key: value'."""
        default = HouseRules()
        out = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value != getattr(default, field.name):
                shown = value.value if isinstance(value, enum.Enum) else str(value).lower()
                out.append(f"{field.name}: {shown}")
        return out


# ---- the scenario ------------------------------------------------------------------------

def _all_plains() -> dict[int, str]:
    return dict.fromkeys(ZONES, DEFAULT_TERRAIN)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Scenario:
    """One scenario: the map, both sides' forces and set-up, and how each side wins.

    ``defaulted`` lists the values its file left out that take an R7.1 default (the files
    layer fills it in); it is not part of the scenario's value, so two scenarios that differ
    only there are equal.
    """

    id: str
    name: str
    briefing: str = ""
    turn_limit: int = DEFAULT_TURN_LIMIT
    terrain: dict[int, str] = dataclasses.field(default_factory=_all_plains)
    attacker: SideRules
    defender: SideRules
    victory: Victory
    house_rules: HouseRules = dataclasses.field(default_factory=HouseRules)
    assumed: tuple[str, ...] = ()
    # What a copy of a scenario (the built-in campaign's) changes from the original, a
    # line each; stored only when there are any, so other scenarios keep their stored form.
    changes: tuple[str, ...] = ()
    defaulted: tuple[str, ...] = dataclasses.field(default=(), compare=False,
                                                   metadata={KEY: None})

    QUIET: ClassVar[tuple[str, ...]] = ("changes",)

    def side(self, side: Side) -> SideRules:
        return self.attacker if side is Side.ATTACKER else self.defender

    def conditions(self) -> Iterator[tuple[Path, Condition]]:
        """Every victory condition, nested ones included, with its path in the file."""
        return self.victory.conditions()

    def terrain_of(self, zone: int) -> str:
        return self.terrain.get(zone, DEFAULT_TERRAIN)

    @property
    def assumptions(self) -> tuple[str, ...]:
        """Every value not given by the rules: the ``assumed`` list plus R7.1 defaults."""
        return tuple(dict.fromkeys((*self.assumed, *self.defaulted)))

    def groups(self, side: Side) -> dict[str, SetupRule]:
        """The side's named set-up groups."""
        setup = self.side(side).setup
        return {r.group: r for r in setup.rules if r.group} if setup else {}


def duel(terrain: str = DEFAULT_TERRAIN, zone: int = 5, turn_limit: int = DEFAULT_TURN_LIMIT,
         name: str = "Duel") -> Scenario:
    """A duel: both sides set up in ``zone``, every zone is ``terrain`` (any spelling the
    catalog knows), and the last side with a Mek standing wins; after ``turn_limit`` turns it
    is a draw."""
    ground = load_catalog().terrain_named(terrain).name
    return Scenario(
        id="duel", name=name, turn_limit=turn_limit, terrain=dict.fromkeys(ZONES, ground),
        attacker=SideRules(setup=Setup(zones=(zone,))),
        defender=SideRules(setup=Setup(zones=(zone,))),
        victory=Victory(attacker=LastStanding(side=Side.ATTACKER),
                        defender=LastStanding(side=Side.DEFENDER)))




__all__ = [
    "ArrivalRoll",
    "ExitRule",
    "HouseRules",
    "Placed",
    "Reinforcements",
    "Scenario",
    "Setup",
    "SetupRule",
    "SideRules",
    "Strongpoint",
    "duel",
]
