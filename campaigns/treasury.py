"""The campaign house rule treasury (docs/rules.md, "The treasury").

With it on, the campaign keeps the company's points (``Campaign.treasury``). Everything the
company buys while the campaign is under way is paid from them when it is bought: a Mek at
its price, a Regular pilot's hire fee at the muster that pays it, and what a Mek owes for
parts, repairs and an overhaul at the muster that pays it (R3.3, R3.7, R3.8). Each battle
pays the company by its result, and the parts in its stockpile can be sold. The scenario's
budget still caps the force a side fields; the treasury decides what the company can buy
towards it. A company that cannot field a legal force with what it owns and can pay for is
broke: its campaign ends there, with that result.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from campaigns.errors import Refused
from db.models import Campaign, Company
from meks.catalog import Catalog, Size, load_catalog


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


PAY = Pay(start=60, win=50, draw=30, loss=20)
SALE_SHARE = 2  # a part sells for its catalog price divided by this, rounded up


class Broke(Refused):
    """The company cannot field a legal force with the Meks it owns and the points it has."""


def treasury_campaign(session: Session, company: Company) -> Campaign | None:
    """The company's campaign under way that keeps a treasury, if any."""
    return session.exec(select(Campaign).where(
        Campaign.company_id == company.id, Campaign.status == "active",
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
        raise Refused(f"{company.name}'s treasury holds {row.treasury} points and {what} "
                      f"costs {cost}; win battles or sell salvage ('meks campaign sell') "
                      "to pay for it.")
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


def sell_parts(session: Session, company_name: str, names: Sequence[str], *,
               everything: bool = False, catalog: Catalog | None = None) -> dict[str, Any]:
    """Sell parts from the company's stockpile (salvage, R3.6) into its treasury: those
    ``names`` names (a name twice sells two), or every part with ``everything``. Each sells
    for its catalog price (a system's as on a Light Mek) divided by ``SALE_SHARE``, rounded
    up. Refused, with nothing sold, without a campaign that keeps a treasury, or when the
    stockpile lacks a part named."""
    from campaigns.company import changing, company_to_change, shell_arg
    from campaigns.parts import counted, held, named_part, part_price, take_parts

    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    row = treasury_campaign(session, company)
    if row is None:
        raise Refused(f"{company.name} has no campaign with a treasury under way; parts are "
                      "sold into a campaign's treasury (house rule treasury: 'meks campaign "
                      f"start {shell_arg(company.name)} --treasury').")
    assert company.id is not None and row.treasury is not None
    stock = held(session, company.id)
    if everything:
        parts = sorted(stock.elements())
    else:
        if not names:
            raise Refused("Name the parts to sell, or give --all to sell the whole stockpile.")
        parts = [named_part(n, catalog) for n in names]
        missing = Counter(parts) - stock
        if missing:
            raise Refused(f"{company.name}'s stockpile lacks {counted(missing.elements())}; "
                          f"see 'meks company show {shell_arg(company.name)}'.")
    if not parts:
        raise Refused(f"{company.name}'s stockpile is empty; there is nothing to sell.")
    prices = [sale_price(part_price(p, Size.LIGHT, catalog)) for p in parts]
    with changing(session, company, "campaign sell") as change:
        take_parts(session, company.id, parts)
        row.treasury += sum(prices)
        session.add(row)
        change.summary = (f"Sold {counted(parts)} for {sum(prices)} points; treasury "
                          f"{row.treasury}.")
    return {"company": company.name, "sold": [
        {"part": p.name, "kind": p.kind, "points": n} for p, n in zip(parts, prices,
                                                                      strict=True)],
            "points": sum(prices), "treasury": row.treasury, "summary": change.summary}


__all__ = ["PAY", "SALE_SHARE", "Broke", "Pay", "charge", "points", "refund", "sale_price",
           "sell_parts", "treasury_campaign"]
