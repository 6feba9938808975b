"""One step of a campaign and the battle that settles it.

A campaign's step is fought either at once (``campaign next``, in ``campaigns.campaign``) or
at the terminal (``campaign next --play``, a play in ``campaigns.play``, which may take many
sittings). Both end here: ``complete_step`` records the battle in the campaign and moves it
on. This module imports neither of the two, so that each of them can import it; a play
never imports ``campaigns.campaign`` (an import-linter contract in pyproject.toml holds it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from sqlmodel import Session

from campaigns import treasury as treasury_rule
from campaigns.battles import Fought, withdrawal_of
from campaigns.company import Refused, changing, lock
from campaigns.files.records import OddsView, StepData, StepOdds, StepOutcome, StepResult
from campaigns.files.stored import store_results, stored_json, stored_results
from db.models import Campaign, CampaignStatus, Company
from meks.game.text import plural
from meks.game.vocabulary import Side


@dataclass(frozen=True)
class Step:
    """A campaign step made ready for its battle: which campaign and which place in its
    plan (a play stores these two as its columns ``campaign_id`` and ``campaign_step``),
    the side the company takes, and what was done getting ready (support rolled, Meks
    bought), which the campaign's result records."""

    campaign: int
    position: int
    side: Side
    support: list[str] = field(default_factory=list)
    bought: list[str] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)  # lost parts put back (R3.7)
    # The company's odds before the battle (``odds_before``): shares of win, draw and loss,
    # and how many battles were fought for them (0: estimated); None when none were given.
    odds: StepOdds | None = None
    spent: int | None = None  # points the treasury paid getting ready (house rule treasury)
    held: int | None = None  # the treasury as the step began (house rule treasury)

    def data(self) -> StepData:
        """The step as a play's ``spec`` keeps it (the shape every meks has stored; the
        repairs only when there were some)."""
        data: StepData = {"id": self.campaign, "position": self.position,
                          "side": self.side.value, "support": list(self.support),
                          "bought": list(self.bought)}
        if self.repairs:
            data["repairs"] = list(self.repairs)
        if self.odds:
            data["odds"] = self.odds.copy()
        if self.spent is not None:
            data["spent"] = self.spent
        if self.held is not None:
            data["held"] = self.held
        return data

    @classmethod
    def from_data(cls, campaign: int, position: int, details: StepData) -> Step:
        """The step of a play: its campaign and position (from the play's columns), the rest
        from the details its ``spec`` keeps. Raises ``KeyError``, ``TypeError`` or
        ``ValueError`` on details that do not read."""
        return cls(campaign, position, Side(details["side"]),
                   [str(s) for s in details["support"]], [str(b) for b in details["bought"]],
                   [str(r) for r in details.get("repairs", [])],
                   _odds(details["odds"]) if details.get("odds") else None,
                   None if details.get("spent") is None else int(details["spent"]),
                   None if details.get("held") is None else int(details["held"]))


def complete_step(session: Session, step: Step, fought: Fought,
                  battle_id: int | None) -> StepOutcome:
    """Record a fought campaign battle in the campaign and move it on (recorded as an
    event)."""
    row = session.get(Campaign, step.campaign)
    if row is None or row.position != step.position or row.status != CampaignStatus.ACTIVE:
        raise Refused("The campaign has moved on since this battle began.")
    company = session.get(Company, row.company_id)
    assert company is not None
    company = lock(session, company)  # held already by whoever fought the battle
    side = step.side
    plan = stored_json(row, "plan", list)
    scenario = fought.scenario
    result = fought.battle.result()
    outcome = "draw" if result.winner is None else ("win" if result.winner is side else "loss")
    entry: StepResult = {
        "scenario": scenario.id, "name": scenario.name, "side": side.value,
        "result": outcome, "reason": result.reason, "turns": result.turns,
        "battle_id": battle_id, "support": list(step.support),
        "bought": list(step.bought), "pilots": fought.reports.get(side, [])}
    if scenario.changes:  # the built-in campaign's copy of a scenario
        entry["changes"] = list(scenario.changes)
    if fought.salvage.get(side):
        entry["salvage"] = fought.salvage[side]
    early = withdrawal_of(fought.battle, side)
    if early is not None:  # house rule withdrawal (R6.13)
        entry["withdrawal"] = early
    if step.repairs:
        entry["repairs"] = list(step.repairs)
    if step.odds:
        entry["odds"] = step.odds.copy()
    after = None
    if row.treasury is not None:  # house rule treasury: the battle pays by its result
        income = treasury_rule.PAY.for_result(outcome)
        after = row.treasury + income
        if step.held is not None:
            entry["held"] = step.held
        if step.spent is not None:
            entry["spent"] = step.spent
        entry["income"] = income
        entry["treasury"] = after
    with changing(session, company, "campaign next") as change:
        if after is not None:
            row.treasury = after
        results: list[StepResult] = stored_results(session, row)
        results.append(entry)
        store_results(session, row, results)
        row.position += 1
        if row.position >= len(plan):
            row.status = CampaignStatus.FINISHED
        session.add(row)
        finished = row.status == CampaignStatus.FINISHED
        change.summary = (f"{scenario.name} ({side.value}): {outcome}."
                          + (f" Paid {plural(entry['income'], 'point')}; treasury "
                             f"{entry['treasury']}."
                             if "income" in entry else "")
                          + (" The campaign is over." if finished else ""))
    return {"company": company.name, "campaign": row.name, "position": row.position,
            "of": len(plan), "finished": finished, **entry}


def odds_before(view: OddsView | None) -> StepOdds | None:
    """The odds a campaign step records from the odds shown before its battle (the
    ``view`` of ``campaigns.balance.Balanced``): the company's shares of win, draw and loss
    and the battles fought for them (0: estimated from the two forces)."""
    if not view:
        return None
    return {"win": round(float(view["win"]["p"]), 4), "draw": round(float(view["draw"]["p"]), 4),
            "loss": round(float(view["loss"]["p"]), 4), "runs": int(view.get("runs") or 0)}


def _odds(data: Any) -> StepOdds:
    """Odds as a play's ``spec`` keeps them (``Step.data``), copied as they are."""
    return cast(StepOdds, dict(data))


__all__ = ["Step", "complete_step", "odds_before"]
