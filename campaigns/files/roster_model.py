"""The roster document's model: what ``meks roster import`` accepts, and its JSON Schema.

The company document (``campaigns.files.roster``, its records in ``campaigns.files.records``)
is checked by these pydantic models, whose errors are worded by the one translator every file
uses (``campaigns.files.model_errors``). The JSON Schema that ``meks roster schema`` prints
for those who script against rosters is generated from the same models
(``roster_json_schema``), so that the format is described once.

The models only check: an accepted document is used as the file holds it. They are strict
(JSON's kinds as written: ``true`` is not a whole number, ``1.0`` neither, ``"1"`` neither)
and refuse unknown keys, except in the parts of the document whose shape they do not fix (a
battle's sides and log, a scenario kept whole), which later checks read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from campaigns.files.model_errors import Vocabulary
from meks.game.errors import described

INT_MAX = 2_147_483_647  # the largest whole number every supported database stores
SEED_MAX = 9_223_372_036_854_775_807


def _timestamp(text: str) -> str:
    """ISO 8601 with a time, as the JSON Schema's "date-time" format has it."""
    try:
        if "T" in text.upper():
            datetime.fromisoformat(text)
            return text
    except ValueError:
        pass
    raise ValueError("expected a date and time like 2025-01-31T18:05:00+00:00, found "
                     f"{described(text)}; write one like it")


Id = Annotated[int, Field(strict=True, ge=1, le=INT_MAX,
                          description="An id within this document.")]
Reference = Annotated[Annotated[int, Field(strict=True, ge=1, le=INT_MAX)] | None, Field(
    description="The id of another part of this document, or null for none.")]
Name = Annotated[str, StringConstraints(strict=True, pattern=r"\S"),
                 Field(description="A name as typed: some text that is not only spaces.")]
Count = Annotated[int, Field(strict=True, ge=0, le=INT_MAX, description=(
    "A whole number that every supported database can store."))]
Seed = Annotated[int, Field(strict=True, ge=0, le=SEED_MAX, description=(
    "The seed the dice were drawn from, as '--seed' takes it."))]
Die = Annotated[int, Field(strict=True, ge=1, le=6)]
Timestamp = Annotated[str, Field(strict=True, json_schema_extra={"format": "date-time"},
                                 description=(
                                     "UTC time in ISO 8601, e.g. 2025-01-31T18:05:00+00:00.")),
                      AfterValidator(_timestamp)]
Size = Literal["Light", "Medium", "Heavy", "Assault", "Titan"]
PartKind = Literal["weapon", "system"]
# A part whose shape the roster does not fix: a battle's sides, a scenario kept whole.
Mapping = dict[Any, Any]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Company(_Model):
    id: Id
    name: Name
    created_at: Timestamp


class Part(_Model):
    """A weapon or a system, by its catalog name."""

    kind: PartKind
    part: Name


class StockPart(_Model):
    """How many of one part the stockpile holds."""

    kind: PartKind
    part: Name
    count: Annotated[int, Field(strict=True, ge=1, le=INT_MAX)]


class CustomDesign(_Model):
    name: Name
    size: Size
    weapons: list[Name]
    systems: list[Name]
    price: Annotated[int, Field(strict=True, ge=0)] | None = None
    aliases: list[Annotated[str, Field(strict=True)]] = []


class Mek(_Model):
    id: Id
    callsign: Name
    design: Name
    size: Size
    price: Count
    kills: Count
    status: Literal["active", "destroyed", "sold"]
    damage: Count = Field(0, description=(
        "Hits the Mek carries into its next battle (house rule repair: none); 0 when left "
        "out."))
    custom_design: CustomDesign | None = Field(None, description=(
        "The parts of a custom design; null for a stock design."))
    lost: list[Part] = Field([], description=(
        "Weapons and systems the Mek lost in battle and has not had replaced (house rule "
        "spare_parts); none when left out."))
    owed: Count = Field(0, description=(
        "Points the Mek owes at its next muster for parts bought, paid repairs or an "
        "overhaul; 0 when left out."))
    wear: Count = Field(0, description=(
        "Battles the Mek has fought since new or overhauled (house rule wear); 0 when left "
        "out."))


class Pilot(_Model):
    id: Id
    name: Name
    level: Literal["Green", "Regular", "Veteran", "Elite"]
    kills: Count
    scenarios: Count
    skills: list[Name]
    status: Literal["active", "wounded", "dead"]
    mek: Reference = Field(description="The Mek the pilot flies.")
    hire_cost: Count = Field(0, description=(
        "Points still owed at the pilot's first muster; 0 when left out."))


class SupportRoll(_Model):
    id: Id
    table_die: Die
    entry_die: Die
    result: Name
    points: Count
    used: bool
    muster: Reference = Field(description=(
        "The muster the roll was spent on; null while it waits."))


class ForceEntry(_Model):
    mek: Id
    pilot: Id
    paid: Count = Field(0, description=(
        "Points paid at this muster for the pilot's Regular hire."))
    owed: Count = Field(0, description=(
        "Points paid at this muster for the Mek's parts, repairs or overhaul (house rules "
        "R3.7, R3.8)."))


class Muster(_Model):
    id: Id
    scenario: Annotated[str, Field(strict=True)] | None
    side: Annotated[str, Field(strict=True)] | None
    budget: Count
    max_size: Size | None
    cost: Count
    force: list[ForceEntry]
    battle: Reference = Field(description="The battle the force fought; null while it waits.")
    created_at: Timestamp
    definition: Mapping = Field(default_factory=dict, description=(
        "The scenario the force was mustered for, house rules included, as it was then (the "
        "format 'meks scenario schema' prints); kept while the force waits for its battle, "
        "and left out otherwise."))


class Battle(_Model):
    id: Id
    muster: Reference
    scenario: Annotated[str, Field(strict=True)] | None
    mode: Literal["table", "auto", "play"] = Field(description=(
        "table: played on a real table; auto: resolved by meks; play: played in meks."))
    sides: Mapping = Field(description=(
        "Who fought on which side, as the battle's mode records it."))
    seed: Seed | None = Field(description="The dice's seed; null for dice given by hand.")
    result: Literal["win", "loss", "draw"]
    log: Mapping | list[Any] = Field(description=(
        "What happened, as the battle's mode records it: the dice rolled and each pilot's "
        "outcome."))
    created_at: Timestamp


class PlanStep(_Model):
    scenario: Name
    side: Literal["attacker", "defender"]
    file: Annotated[str, Field(strict=True)] = Field(
        default_factory=str, description="The scenario file the plan named, when it named one.")
    definition: Mapping = Field(default_factory=dict, description=(
        "That file's scenario as it was when the campaign began (the format 'meks scenario "
        "schema' prints); the campaign plays this copy."))
    house_rules: Mapping = Field(default_factory=dict, description=(
        "The house rules the campaign's plan sets over the scenario's own (the keys of a "
        "scenario's 'house_rules')."))


class StepResult(BaseModel):
    """What one scenario played so far came to (its other keys are the campaign's record)."""

    model_config = ConfigDict(extra="allow", strict=True)

    battle_id: Reference = Field(None, description="The battle the scenario was fought in.")


class Campaign(_Model):
    id: Id
    name: Name
    plan: list[PlanStep] = Field(description=(
        "The scenarios in order, with the side the company takes."))
    position: Count
    seed: Seed
    difficulty: Literal["easy", "normal", "hard"]
    status: Literal["active", "finished", "broke"]
    results: list[StepResult] = Field(description=(
        "What each scenario played so far came to."))
    created_at: Timestamp
    treasury: Count = Field(
        default_factory=int, description=(
            "The company's points under the campaign house rule treasury; left out when the "
            "rule is off."))


class Roster(_Model):
    """A company as one document, as 'meks roster export --format json|yaml' writes it and
    'meks roster import' reads it: the company, its Meks, pilots, support rolls, musters and
    battles. Parts refer to each other by the ids the document carries; an import gives them
    fresh ones."""

    schema_: Literal["meks-roster"] = Field(alias="schema")
    version: Literal[1]
    company: Company
    meks: list[Mek]
    pilots: list[Pilot]
    support: list[SupportRoll]
    musters: list[Muster]
    battles: list[Battle]
    campaigns: list[Campaign] = Field([], description=(
        "The company's campaigns (optional in files written before campaigns)."))
    stockpile: list[StockPart] = Field([], description=(
        "The parts the company holds in its stockpile (house rule salvage); none when left "
        "out."))


ROSTER_WORDS = Vocabulary(root=Roster)


def roster_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a roster document, generated from the model
    (free-form JSON)."""
    schema = Roster.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Meks & Mercs company roster",
        **{k: v for k, v in schema.items() if k != "title"},
    }


__all__ = ["ROSTER_WORDS", "Roster", "roster_json_schema"]
