"""The campaign house rule treasury (docs/rules.md, "The treasury").

With it on, the campaign keeps the company's points (``Campaign.treasury``). Everything the
company buys while the campaign is under way is paid from them when it is bought: a Mek at
its price, a Regular pilot's hire fee at the muster that pays it, and what a Mek owes for
parts, repairs and an overhaul at the muster that pays it (R3.3, R3.7, R3.8). Each battle
pays the company by its result, and the parts in its stockpile can be sold
(``campaigns.workshop.sell_parts``). The scenario's budget still caps the force a side
fields; the treasury decides what the company can buy towards it. A company that cannot
field a legal force with what it owns and can pay for is broke: its campaign ends there,
with that result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sqlmodel import Session, col, select

from campaigns.errors import Refused
from db.models import Campaign, CampaignStatus, Company
from meks.game.text import plural


@dataclass(frozen=True)
class Pay:
    """The treasury's numbers: the points a campaign starts with and what each battle pays
    by its result (chosen by measurement: docs/rules.md, "The treasury")."""

    start: int
    win: int
    draw: int
    loss: int

    def for_result(self, outcome: str) -> int:
        return {"win": self.win, "draw": self.draw, "loss": self.loss}[outcome]


PAY = Pay(start=60, win=50, draw=30, loss=25)
SALE_SHARE = 2  # a part sells for its catalog price divided by this, rounded up


class Broke(Refused):
    """The company cannot field a legal force with the Meks it owns and the points it has."""


def treasury_campaign(session: Session, company: Company) -> Campaign | None:
    """The company's campaign under way that keeps a treasury, if any."""
    return session.exec(select(Campaign).where(
        Campaign.company_id == company.id, Campaign.status == CampaignStatus.ACTIVE,
        col(Campaign.treasury).is_not(None)).order_by(col(Campaign.id).desc())).first()


def points(session: Session, company: Company) -> int | None:
    """The company's treasury, or None when no campaign of it keeps one."""
    row = treasury_campaign(session, company)
    return None if row is None else row.treasury


def charge(session: Session, company: Company, cost: int, what: str) -> int | None:
    """Pay ``cost`` points for ``what`` from the company's treasury, if a campaign of it
    keeps one; refused, with nothing changed, when it holds less. Returns the points left
    (None without a treasury)."""
    row = treasury_campaign(session, company)
    if row is None or cost <= 0:
        return None if row is None else row.treasury
    assert row.treasury is not None
    if cost > row.treasury:
        raise Refused(f"{company.name}'s treasury holds {plural(row.treasury, 'point')} and "
                      f"{what} costs {cost}; win battles or sell salvage ('meks campaign "
                      "sell') to pay for it.")
    row.treasury -= cost
    session.add(row)
    return row.treasury


def refund(session: Session, company: Company, amount: int) -> None:
    """Give back to the treasury points paid for something undone (a muster replaced)."""
    row = treasury_campaign(session, company)
    if row is not None and amount > 0:
        assert row.treasury is not None
        row.treasury += amount
        session.add(row)


def sale_price(price: int) -> int:
    """What a salvaged part of catalog price ``price`` sells for."""
    return math.ceil(price / SALE_SHARE)


def mek_sale_price(price: int, missing: int, owed: int) -> int:
    """What a Mek bought for ``price`` sells for into the treasury: as a part does, for
    what it is worth with the parts it lost (worth ``missing`` at catalog prices) taken off,
    less the points it still owes (parts, repairs, an overhaul), and never less than 0."""
    return max(0, sale_price(max(0, price - missing)) - owed)


def pay_in(session: Session, company: Company, amount: int) -> int | None:
    """Put ``amount`` points into the company's treasury, if a campaign of it keeps one.
    Returns the points after (None without a treasury)."""
    row = treasury_campaign(session, company)
    if row is None:
        return None
    assert row.treasury is not None
    row.treasury += max(0, amount)
    session.add(row)
    return row.treasury


__all__ = ["PAY", "SALE_SHARE", "Broke", "Pay", "charge", "mek_sale_price", "pay_in", "points",
           "refund", "sale_price", "treasury_campaign"]
