"""A company as one document: everything about it but its event history.

The same document serves three purposes: ``meks roster export`` writes it (JSON carries it
as is), every event keeps it as the state before and after the change, and ``undo`` and
``meks roster import`` write it back. References between its parts use the ids it carries,
so a document restores exactly; an import maps them to fresh ids.
"""

from __future__ import annotations

import json

from sqlmodel import Session, col, delete, select

from campaigns.files.records import (
    BattleRecord,
    CampaignRecord,
    Document,
    ForceEntry,
    MekRecord,
    MusterRecord,
    PilotRecord,
    StepResult,
    StockRecord,
    SupportRecord,
)
from campaigns.files.stored import (
    store_force,
    store_results,
    stored_force,
    stored_json,
    stored_results,
)
from db.models import (
    Battle,
    BattleMode,
    Campaign,
    CampaignStatus,
    Company,
    Mek,
    MekStatus,
    Muster,
    Pilot,
    PilotStatus,
    StockPart,
    SupportRoll,
    fold,
)
from meks.game.errors import InputError

SCHEMA_NAME = "meks-roster"
SCHEMA_VERSION = 1

__all__ = [
    "SCHEMA_NAME",
    "SCHEMA_VERSION",
    "Document",
    "check_references",
    "clear",
    "restore",
    "snapshot",
    "stockpile",
    "write",
]


def _ident(ident: int | None) -> int:
    """A stored row's id (every row the document holds has been flushed, so has one)."""
    assert ident is not None
    return ident


def snapshot(session: Session, company: Company) -> Document:
    """The full state of ``company`` as a plain document."""
    cid = company.id
    meks = session.exec(select(Mek).where(Mek.company_id == cid).order_by(col(Mek.id))).all()
    pilots = session.exec(select(Pilot).where(Pilot.company_id == cid)
                          .order_by(col(Pilot.id))).all()
    support = session.exec(select(SupportRoll).where(SupportRoll.company_id == cid)
                           .order_by(col(SupportRoll.id))).all()
    musters = session.exec(select(Muster).where(Muster.company_id == cid)
                           .order_by(col(Muster.id))).all()
    battles = session.exec(select(Battle).where(Battle.company_id == cid)
                           .order_by(col(Battle.id))).all()
    campaigns = session.exec(select(Campaign).where(Campaign.company_id == cid)
                             .order_by(col(Campaign.id))).all()
    doc: Document = {
        "schema": SCHEMA_NAME,
        "version": SCHEMA_VERSION,
        "company": {"id": _ident(cid), "name": company.name, "created_at": company.created_at},
        "meks": [_mek(m) for m in meks],
        "pilots": [_pilot(p) for p in pilots],
        "support": [_support(s) for s in support],
        "musters": [_muster(session, m) for m in musters],
        "battles": [_battle(b) for b in battles],
        "campaigns": [_campaign(session, c) for c in campaigns],
    }
    stock = stockpile(session, cid)
    if stock:  # left out when empty, as in every document written before stockpiles
        doc["stockpile"] = stock
    return doc


def _mek(m: Mek) -> MekRecord:
    """A Mek in the document. What the campaign house rules of R3.6 to R3.8 keep on it
    (lost parts, points owed, wear) appears only when it is not nothing, so that documents
    written before those rules read and compare as they did."""
    item: MekRecord = {
        "id": _ident(m.id), "callsign": m.callsign, "design": m.design, "size": m.size,
        "price": m.price, "kills": m.kills, "status": str(m.status), "damage": m.damage,
        "custom_design": stored_json(m, "custom_design") if m.custom_design else None}
    lost = stored_json(m, "lost", list)
    if lost:
        item["lost"] = lost
    if m.owed:
        item["owed"] = m.owed
    if m.wear:
        item["wear"] = m.wear
    return item


def _pilot(p: Pilot) -> PilotRecord:
    """A pilot in the document."""
    return {"id": _ident(p.id), "name": p.name, "level": p.level, "kills": p.kills,
            "scenarios": p.scenarios, "skills": stored_json(p, "skills", list),
            "status": str(p.status), "mek": p.mek_id, "hire_cost": p.hire_cost}


def _support(s: SupportRoll) -> SupportRecord:
    """A support roll in the document."""
    return {"id": _ident(s.id), "table_die": s.table_die, "entry_die": s.entry_die,
            "result": s.result, "points": s.points, "used": s.used, "muster": s.muster_id}


def _battle(b: Battle) -> BattleRecord:
    """A battle in the document."""
    return {"id": _ident(b.id), "muster": b.muster_id, "scenario": b.scenario, "mode": str(b.mode),
            "sides": stored_json(b, "sides"), "seed": b.seed, "result": b.result,
            "log": stored_json(b, "log"), "created_at": b.created_at}


def _campaign(session: Session, c: Campaign) -> CampaignRecord:
    """A campaign in the document. Its treasury (house rule treasury) appears only when it
    keeps one, so that documents written before campaigns kept theirs read and compare as
    they did."""
    item: CampaignRecord = {
        "id": _ident(c.id), "name": c.name, "plan": stored_json(c, "plan", list),
        "position": c.position, "seed": c.seed, "difficulty": c.difficulty,
        "status": str(c.status), "results": stored_results(session, c),
        "created_at": c.created_at}
    if c.treasury is not None:
        item["treasury"] = c.treasury
    return item


def _muster(session: Session, m: Muster) -> MusterRecord:
    """A muster in the document. The scenario it was made for (``definition``) appears only
    when the muster keeps one, so that documents written before musters kept theirs read
    and compare as they did."""
    item: MusterRecord = {
        "id": _ident(m.id), "scenario": m.scenario, "side": m.side, "budget": m.budget,
        "max_size": m.max_size, "cost": m.cost, "force": stored_force(session, m),
        "battle": m.battle_id, "created_at": m.created_at}
    if m.definition is not None:
        item["definition"] = stored_json(m, "definition", dict)
    return item


def stockpile(session: Session, company_id: int | None) -> list[StockRecord]:
    """The company's stockpile (R3.6): each part it holds, weapons first, by name."""
    rows = session.exec(select(StockPart).where(StockPart.company_id == company_id)).all()
    return [{"kind": r.kind, "part": r.part, "count": r.count}
            for r in sorted(rows, key=lambda r: (r.kind != "weapon", r.part))]


def clear(session: Session, company_id: int, *, keep_linked: bool = False) -> None:
    """Remove everything the company owns (not the company row, not its events); with
    ``keep_linked``, not the rows others are linked to: its campaigns (which their plays go
    with), its musters (which let go of the plays holding them) and its battles (which
    their full logs go with, and plays let go of)."""
    kept = (Campaign, Muster, Battle) if keep_linked else ()
    for table in (Campaign, Battle, SupportRoll, Pilot, Muster, Mek, StockPart):
        if table not in kept:
            session.exec(delete(table).where(col(table.company_id) == company_id))
    session.flush()


def write(session: Session, company: Company, doc: Document, keep_ids: bool) -> None:
    """Write the parts of ``doc`` under ``company``; with ``keep_ids`` the document's own
    ids are used (undo), otherwise fresh ones (import)."""
    assert company.id is not None
    ids: dict[str, dict[int, int]] = {"mek": {}, "pilot": {}, "muster": {}, "battle": {}}

    def add(kind: str, row: Mek | Pilot | Battle | Muster, old: int) -> None:
        if keep_ids:
            row.id = old
        session.add(row)
        session.flush()
        ids[kind][old] = _ident(row.id)

    def put(kind: str, row: Battle | Muster, held: Battle | Muster | None, old: int,
            columns: tuple[str, ...]) -> None:
        """Add ``row``, or (``held``: the row it had, kept with ``keep_ids``) write it back
        into that row."""
        if held is None:
            add(kind, row, old)
            return
        _copy(row, held, columns)
        session.add(held)
        ids[kind][old] = old

    keys: dict[tuple[str, int], str] = {}
    named = {"mek": [(m["id"], m["callsign"]) for m in doc["meks"]],
             "pilot": [(p["id"], p["name"]) for p in doc["pilots"]]}
    for kind, items in named.items():
        # Two names that fold alike can only come from a database written before names
        # were normalised. As migration 7 did, the one whose key that changed (or the
        # later one) gets a key no typed name folds to.
        taken: set[str] = set()
        for ident, name in sorted(items, key=lambda i: (
                " ".join(i[1].split()).casefold() != fold(i[1]), i[0])):
            folded = fold(name)
            if folded in taken:
                folded = f"{folded}\u200b{ident}"
            taken.add(folded)
            keys[kind, ident] = folded

    for m in doc["meks"]:
        add("mek", Mek(company_id=company.id, callsign=m["callsign"],
                       callsign_key=keys["mek", m["id"]], design=m["design"],
                       size=m["size"],
                       price=m["price"], kills=m["kills"], status=MekStatus(m["status"]),
                       damage=m.get("damage", 0), lost=json.dumps(m.get("lost", [])),
                       owed=m.get("owed", 0), wear=m.get("wear", 0),
                       custom_design=json.dumps(m["custom_design"])
                       if m.get("custom_design") else None), m["id"])
    for p in doc["pilots"]:
        add("pilot", Pilot(company_id=company.id, name=p["name"],
                           name_key=keys["pilot", p["id"]],
                           level=p["level"], kills=p["kills"], scenarios=p["scenarios"],
                           skills=json.dumps(p["skills"]), status=PilotStatus(p["status"]),
                           mek_id=ids["mek"].get(p["mek"]) if p["mek"] is not None else None,
                           hire_cost=p.get("hire_cost", 0)), p["id"])
    # With ``keep_ids`` a battle the company still has is written back into its own row,
    # never deleted and made again: its full log goes with the row (``BattleLog``), and so
    # does the link of the play that stored it. A battle the document does not hold (an
    # undone record) is deleted, and its log with it.
    battles = {row.id: row for row in session.exec(
        select(Battle).where(Battle.company_id == company.id))} if keep_ids else {}
    for b in doc["battles"]:
        battle = Battle(company_id=company.id, muster_id=None, scenario=b["scenario"],
                        mode=BattleMode(b["mode"]), sides=json.dumps(b["sides"]), seed=b["seed"],
                        result=b["result"], log=json.dumps(b["log"]),
                        created_at=b["created_at"])
        put("battle", battle, battles.pop(b["id"], None), b["id"], _BATTLE_COLUMNS)
    for gone_battle in battles.values():
        session.delete(gone_battle)
    # With ``keep_ids`` a muster the company still has is written back into its own row,
    # never deleted and made again: an unfinished play holds it (``Play.*_muster_id``, let
    # go when the muster is deleted), and must go on holding it when an undo changes
    # something else.
    musters = {row.id: row for row in session.exec(
        select(Muster).where(Muster.company_id == company.id))} if keep_ids else {}
    for mu in doc["musters"]:
        force: list[ForceEntry] = [
            {**f, "mek": ids["mek"][f["mek"]], "pilot": ids["pilot"][f["pilot"]]}
            for f in mu["force"]]
        values = Muster(
            company_id=company.id, scenario=mu["scenario"], side=mu["side"],
            budget=mu["budget"], max_size=mu["max_size"], cost=mu["cost"],
            battle_id=ids["battle"].get(mu["battle"]) if mu["battle"] is not None else None,
            created_at=mu["created_at"],
            definition=json.dumps(mu["definition"]) if "definition" in mu else None)
        put("muster", values, musters.pop(mu["id"], None), mu["id"], _MUSTER_COLUMNS)
        session.flush()
        store_force(session, ids["muster"][mu["id"]], force)
    for dropped in musters.values():
        session.delete(dropped)
    session.flush()
    for b in doc["battles"]:
        row = session.get(Battle, ids["battle"][b["id"]])
        assert row is not None
        row.muster_id = ids["muster"][b["muster"]] if b["muster"] is not None else None
        session.add(row)
    # With ``keep_ids`` a campaign the company still has is written back into its own row,
    # never deleted and made again: a play of the campaign (``Play.campaign_id``) goes with
    # its campaign, and must stay when an undo changes something else.
    kept = {row.id: row for row in session.exec(
        select(Campaign).where(Campaign.company_id == company.id))} if keep_ids else {}
    for c in doc.get("campaigns", []):
        results = c["results"] if keep_ids else [_renumbered(r, ids["battle"])
                                                 for r in c["results"]]
        written = Campaign(
            id=c["id"] if keep_ids else None, company_id=company.id, name=c["name"],
            plan=json.dumps(c["plan"]), position=c["position"], seed=c["seed"],
            difficulty=c["difficulty"], status=CampaignStatus(c["status"]),
            created_at=c["created_at"], treasury=c.get("treasury"))
        campaign = kept.pop(c["id"], None)
        if campaign is None:
            campaign = written
        else:
            _copy(written, campaign, _CAMPAIGN_COLUMNS)
        session.add(campaign)
        session.flush()
        store_results(session, campaign, results)
    for gone in kept.values():
        session.delete(gone)
    for s in doc["support"]:
        session.add(SupportRoll(
            id=s["id"] if keep_ids else None, company_id=company.id,
            muster_id=ids["muster"].get(s["muster"]) if s["muster"] is not None else None,
            table_die=s["table_die"], entry_die=s["entry_die"], result=s["result"],
            points=s["points"], used=s["used"]))
    for part in doc.get("stockpile", []):
        session.add(StockPart(company_id=company.id, kind=part["kind"], part=part["part"],
                              count=part["count"]))
    session.flush()


# The columns a document sets on a muster or campaign row it writes back into (``write``);
# a muster's force and a campaign's results go through their rows (``store_force``,
# ``store_results``).
_BATTLE_COLUMNS = ("scenario", "mode", "sides", "seed", "result", "log", "created_at")
_MUSTER_COLUMNS = ("scenario", "side", "budget", "max_size", "cost", "force", "battle_id",
                   "created_at", "definition")
_CAMPAIGN_COLUMNS = ("name", "plan", "position", "seed", "difficulty", "status",
                     "created_at", "treasury")


def _copy(source: object, target: object, columns: tuple[str, ...]) -> None:
    """Set ``columns`` of the row ``target`` to those of the unsaved row ``source``."""
    for name in columns:
        setattr(target, name, getattr(source, name))


def _renumbered(result: StepResult, battles: dict[int, int]) -> StepResult:
    """A campaign result pointing at its battle's new id."""
    battle = result.get("battle_id")
    if battle is None:
        return result
    return {**result, "battle_id": battles[battle]}


def restore(session: Session, company: Company, doc: Document) -> None:
    """Put ``company`` back exactly as ``doc`` describes it."""
    assert company.id is not None
    clear(session, company.id, keep_linked=True)
    write(session, company, doc, keep_ids=True)


def check_references(doc: Document, source: str) -> None:
    """Refuse a document whose parts point at things it does not hold."""
    problems = []
    for part in ("meks", "pilots", "support", "musters", "battles"):
        part_ids = [item["id"] for item in doc[part]]
        for dup in sorted({i for i in part_ids if part_ids.count(i) > 1}):
            problems.append(f"{part}: id {dup} is used more than once")
    meks = {m["id"] for m in doc["meks"]}
    pilots = {p["id"] for p in doc["pilots"]}
    musters = {m["id"] for m in doc["musters"]}
    battles = {b["id"] for b in doc["battles"]}
    for p in doc["pilots"]:
        if p["mek"] is not None and p["mek"] not in meks:
            problems.append(f"pilot {p['name']!r} flies Mek id {p['mek']}, which is not listed")
    for m in doc["musters"]:
        for f in m["force"]:
            if f["mek"] not in meks or f["pilot"] not in pilots:
                problems.append(f"muster {m['id']} names a Mek or pilot that is not listed")
        if m["battle"] is not None and m["battle"] not in battles:
            problems.append(f"muster {m['id']} names battle {m['battle']}, which is not listed")
    for b in doc["battles"]:
        if b["muster"] is not None and b["muster"] not in musters:
            problems.append(f"battle {b['id']} names muster {b['muster']}, which is not listed")
    for s in doc["support"]:
        if s["muster"] is not None and s["muster"] not in musters:
            problems.append(f"support roll {s['id']} names muster {s['muster']}, not listed")
    for c in doc.get("campaigns", []):
        for r in c["results"]:
            if r.get("battle_id") is not None and r["battle_id"] not in battles:
                problems.append(f"campaign {c['name']!r} has a result naming battle "
                                f"{r['battle_id']}, which is not listed")
    for kind, names in (("Mek callsign", [m["callsign"] for m in doc["meks"]]),
                        ("pilot name", [p["name"] for p in doc["pilots"]])):
        seen: set[str] = set()
        for name in names:
            folded = fold(name)
            if folded in seen:
                problems.append(f"{kind} {name!r} appears twice")
            seen.add(folded)
    if problems:
        raise InputError(source, problems)
