"""The value types of the scenario file model, each with its own checks: zones 1 to 9,
percentages, terrain and pilot levels from the catalog, ids, names and texts shown to players,
arrival rolls, whole numbers (never a YAML boolean), and the game's enums taken in any case.
Each reports what is wrong in a player's words (``campaigns.files.model_errors`` words the
rest); ``StrictModel`` is the base of every model of the file (no unknown keys, frozen).
"""

from __future__ import annotations

import enum
import math
import typing
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from meks.game.catalog import Size, load_catalog
from meks.game.construction import Pricing
from meks.game.errors import AmbiguousName, described
from meks.game.text import without_format_characters
from meks.game.vocabulary import (
    BreakContact,
    Edge,
    Measure,
    Repair,
    Result,
    Salvage,
    Side,
    SkillChoice,
    UnitKind,
    ZoneChoice,
)
from meks.game.zones import ZONES

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
    value = without_format_characters(value).strip()
    if not value:
        raise PydanticCustomError("group", "a group needs a name", {})
    return value


def _title(value: str) -> str:
    """A scenario's name as shown, without invisible formatting characters (a right-to-left
    override, a zero-width space...), as typed names are (``campaigns.company.clean_name``);
    what is left must show something."""
    value = without_format_characters(value)
    if not value.strip():
        raise PydanticCustomError("title", "a scenario needs a name with something to show", {})
    return value


def _arrival(value: object) -> int | Literal["all"]:
    if isinstance(value, str) and value.strip().casefold() == "all":
        return "all"
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6:
        return value
    raise PydanticCustomError(
        "arrival", "expected the roll each waiting unit needs (1 to 6) or 'all', found {value}",
        {"value": described(value)},
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
Title = Annotated[str, AfterValidator(_title)]
# text shown to players (a briefing), without invisible formatting characters
Shown = Annotated[str, AfterValidator(without_format_characters)]
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
BreakContactName = Annotated[BreakContact, _loose_enum(BreakContact),
                             _any_case_schema(BreakContact)]
ZoneChoiceName = Annotated[ZoneChoice, _loose_enum(ZoneChoice), _any_case_schema(ZoneChoice)]
PricingName = Annotated[Pricing, _loose_enum(Pricing), _any_case_schema(Pricing)]
SkillChoiceName = Annotated[SkillChoice, _loose_enum(SkillChoice), _any_case_schema(SkillChoice)]
RepairName = Annotated[Repair, _loose_enum(Repair), _any_case_schema(Repair)]
SalvageName = Annotated[Salvage, _loose_enum(Salvage), _any_case_schema(Salvage)]


class StrictModel(BaseModel):
    """A model of the file: no unknown keys, and frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)

