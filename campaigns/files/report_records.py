"""The shapes of a company's record as the campaigns layer shows it (``campaigns.record``):
its battles one a line (``battle list``) and its campaign step by step (``campaign show``,
the campaign report and its charts). Declared as ``campaigns.files.records`` declares the
company's documents: ``TypedDict``s over the plain dicts that are printed as they are. A
figure the record does not know is None.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from campaigns.files.records import StepOdds

# ---- the company's battles (battle list) -----------------------------------------------------

class ListedBattle(TypedDict):
    """A battle in ``battle list``: kills and losses from its log when the tool fought it,
    the odds of winning before it when a campaign step recorded them."""

    id: int
    date: str
    scenario: str | None
    seat: str | None  # attacker or defender
    mode: str
    result: str
    turns: int | None
    kills: int | None
    losses: int | None
    odds_before: float | None
    campaign: str | None  # the campaign whose step it settled


class BattleListing(TypedDict):
    """The company's battles, oldest first, as ``battle list --json`` shows them."""

    company: str
    battles: list[ListedBattle]


# ---- the company's campaign step by step (campaign show) -------------------------------------

class PilotProgress(TypedDict):
    """A pilot in one step of the campaign: kills in the battle and in the campaign so far,
    level after it, and what befell them."""

    pilot: str
    mek: str | None
    kills: int
    total_kills: int
    level: str | None
    promoted: str | None  # "Green -> Regular"
    new_skill: str | None
    mek_destroyed: bool
    dead: bool


class RecordedStep(TypedDict):
    """One fought step of the campaign, with the odds before its battle against its result."""

    step: int  # from 1
    scenario: str
    name: str | None
    side: str
    battle_id: int | None
    odds_before: StepOdds | None
    result: str
    reason: str | None
    turns: int | None
    kills: int
    losses: int
    salvage: list[str]
    treasury: int | float | None  # house rule treasury: after the battle
    # what the treasury gained (+) or lost (-) by hand since the step before (Meks bought or
    # sold, parts sold), when the step records what it held as it began
    by_hand: NotRequired[int]
    bought: list[str]
    pilots: list[PilotProgress]


class PlanLine(TypedDict):
    """A scenario of the campaign's plan, and the company's side in it."""

    scenario: str | None
    side: str | None


class CampaignStory(TypedDict):
    """The company's campaign step by step, as ``campaign show --json`` shows it."""

    company: str
    campaign: str
    id: int | None
    status: str
    difficulty: str
    seed: int
    position: int
    of: int
    plan: list[PlanLine]
    record: dict[str, int]  # how many of win, loss and draw
    steps: list[RecordedStep]
    treasury: int | None  # the points the campaign holds now (house rule treasury)
    # a campaign gone broke: how much the treasury changed by hand (Meks bought or sold,
    # parts sold) after its last step, before the step it could not field a force for
    broke_by_hand: NotRequired[int]
    # a campaign gone broke: the step of the plan it could not field a force for (as
    # 'campaign status' gives it), and the sentence that says where and why
    broke_at: NotRequired[PlanLine]
    broke: NotRequired[str]
