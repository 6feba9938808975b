"""The shapes of a battle the tool fought as the campaigns layer stores and shows it
(``campaigns.battles``, ``campaigns.play``): its spec, the spec of a battle played at the
terminal, and the summaries, reports and replays built from them. Declared as
``campaigns.files.records`` declares the company's documents: ``TypedDict``s over the plain
dicts that are stored and printed.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from campaigns.files.records import Json, PilotOutcome, StepData, StepOutcome

# ---- a side's force as plain data (campaigns.fighters) ----------------------------------------

class StoredDesign(TypedDict):
    """A Mek's design: its chassis size and parts, and its printed price (None: custom)."""

    name: str
    size: str
    weapons: list[str]
    systems: list[str]
    price: int | None


class StoredPilot(TypedDict):
    name: str
    level: str
    skills: list[str]


class UnitWear(TypedDict, total=False):
    heat_loss: int  # house rule wear (R3.8): only when some was lost


class StoredUnit(UnitWear):
    """A unit of a force: a Mek (its design and pilot) or a support unit (by name)."""

    name: str
    points: int
    ref: str | None  # the company's Mek id, to report back after the battle
    support: str | None  # a support unit's name
    damage: int  # hits carried from an earlier battle (house rule repair: none)
    design: StoredDesign | None
    pilot: StoredPilot | None


class StoredForce(TypedDict):
    """A side's force as a battle's spec keeps it, and as the odds' worker processes get it
    (``force_to_data``; ``force_from_data`` reads it back)."""

    name: str
    support: list[str]  # the support results it rolled
    units: list[StoredUnit]


# ---- a battle the tool fought (campaigns.battles) ---------------------------------------------

class BattleDice(TypedDict, total=False):
    """A battle's dice: a seed and the rolls made before the battle, or the rolls."""

    seed: int | None
    skip: int
    values: list[int]


class BattleSpec(TypedDict):
    """What a battle was fought from, as its log keeps it (``battle_log.spec``): enough to
    fight it again."""

    engine: int  # the engine revision
    scenario: Json  # the scenario's stored copy
    forces: dict[str, StoredForce]  # by side
    controllers: dict[str, str]  # by side
    dice: BattleDice
    difficulty: NotRequired[str]
    # each side's decisions, by side, where they were kept: a side played at the terminal
    # always; every side of a battle stored since the tool keeps them all, so that it
    # replays as fought whatever the bot or the baseline would answer now (a side left
    # out is commanded by its controller again)
    decisions: NotRequired[dict[str, Json]]
    play: NotRequired[int]  # the play it was, when played at the terminal


class PlaySide(TypedDict):
    """A side of a play at the terminal: its name, and its company and muster by id when
    it is a company's."""

    name: str
    company: NotRequired[int | None]
    muster: NotRequired[int | None]


class PlaySpec(TypedDict):
    """What a play at the terminal was begun from, as ``play.spec`` keeps it."""

    engine: int  # the engine revision
    scenario: Json  # the scenario's stored copy
    forces: dict[str, StoredForce]  # by side
    sides: dict[str, PlaySide]  # by side
    campaign: NotRequired[StepData]  # a campaign's battle: its step
    difficulty: NotRequired[str]


class UnfinishedPlay(TypedDict):
    """A play at the terminal not yet finished, as ``battle resume`` lists it."""

    id: int
    scenario: str
    side: str  # the side the player commands
    attacker: str  # each side's name
    defender: str
    decisions: int  # the decisions recorded so far
    updated_at: str


class UnitPilot(TypedDict):
    name: str
    level: str
    dead: bool


class BailedOut(TypedDict, total=False):
    bailed_out: bool  # house rule bail_out (R6.12): only when the pilot ejected


class UnitSummary(BailedOut):
    """A unit at the end of a battle."""

    id: str
    side: str
    name: str
    design: str
    hits: int
    max_hits: int
    state: str  # destroyed, exited, waiting or standing
    kills: int
    pilot: UnitPilot | None


class EarlyEnd(TypedDict):
    """A battle ended early (house rule withdrawal, R6.13): the side, and how."""

    side: str
    by: str


class SummaryExtras(TypedDict, total=False):
    salvage: dict[str, list[str]]  # by side (house rule salvage, R3.6)
    withdrawal: EarlyEnd


class BattleSummary(SummaryExtras):
    """A battle just fought, as ``battle fight --json`` shows it."""

    battle_id: int | None
    scenario: str
    seed: int | None
    winner: str  # a side, or draw
    reason: str
    turns: int
    events: int
    log_digest: str
    controllers: dict[str, str]
    units: list[UnitSummary]


class FinishedPlay(BattleSummary):
    """A battle played at the terminal, finished: its summary, the play, and each side's
    post-battle report."""

    play_id: int
    reports: dict[str, list[PilotOutcome]]  # by side


class FinishedCampaignPlay(FinishedPlay):
    """A campaign's battle played at the terminal, finished, with the step it was."""

    campaign: StepOutcome


class BattleReport(TypedDict):
    """A stored battle as ``battle show`` shows it."""

    battle_id: int
    scenario: str | None
    result: str
    sides: Json  # as the battle row stored them
    seed: int | None
    events: int
    log_digest: str
    report: list[str]


class Replayed(TypedDict):
    """A stored battle fought again, as ``battle replay`` shows it."""

    battle_id: int
    identical: bool
    stored_digest: str
    replayed_digest: str
    events: int
    engine_revision: int
    current_engine_revision: int
    stopped: NotRequired[str]  # why it could not be fought again as it was
