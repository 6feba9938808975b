"""Scenarios as data: the model a scenario file is read into, and the checks it must pass.

A scenario file is YAML; ``parse_scenario`` turns its plain data into a ``Scenario`` or raises
``ScenarioInvalid`` listing *every* problem, each with the path of the value it concerns
(``attacker.setup.zones[0]``) and a reason a player understands. Reading files and finding
line numbers is the job of ``campaigns.scenarios``; this module only sees plain data.

Checking happens in two passes. The pydantic models check shapes and single values (zones
1-9, known terrain, whole numbers, no unknown keys). ``semantic_problems`` then checks what
spans several values: set-up rules inside the set-up zones, a composition that fits the budget
with the cheapest stock Meks, exits on the edge they cross, victory conditions that can be met
within the turn limit, groups that exist, ``assumed`` entries that name real fields.

Defaults follow RULINGS R7.1 (all Plains, 60 points, 1 support roll, 12 turns unless a
condition needs fewer). A value the rules do not give is listed in the top-level ``assumed``
list by its dotted path; values a file leaves out and that take an R7.1 default count as
assumed too (``Scenario.assumptions``).
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import functools
import itertools
import math
import types
import typing
from collections.abc import Iterator, Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from meks.catalog import Size, load_catalog
from meks.construction import Pricing, check_design
from meks.errors import AmbiguousName, InputError

ZONES = tuple(range(1, 10))
DEFAULT_BUDGET = 60
MAX_BUDGET = 10_000  # the largest points budget a muster takes
DEFAULT_SUPPORT_ROLLS = 1
DEFAULT_TURN_LIMIT = 12
DEFAULT_TERRAIN = "Plains"

Path = tuple[str | int, ...]


# ---- small vocabularies ------------------------------------------------------------------

class Side(enum.Enum):
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


class Edge(enum.Enum):
    """Map edges; the top edge is north (R5.1)."""

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
    MEK = "mek"
    VEHICLE = "vehicle"
    INFANTRY = "infantry"


class Measure(enum.Enum):
    """What a share of a force is counted in."""

    UNITS = "units"
    POINTS = "points"


class Result(enum.Enum):
    """Who wins when the turn limit is reached and no side has met its conditions."""

    ATTACKER = "attacker"
    DEFENDER = "defender"
    DRAW = "draw"


class SkillChoice(enum.Enum):
    """House rule R2.4."""

    CHOOSE = "choose"
    RANDOM = "random"


class Repair(enum.Enum):
    """House rule R3.4."""

    FREE = "free"
    NONE = "none"


class ZoneChoice(enum.Enum):
    """Who picks the arrival zone of a reinforcement: its owner, or a die."""

    CHOOSE = "choose"
    RANDOM = "random"


# ---- value types with their own checks ---------------------------------------------------

E = typing.TypeVar("E", bound=enum.Enum)


def _loose_enum(enum_type: type[E]) -> BeforeValidator:
    """Accept an enum's value in any case ('Medium', 'medium', 'MEDIUM')."""

    def convert(value: object) -> object:
        if isinstance(value, str):
            wanted = value.strip().casefold()
            for member in enum_type:
                if str(member.value).casefold() == wanted:
                    return member
        return value

    return BeforeValidator(convert)


def _any_case_schema(enum_type: type[E]) -> WithJsonSchema:
    """The JSON Schema of an enum taken in any case: its values (for editors to offer), or
    any string that matches one of them but for case and surrounding spaces."""
    values = [str(member.value) for member in enum_type]
    spelled = "|".join("".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else
                               ("\\" + c if c in ".^$*+?()[]{}|\\/" else c) for c in v)
                       for v in values)
    return WithJsonSchema({"anyOf": [{"enum": values},
                                     {"type": "string", "pattern": f"^\\s*({spelled})\\s*$"}]})


def _zone(value: int) -> int:
    if value not in ZONES:
        raise PydanticCustomError(
            "zone", "zone {zone} is not on the map: the zones are numbered 1 to 9",
            {"zone": value},
        )
    return value


def _percent(value: float) -> float:
    if not math.isfinite(value):
        raise PydanticCustomError("percent", "a percentage must be a number from 0 to 100", {})
    if value > 100:
        raise PydanticCustomError(
            "percent", "{value}% is more than 100%: no side can have more than all of its force "
            "anywhere", {"value": f"{value:g}"},
        )
    if value <= 0:
        raise PydanticCustomError("percent", "a percentage must be more than 0", {})
    return value


def _terrain(value: str) -> str:
    index = load_catalog().ix.terrain
    try:
        found = index.find(value)
    except AmbiguousName as exc:
        raise PydanticCustomError("terrain", "{message}", {"message": exc.message}) from None
    if found is None:
        near = index.suggest(value, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise PydanticCustomError(
            "terrain", "unknown terrain {name}{hint}; the terrains are {names}",
            {"name": repr(value), "hint": hint, "names": ", ".join(index.names)},
        )
    return found.name


def _level(value: str) -> str:
    index = load_catalog().ix.level
    found = index.find(value)
    if found is None:
        raise PydanticCustomError(
            "pilot_level", "unknown pilot level {name}; the levels are {names}",
            {"name": repr(value), "names": ", ".join(index.names)},
        )
    return found.level


def _scenario_id(value: str) -> str:
    if not value or not all(c.isascii() and (c.isalnum() or c == "-") for c in value) \
            or value != value.lower() or value.startswith("-"):
        raise PydanticCustomError(
            "scenario_id", "{value} is not a usable id: use lower-case letters, digits and "
            "hyphens, such as 'river-crossing'", {"value": repr(value)},
        )
    return value


def _group(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("group", "a group needs a name", {})
    return value.strip()


def _arrival(value: object) -> int | Literal["all"]:
    if isinstance(value, str) and value.strip().casefold() == "all":
        return "all"
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6:
        return value
    raise PydanticCustomError(
        "arrival", "expected the roll each waiting unit needs (1 to 6) or 'all', found {value}",
        {"value": _describe(value)},
    )


def _not_bool(value: object) -> object:
    """YAML reads true/false as booleans, which Python would take as 1 and 0: not here."""
    if isinstance(value, bool):
        raise PydanticCustomError("whole", "expected a whole number, found {value}",
                                  {"value": str(value).lower()})
    return value


Whole = Annotated[int, BeforeValidator(_not_bool)]  # a number of points, rolls, turns...
Zone = Annotated[Whole, AfterValidator(_zone),
                 WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 9})]
Zones = Annotated[tuple[Zone, ...], Field(min_length=1)]
Percent = Annotated[float, AfterValidator(_percent),
                    WithJsonSchema({"type": "number", "exclusiveMinimum": 0, "maximum": 100})]
TerrainName = Annotated[str, AfterValidator(_terrain), WithJsonSchema({
    "type": "string",
    "description": "A terrain from the catalog: Plains, Desert, Woods, Urban, Highlands or "
                   "Moors (singular forms and aliases such as Forest or City work too).",
})]
LevelName = Annotated[str, AfterValidator(_level), WithJsonSchema({
    "type": "string", "description": "A pilot level: Green, Regular, Veteran or Elite."})]
ScenarioId = Annotated[str, AfterValidator(_scenario_id), WithJsonSchema({
    "type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"})]
GroupName = Annotated[str, AfterValidator(_group)]
ArrivalRoll = Annotated[int | Literal["all"], BeforeValidator(_arrival), WithJsonSchema({
    "anyOf": [{"type": "integer", "minimum": 1, "maximum": 6}, {"const": "all"}]})]
TurnNumber = Annotated[Whole, Field(ge=1, le=100)]
Count = Annotated[Whole, Field(ge=1, le=1000)]

SideName = Annotated[Side, _loose_enum(Side), _any_case_schema(Side)]
EdgeName = Annotated[Edge, _loose_enum(Edge), _any_case_schema(Edge)]
KindName = Annotated[UnitKind, _loose_enum(UnitKind), _any_case_schema(UnitKind)]
MeasureName = Annotated[Measure, _loose_enum(Measure), _any_case_schema(Measure)]
SizeName = Annotated[Size, _loose_enum(Size), _any_case_schema(Size)]
ResultName = Annotated[Result, _loose_enum(Result), _any_case_schema(Result)]
ZoneChoiceName = Annotated[ZoneChoice, _loose_enum(ZoneChoice), _any_case_schema(ZoneChoice)]
PricingName = Annotated[Pricing, _loose_enum(Pricing), _any_case_schema(Pricing)]
SkillChoiceName = Annotated[SkillChoice, _loose_enum(SkillChoice), _any_case_schema(SkillChoice)]
RepairName = Annotated[Repair, _loose_enum(Repair), _any_case_schema(Repair)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _zones_text(zones: Sequence[int]) -> str:
    zones = sorted(zones)
    if len(zones) == 1:
        return f"zone {zones[0]}"
    return "zones " + ", ".join(str(z) for z in zones[:-1]) + f" and {zones[-1]}"


def _units_text(kind: UnitKind | None, plural: bool = True) -> str:
    word = {None: "unit", UnitKind.MEK: "Mek", UnitKind.VEHICLE: "vehicle",
            UnitKind.INFANTRY: "infantry unit"}[kind]
    return word + "s" if plural else word


# ---- set-up, arrivals, exits -------------------------------------------------------------

class SetupRule(_Model):
    """A constraint on where a side's units start: at least a number of units (or points),
    or a percentage of the force, in the given zones."""

    zones: Zones = Field(description="The zones this rule is about.")
    at_least: Whole | None = Field(None, ge=1, le=1000, description=(
        "At least this many units (or points, with 'of: points') must start in these zones."))
    percent: Percent | None = Field(None, description=(
        "At least this percentage of the side's units (or points) must start in these zones."))
    of: MeasureName = Field(Measure.UNITS, description="Count units (default) or points.")
    kind: KindName | None = Field(None, description=(
        "Count only units of this kind: mek, vehicle or infantry (default: every unit)."))
    same_zone: bool = Field(False, description=(
        "All of the side's units in these zones must start in the same one of them."))
    group: GroupName | None = Field(None, description=(
        "A name for the side's units that start in these zones, for victory conditions."))

    @model_validator(mode="after")
    def _one_amount(self) -> SetupRule:
        if (self.at_least is None) == (self.percent is None):
            raise PydanticCustomError(
                "setup_rule", "a set-up rule needs exactly one of 'at_least' (a number) or "
                "'percent' (a share of the force)", {})
        return self

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


class Setup(_Model):
    zones: Zones = Field(description="The zones the side's units may start in.")
    rules: tuple[SetupRule, ...] = Field((), description="Constraints within those zones.")

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


class Strongpoint(_Model):
    """Infantry strongpoints a side starts with, free of charge, dug in in one zone."""

    zone: Zone
    count: Count = 1

    def describe(self) -> str:
        return f"{self.count} in zone {self.zone}"


class Reinforcements(_Model):
    """Units that are not set up but arrive during the battle: each turn in the schedule,
    every unit still waiting rolls one die and arrives on the roll given (or all arrive)."""

    zones: Zones = Field(description="The zones the units arrive in.")
    zone_choice: ZoneChoiceName = Field(
        ZoneChoice.CHOOSE, description=(
            "Who picks the arrival zone: the owner ('choose') or a die ('random')."))
    schedule: dict[TurnNumber, ArrivalRoll] = Field(min_length=1, description=(
        "Turn number -> the roll each waiting unit needs to arrive that turn, or 'all'."))

    def describe(self) -> str:
        steps = [f"turn {t}: {'all remaining' if r == 'all' else f'{r}+'}"
                 for t, r in sorted(self.schedule.items())]
        how = "chosen by the owner" if self.zone_choice is ZoneChoice.CHOOSE else "by a die"
        where = _zones_text(self.zones).replace(" and ", " or ")
        return f"arrive in {where} ({how}); " + ", ".join(steps)


class ExitRule(_Model):
    """A map edge the side's units may leave across, and from which zones."""

    edge: EdgeName
    from_zones: tuple[Zone, ...] = Field((), description=(
        "The zones units may leave from (default: every zone along the edge)."))

    @property
    def zones(self) -> tuple[int, ...]:
        return self.from_zones or self.edge.zones

    def describe(self) -> str:
        return f"{self.edge.value} edge from {_zones_text(self.zones)}"


class SideRules(_Model):
    """What one side brings and where it starts.

    For the muster (R3.3): the force must cost at most ``budget`` (Meks at their price, plus
    5 points for each pilot hired as Regular); ``pilots`` come free on top and cost nothing;
    ``max_size`` and ``composition`` are checked by ``size_problems``. ``support_rolls`` is
    the number of support rolls before the muster (plus one for a pilot with Log Hero).
    """

    budget: Whole = Field(DEFAULT_BUDGET, ge=0, le=MAX_BUDGET, description=(
        "Points to muster the force with (default 60)."))
    max_size: SizeName | None = Field(None, description=(
        "The largest Mek size allowed (default: any)."))
    composition: dict[SizeName, Count] | None = Field(None, description=(
        "If given, the force is exactly these Meks: size -> how many."))
    pilots: dict[LevelName, Count] = Field(default_factory=dict, description=(
        "Pilots the scenario provides free of charge: level -> how many."))
    support_rolls: Whole = Field(DEFAULT_SUPPORT_ROLLS, ge=0, le=20, description=(
        "Support rolls before the muster (default 1)."))
    setup: Setup | None = Field(None, description="Where the side's units start.")
    strongpoints: tuple[Strongpoint, ...] = Field((), description="Infantry strongpoints.")
    reinforcements: Reinforcements | None = Field(None, description=(
        "Units that arrive during the battle instead of setting up."))
    exits: tuple[ExitRule, ...] = Field((), description="Edges the side may leave across.")

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


class HouseRules(_Model):
    """The RULINGS options a scenario may switch; the defaults are the rulings'."""

    pricing: PricingName = Field(Pricing.PRINTED, description=(
        "R1.7: stock Meks cost their printed price, or the price computed from their parts."))
    skill_choice: SkillChoiceName = Field(
        SkillChoice.CHOOSE, description="R2.4: new skills are chosen, or rolled at random.")
    repair: RepairName = Field(Repair.FREE, description=(
        "R3.4: surviving Meks are repaired for free after the scenario, or not at all."))
    diagonal_moves: bool = Field(False, description="R5.1: zones touching at a corner are "
                                 "adjacent too.")
    six_always_hits: bool = Field(False, description="R6.6: a to-hit roll of 6 always hits.")

    def changed(self) -> list[str]:
        """The house rules that differ from the rulings' defaults, as 'key: value'."""
        default = HouseRules()
        out = []
        for name in type(self).model_fields:
            value = getattr(self, name)
            if value != getattr(default, name):
                shown = value.value if isinstance(value, enum.Enum) else str(value).lower()
                out.append(f"{name}: {shown}")
        return out


# ---- victory conditions ------------------------------------------------------------------

class _Condition(_Model):
    tag: ClassVar[str]

    def describe(self) -> str:
        raise NotImplementedError

    def children(self) -> Iterator[tuple[Path, Condition]]:
        """Nested conditions, with their path below this one."""
        return iter(())


class AllOf(_Condition):
    """Every listed condition holds."""

    tag: ClassVar[str] = "all"
    all: Annotated[tuple[Condition, ...], Field(min_length=1)]

    def describe(self) -> str:
        return " and ".join(_nested(c) for c in self.all)

    def children(self) -> Iterator[tuple[Path, Condition]]:
        return ((("all", i), c) for i, c in enumerate(self.all))


class AnyOf(_Condition):
    """At least one listed condition holds."""

    tag: ClassVar[str] = "any"
    any: Annotated[tuple[Condition, ...], Field(min_length=1)]

    def describe(self) -> str:
        return " or ".join(_nested(c) for c in self.any)

    def children(self) -> Iterator[tuple[Path, Condition]]:
        return ((("any", i), c) for i, c in enumerate(self.any))


class NotOf(_Condition):
    """The condition does not hold."""

    tag: ClassVar[str] = "not"
    negated: Condition = Field(alias="not")

    def describe(self) -> str:
        return f"not ({self.negated.describe()})"

    def children(self) -> Iterator[tuple[Path, Condition]]:
        return iter(((("not",), self.negated),))


def _nested(condition: Condition) -> str:
    text = condition.describe()
    return f"({text})" if isinstance(condition, AllOf | AnyOf) else text


class _ZoneRef(_Condition):
    zone: Zone | None = Field(None, description="The zone.")
    zone_of_group: GroupName | None = Field(None, description=(
        "Instead of 'zone': the zone the named set-up group started in."))

    @model_validator(mode="after")
    def _one_zone(self) -> _ZoneRef:
        if (self.zone is None) == (self.zone_of_group is None):
            raise PydanticCustomError(
                "zone_ref", "give exactly one of 'zone' or 'zone_of_group'", {})
        return self

    @property
    def zone_text(self) -> str:
        if self.zone is not None:
            return f"zone {self.zone}"
        return f"the zone the {self.zone_of_group} group set up in"


class Occupy(_ZoneRef):
    """At the end of a turn the side has a unit in the zone and the enemy has none."""

    tag: ClassVar[str] = "occupy"
    type: Literal["occupy"]
    side: SideName

    def describe(self) -> str:
        return f"{self.side} occupies {self.zone_text}"


class NeverOccupied(_Condition):
    """The side has not occupied the zone at the end of any turn so far."""

    tag: ClassVar[str] = "never_occupied"
    type: Literal["never_occupied"]
    side: SideName
    zone: Zone

    def describe(self) -> str:
        return f"{self.side} has never occupied zone {self.zone}"


class Hold(_ZoneRef):
    """The side occupied the zone at the end of each of the last N turns; with 'after', that
    condition already held at the end of the first of those turns."""

    tag: ClassVar[str] = "hold"
    type: Literal["hold"]
    side: SideName
    turns: Annotated[Whole, Field(ge=1, le=100)]
    after: Condition | None = Field(None, description=(
        "The turns held count only from the turn this condition first holds."))

    def describe(self) -> str:
        text = (f"{self.side} holds {self.zone_text} for {self.turns} consecutive "
                f"turn{'s' * (self.turns != 1)}")
        if self.after is not None:
            text = f"{text}, counting from when {self.after.describe()}"
        return text

    def children(self) -> Iterator[tuple[Path, Condition]]:
        if self.after is not None:
            yield ("after",), self.after


class DestroyAll(_Condition):
    """Every enemy unit of the kind (and group) is destroyed, and there was at least one."""

    tag: ClassVar[str] = "destroy_all"
    type: Literal["destroy_all"]
    side: SideName = Field(description="The side that does the destroying.")
    kind: KindName | None = None
    group: GroupName | None = Field(None, description="Only enemy units of this set-up group.")

    def describe(self) -> str:
        what = f"every {self.side.enemy.adjective} {_units_text(self.kind, plural=False)}"
        if self.group:
            what += f" of the {self.group} group"
        return f"{self.side} has destroyed {what}"


class ExitMap(_Condition):
    """Enough of the side's units have left the map across the edge, from the given zones."""

    tag: ClassVar[str] = "exit"
    type: Literal["exit"]
    side: SideName
    edge: EdgeName
    from_zones: tuple[Zone, ...] = Field((), description=(
        "Count only units that left from these zones (default: any zone on the edge)."))
    kind: KindName | None = None
    percent: Percent | None = Field(None, description=(
        "At least this percentage of the side's units (or points) of the kind."))
    count: Count | None = Field(None, description="At least this many units (or points).")
    of: MeasureName = Measure.UNITS

    @model_validator(mode="after")
    def _one_amount(self) -> ExitMap:
        if (self.percent is None) == (self.count is None):
            raise PydanticCustomError(
                "exit_amount", "an exit condition needs exactly one of 'percent' or 'count'",
                {})
        return self

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


class KeepUnits(_Condition):
    """The side still has at least N units (of the kind) neither destroyed nor gone."""

    tag: ClassVar[str] = "keep_units"
    type: Literal["keep_units"]
    side: SideName
    count: Count = 1
    kind: KindName | None = None

    def describe(self) -> str:
        return (f"{self.side} keeps at least {self.count} "
                f"{_units_text(self.kind, plural=self.count != 1)}")


class LastStanding(_Condition):
    """The side has a unit of the kind left and the enemy has none."""

    tag: ClassVar[str] = "last_standing"
    type: Literal["last_standing"]
    side: SideName
    kind: KindName | None = UnitKind.MEK

    def describe(self) -> str:
        return f"{self.side} has the last {_units_text(self.kind, plural=False)} standing"


class InZone(_Condition):
    """The side had a unit in the zone at the end of the given turn (enemies or not)."""

    tag: ClassVar[str] = "in_zone"
    type: Literal["in_zone"]
    side: SideName
    zone: Zone
    at_turn: TurnNumber

    def describe(self) -> str:
        return f"{self.side} has a unit in zone {self.zone} at the end of turn {self.at_turn}"


class TurnLimit(_Condition):
    """The last turn has ended."""

    tag: ClassVar[str] = "turn_limit"
    type: Literal["turn_limit"]

    def describe(self) -> str:
        return "the turn limit is reached"


CONDITION_TYPES: dict[str, type[_Condition]] = {
    c.tag: c for c in (AllOf, AnyOf, NotOf, Occupy, NeverOccupied, Hold, DestroyAll, ExitMap,
                       KeepUnits, LastStanding, InZone, TurnLimit)
}
COMBINATORS = ("all", "any", "not")


def _condition_tag(value: Any) -> str | None:
    if isinstance(value, dict):
        for key in COMBINATORS:
            if key in value:
                return key
        kind = value.get("type")
        return kind if isinstance(kind, str) else None
    return getattr(value, "tag", None)


Condition = Annotated[
    Annotated[AllOf, Tag("all")]
    | Annotated[AnyOf, Tag("any")]
    | Annotated[NotOf, Tag("not")]
    | Annotated[Occupy, Tag("occupy")]
    | Annotated[NeverOccupied, Tag("never_occupied")]
    | Annotated[Hold, Tag("hold")]
    | Annotated[DestroyAll, Tag("destroy_all")]
    | Annotated[ExitMap, Tag("exit")]
    | Annotated[KeepUnits, Tag("keep_units")]
    | Annotated[LastStanding, Tag("last_standing")]
    | Annotated[InZone, Tag("in_zone")]
    | Annotated[TurnLimit, Tag("turn_limit")],
    Discriminator(_condition_tag),
]

for _cls in (AllOf, AnyOf, NotOf, Hold):
    _cls.model_rebuild()


@functools.cache
def _condition_adapter() -> TypeAdapter[Condition]:
    return TypeAdapter(Condition)


def parse_condition(data: object, source: str = "condition") -> Condition:
    """One victory condition from plain data (``{"type": "occupy", ...}``); for tests and
    for tools that build conditions on their own. ``ScenarioInvalid`` if unusable."""
    try:
        return _condition_adapter().validate_python(data)
    except ValidationError as exc:
        raise ScenarioInvalid(source, [dataclasses.replace(p, path=p.path[2:]) for p in _dedupe(
            _from_pydantic({**e, "loc": ("victory", "attacker", *e["loc"])},
                           {"victory": {"attacker": data}}) for e in exc.errors())]) from None


def walk(condition: Condition, path: Path = ()) -> Iterator[tuple[Path, Condition]]:
    """``condition`` and every condition nested in it, each with its path."""
    yield path, condition
    for sub, child in condition.children():
        yield from walk(child, path + sub)


class Victory(_Model):
    """Each side's victory condition, and the result when the turn limit is reached."""

    attacker: Condition | None = Field(None, description=(
        "The attacker wins when this holds at the end of a turn (none: only at the limit)."))
    defender: Condition | None = Field(None, description="Likewise for the defender.")
    at_turn_limit: ResultName = Field(Result.DRAW, description=(
        "The result when the last turn ends and neither side's condition holds."))

    @model_validator(mode="before")
    @classmethod
    def _per_side(cls, data: Any) -> Any:
        if isinstance(data, dict) and ("type" in data or any(k in data for k in COMBINATORS)):
            raise PydanticCustomError(
                "victory_side", "victory conditions name no side: put each side's condition "
                "under 'attacker:' or 'defender:'", {})
        return data

    def condition(self, side: Side) -> Condition | None:
        return self.attacker if side is Side.ATTACKER else self.defender


# ---- the scenario ------------------------------------------------------------------------

def _all_plains() -> dict[int, str]:
    return dict.fromkeys(ZONES, DEFAULT_TERRAIN)


class Scenario(_Model):
    """One scenario: the map, both sides' forces and set-up, and how each side wins."""

    id: ScenarioId = Field(description="Short name used on the command line.")
    name: str = Field(min_length=1, description="The scenario's title.")
    briefing: str = Field("", description="What the players are told before the battle.")
    turn_limit: TurnNumber = Field(DEFAULT_TURN_LIMIT, description=(
        "The last turn (default 12, or fewer when an 'in_zone' condition ends earlier)."))
    terrain: dict[Zone, TerrainName] = Field(default_factory=_all_plains, description=(
        "Zone (1-9) -> terrain; give all nine zones (default: all Plains)."))
    attacker: SideRules
    defender: SideRules
    victory: Victory
    house_rules: HouseRules = Field(default_factory=HouseRules, description=(
        "RULINGS options (default: the rulings' choices)."))
    assumed: tuple[str, ...] = Field((), description=(
        "Dotted paths of values that the rules do not give and this file fills in."))

    @model_validator(mode="after")
    def _needed_turns(self) -> Scenario:
        """R7.1: without a turn limit, 12 turns unless a condition is decided earlier."""
        if "turn_limit" not in self.model_fields_set:
            needed = [c.at_turn for _, c in self.conditions() if isinstance(c, InZone)]
            if needed and max(needed) < DEFAULT_TURN_LIMIT:
                object.__setattr__(self, "turn_limit", max(needed))
        return self

    def side(self, side: Side) -> SideRules:
        return self.attacker if side is Side.ATTACKER else self.defender

    def conditions(self) -> Iterator[tuple[Path, Condition]]:
        """Every victory condition, nested ones included, with its path in the file."""
        for side in Side:
            top = self.victory.condition(side)
            if top is not None:
                yield from walk(top, ("victory", side.value))

    def terrain_of(self, zone: int) -> str:
        return self.terrain.get(zone, DEFAULT_TERRAIN)

    @property
    def defaulted(self) -> tuple[str, ...]:
        """Values the file leaves out that take an R7.1 default."""
        out = [name for name in ("terrain", "turn_limit") if name not in self.model_fields_set]
        for side in Side:
            rules = self.side(side)
            out += [f"{side.value}.{name}" for name in ("budget", "support_rolls")
                    if name not in rules.model_fields_set]
        if "at_turn_limit" not in self.victory.model_fields_set:
            out.append("victory.at_turn_limit")
        return tuple(out)

    @property
    def assumptions(self) -> tuple[str, ...]:
        """Every value not given by the rules: the ``assumed`` list plus R7.1 defaults."""
        return tuple(dict.fromkeys((*self.assumed, *self.defaulted)))

    def groups(self, side: Side) -> dict[str, SetupRule]:
        """The side's named set-up groups."""
        setup = self.side(side).setup
        return {r.group: r for r in setup.rules if r.group} if setup else {}


def scenario_json_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file, generated from the model."""
    schema = Scenario.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Meks & Mercs scenario",
        "description": "A scenario file for the meks campaign manager; see docs/scenarios.md.",
        **{k: v for k, v in schema.items() if k != "title"},
    }


# ---- problems ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario: where (a path of keys and list indexes, as written
    in the file) and why, in words a player understands."""

    path: Path
    message: str

    @property
    def where(self) -> str:
        return dotted(self.path)


def dotted(path: Path) -> str:
    """``("attacker", "setup", "rules", 0)`` as ``attacker.setup.rules[0]``."""
    out = ""
    for seg in path:
        out += f"[{seg}]" if isinstance(seg, int) else (f".{seg}" if out else str(seg))
    return out


class ScenarioInvalid(InputError):
    """A scenario that cannot be used; ``found`` holds each problem with its path."""

    def __init__(self, source: str, problems: Sequence[Problem]) -> None:
        self.found = tuple(problems)
        super().__init__(source, [f"{p.where}: {p.message}" if p.path else p.message
                                  for p in self.found])


def parse_scenario(data: object, source: str = "scenario") -> Scenario:
    """The scenario described by ``data`` (parsed YAML), or ``ScenarioInvalid`` listing every
    problem found."""
    if not isinstance(data, dict):
        raise ScenarioInvalid(source, [Problem((), "a scenario file must be a mapping of keys "
                                                   f"to values, not {_describe(data)}")])
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioInvalid(source, _dedupe(_from_pydantic(e, data) for e in exc.errors(
            include_url=False))) from None
    problems = semantic_problems(scenario)
    if problems:
        raise ScenarioInvalid(source, problems)
    return scenario


def _dedupe(problems: Iterator[Problem | None]) -> list[Problem]:
    return list(dict.fromkeys(p for p in problems if p is not None))


# ---- checks across values ----------------------------------------------------------------

def semantic_problems(scenario: Scenario) -> list[Problem]:
    """Problems that no single value shows: impossible set-ups and unreachable conditions."""
    problems: list[Problem] = []
    if "terrain" in scenario.model_fields_set:
        missing = [z for z in ZONES if z not in scenario.terrain]
        if missing:
            problems.append(Problem(("terrain",), f"{_zones_text(missing)} "
                                    f"{'has' if len(missing) == 1 else 'have'} no terrain; "
                                    "give all nine zones, or leave 'terrain' out for all "
                                    "Plains"))
    for side in Side:
        problems += _side_problems(scenario, side)
    for path, condition in scenario.conditions():
        problems += _condition_problems(scenario, path, condition)
    problems += _assumed_problems(scenario)
    return problems


@functools.cache
def _cheapest_stock(pricing: Pricing) -> dict[Size, tuple[str, int]]:
    catalog = load_catalog()
    cheapest: dict[Size, tuple[str, int]] = {}
    for design in catalog.designs:
        price = check_design(design, catalog).purchase_price(pricing)
        if design.size not in cheapest or price < cheapest[design.size][1]:
            cheapest[design.size] = (design.name, price)
    return cheapest


def _side_problems(scenario: Scenario, side: Side) -> list[Problem]:
    rules = scenario.side(side)
    here: Path = (side.value,)
    problems: list[Problem] = []
    if rules.setup is None and rules.reinforcements is None:
        problems.append(Problem(here, f"{side} has neither 'setup' nor 'reinforcements': say "
                                "where its forces start or arrive"))
    cheapest = _cheapest_stock(scenario.house_rules.pricing)
    if rules.composition is not None:
        if rules.max_size is not None:
            for size in rules.composition:
                if size > rules.max_size:
                    problems.append(Problem((*here, "composition", size.value),
                                            f"{size.value} Meks are required but the largest "
                                            f"size allowed is {rules.max_size.value}"))
        cost = sum(cheapest[s][1] * n for s, n in rules.composition.items() if s in cheapest)
        if cost > rules.budget:
            parts = ", ".join(f"{n} x {cheapest[s][0]} ({cheapest[s][1]})"
                              for s, n in rules.composition.items() if s in cheapest)
            problems.append(Problem((*here, "composition"),
                                    f"even the cheapest stock Meks of these sizes cost {cost} "
                                    f"points ({parts}), more than the budget of {rules.budget}"))
        meks = sum(rules.composition.values())
        pilots = sum(rules.pilots.values())
        if pilots > meks:
            problems.append(Problem((*here, "pilots"), f"{pilots} pilots are provided for a "
                                    f"force of {meks} Mek{'s' * (meks != 1)}"))
    elif not rules.strongpoints:
        allowed = [p for s, p in cheapest.items()
                   if rules.max_size is None or s <= rules.max_size]
        if allowed and min(p for _, p in allowed) > rules.budget:
            name, price = min(allowed, key=lambda item: item[1])
            problems.append(Problem((*here, "budget"), f"a budget of {rules.budget} points "
                                    f"buys no Mek (the cheapest allowed, {name}, costs "
                                    f"{price})"))
    if rules.setup is not None:
        problems += _setup_problems(rules, rules.setup, (*here, "setup"))
    if rules.reinforcements is not None:
        problems += _arrival_problems(scenario, rules.reinforcements,
                                      (*here, "reinforcements"))
    for i, exit_rule in enumerate(rules.exits):
        off_edge = [z for z in exit_rule.from_zones if z not in exit_rule.edge.zones]
        if off_edge:
            problems.append(Problem((*here, "exits", i, "from_zones"), _off_edge(
                off_edge, exit_rule.edge)))
    return problems


def _off_edge(zones: Sequence[int], edge: Edge) -> str:
    return (f"{_zones_text(zones)} {'is' if len(zones) == 1 else 'are'} not on the "
            f"{edge.value} edge ({_zones_text(edge.zones)})")


def _setup_problems(rules: SideRules, setup: Setup, here: Path) -> list[Problem]:
    problems = []
    for i, rule in enumerate(setup.rules):
        outside = [z for z in rule.zones if z not in setup.zones]
        if outside:
            problems.append(Problem((*here, "rules", i, "zones"),
                                    f"{_zones_text(outside)} "
                                    f"{'is' if len(outside) == 1 else 'are'} not among the "
                                    f"side's set-up zones ({_zones_text(setup.zones)})"))
        if (rule.at_least is not None and rule.of is Measure.UNITS
                and rule.kind in (None, UnitKind.MEK) and rules.composition is not None):
            meks = sum(rules.composition.values()) + (
                rules.strongpoint_count if rule.kind is None else 0)
            if rule.at_least > meks:
                problems.append(Problem((*here, "rules", i, "at_least"),
                                        f"asks for {rule.at_least} "
                                        f"{_units_text(rule.kind)} but the force has only "
                                        f"{meks}"))
        if (rule.at_least is not None and rule.of is Measure.POINTS
                and rule.at_least > rules.budget):
            problems.append(Problem((*here, "rules", i, "at_least"),
                                    f"asks for {rule.at_least} points but the budget is "
                                    f"{rules.budget}"))
    for measure in Measure:
        shares = [(i, r) for i, r in enumerate(setup.rules)
                  if r.percent is not None and r.of is measure and r.kind is None]
        worst = _largest_disjoint(shares)
        if worst and sum(r.percent or 0 for _, r in worst) > 100:
            total = " + ".join(f"{r.percent:g}%" for _, r in worst)
            problems.append(Problem((*here, "rules"),
                                    f"the rules ask for {total} of the force's "
                                    f"{measure.value} in separate zones, more than 100%"))
    return problems


def _largest_disjoint(shares: list[tuple[int, SetupRule]]) -> list[tuple[int, SetupRule]]:
    """The set of rules with pairwise separate zones whose percentages add up the most."""
    best: list[tuple[int, SetupRule]] = []
    if len(shares) > 10:  # a player's file never has this many; do not search
        return best
    for n in range(2, len(shares) + 1):
        for combo in itertools.combinations(shares, n):
            zone_sets = [set(r.zones) for _, r in combo]
            if all(a.isdisjoint(b) for a, b in itertools.combinations(zone_sets, 2)) and \
                    sum(r.percent or 0 for _, r in combo) > sum(r.percent or 0 for _, r in best):
                best = list(combo)
    return best


def _arrival_problems(scenario: Scenario, arrivals: Reinforcements,
                      here: Path) -> list[Problem]:
    problems = []
    schedule = arrivals.schedule
    for turn in schedule:
        if turn > scenario.turn_limit:
            problems.append(Problem((*here, "schedule", turn),
                                    f"turn {turn} is after the turn limit "
                                    f"({scenario.turn_limit})"))
    if schedule:
        last = max(schedule)
        if schedule[last] != "all":
            problems.append(Problem((*here, "schedule", last),
                                    f"units still waiting after turn {last} would never "
                                    "arrive: end the schedule with 'all'"))
    return problems


def _condition_problems(scenario: Scenario, path: Path, condition: Condition) -> list[Problem]:
    problems: list[Problem] = []
    limit = scenario.turn_limit
    if isinstance(condition, InZone) and condition.at_turn > limit:
        problems.append(Problem((*path, "at_turn"), f"turn {condition.at_turn} is after the "
                                f"turn limit ({limit}), so this can never be met"))
    if isinstance(condition, Hold) and condition.turns > limit:
        problems.append(Problem((*path, "turns"), f"a zone cannot be held for "
                                f"{condition.turns} turns in a {limit}-turn battle"))
    if isinstance(condition, ExitMap):
        problems += _exit_problems(scenario, path, condition)
    if isinstance(condition, DestroyAll) and condition.group is not None:
        groups = scenario.groups(condition.side.enemy)
        if condition.group not in groups:
            problems.append(Problem((*path, "group"), _no_group(
                condition.group, condition.side.enemy, list(groups))))
    if isinstance(condition, Occupy | Hold) and condition.zone_of_group is not None:
        name = condition.zone_of_group
        found = {**scenario.groups(Side.ATTACKER), **scenario.groups(Side.DEFENDER)}
        rule = found.get(name)
        if rule is None:
            problems.append(Problem((*path, "zone_of_group"), _no_group(name, None,
                                                                         list(found))))
        elif not rule.same_zone and len(rule.zones) > 1:
            problems.append(Problem((*path, "zone_of_group"),
                                    f"the {name} group may start in several zones, so it has "
                                    "no single zone: add 'same_zone: true' to its set-up rule"))
    return problems


def _no_group(name: str, side: Side | None, known: list[str]) -> str:
    owner = f"{side}'s set-up rules" if side else "any set-up rule"
    text = f"no group called {name!r} in {owner}"
    near = difflib.get_close_matches(name, known, n=1)
    if near:
        text += f" (did you mean {near[0]!r}?)"
    return text


def _exit_problems(scenario: Scenario, path: Path, condition: ExitMap) -> list[Problem]:
    problems = []
    off_edge = [z for z in condition.from_zones if z not in condition.edge.zones]
    if off_edge:
        problems.append(Problem((*path, "from_zones"), _off_edge(off_edge, condition.edge)))
    allowed = {z for r in scenario.side(condition.side).exits if r.edge is condition.edge
               for z in r.zones}
    if not allowed:
        problems.append(Problem((*path, "edge"), f"{condition.side} may not leave across the "
                                f"{condition.edge.value} edge: add it to "
                                f"{condition.side.value}.exits"))
    elif not set(condition.zones) & allowed:
        problems.append(Problem((*path, "from_zones"), f"{condition.side} may leave across "
                                f"the {condition.edge.value} edge only from "
                                f"{_zones_text(sorted(allowed))}"))
    if condition.percent is None and condition.of is Measure.UNITS \
            and condition.kind in (None, UnitKind.MEK):
        composition = scenario.side(condition.side).composition
        if composition is not None and (condition.count or 0) > sum(composition.values()):
            problems.append(Problem((*path, "count"), f"{condition.side}'s force has only "
                                    f"{sum(composition.values())} Meks"))
    return problems


def _assumed_problems(scenario: Scenario) -> list[Problem]:
    problems = []
    known: list[str] | None = None
    for i, entry in enumerate(scenario.assumed):
        if not _resolves(scenario, entry):
            known = known if known is not None else list(_field_paths(Scenario))
            near = difflib.get_close_matches(entry, known, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            problems.append(Problem(("assumed", i), f"{entry!r} names no value in this "
                                    f"scenario{hint}"))
    return problems


def _resolves(scenario: Scenario, entry: str) -> bool:
    node: object = scenario
    for part in entry.replace("[", ".").replace("]", "").split("."):
        if isinstance(node, BaseModel):
            fields = type(node).model_fields
            name = next((n for n, f in fields.items() if part in (n, f.alias)), None)
            if name is None:
                return False
            node = getattr(node, name)
        elif isinstance(node, dict):
            key = next((k for k in node if str(getattr(k, "value", k)).casefold()
                        == part.casefold()), None)
            if key is None:
                return False
            node = node[key]
        elif isinstance(node, tuple) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def _field_paths(model: type[BaseModel], prefix: str = "") -> Iterator[str]:
    for name, info in model.model_fields.items():
        key = info.alias or name
        path = f"{prefix}.{key}" if prefix else key
        yield path
        inner = _unwrap(info.annotation)
        if isinstance(inner, type) and issubclass(inner, BaseModel) and \
                not issubclass(inner, _Condition):
            yield from _field_paths(inner, path)


# ---- pydantic's errors in plain words ----------------------------------------------------

_KINDS = {
    "int_type": "a whole number", "int_parsing": "a whole number",
    "int_from_float": "a whole number", "float_type": "a number", "float_parsing": "a number",
    "bool_type": "true or false", "bool_parsing": "true or false", "string_type": "text",
    "list_type": "a list", "tuple_type": "a list", "dict_type": "a mapping of keys to values",
    "model_type": "a mapping of keys to values",
    "model_attributes_type": "a mapping of keys to values", "finite_number": "a finite number",
    "int_parsing_size": "a whole number of a sensible size",
}


def _describe(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"text {value!r}" if len(value) < 40 else "a long text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _hint(value: object, choices: Sequence[str]) -> str:
    if not isinstance(value, str):
        return ""
    near = difflib.get_close_matches(value.casefold(), [c.casefold() for c in choices], n=1,
                                     cutoff=0.5)
    if not near:
        return ""
    original = next(c for c in choices if c.casefold() == near[0])
    return f" (did you mean {original!r}?)"


def _data_path(data: object, loc: tuple[str | int, ...]) -> tuple[Path, Path]:
    """Split pydantic's location into the part found in the data (keys and indexes as the
    file has them) and the rest (condition tags pydantic adds, or a missing key)."""
    node = data
    found: list[str | int] = []
    rest: list[str | int] = []
    for seg in loc:
        if seg == "[key]":
            continue
        inside, node = _step(node, seg)
        (found if inside else rest).append(seg)
    return tuple(found), tuple(rest)


def _step(node: object, seg: str | int) -> tuple[bool, object]:
    """The value under ``seg`` in ``node``, if there is one."""
    if isinstance(node, dict) and _has_key(node, seg):
        return True, node[seg]
    if isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
        return True, node[seg]
    return False, node


def _has_key(mapping: dict[Any, Any], key: object) -> bool:
    try:
        return key in mapping
    except TypeError:
        return False


def _unwrap(tp: Any) -> Any:
    """Strip Annotated and a '| None' from a type."""
    while True:
        origin = typing.get_origin(tp)
        if origin is Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _model_at(loc: tuple[str | int, ...]) -> type[BaseModel] | None:
    """The model whose keys are expected at ``loc`` (pydantic's location, tags included)."""
    tp: Any = Scenario
    for seg in loc:
        tp = _unwrap(tp)
        origin = typing.get_origin(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            info = next((f for n, f in tp.model_fields.items() if seg in (n, f.alias)), None)
            if info is None:
                return None
            tp = info.annotation
        elif origin in (tuple, list):
            tp = typing.get_args(tp)[0]
        elif origin is dict:
            tp = typing.get_args(tp)[1]
        elif origin in (typing.Union, types.UnionType) and isinstance(seg, str):
            found = CONDITION_TYPES.get(seg)
            if found is None:
                return None
            tp = found
        else:
            return None
    tp = _unwrap(tp)
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def _keys_of(model: type[BaseModel]) -> list[str]:
    return [f.alias or n for n, f in model.model_fields.items()]


def _from_pydantic(error: Any, data: object) -> Problem | None:
    """``error`` from pydantic as a ``Problem``; None for an error that only follows from
    another one (a list reported too short because its items failed)."""
    loc: tuple[str | int, ...] = tuple(error["loc"])
    kind: str = error["type"]
    value = error.get("input")
    ctx = error.get("ctx") or {}
    found, _ = _data_path(data, loc)
    if kind == "missing":
        key = loc[-1]
        model = _model_at(loc[:-1])
        if key == "side" and model is not None and issubclass(model, _Condition):
            return Problem(found, "this condition names no side: add 'side: attacker' or "
                           "'side: defender' (the side it is about)")
        return Problem(found, f"missing required key {key!r}")
    if kind == "extra_forbidden":
        key = loc[-1]
        model = _model_at(loc[:-1])
        keys = _keys_of(model) if model is not None else []
        hint = _hint(key, keys)
        if not hint and keys:
            hint = "; the keys allowed here are " + ", ".join(keys)
        return Problem(found, f"unknown key {key!r}{hint}")
    if kind == "union_tag_invalid":
        tags = list(CONDITION_TYPES)
        kinds = [t for t in tags if t not in COMBINATORS]
        return Problem(found, f"unknown condition type {ctx.get('tag')!r}"
                       f"{_hint(ctx.get('tag'), tags)}; the types are {', '.join(kinds)}")
    if kind == "union_tag_not_found":
        names = ", ".join(t for t in CONDITION_TYPES if t not in COMBINATORS)
        if isinstance(value, dict):
            return Problem(found, "this condition does not say what it is: add 'type:' (one of "
                           f"{names}), or write it as 'all:', 'any:' or 'not:'")
        return Problem(found, f"expected a condition (a mapping with 'type:', or 'all:', "
                       f"'any:' or 'not:'), found {_describe(value)}")
    if kind in _KINDS:
        return Problem(found, f"expected {_KINDS[kind]}, found {_describe(value)}")
    if kind in ("enum", "literal_error"):
        expected = str(ctx.get("expected", ""))
        choices = [c.strip(" '") for c in expected.replace(" or ", ",").split(",") if c.strip()]
        return Problem(found, f"{_describe(value)} is not one of {expected}"
                       f"{_hint(value, choices)}")
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": ("at least", "ge"), "greater_than": ("more than", "gt"),
                 "less_than_equal": ("at most", "le"), "less_than": ("less than", "lt")}[kind]
        return Problem(found, f"must be {bound[0]} {ctx.get(bound[1])}, not {_describe(value)}")
    if kind == "too_short":
        if isinstance(value, list | dict) and len(value) >= int(ctx.get("min_length", 1)):
            return None
        return Problem(found, "must not be empty")
    if kind == "string_too_short":
        return Problem(found, "must not be empty")
    if kind == "recursion_loop":
        return Problem(found, "this refers back to itself (a YAML alias inside its own anchor)")
    if kind == "invalid_key":
        return Problem(found, f"every key must be a word, not {_describe(value)}")
    if kind == "value_error":
        return Problem(found, str(ctx.get("error", error["msg"])))
    return Problem(found, str(error["msg"]))


__all__ = [
    "CONDITION_TYPES",
    "AllOf",
    "AnyOf",
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
    "Problem",
    "Reinforcements",
    "Repair",
    "Result",
    "Scenario",
    "ScenarioInvalid",
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
    "dotted",
    "parse_condition",
    "parse_scenario",
    "scenario_json_schema",
    "semantic_problems",
    "walk",
]
