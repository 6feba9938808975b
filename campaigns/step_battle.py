"""A company's campaign under way and the battle of its step: the dice the step is fought
with, and whether a step that was taken back (``company undo``) still has its battle
standing.

A step's dice come from the campaign's seed and the step's place in the plan, so a battle
names the step it was fought for by its seed alone: no history event and no link is needed
to tell it, which keeps the answer the same in a company imported from a roster (whose
history starts at the import)."""

from __future__ import annotations

import hashlib

from sqlmodel import Session, col, select

from campaigns.files.stored import stored_json
from db.models import Battle, Campaign, CampaignBattle, CampaignStatus, Company


def active_campaign(session: Session, company: Company) -> Campaign | None:
    """The company's campaign under way, if any."""
    return session.exec(select(Campaign).where(
        Campaign.company_id == company.id, Campaign.status == CampaignStatus.ACTIVE)
        .order_by(col(Campaign.id).desc())).first()


def derive_seed(seed: int, position: int) -> int:
    """The dice seed of the campaign's ``position``-th scenario."""
    h = hashlib.sha256(f"{seed}:{position}".encode()).digest()
    return int.from_bytes(h[:8], "big") >> 1


def step_seed(row: Campaign, position: int, played: bool = False) -> int:
    """The seed of the dice of step ``position`` of the campaign ``row``: those of the step
    and of its battle fought by the tool, or (``played``) of its battle played at the
    terminal."""
    return derive_seed(row.seed, -1 - position if played else position)


def standing_battle(session: Session, company: Company, row: Campaign) -> int | None:
    """The battle of the campaign's next step that still stands although the step itself
    was taken back (``company undo`` takes back a ``campaign next`` one change at a time):
    a battle of the company for the step's scenario, fought with the step's dice since the
    campaign began, that no step of any campaign counts. None when there is none."""
    plan_step = _plan_step(row)
    if plan_step is None:
        return None
    counted = select(CampaignBattle.battle_id)
    found = session.exec(select(Battle.id).where(
        Battle.company_id == company.id, Battle.scenario == plan_step,
        col(Battle.seed).in_((step_seed(row, row.position),
                                step_seed(row, row.position, played=True))),
        col(Battle.created_at) >= row.created_at,
        col(Battle.id).not_in(counted)).order_by(col(Battle.id).desc())).first()
    return None if found is None else int(found)


def _plan_step(row: Campaign) -> str | None:
    """The scenario id of the campaign's next step (None past its end or when the stored
    plan cannot say)."""
    plan = stored_json(row, "plan", list)
    step = plan[row.position] if 0 <= row.position < len(plan) else None
    scenario = step.get("scenario") if isinstance(step, dict) else None
    return scenario if isinstance(scenario, str) else None


__all__ = ["active_campaign", "derive_seed", "standing_battle", "step_seed"]
