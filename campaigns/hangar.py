"""Use-cases that change a company's hangar between games: buy, rename, list and sell Meks;
hire, assign, list and show pilots. Each takes an open session (one transaction) and plain
arguments, returns plain data, raises a ``MeksError`` a player can read, and records its
change as ``campaigns.company`` records every change of a company (``changing``).
"""

from __future__ import annotations

import json

from sqlmodel import Session, col, select

from campaigns.company import (
    changing,
    clean_name,
    company_id,
    company_to_change,
    event_concerns,
    event_view,
    find_mek,
    find_pilot,
    get_company,
    shell_arg,
    show_company,
    waiting_muster,
)
from campaigns.errors import Refused
from campaigns.files.stored import stored_force, stored_json
from campaigns.files.view_records import (
    BoughtMek,
    HiredPilot,
    ListedMek,
    MekExtras,
    MekView,
    PilotHistory,
    PilotView,
    RenamedMek,
    SoldMek,
)
from campaigns.in_play import play_using
from campaigns.parts import heat_loss, lost_parts, part_price
from campaigns.treasury import charge, mek_sale_price, pay_in
from db.models import Company, Event, Mek, MekStatus, Pilot, fold
from meks.game.catalog import Catalog, Design, Size, load_catalog
from meks.game.construction import Pricing, check_design
from meks.game.plain import plain
from meks.game.text import plural

# ---- Meks -----------------------------------------------------------------------------------

def _callsign_free(session: Session, company: Company, callsign: str,
                   except_id: int | None = None) -> None:
    other = session.exec(select(Mek).where(Mek.company_id == company.id,
                                           Mek.callsign_key == fold(callsign))).first()
    if other is not None and other.id != except_id:
        if other.status != "active":
            raise Refused(f"{other.callsign!r} is the callsign of a {other.status} Mek of "
                          f"{company.name}, kept in its record; choose another callsign.")
        raise Refused(f"{company.name} already has a Mek called {other.callsign!r}; "
                      "choose another callsign.")


def _next_callsign(session: Session, company: Company, base: str) -> str:
    taken = {m.callsign_key for m in session.exec(
        select(Mek).where(Mek.company_id == company.id)).all()}
    n = 1
    while fold(f"{base}-{n}") in taken:
        n += 1
    return f"{base}-{n}"


def buy_mek(session: Session, company_name: str, design: Design, *, custom: bool,
            callsign: str | None = None, pricing: Pricing = Pricing.PRINTED,
            catalog: Catalog | None = None) -> MekView | BoughtMek:
    """Add a Mek of ``design`` to the stable, at its purchase price (R1.7)."""
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    report = check_design(design, catalog)
    if not report.legal:
        said = [p.message.rstrip(".") for p in report.problems]
        # numbered when there are several: a problem's own words may hold a semicolon
        problems = said[0] if len(said) == 1 else " ".join(
            f"({i}) {text};" for i, text in enumerate(said, 1)).rstrip(";")
        raise Refused(f"{design.name} is not a legal design: {problems}. See 'meks design "
                      "check' for the full report.")
    callsign = clean_name(callsign, "callsign") if callsign is not None else \
        _next_callsign(session, company, report.design.name)
    _callsign_free(session, company, callsign)
    price = report.purchase_price(pricing)
    with changing(session, company, "mek buy") as change:
        left = charge(session, company, price, f"{callsign} ({report.design.name})")
        mek = Mek(company_id=company_id(company), callsign=callsign, callsign_key=fold(callsign),
                  design=report.design.name, size=design.size.value, price=price,
                  custom_design=json.dumps(plain(report.design)) if custom else None)
        session.add(mek)
        session.flush()
        change.summary = f"Bought {callsign} ({report.design.name}, {price} points)." + (
            f" Treasury: {plural(left, 'point')}." if left is not None else "")
    if left is None:
        return mek_view(mek)
    return {**mek_view(mek), "treasury": left}


def mek_view(mek: Mek) -> MekView:
    return {"id": mek.id, "callsign": mek.callsign, "design": mek.design, "size": mek.size,
            "price": mek.price, "kills": mek.kills, "status": mek.status, "damage": mek.damage,
            **mek_extras(mek)}


def mek_extras(mek: Mek) -> MekExtras:
    """What the campaign house rules keep on a Mek (R3.7, R3.8), when it is not nothing:
    the parts it lost, the points it owes at its next muster, its wear and the heat rating
    that took."""
    out: MekExtras = {}
    lost = stored_json(mek, "lost", list)
    if lost:
        out["lost"] = [p["part"] for p in lost]
    if mek.owed:
        out["owed"] = mek.owed
    if mek.wear:
        out["wear"] = mek.wear
        out["heat_loss"] = heat_loss(mek.wear, Size(mek.size))
    return out


def list_meks(session: Session, company_name: str, *, all_meks: bool = False
              ) -> list[ListedMek]:
    view = show_company(session, company_name)
    pilots: dict[int | None, str] = {p["mek_id"]: p["name"] for p in view["pilots"]
                                     if p["mek_id"] is not None and p["status"] != "dead"}
    return [{**m, "pilot": pilots.get(m["id"])} for m in view["meks"]
            if all_meks or m["status"] == "active"]


def rename_mek(session: Session, company_name: str, ref: str, new: str) -> RenamedMek:
    company = company_to_change(session, company_name)
    mek = find_mek(session, company, ref, active=False)
    new = clean_name(new, "callsign")
    if new == mek.callsign:
        return {**mek_view(mek), "changed": False}
    _callsign_free(session, company, new, except_id=mek.id)
    with changing(session, company, "mek rename") as change:
        change.summary = f"Renamed {mek.callsign} to {new}."
        mek.callsign, mek.callsign_key = new, fold(new)
        session.add(mek)
    return {**mek_view(mek), "changed": True}


def sell_mek(session: Session, company_name: str, ref: str) -> MekView | SoldMek:
    company = company_to_change(session, company_name)
    mek = find_mek(session, company, ref)
    waiting = waiting_muster(session, company)
    if waiting is not None and any(f["mek"] == mek.id for f in stored_force(session, waiting)):
        busy = play_using(session, waiting.id)
        if busy is not None:
            raise Refused(f"{mek.callsign} is in the force of play {busy}, a battle still "
                          "being fought at the terminal, and cannot be sold yet: finish it "
                          f"with 'meks battle resume {busy}' first.")
        raise Refused(f"{mek.callsign} is in the muster waiting for its battle and cannot be "
                      "sold yet: record that battle with 'meks battle record' first, or take "
                      "it out of the force by mustering again without it (or with 'meks "
                      f"company undo {shell_arg(company.name)}' if that muster is the "
                      "company's last change).")
    with changing(session, company, "mek sell") as change:
        # with a treasury, the sale pays into it (docs/rules.md, "selling a Mek")
        catalog = load_catalog()
        missing = sum(part_price(p, Size(mek.size), catalog) for p in lost_parts(mek))
        paid = mek_sale_price(mek.price, missing, mek.owed)
        worth = max(0, mek.price - missing)
        left = pay_in(session, company, paid)
        mek.status = MekStatus.SOLD
        session.add(mek)
        for pilot in session.exec(select(Pilot).where(Pilot.mek_id == mek.id)).all():
            pilot.mek_id = None
            session.add(pilot)
        change.summary = f"Sold {mek.callsign} ({mek.design})" + (
            f" for {paid} point{'s' * (paid != 1)}. Treasury: {plural(left, 'point')}."
            if left is not None else ".")
    view = mek_view(mek)
    if left is None:
        return view
    return {**view, "paid": paid, "worth": worth, "owed": mek.owed, "treasury": left}


# ---- pilots ---------------------------------------------------------------------------------

def hire_pilot(session: Session, company_name: str, name: str, *, regular: bool = False,
               catalog: Catalog | None = None) -> HiredPilot:
    """Hire a Green pilot for free, or a Regular one who costs 5 points at its first
    muster (R2.2, R3.3)."""
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    name = clean_name(name, "pilot name")
    other = session.exec(select(Pilot).where(Pilot.company_id == company.id,
                                             Pilot.name_key == fold(name))).first()
    if other is not None:
        raise Refused(f"{company.name} already has a pilot called {other.name!r}; "
                      "choose another name.")
    level = catalog.level("Regular" if regular else "Green")
    with changing(session, company, "pilot hire") as change:
        pilot = Pilot(company_id=company_id(company), name=name, name_key=fold(name),
                      level=level.level, hire_cost=level.hire_price)
        session.add(pilot)
        session.flush()
        cost = (f", {level.hire_price} points at the first muster the pilot flies in, unless "
                "its scenario provides one" if level.hire_price else "")
        change.summary = f"Hired {name} ({level.level}{cost})."
    return {**pilot_view(session, pilot), "summary": change.summary}


def pilot_view(session: Session, pilot: Pilot) -> PilotView:
    mek = session.get(Mek, pilot.mek_id) if pilot.mek_id is not None else None
    return {"id": pilot.id, "name": pilot.name, "level": pilot.level, "kills": pilot.kills,
            "scenarios": pilot.scenarios, "skills": stored_json(pilot, "skills", list),
            "mek": mek.callsign if mek else None, "mek_id": pilot.mek_id,
            "status": pilot.status, "hire_cost": pilot.hire_cost}


def assign_pilot(session: Session, company_name: str, pilot_ref: str, mek_ref: str
                 ) -> PilotView:
    """Put a pilot in a Mek's cockpit; a pilot flies one Mek and a Mek has one pilot."""
    company = company_to_change(session, company_name)
    pilot = find_pilot(session, company, pilot_ref)
    if pilot.status == "dead":
        raise Refused(f"{pilot.name} is dead and cannot be assigned.")
    mek = find_mek(session, company, mek_ref)
    with changing(session, company, "pilot assign") as change:
        for other in session.exec(select(Pilot).where(Pilot.mek_id == mek.id)).all():
            if other.id != pilot.id:
                other.mek_id = None
                session.add(other)
        pilot.mek_id = mek.id
        session.add(pilot)
        change.summary = f"{pilot.name} now pilots {mek.callsign}."
    return pilot_view(session, pilot)


def list_pilots(session: Session, company_name: str) -> list[PilotView]:
    company = get_company(session, company_name)
    pilots = session.exec(select(Pilot).where(Pilot.company_id == company.id)
                          .order_by(col(Pilot.id))).all()
    return [pilot_view(session, p) for p in pilots]


def show_pilot(session: Session, company_name: str, ref: str) -> PilotHistory:
    company = get_company(session, company_name)
    pilot = find_pilot(session, company, ref)
    events = session.exec(select(Event).where(Event.company_id == company.id)
                          .order_by(col(Event.id).desc())).all()
    return {**pilot_view(session, pilot),
            "history": [event_view(e) for e in events if event_concerns(e, pilot)]}
