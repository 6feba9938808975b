"""The shapes of the documents the campaigns layer stores and shows, one line each.

Four kinds of document cross the campaigns layer as JSON: the company document (the roster
``meks roster export`` writes and every event keeps, ``campaigns.files.roster``), a muster's
force (its ``muster_mek`` rows, ``campaigns.musters``), a campaign's results (the
``Campaign.results`` column, one entry per step, each step's battle in its
``campaign_battle`` row, ``campaigns.campaign_step``) and the
post-battle entry of each pilot (``campaigns.postbattle``). Each is declared here as a
``TypedDict``, so that the type checker knows its keys: the value at run time is still the
plain dict that is stored and printed as it is. A key marked ``NotRequired`` is left out when
it holds nothing, as documents written before it existed leave it out. What the commands
show, built from these documents, is declared in ``campaigns.files.view_records``.

This module imports nothing of the project, so that every part of it (the files it reads and
writes included) can use the shapes.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, final

# A JSON value whose shape these records do not fix: a battle's sides and log, a custom
# design, a scenario's stored copy. Their own modules read them.
Json = Any


# ---- a muster's force (its muster_mek rows) --------------------------------------------------

class ForceEntry(TypedDict):
    """One Mek of a muster's force and its pilot, by id, with what the muster paid for them."""

    mek: int
    pilot: int
    paid: NotRequired[int]  # the pilot's Regular hire fee paid at this muster (0: none)
    owed: NotRequired[int]  # what the Mek owed and paid at this muster (R3.7, R3.8)


class MusteredMek(TypedDict):
    """One Mek of a muster as ``meks muster`` shows it: by callsign, priced."""

    mek: str
    design: str
    price: int
    pilot: str
    level: str
    hire: int
    owed: NotRequired[int]


class MusterView(TypedDict):
    """A muster as ``meks muster --json`` shows it."""

    id: int | None
    cost: int
    budget: int
    scenario: str | None
    side: str | None
    replaced: bool
    force: list[MusteredMek]
    support: list[str]
    paid: NotRequired[int]  # house rule treasury: what the treasury paid, and what is left
    treasury: NotRequired[int]


# ---- the post-battle entry of one pilot (campaigns.postbattle) -------------------------------

class SkillRoll(TypedDict):
    """The roll for a new skill (R2.4)."""

    die: int
    bonus: int
    needed: int
    success: bool


class PilotOutcome(TypedDict):
    """What the post-battle sequence (R3.4) did to one pilot and the Mek they flew."""

    pilot: str
    mek: str
    kills: int
    mek_destroyed: NotRequired[bool]
    bailed_out: NotRequired[bool]  # house rule bail_out (R6.12)
    damage: NotRequired[int]  # hits kept (house rule repair: none)
    repaired: NotRequired[bool]
    repair_cost: NotRequired[int]  # house rule repair: paid (R3.7)
    lost_parts: NotRequired[list[str]]  # house rule spare_parts (R3.7)
    wear: NotRequired[int]  # house rule wear (R3.8)
    heat_lost: NotRequired[int]
    dead: NotRequired[bool]
    promoted: NotRequired[str]  # "Green -> Regular"
    skill_roll: NotRequired[SkillRoll]
    new_skill: NotRequired[str]


# ---- a campaign's plan (Campaign.plan) --------------------------------------------------------

class HouseRulesRecord(TypedDict, total=False):
    """The house rules a campaign plan sets over its scenarios' own: only those it names,
    each as its plain value (a choice by its name)."""

    pricing: str
    skill_choice: str
    repair: str
    diagonal_moves: bool
    six_always_hits: bool
    salvage: str
    spare_parts: bool
    wear: bool
    bail_out: bool
    withdrawal: bool
    combat_rounds: int
    break_contact: str
    treasury: bool


class PlannedStep(TypedDict):
    """One scenario of a campaign's plan, and the company's side in it."""

    scenario: str  # its id
    side: str
    file: NotRequired[str]  # the file the plan named, copied in as ``definition``
    definition: NotRequired[Json]
    house_rules: NotRequired[HouseRulesRecord]  # left out when the plan sets none


# ---- the odds before a campaign battle (campaigns.balance.Balanced.view) ---------------------

class Share(TypedDict):
    """The company's share of one outcome: with its 95% interval and count when fought."""

    p: float
    low: NotRequired[float]
    high: NotRequired[float]
    count: NotRequired[int]


class EstimatedOdds(TypedDict):
    """The odds estimated from the two forces."""

    win: float
    draw: float
    loss: float
    edge: float


class TrialOdds(TypedDict):
    """The battles balancing fought of the match-up it chose (``campaigns.balance.TRIALS``):
    the company's wins, draws and losses in them, how many battles' worth the estimate
    counted for beside them, and the odds the two give together."""

    battles: int
    won: int
    drawn: int
    lost: int
    weight: float
    win: float
    draw: float
    loss: float


class Tried(TypedDict):
    """An enemy muster balancing tried, and the company's chance of winning against it."""

    budget: int
    level: str
    win: float
    runs: NotRequired[int]  # the battles fought for it (left out when estimated)


class BalanceView(TypedDict):
    """What balancing chose for the enemy, and how."""

    target: float
    scenario_budget: int
    budget: int
    scale: float
    spent: int
    level: str
    enemy: list[str]
    support: NotRequired[list[str]]  # the enemy's support results (a Rich Uncle adds points)
    by: str  # estimate or battles
    search_runs: int
    tried: list[Tried]


class OddsView(TypedDict):
    """The company's odds before a campaign battle, as ``campaign next --json`` shows them."""

    runs: int
    seed: int
    controller: str
    estimated: EstimatedOdds | None
    trials: NotRequired[TrialOdds]  # odds views recorded before trial battles have none
    win: Share
    draw: Share
    loss: Share
    balance: BalanceView


class OddsShown(TypedDict, total=False):
    """Where ``play_step`` puts the odds it showed before a new play's battle."""

    odds: OddsView | None


# ---- a campaign's muster at the terminal (campaigns.campaign.MusterMenu) ---------------------

class MenuMek(TypedDict):
    """One of the company's Meks a campaign's muster may field."""

    callsign: str | None
    design: str
    size: str
    price: int  # what it counts against the budget, what it owes included
    owes: int  # what it pays now


class MusterMenuView(TypedDict):
    """What a campaign's muster chooses from, and the force the tool suggests."""

    scenario: str
    name: str
    side: str
    budget: int
    treasury: int | None
    max_size: str | None
    composition: dict[str, int] | None  # by size
    owned: list[MenuMek]
    suggestion: list[str]
    cost: int
    paid: int


# ---- a campaign's results (Campaign.results) -------------------------------------------------

class StepOdds(TypedDict):
    """The company's odds shown before a campaign battle: shares, and the battles fought for
    them (0: estimated)."""

    win: float
    draw: float
    loss: float
    runs: int


class StepData(TypedDict):
    """A campaign step as the play of its battle keeps it (the ``campaign`` of its
    ``spec``): its campaign and position, the side and what was done getting ready."""

    id: int
    position: int
    side: str
    support: list[str]
    bought: list[str]
    repairs: NotRequired[list[str]]  # only when lost parts were put back
    odds: NotRequired[StepOdds]
    spent: NotRequired[int]  # house rule treasury
    held: NotRequired[int]  # the treasury as the step began


class StepResult(TypedDict):
    """One fought step of a campaign, as its results keep it."""

    scenario: str
    name: str
    side: str
    result: str  # win, loss or draw
    reason: str
    turns: int
    battle_id: int | None  # read from, and written to, the step's campaign_battle row
    support: list[str]
    bought: list[str]
    pilots: list[PilotOutcome]
    changes: NotRequired[list[str]]  # the built-in campaign's changes to its scenario
    salvage: NotRequired[list[str]]  # house rule salvage (R3.6)
    withdrawal: NotRequired[str]  # house rule withdrawal (R6.13)
    repairs: NotRequired[list[str]]  # lost parts put back (R3.7)
    odds: NotRequired[StepOdds]
    # house rule treasury: held as the step began (against the step before's, what was bought
    # or sold by hand between them), paid getting ready, earned by the battle, held after
    held: NotRequired[int]
    spent: NotRequired[int]
    income: NotRequired[int]
    treasury: NotRequired[int]


class StepOutcome(StepResult):
    """A fought step as ``campaign next`` shows it: its result, and where the campaign is."""

    company: str
    campaign: str
    position: int
    of: int
    finished: bool


class StepHead(TypedDict):
    """What every step ``campaign next`` returns begins with: where the campaign is, the
    scenario and the company's side in it, and how the step ended."""

    company: str
    campaign: str
    position: int
    of: int
    finished: bool
    scenario: str
    name: str
    side: str
    result: str  # win, loss, draw, or broke
    reason: str
    turns: int


class FoughtStep(StepHead):
    """A step ``campaign next`` fought: its outcome (``StepOutcome``), who commanded both
    sides, and the odds shown before it in full (None with no odds)."""

    battle_id: int | None
    support: list[str]
    bought: list[str]
    pilots: list[PilotOutcome]
    changes: NotRequired[list[str]]
    salvage: NotRequired[list[str]]
    withdrawal: NotRequired[str]
    repairs: NotRequired[list[str]]
    held: NotRequired[int]
    spent: NotRequired[int]
    income: NotRequired[int]
    treasury: NotRequired[int]
    controllers: Json  # the battle's spec's, as it stored them
    difficulty: str
    odds: OddsView | None


@final  # nothing adds keys to it, so a step with ``controllers`` is a FoughtStep
class BrokeStep(StepHead):
    """The step a campaign ended at because the company went broke (house rule treasury)."""

    treasury: int | None
    battle_id: None
    support: list[str]
    bought: list[str]
    pilots: list[PilotOutcome]


# ---- the company document (campaigns.files.roster) -------------------------------------------

class CompanyHead(TypedDict):
    """The company itself."""

    id: int
    name: str
    created_at: str


class LostPart(TypedDict):
    """A part a Mek lost and keeps lost until replaced (R3.7)."""

    kind: str  # weapon or system
    part: str


class MekRecord(TypedDict):
    """A Mek; what the house rules keep on it (R3.6 to R3.8) only when it is not nothing."""

    id: int
    callsign: str
    design: str
    size: str
    price: int
    kills: int
    status: str
    # The keys below are always written; documents written before they existed lack them.
    damage: NotRequired[int]  # hits carried into the next battle (house rule repair: none)
    custom_design: NotRequired[Json | None]  # the design, when it is not a stock one
    lost: NotRequired[list[LostPart]]
    owed: NotRequired[int]
    wear: NotRequired[int]


class PilotRecord(TypedDict):
    """A pilot; ``mek`` is the id of the Mek they fly."""

    id: int
    name: str
    level: str
    kills: int
    scenarios: int
    skills: list[str]
    status: str
    mek: int | None
    hire_cost: NotRequired[int]  # always written; documents written before it lack it


class SupportRecord(TypedDict):
    """A support roll (R4.1); ``muster`` is the id of the muster it went to."""

    id: int
    table_die: int
    entry_die: int
    result: str
    points: int
    used: bool
    muster: int | None


class MusterRecord(TypedDict):
    """A muster; ``battle`` is the id of the battle that used it, ``definition`` the copy of
    its scenario while it waits for that battle."""

    id: int
    scenario: str | None
    side: str | None
    budget: int
    max_size: str | None
    cost: int
    force: list[ForceEntry]
    battle: int | None
    created_at: str
    definition: NotRequired[Json]


class BattleRecord(TypedDict):
    """A battle; ``muster`` is the id of the muster that fought it."""

    id: int
    muster: int | None
    scenario: str | None
    mode: str
    sides: Json
    seed: int | None
    result: str
    log: Json
    created_at: str


class CampaignRecord(TypedDict):
    """A campaign, with its results; its treasury only when it keeps one."""

    id: int
    name: str
    plan: list[PlannedStep]
    position: int
    seed: int
    difficulty: str
    status: str
    results: list[StepResult]
    created_at: str
    treasury: NotRequired[int]


class StockRecord(TypedDict):
    """Parts of one kind in the stockpile (R3.6)."""

    kind: str
    part: str
    count: int


class Document(TypedDict):
    """The company document: everything about a company but its event history."""

    schema: str
    version: int
    company: CompanyHead
    meks: list[MekRecord]
    pilots: list[PilotRecord]
    support: list[SupportRecord]
    musters: list[MusterRecord]
    battles: list[BattleRecord]
    campaigns: NotRequired[list[CampaignRecord]]  # left out by documents written before them
    stockpile: NotRequired[list[StockRecord]]  # left out when empty
