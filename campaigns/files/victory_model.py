"""The victory conditions of the scenario file model: the conditions a side wins by (occupy,
hold, destroy_all, exit...), their combinators (all, any, not), told apart by their tag, and
each side's condition with the result at the turn limit (``Victory``). Each model becomes the
game's type of the same name (``meks.game.scenario``), as the rest of the file does
(``campaigns.files.scenario_model``).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Discriminator, Field, Tag, model_validator
from pydantic_core import PydanticCustomError

from campaigns.files.scenario_values import (
    Count,
    EdgeName,
    GroupName,
    KindName,
    MeasureName,
    Percent,
    ResultName,
    SideName,
    StrictModel,
    TurnNumber,
    Whole,
    Zone,
)
from meks.game.conditions import COMBINATORS
from meks.game.vocabulary import Measure, Result, UnitKind


class _Condition(StrictModel):
    tag: ClassVar[str]


class AllOf(_Condition):
    """Every listed condition holds."""

    tag: ClassVar[str] = "all"
    all: Annotated[tuple[Condition, ...], Field(min_length=1)]


class AnyOf(_Condition):
    """At least one listed condition holds."""

    tag: ClassVar[str] = "any"
    any: Annotated[tuple[Condition, ...], Field(min_length=1)]


class NotOf(_Condition):
    """The condition does not hold."""

    tag: ClassVar[str] = "not"
    negated: Condition = Field(alias="not")


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


class Occupy(_ZoneRef):
    """At the end of a turn the side has a unit in the zone and the enemy has none."""

    tag: ClassVar[str] = "occupy"
    type: Literal["occupy"]
    side: SideName


class NeverOccupied(_Condition):
    """The side has not occupied the zone at the end of any turn so far."""

    tag: ClassVar[str] = "never_occupied"
    type: Literal["never_occupied"]
    side: SideName
    zone: Zone


class Hold(_ZoneRef):
    """The side occupied the zone at the end of each of the last N turns; with 'after', that
    condition already held at the end of the first of those turns."""

    tag: ClassVar[str] = "hold"
    type: Literal["hold"]
    side: SideName
    turns: Annotated[Whole, Field(ge=1, le=100)]
    after: Condition | None = Field(None, description=(
        "The turns held count only from the turn this condition first holds."))


class DestroyAll(_Condition):
    """Every enemy unit of the kind (and group) is destroyed, and there was at least one."""

    tag: ClassVar[str] = "destroy_all"
    type: Literal["destroy_all"]
    side: SideName = Field(description="The side that does the destroying.")
    kind: KindName | None = None
    group: GroupName | None = Field(None, description="Only enemy units of this set-up group.")


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


class KeepUnits(_Condition):
    """The side still has at least N units (of the kind) neither destroyed nor gone."""

    tag: ClassVar[str] = "keep_units"
    type: Literal["keep_units"]
    side: SideName
    count: Count = 1
    kind: KindName | None = None


class LastStanding(_Condition):
    """The side has a unit of the kind left and the enemy has none."""

    tag: ClassVar[str] = "last_standing"
    type: Literal["last_standing"]
    side: SideName
    kind: KindName | None = UnitKind.MEK


class InZone(_Condition):
    """The side had a unit in the zone at the end of the given turn (enemies or not)."""

    tag: ClassVar[str] = "in_zone"
    type: Literal["in_zone"]
    side: SideName
    zone: Zone
    at_turn: TurnNumber


class TurnLimit(_Condition):
    """The last turn has ended."""

    tag: ClassVar[str] = "turn_limit"
    type: Literal["turn_limit"]


CONDITION_MODELS: dict[str, type[_Condition]] = {
    c.tag: c for c in (AllOf, AnyOf, NotOf, Occupy, NeverOccupied, Hold, DestroyAll, ExitMap,
                       KeepUnits, LastStanding, InZone, TurnLimit)
}


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


class Victory(StrictModel):
    """Each side's victory condition, and the result when the turn limit is reached."""

    attacker: Condition | None = Field(None, description=(
        "The attacker wins when this holds at the end of a turn (none: only at the limit)."))
    defender: Condition | None = Field(None, description="Likewise for the defender.")
    at_turn_limit: ResultName = Field(Result.DRAW, description=(
        "The result when the last turn ends and neither side's condition holds: a side, a "
        "draw, or mek_points (the side that destroyed more of the enemy's Mek points wins; "
        "equal points are a draw)."))

    @model_validator(mode="before")
    @classmethod
    def _per_side(cls, data: Any) -> Any:
        if isinstance(data, dict) and ("type" in data or any(k in data for k in COMBINATORS)):
            raise PydanticCustomError(
                "victory_side", "victory conditions name no side: put each side's condition "
                "under 'attacker:' or 'defender:'", {})
        return data

