"""Musters (docs/rules.md R3.2): the Meks and pilots a company fields for its next battle,
within a scenario side's limits (budget, largest size, exact composition, pilots provided
free), their price under the scenario's pricing, and the muster that replaces a waiting one.
Like the other use-cases of ``campaigns.company``, each takes an open session and plain
arguments, and records the change as an ``Event``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, select

from campaigns.company import (
    Refused,
    changing,
    company_id,
    company_to_change,
    find_mek,
    get_company,
    shell_arg,
    support_granted_to,
    support_rolls_for,
    too_much_support,
    waiting_muster,
)
from campaigns.files.records import ForceEntry, Json, MusteredMek, MusterView
from campaigns.files.stored import store_force, stored_force
from campaigns.treasury import charge, points, refund
from db.models import Company, Mek, Muster, Pilot, PilotStatus, SupportRoll
from meks.game.catalog import Size, load_catalog
from meks.game.construction import Pricing, check_design
from meks.game.scenario import Scenario, SideRules
from meks.game.vocabulary import Side


@dataclass(frozen=True)
class Limits:
    """What a muster must respect: a scenario side's rules (budget, largest size, exact
    composition, pilots provided free) and, when it comes from a scenario, its id, the side,
    the scenario's pricing house rule and the scenario itself as stored data (the muster
    keeps it for its battle)."""

    rules: SideRules
    scenario: str | None = None
    side: str | None = None
    pricing: Pricing = Pricing.PRINTED
    definition: Json | None = None  # the scenario's stored copy (``scenario_data``)

    @classmethod
    def plain(cls, budget: int, max_size: Size | None = None,
              composition: dict[Size, int] | None = None) -> Limits:
        """Limits given by hand rather than by a scenario."""
        return cls(SideRules(budget=budget, max_size=max_size, composition=composition))

    @classmethod
    def for_scenario(cls, scenario: Scenario, side: Side) -> Limits:
        from campaigns.files.scenario_model import scenario_data

        return cls(scenario.side(side), scenario.id, side.value, scenario.house_rules.pricing,
                   scenario_data(scenario))


def _muster_price(mek: Mek, pricing: Pricing) -> int:
    return muster_price(mek.price, mek.design, mek.custom_design is not None, pricing)


def muster_price(price: int, design_name: str, custom: bool, pricing: Pricing) -> int:
    """A Mek's price in a muster: what it was bought for (``price``), unless the scenario's
    pricing house rule asks for stock Meks at their computed price (R1.7)."""
    if pricing is Pricing.COMPUTED and not custom:
        catalog = load_catalog()
        design = catalog.ix.design.find(design_name)
        if design is not None:
            return check_design(design, catalog).price
    return price


def _refuse_if_in_play(session: Session, company: Company, muster_row: Muster) -> None:
    """A waiting muster that an unfinished play uses stays until that play ends."""
    from campaigns.in_play import play_using

    busy = play_using(session, muster_row.id)
    if busy is not None:
        raise Refused(f"{company.name}'s mustered force is in play {busy}, still unfinished; "
                      f"finish that battle with 'meks battle resume {busy}' before mustering "
                      "again.")


@dataclass(frozen=True)
class NextMuster:
    """What the company's next muster starts from, once the muster waiting for its battle
    (if any) is released as ``muster`` releases it: the support results it takes (those not
    yet attached, and the waiting muster's) and the Regular hire fees owed (those still
    owing, and those the waiting muster paid)."""

    support: int
    bonus: int  # Rich Uncle points among that support
    owed: dict[int, int]  # pilot id -> hire fee owed, for living pilots who owe one
    levels: dict[int, str]  # pilot id -> level, for the same pilots

    def fees_due(self, provided: Mapping[str, int]) -> int:
        """The hire fees owed that a muster for a side providing ``provided`` pilots would
        charge (``fees_due``): those of the pilots the scenario does not provide."""
        return sum(fees_due([(self.levels[pid], fee) for pid, fee in self.owed.items()],
                            provided))


class Provided:
    """The pilots a scenario side provides, by level, not yet used (R3.3): a provided pilot
    costs nothing, so each waives the hire fee of one pilot of its level who owes one."""

    def __init__(self, provided: Mapping[str, int]) -> None:
        self.free = dict(provided)

    def due(self, level: str, fee: int) -> int:
        """What a pilot of ``level`` owing ``fee`` would pay, a waiver left unused."""
        return 0 if fee and self.free.get(level, 0) > 0 else fee

    def charge(self, level: str, fee: int) -> int:
        """What that pilot pays, using up the waiver that spares her fee."""
        due = self.due(level, fee)
        if fee and not due:
            self.free[level] -= 1
        return due


def fees_due(owing: Sequence[tuple[str, int]], provided: Mapping[str, int]) -> list[int]:
    """The hire fee a muster charges each pilot of ``owing`` ((level, fee owed), in the
    force's order) when the scenario side provides ``provided`` pilots by level: each
    provided pilot waives the fee of the first pilot of its level who owes one
    (``Provided``)."""
    waivers = Provided(provided)
    return [waivers.charge(level, fee) for level, fee in owing]


def next_muster(session: Session, company: Company) -> NextMuster:
    """What the company's next muster starts from (``NextMuster``)."""
    waiting = waiting_muster(session, company)
    rolls = [r for r in session.exec(select(SupportRoll).where(
        SupportRoll.company_id == company.id, col(SupportRoll.used).is_(False))).all()
        if r.muster_id is None or (waiting is not None and r.muster_id == waiting.id)]
    living = session.exec(select(Pilot).where(Pilot.company_id == company.id,
                                              Pilot.status != PilotStatus.DEAD)).all()
    owed = {p.id: p.hire_cost for p in living if p.id is not None}
    for entry in stored_force(session, waiting) if waiting is not None else []:
        if entry.get("paid") and entry["pilot"] in owed:
            owed[entry["pilot"]] += entry["paid"]
    owing = {pid: fee for pid, fee in owed.items() if fee}
    return NextMuster(len(rolls), sum(r.points for r in rolls), owing,
                      {p.id: p.level for p in living if p.id in owing})


def support_left(session: Session, company_name: str, scenario: Scenario, side: Side
                 ) -> tuple[int, int, str]:
    """The support rolls still to make for a scenario side: what it grants
    (``support_rolls_for``) less the results already waiting for the next muster (never
    below 0); how many of the waiting ones count against the grant; and why, in words. A
    campaign's step and ``meks support roll --scenario`` both roll that many."""
    granted, why = support_rolls_for(session, company_name, scenario, side)
    waiting = min(granted, next_muster(session, get_company(session, company_name)).support)
    if 0 < waiting < granted:
        why += f", less the {waiting} waiting already"
    return granted - waiting, waiting, why


def _release(session: Session, muster_row: Muster) -> None:
    """Undo what a waiting muster took: support rolls wait again, Regular hires owe again
    (and what the treasury paid for them goes back to it)."""
    back = 0
    for entry in stored_force(session, muster_row):
        pilot = session.get(Pilot, entry["pilot"])
        if pilot is not None and entry.get("paid"):
            pilot.hire_cost += entry["paid"]
            back += entry["paid"]
            session.add(pilot)
        mek = session.get(Mek, entry["mek"])
        if mek is not None and entry.get("owed"):  # parts, repairs, overhaul (R3.7, R3.8)
            mek.owed += entry["owed"]
            back += entry["owed"]
            session.add(mek)
    company = session.get(Company, muster_row.company_id)
    if company is not None:
        refund(session, company, back)
    for roll in session.exec(select(SupportRoll).where(
            SupportRoll.muster_id == muster_row.id)).all():
        roll.muster_id = None
        session.add(roll)
    session.delete(muster_row)
    session.flush()


def muster(session: Session, company_name: str, limits: Limits, mek_refs: Sequence[str]
           ) -> MusterView:
    """Check a force against the budget and limits (R3.3) and record it. Every problem is
    named at once; nothing is stored unless the force is legal. A muster still waiting for
    its battle is replaced by the new one."""
    company = company_to_change(session, company_name)
    if not mek_refs:
        raise Refused("Name at least one Mek to muster.")
    problems = []
    meks: list[Mek] = []
    for ref in mek_refs:
        mek = find_mek(session, company, ref)
        if any(m.id == mek.id for m in meks):
            problems.append(f"{mek.callsign} is named twice")
        else:
            meks.append(mek)
    with changing(session, company, "muster") as change:
        replaced = waiting_muster(session, company)
        if replaced is not None:
            _refuse_if_in_play(session, company, replaced)
            _release(session, replaced)
        force: list[ForceEntry] = []
        pilots: list[Pilot] = []
        for mek in meks:
            pilot = session.exec(select(Pilot).where(Pilot.mek_id == mek.id,
                                                     Pilot.status != PilotStatus.DEAD)).first()
            if pilot is None:
                problems.append(f"{mek.callsign} has no pilot (meks pilot assign)")
                continue
            pilots.append(pilot)
            assert mek.id is not None and pilot.id is not None
            entry: ForceEntry = {"mek": mek.id, "pilot": pilot.id, "paid": pilot.hire_cost}
            if mek.owed:
                entry["owed"] = mek.owed
            force.append(entry)
        pending = session.exec(select(SupportRoll).where(
            SupportRoll.company_id == company.id, col(SupportRoll.muster_id).is_(None),
            col(SupportRoll.used).is_(False))).all()
        if limits.scenario is not None:
            granted, why = support_granted_to(session, company, limits.rules.support_rolls,
                                          f"the {limits.side} in {limits.scenario}")
            excess = too_much_support(len(pending), granted, why)
            if excess is not None:
                problems.append(
                    f"{excess}; take back the extra support rolls "
                    f"with 'meks company undo {shell_arg(company.name)}', which undoes the "
                    "company's latest change first, so any change made after those rolls "
                    "is undone too")
        for entry, fee in zip(force, fees_due([(p.level, e["paid"]) for e, p in zip(
                force, pilots, strict=True)], limits.rules.pilots), strict=True):
            entry["paid"] = fee
        bonus = sum(s.points for s in pending)
        budget = limits.rules.budget + bonus
        prices = [_muster_price(m, limits.pricing) for m in meks]
        owed = {m.id: m.owed for m in meks if m.owed}  # parts, repairs, overhaul (R3.7)
        cost = sum(prices) + sum(e["paid"] for e in force) + sum(owed.values())
        if cost > budget:
            extra = f" ({limits.rules.budget} + {bonus} from Rich Uncle)" if bonus else ""
            items = [f"{m.callsign} {price}" for m, price in zip(meks, prices, strict=True)]
            items += [f"{p.name}'s hire fee {e['paid']}"
                      for e, p in zip(force, pilots, strict=True) if e["paid"]]
            items += [f"{m.callsign}'s parts and repairs {m.owed}" for m in meks if m.owed]
            problems.append(f"the force costs {cost} points ({', '.join(items)}) but the "
                            f"budget is {budget}{extra}")
        problems += limits.rules.size_problems([Size(m.size) for m in meks])
        # house rule treasury: hire fees and what the Meks owe are paid now
        pay = sum(e["paid"] for e in force) + sum(owed.values())
        left = points(session, company)
        if left is not None and pay > left:
            problems.append(f"the hire fees, parts and repairs it pays now cost {pay} points "
                            f"but the treasury holds {left}")
        if problems:
            raise Refused("The muster is refused [R3.3]: " + "; ".join(problems) + ".")
        max_size = limits.rules.max_size
        row = Muster(company_id=company_id(company), scenario=limits.scenario, side=limits.side,
                     budget=budget, max_size=max_size.value if max_size else None,
                     cost=cost,
                     definition=None if limits.definition is None
                     else json.dumps(limits.definition))
        session.add(row)
        session.flush()
        assert row.id is not None
        store_force(session, row.id, force)
        for roll in pending:
            roll.muster_id = row.id
            session.add(roll)
        left = charge(session, company, pay, "the muster")
        for pilot in pilots:
            pilot.hire_cost = 0
            session.add(pilot)
        for mek in meks:
            if mek.owed:
                mek.owed = 0
                session.add(mek)
        change.summary = (f"Mustered {', '.join(m.callsign for m in meks)} for "
                          f"{cost}/{budget} points" + (f" ({limits.scenario})"
                                                       if limits.scenario else "")
                          + (" in place of the muster waiting for its battle"
                             if replaced is not None else "") + "."
                          + (f" Paid {pay} from the treasury, {left} left." if left is not None
                             and pay else ""))
    shown: list[MusteredMek] = []
    for m, p, price, e in zip(meks, pilots, prices, force, strict=True):
        item: MusteredMek = {"mek": m.callsign, "design": m.design, "price": price,
                             "pilot": p.name, "level": p.level, "hire": e["paid"]}
        if e.get("owed"):
            item["owed"] = e["owed"]
        shown.append(item)
    view: MusterView = {"id": row.id, "cost": cost, "budget": budget,
                        "scenario": limits.scenario, "side": limits.side,
                        "replaced": replaced is not None, "force": shown,
                        "support": [s.result for s in pending]}
    if left is not None:
        view["paid"] = pay
        view["treasury"] = left
    return view
