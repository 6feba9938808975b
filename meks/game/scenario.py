"""Scenarios in the game's own words: sides, edges, set-up rules, victory conditions.

A ``Scenario`` is a plain, frozen value: the map, both sides' forces and set-up, and how each
side wins. Reading one from a file (shapes, single values, the JSON Schema, every problem
worded for a player) is the files layer's job (``campaigns.files.scenario_model``); this
module only holds the vocabulary and what each part means. The checks that span several
values of a scenario are ``meks.game.scenario_checks``.

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
from meks.game.construction import Pricing
from meks.game.zones import ZONES

DEFAULT_BUDGET = 60
MAX_BUDGET = 10_000  # the largest points budget a muster takes
DEFAULT_SUPPORT_ROLLS = 1
DEFAULT_TURN_LIMIT = 12
DEFAULT_TERRAIN = "Plains"

Path = tuple[str | int, ...]


# ---- small vocabularies ------------------------------------------------------------------

class Side(enum.Enum):
    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def enemy(self) -> Side:
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER

    @property
    def adjective(self) -> str:
        """'attacking' or 'defending'."""
        return "attacking" if self is Side.ATTACKER else "defending"

    def __str__(self) -> str:
        return f"the {self.value}"



# Side's members in order, as a tuple: iterating the Enum class itself is a Python-level
# generator, and the engine and the victory check go over both sides many times a turn.
SIDES: tuple[Side, Side] = (Side.ATTACKER, Side.DEFENDER)

class Edge(enum.Enum):
    """Map edges; the top edge is north (R5.1)."""

    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    NORTH = "north"
    SOUTH = "south"
    EAST = "east"
    WEST = "west"

    @property
    def zones(self) -> tuple[int, ...]:
        """The zones along this edge; only from these can a unit leave across it."""
        return _EDGE_ZONES[self]


_EDGE_ZONES = {
    Edge.NORTH: (1, 2, 3),
    Edge.SOUTH: (7, 8, 9),
    Edge.WEST: (1, 4, 7),
    Edge.EAST: (3, 6, 9),
}


class UnitKind(enum.Enum):
    # Hashed by identity (members are singletons): Enum's own hash is a Python-level
    # call, paid on every dictionary lookup the engine makes by this key.
    __hash__ = object.__hash__

    MEK = "mek"
    VEHICLE = "vehicle"
    INFANTRY = "infantry"


class Measure(enum.Enum):
    """What a share of a force is counted in."""

    UNITS = "units"
    POINTS = "points"


class Result(enum.Enum):
    """Who wins when the turn limit is reached and no side has met its conditions
    (``mek_points``: the side that destroyed more of the enemy's Mek points, R7.3; equal
    points are a draw)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"
    DRAW = "draw"
    MEK_POINTS = "mek_points"


class SkillChoice(enum.Enum):
    """House rule R2.4."""

    CHOOSE = "choose"
    RANDOM = "random"


class Repair(enum.Enum):
    """House rule R3.4: free repairs, none (Hits carry over), or paid (Hits mended at a
    price, R3.7)."""

    FREE = "free"
    NONE = "none"
    PAID = "paid"


class BreakContact(enum.Enum):
    """R6.3: what breaking contact does. ``withdraw``: the winner's units pull out at once
    into adjacent zones free of enemies; ``stay``: the earlier reading, no fire there this
    turn and the units may leave in their next movement."""

    WITHDRAW = "withdraw"
    STAY = "stay"


# R5.2: the most rounds one zone combat fights in one combat step (docs/rules.md, "The cap on
# rounds"); 1 is the earlier reading, one exchange per zone per turn.
COMBAT_ROUNDS = 3
MAX_COMBAT_ROUNDS = 12


class Salvage(enum.Enum):
    """House rule R3.6: who recovers the parts of the enemy's destroyed Meks."""

    NONE = "none"
    WINNER = "winner"
    BOTH = "both"


class ZoneChoice(enum.Enum):
    """Who picks the arrival zone of a reinforcement: its owner, or a die."""

    CHOOSE = "choose"
    RANDOM = "random"


# ---- the parts of a scenario -------------------------------------------------------------

def _zones_text(zones: Sequence[int]) -> str:
    zones = sorted(zones)
    if len(zones) == 1:
        return f"zone {zones[0]}"
    return "zones " + ", ".join(str(z) for z in zones[:-1]) + f" and {zones[-1]}"


def _units_text(kind: UnitKind | None, plural: bool = True) -> str:
    word = {None: "unit", UnitKind.MEK: "Mek", UnitKind.VEHICLE: "vehicle",
            UnitKind.INFANTRY: "infantry unit"}[kind]
    return word + "s" if plural else word


KEY = "key"
"""A field's ``metadata`` entry naming its key in a scenario file when that differs from the
field's name; None for a field that is not in the file at all."""


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
        of = "points" if self.of is Measure.POINTS else _units_text(self.kind)
        if self.percent is not None:
            amount = f"at least {self.percent:g}% of the {of}"
        else:
            if self.of is Measure.UNITS:
                of = _units_text(self.kind, plural=self.at_least != 1)
            amount = f"at least {self.at_least} {of}"
        where = _zones_text(self.zones)
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
        text = f"in {_zones_text(self.zones)}"
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
                problems.append(f"the units in {_zones_text(rule.zones)} must all start in the "
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
        where = _zones_text(self.zones).replace(" and ", " or ")
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
        return f"{self.edge.value} edge from {_zones_text(self.zones)}"


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
                if have != need:
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


# ---- victory conditions ------------------------------------------------------------------

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
        what = f"every {self.side.enemy.adjective} {_units_text(self.kind, plural=False)}"
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
        of = "points" if self.of is Measure.POINTS else _units_text(self.kind)
        if self.percent is not None:
            amount, verb = f"at least {self.percent:g}% of {self.side}'s {of}", "have"
        else:
            amount = f"at least {self.count} of {self.side}'s {of}"
            verb = "has" if self.count == 1 else "have"
        where = _zones_text(self.zones).replace(" and ", " or ")
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
                f"{_units_text(self.kind, plural=self.count != 1)}")


@dataclasses.dataclass(frozen=True, kw_only=True)
class LastStanding(_Condition):
    """The side has a unit of the kind left and the enemy has none."""

    tag: ClassVar[str] = "last_standing"
    side: Side
    kind: UnitKind | None = UnitKind.MEK

    def describe(self) -> str:
        return f"{self.side} has the last {_units_text(self.kind, plural=False)} standing"


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
    "COMBAT_ROUNDS",
    "COMBINATORS",
    "CONDITION_TYPES",
    "KEY",
    "MAX_COMBAT_ROUNDS",
    "AllOf",
    "AnyOf",
    "ArrivalRoll",
    "BreakContact",
    "Condition",
    "DestroyAll",
    "Edge",
    "ExitMap",
    "ExitRule",
    "Hold",
    "HouseRules",
    "InZone",
    "KeepUnits",
    "LastStanding",
    "Measure",
    "NeverOccupied",
    "NotOf",
    "Occupy",
    "Placed",
    "Reinforcements",
    "Repair",
    "Result",
    "Salvage",
    "Scenario",
    "Setup",
    "SetupRule",
    "Side",
    "SideRules",
    "SkillChoice",
    "Strongpoint",
    "TurnLimit",
    "UnitKind",
    "Victory",
    "ZoneChoice",
    "duel",
    "walk",
]
