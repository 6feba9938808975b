"""The scenario file model: what a scenario file may hold, checked and worded for players.

A scenario file is YAML; ``parse_scenario`` turns its plain data into the game's
``meks.game.scenario.Scenario`` or raises ``ScenarioInvalid`` listing *every* problem, each with
the path of the value it concerns (``attacker.setup.zones[0]``) and a reason a player
understands. Finding line numbers is the job of ``campaigns.files.scenarios``; this module only
sees plain data.

Checking happens in two passes. The pydantic models here check shapes and single values
(zones 1-9, known terrain, whole numbers, no unknown keys), with the value types of
``campaigns.files.scenario_values`` and the victory conditions of
``campaigns.files.victory_model``; every error pydantic reports is worded by one translator
(``campaigns.files.model_errors``).
``meks.game.scenario_checks.semantic_problems`` then checks what spans several values, on the
game's own types.

The models also give the JSON Schema of a scenario file (``scenario_json_schema``) and the
form a scenario is stored in (campaign copies, battle and play records): ``scenario_data``
writes it and ``stored_scenario`` reads it back.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
from typing import Any

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from campaigns.files import victory_model
from campaigns.files.model_errors import Vocabulary, worded
from campaigns.files.reading import LineIndex
from campaigns.files.scenario_values import (
    ArrivalRoll,
    BreakContactName,
    Count,
    EdgeName,
    GroupName,
    KindName,
    LevelName,
    MeasureName,
    Percent,
    PricingName,
    RepairName,
    SalvageName,
    ScenarioId,
    Shown,
    SizeName,
    SkillChoiceName,
    StrictModel,
    TerrainName,
    Title,
    TurnNumber,
    Whole,
    Zone,
    ZoneChoiceName,
    Zones,
)
from campaigns.files.victory_model import CONDITION_MODELS, Condition, Victory
from meks.game import conditions
from meks.game import scenario as game
from meks.game.construction import Pricing
from meks.game.errors import described, problem
from meks.game.scenario_checks import Problem, ScenarioInvalid, semantic_problems
from meks.game.vocabulary import (
    COMBAT_ROUNDS,
    DEFAULT_BUDGET,
    DEFAULT_SUPPORT_ROLLS,
    DEFAULT_TERRAIN,
    DEFAULT_TURN_LIMIT,
    MAX_BUDGET,
    MAX_COMBAT_ROUNDS,
    BreakContact,
    Measure,
    Repair,
    Salvage,
    Side,
    SkillChoice,
    ZoneChoice,
)
from meks.game.zones import ZONES

# ---- set-up, arrivals, exits -------------------------------------------------------------

class SetupRule(StrictModel):
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


class Setup(StrictModel):
    zones: Zones = Field(description="The zones the side's units may start in.")
    rules: tuple[SetupRule, ...] = Field((), description="Constraints within those zones.")

    @model_validator(mode="after")
    def _each_rule_once(self) -> Setup:
        """A rule given again says nothing more, and would be shown and checked again as
        many times: refused in one problem, however many repeats there are."""
        first: dict[SetupRule, int] = {}
        repeats = []
        for index, rule in enumerate(self.rules):
            if rule in first:
                repeats.append((index, first[rule]))
            else:
                first[rule] = index
        if repeats:
            index, same = repeats[0]
            more = len(repeats) - 1
            raise PydanticCustomError(
                "setup_repeat", "rules[{index}] repeats rules[{same}]{more}; give each set-up "
                "rule once", {"index": index, "same": same,
                              "more": f" (and {more:,} more rules repeat an earlier one)"
                              if more else ""})
        return self


class Strongpoint(StrictModel):
    """Infantry strongpoints a side starts with, free of charge, dug in in one zone."""

    zone: Zone
    count: Count = 1


class Reinforcements(StrictModel):
    """Units that are not set up but arrive during the battle: each turn in the schedule,
    every unit still waiting rolls one die and arrives on the roll given (or all arrive)."""

    zones: Zones = Field(description="The zones the units arrive in.")
    zone_choice: ZoneChoiceName = Field(
        ZoneChoice.CHOOSE, description=(
            "Who picks the arrival zone: the owner ('choose') or a die ('random')."))
    schedule: dict[TurnNumber, ArrivalRoll] = Field(min_length=1, description=(
        "Turn number -> the roll each waiting unit needs to arrive that turn, or 'all'."))


class ExitRule(StrictModel):
    """A map edge the side's units may leave across, and from which zones."""

    edge: EdgeName
    from_zones: tuple[Zone, ...] = Field((), description=(
        "The zones units may leave from (default: every zone along the edge)."))


class SideRules(StrictModel):
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


class HouseRules(StrictModel):
    """The RULINGS options a scenario may switch; the defaults are the rulings'."""

    pricing: PricingName = Field(Pricing.PRINTED, description=(
        "R1.7: stock Meks cost their printed price, or the price computed from their parts."))
    skill_choice: SkillChoiceName = Field(
        SkillChoice.CHOOSE, description="R2.4: new skills are chosen, or rolled at random.")
    repair: RepairName = Field(Repair.FREE, description=(
        "R3.4: surviving Meks are repaired for free after the scenario, not at all, or "
        "for points (paid, R3.7)."))
    diagonal_moves: bool = Field(False, description="R5.1: zones touching at a corner are "
                                 "adjacent too.")
    six_always_hits: bool = Field(False, description="R6.6: a to-hit roll of 6 always hits.")
    salvage: SalvageName = Field(Salvage.NONE, description=(
        "R3.6: after the scenario nobody, the winner, or both sides recover the working "
        "parts of the enemy's destroyed Meks into their stockpile."))
    spare_parts: bool = Field(False, description=(
        "R3.7: a weapon or system lost in battle stays lost until an identical part from "
        "the stockpile, or one bought, replaces it (needs repair: none or paid)."))
    wear: bool = Field(False, description=(
        "R3.8: Meks lose heat rating with the battles they fight, until overhauled."))
    bail_out: bool = Field(False, description=(
        "R6.12: at the end of a zone combat a pilot whose Mek is one Hit from destruction, "
        "or whose reactor took a critical, may eject: the Mek is lost, the pilot survives."))
    withdrawal: bool = Field(False, description=(
        "R6.13: at the end of a turn a side may withdraw (it loses), or overrun when it "
        "clearly wins (it wins); its units take up to 3 Hits that never destroy them."))
    combat_rounds: Whole = Field(COMBAT_ROUNDS, ge=1, le=MAX_COMBAT_ROUNDS,
                                 description=(
        "R5.2: the most rounds a zone combat fights in one combat step before it waits for "
        "the next turn; 1 is the earlier reading, one exchange per zone a turn."))
    break_contact: BreakContactName = Field(BreakContact.WITHDRAW, description=(
        "R6.3: breaking contact withdraws the winner's units into adjacent zones free of "
        "enemies (withdraw), or only stops the fire there this turn (stay, the earlier "
        "reading)."))
    treasury: bool = Field(False, description=(
        "Campaigns: the company keeps a treasury of points that pays for the Meks, Regular "
        "pilots, parts, repairs and overhauls it buys; each battle pays by its result, and "
        "salvaged parts can be sold. The scenario's budget still caps the force."))

    @model_serializer(mode="wrap")
    def _quiet(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # The campaign house rules are stored only when switched on, as the plain type
        # stores them (meks.game.scenario.HouseRules.QUIET): older stored scenarios keep their form.
        data: dict[str, Any] = handler(self)  # pydantic's dump of the model, free-form
        for name in game.HouseRules.QUIET:
            if getattr(self, name) == type(self).model_fields[name].default:
                data.pop(name, None)
        return data


# ---- victory conditions ------------------------------------------------------------------

@functools.cache
def _condition_adapter() -> TypeAdapter[Condition]:
    return TypeAdapter(Condition)


def parse_condition(data: object, source: str = "condition") -> conditions.Condition:
    """One victory condition from plain data (``{"type": "occupy", ...}``); for tests and
    for tools that build conditions on their own. ``ScenarioInvalid`` if unusable."""
    try:
        condition: conditions.Condition = _to_game(_condition_adapter().validate_python(data))
    except ValidationError as exc:
        found, unlisted = worded(exc, {"victory": {"attacker": data}}, SCENARIO_WORDS,
                                  ("victory", "attacker"))
        raise ScenarioInvalid(source, [dataclasses.replace(p, path=p.path[2:]) for p in found],
                              unlisted) from None
    return condition



# ---- the scenario ------------------------------------------------------------------------

def _all_plains() -> dict[int, str]:
    return dict.fromkeys(ZONES, DEFAULT_TERRAIN)


class Scenario(StrictModel):
    """One scenario: the map, both sides' forces and set-up, and how each side wins."""

    id: ScenarioId = Field(description="Short name used on the command line.")
    name: Title = Field(min_length=1, description="The scenario's title.")
    briefing: Shown = Field("", description="What the players are told before the battle.")
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
    changes: tuple[str, ...] = Field((), description=(
        "What this scenario changes from the one it is a copy of, a line each (shown "
        "before its battles)."))

    @model_serializer(mode="wrap")
    def _quiet(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Stored only when given, as the plain type stores it (meks.game.scenario.Scenario.QUIET):
        # scenarios stored before keep their form.
        data: dict[str, Any] = handler(self)  # pydantic's dump of the model, free-form
        if not self.changes:
            data.pop("changes", None)
        return data


def scenario_json_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file, generated from the model (free-form JSON)."""
    schema = Scenario.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Meks & Mercs scenario",
        "description": "A scenario file for the meks campaign manager; see docs/scenarios.md.",
        **{k: v for k, v in schema.items() if k != "title"},
    }


# Pydantic's errors on a scenario file, worded from its model down (conditions by their tag).
SCENARIO_WORDS = Vocabulary(root=Scenario, tagged=CONDITION_MODELS)


# ---- reading a file ----------------------------------------------------------------------

def parse_scenario(data: object, source: str = "scenario") -> game.Scenario:
    """The scenario described by ``data`` (parsed YAML), or ``ScenarioInvalid`` listing every
    problem found."""
    if not isinstance(data, dict):
        raise ScenarioInvalid(source, [Problem((), "a scenario file must be a mapping of keys "
                                                   f"to values, not {described(data)}")])
    try:
        model = Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioInvalid(source, *worded(exc, data, SCENARIO_WORDS,
                                              validate=Scenario.model_validate)) from None
    scenario = _game_scenario(model)
    problems = semantic_problems(scenario)
    if problems:
        raise ScenarioInvalid(source, problems)
    return scenario


def house_rules_problems(data: object, where: str = "house_rules",
                         lines: LineIndex | None = None) -> list[str]:
    """What is wrong with the house rules ``data`` (as a plan or a roster holds them), each
    worded as every file problem is, placed under ``where`` (at its line in ``lines``, the
    file's, when the house rules lie at ``where`` in it)."""
    try:
        HouseRules.model_validate(data)
    except ValidationError as exc:
        found, _ = worded(exc, {"house_rules": data}, SCENARIO_WORDS, ("house_rules",))
        return [problem(p.message, lines.line_of(p.path) if lines else None,
                        where + p.where.removeprefix("house_rules")) for p in found]
    return []


# ---- the game's types from the model, and back -------------------------------------------

def _game_scenario(model: Scenario) -> game.Scenario:
    """The game's scenario for a checked model: R7.1's turn limit when the file gives none,
    and the values left out that take an R7.1 default listed in ``defaulted``."""
    scenario: game.Scenario = _to_game(model)
    given = model.model_fields_set
    defaulted = [name for name in ("terrain", "turn_limit") if name not in given]
    for side in Side:
        rules = model.attacker if side is Side.ATTACKER else model.defender
        defaulted += [f"{side.value}.{name}" for name in ("budget", "support_rolls")
                      if name not in rules.model_fields_set]
    if "at_turn_limit" not in model.victory.model_fields_set:
        defaulted.append("victory.at_turn_limit")
    turn_limit = scenario.turn_limit if "turn_limit" in given \
        else scenario.victory.needed_turns()
    return dataclasses.replace(scenario, turn_limit=turn_limit, defaulted=tuple(defaulted))


def _to_game(value: Any) -> Any:
    """``value`` with every model in it turned into the game's type of the same name."""
    if isinstance(value, BaseModel):
        name = type(value).__name__
        kind = getattr(game, name, None) or getattr(conditions, name)
        return kind(**{name: _to_game(getattr(value, name)) for name in type(value).model_fields
                       if name != "type"})
    if isinstance(value, tuple):
        return tuple(_to_game(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_game(v) for k, v in value.items()}
    return value


def scenario_data(scenario: game.Scenario) -> dict[str, Any]:
    """``scenario`` as plain JSON data, in the form it is stored in (every key, in the
    model's order, each with its value or default)."""
    data: dict[str, Any] = _to_data(scenario)  # the model's form: stored_scenario checks it
    return data


def rules_digest(scenario: game.Scenario) -> str:
    """A short digest of what decides ``scenario``'s battles: its stored form without the
    name, briefing and assumption notes. Fitted odds curves keep the digest of the scenario
    they were fitted to, so that a change to it is noticed. The house rule treasury, which
    changes nothing in a battle (only what the company can buy before it), is left out."""
    data = {k: v for k, v in scenario_data(scenario).items()
            if k not in ("name", "briefing", "assumed", "changes")}
    house = {k: v for k, v in data.get("house_rules", {}).items() if k != "treasury"}
    if house:
        data["house_rules"] = house
    else:
        data.pop("house_rules", None)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def stored_scenario(data: object) -> game.Scenario:
    """The scenario stored as ``data`` by ``scenario_data``. The shapes and values are
    checked again, the checks across values are not: a stored scenario was valid when it
    was stored."""
    return _game_scenario(Scenario.model_validate(data))


@functools.cache
def _file_model(kind: type) -> type[BaseModel]:
    model = globals().get(kind.__name__) or vars(victory_model)[kind.__name__]
    assert isinstance(model, type) and issubclass(model, BaseModel)
    return model


def _to_data(value: Any) -> Any:
    """``value`` as ``model_dump(mode="json", by_alias=True)`` of its model gives it."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        model = _file_model(type(value))
        tag = getattr(value, "tag", None)  # a condition's 'type' is its tag
        quiet = getattr(value, "QUIET", ())  # stored only when not at their default
        return {(info.alias or name): tag if name == "type" else _to_data(getattr(value, name))
                for name, info in model.model_fields.items()
                if name not in quiet or getattr(value, name) != info.default}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_to_data(v) for v in value]
    if isinstance(value, dict):
        return {_key_data(k): _to_data(v) for k, v in value.items()}
    return value


def _key_data(key: object) -> str:
    return str(key.value) if isinstance(key, enum.Enum) else str(key)


__all__ = ["ScenarioInvalid", "house_rules_problems", "parse_condition", "parse_scenario",
           "rules_digest", "scenario_data", "scenario_json_schema", "stored_scenario"]
