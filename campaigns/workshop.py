"""The company's workshop between battles: a Mek's lost parts replaced from the stockpile or
bought, a refit to another design, an overhaul that takes away its wear (docs/rules.md R3.7,
R3.8), and parts sold from the stockpile into a campaign's treasury (R3.6, house rule
treasury). Each is a use-case on a company: the parts themselves are ``campaigns.parts``,
the points ``campaigns.treasury``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from sqlmodel import Session

from campaigns.company import changing, company_to_change, find_mek, shell_arg
from campaigns.errors import Refused
from campaigns.files.view_records import OverhauledMek, PartsSold, RefittedMek, RepairedMek
from campaigns.parts import (
    WEAR_PER_HEAT,
    counted,
    design_parts,
    fitted,
    heat_loss,
    held,
    lost_parts,
    mek_design,
    named_part,
    overhaul_price,
    part_price,
    repair_summary,
    replace_parts,
    split_repair,
    store_parts,
    take_parts,
)
from campaigns.treasury import sale_price, treasury_campaign
from meks.game.catalog import Catalog, Design, Size, load_catalog
from meks.game.construction import check_design
from meks.game.errors import UsageError
from meks.game.plain import plain

# ---- repair, refit and overhaul (R3.7, R3.8) ------------------------------------------------

def repair_mek(session: Session, company_name: str, ref: str, *, buy: bool = False,
               catalog: Catalog | None = None) -> RepairedMek:
    """Replace the parts a Mek lost with identical parts from the stockpile; with ``buy``,
    those the stockpile lacks are bought at their catalog price, owed at the Mek's next
    muster. Refused, naming every part missing, when the stockpile lacks some and ``buy``
    is not given."""
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    mek = find_mek(session, company, ref)
    lost = lost_parts(mek)
    if not lost:
        raise Refused(f"{mek.callsign} has lost no parts; there is nothing to repair.")
    assert company.id is not None
    used, bought = split_repair(lost, held(session, company.id))
    if bought and not buy:
        raise Refused(f"{company.name}'s stockpile lacks {counted(bought)} for "
                      f"{mek.callsign} [R3.7]; salvage them, or buy them at their catalog "
                      "price with --buy.")
    with changing(session, company, "mek repair") as change:
        cost = replace_parts(session, mek, used, bought, catalog)
        change.summary = repair_summary(mek.callsign, used, bought, cost)
    return {"mek": mek.callsign, "from_stockpile": [p.name for p in used],
            "bought": [p.name for p in bought], "cost": cost, "owed": mek.owed}


def refit_mek(session: Session, company_name: str, ref: str, design: Design, *,
              custom: bool, catalog: Catalog | None = None) -> RefittedMek:
    """Rebuild a Mek to ``design`` with parts from the stockpile (R3.7): the design must be
    legal (R1) and of the Mek's size, and the stockpile must hold every part it needs that
    the Mek does not carry in working order; the parts it no longer needs go into the
    stockpile. Every problem is named at once; nothing changes unless there is none."""
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    mek = find_mek(session, company, ref)
    assert company.id is not None
    report = check_design(design, catalog)
    problems = [p.message.rstrip(".") for p in report.problems]
    if design.size.value != mek.size:
        problems.append(f"{design.name} is a {design.size.value} design and {mek.callsign} a "
                        f"{mek.size} Mek; a refit keeps the chassis")
    have = Counter(design_parts(fitted(mek_design(mek, catalog), lost_parts(mek))))
    want = Counter(design_parts(report.design))  # its parts by their catalog names (R1.0)
    needed = want - have
    missing = needed - held(session, company.id)
    if missing:
        problems.append(f"the stockpile lacks {counted(missing.elements())}")
    if problems:
        raise Refused(f"{mek.callsign} cannot be refitted as {design.name} [R3.7]: "
                      + "; ".join(problems) + ".")
    freed = have - want
    with changing(session, company, "mek refit") as change:
        take_parts(session, company.id, needed.elements())
        store_parts(session, company.id, freed.elements())
        old = mek.design
        mek.design = report.design.name
        mek.custom_design = json.dumps(plain(report.design)) if custom else None
        mek.price = report.purchase_price()
        mek.lost = "[]"
        session.add(mek)
        session.flush()
        change.summary = (f"Refitted {mek.callsign} from {old} to {mek.design}"
                          + (f", using {counted(needed.elements())} from the stockpile"
                             if needed else "")
                          + (f", putting {counted(freed.elements())} into it"
                             if freed else "") + ".")
    return {"mek": mek.callsign, "design": mek.design, "price": mek.price,
            "used": sorted(p.name for p in needed.elements()),
            "stored": sorted(p.name for p in freed.elements())}


class MendsNothing(Refused):
    """An overhaul that would cost points and give back no heat rating: refused unless
    the player says so (``overhaul_mek(..., mend_nothing=True)``). ``question``: the same,
    asked of a player at a terminal."""

    def __init__(self, message: str, question: str) -> None:
        super().__init__(message)
        self.question = question


def overhaul_mek(session: Session, company_name: str, ref: str, *,
                 mend_nothing: bool = False) -> OverhauledMek:
    """Overhaul a worn Mek (R3.8): its wear goes back to none, for half its price (rounded
    up), owed at its next muster. A Mek whose wear has not yet taken any heat rating is
    overhauled only with ``mend_nothing`` (else ``MendsNothing``): it would pay to mend
    nothing."""
    company = company_to_change(session, company_name)
    mek = find_mek(session, company, ref)
    if not mek.wear:
        raise Refused(f"{mek.callsign} has no wear to overhaul.")
    cost = overhaul_price(mek)
    if not mend_nothing and not heat_loss(mek.wear, Size(mek.size)):
        n = mek.wear
        why = (f"{mek.callsign} has lost no heat rating yet ({n} battle{'s' * (n != 1)} "
               f"since overhaul; the first point goes after {WEAR_PER_HEAT}), so an overhaul "
               f"would cost {cost} points and mend nothing")
        raise MendsNothing(f"{why}; add --yes to overhaul it anyway.",
                           f"{why}. Overhaul it anyway?")
    with changing(session, company, "mek overhaul") as change:
        mek.wear = 0
        mek.owed += cost
        session.add(mek)
        session.flush()
        change.summary = (f"Overhauled {mek.callsign} for {cost} points, owed at its next "
                          "muster.")
    return {"mek": mek.callsign, "cost": cost, "owed": mek.owed}


# ---- selling parts (R3.6, house rule treasury) -----------------------------------------------

def sell_parts(session: Session, company_name: str, names: Sequence[str], *,
               everything: bool = False, catalog: Catalog | None = None) -> PartsSold:
    """Sell parts from the company's stockpile (salvage, R3.6) into its treasury: those
    ``names`` names (a name twice sells two), or every part with ``everything``. Each sells
    for its catalog price (a system's as on a Light Mek) divided by ``SALE_SHARE``, rounded
    up. Refused, with nothing sold, without a campaign that keeps a treasury, or when the
    stockpile lacks a part named."""
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    row = treasury_campaign(session, company)
    if row is None:
        raise Refused(f"{company.name} has no campaign with a treasury under way; parts are "
                      "sold into a campaign's treasury (house rule treasury: 'meks campaign "
                      f"start {shell_arg(company.name)} --treasury').")
    assert company.id is not None and row.treasury is not None
    stock = held(session, company.id)
    if everything and names:
        raise UsageError("Give the parts to sell or --all (the whole stockpile), not both.")
    if everything:
        parts = sorted(stock.elements())
    else:
        if not names:
            raise UsageError("Name the parts to sell, or give --all to sell the whole "
                             "stockpile.")
        parts = [named_part(n, catalog) for n in names]
        wanted = Counter(parts)
        short = [f"{stock[part]} {part.name}, not the {n} named"
                 for part, n in sorted(wanted.items()) if n > stock[part]]
        if short:
            raise Refused(f"{company.name}'s stockpile holds " + "; ".join(short) + "; nothing "
                          f"was sold (see 'meks company show {shell_arg(company.name)}').")
    if not parts:
        raise Refused(f"{company.name}'s stockpile is empty; there is nothing to sell.")
    prices = [sale_price(part_price(p, Size.LIGHT, catalog)) for p in parts]
    with changing(session, company, "campaign sell") as change:
        take_parts(session, company.id, parts)
        row.treasury += sum(prices)
        session.add(row)
        paid = sum(prices)
        change.summary = (f"Sold {counted(parts)} for {paid} point{'s' * (paid != 1)}; "
                          f"treasury {row.treasury}.")
    return {"company": company.name, "sold": [
        {"part": p.name, "kind": p.kind, "points": n} for p, n in zip(parts, prices,
                                                                      strict=True)],
            "points": sum(prices), "treasury": row.treasury, "summary": change.summary}


__all__ = ["MendsNothing", "overhaul_mek", "refit_mek", "repair_mek", "sell_parts"]
