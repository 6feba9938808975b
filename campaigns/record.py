"""A company's record: its battles one a line (``battle list``) and its campaign step by
step (``campaign show``), read from what the product stored.

Kills and losses of a battle fought by the engine come from its stored log: the enemy Meks
destroyed and the company's Meks destroyed (support units, decoys and infantry not counted).
A battle played on a real table was recorded by its result alone and shows none. The odds
before a battle are those its campaign step recorded (campaigns from before the record kept
them, and battles of no campaign, have none).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from sqlmodel import Session, col, select

from campaigns.company import NotFound, get_company, shell_arg
from campaigns.files.records import StepResult
from campaigns.files.report_records import (
    BattleListing,
    CampaignStory,
    ListedBattle,
    PilotProgress,
    RecordedStep,
)
from campaigns.files.stored import reading, stored_json, stored_results
from campaigns.treasury import PAY
from db.models import Battle as BattleRow
from db.models import BattleLog, Campaign, CampaignStatus, Company, Muster, Pilot
from meks.game.text import plural

LEVELS = ("Green", "Regular", "Veteran", "Elite")


@dataclass(frozen=True)
class Tally:
    """What a fought battle's log says of one side: the enemy Meks it destroyed, its own
    Meks destroyed, and the turns fought."""

    kills: int
    losses: int
    turns: int


def tally(log: BattleLog, seat: str) -> Tally:
    """The kills, losses and turns of ``seat`` (attacker or defender) in a stored log."""
    events = stored_json(log, "log", list)
    spec = stored_json(log, "spec", dict)
    with reading(log, "spec"):
        meks = {side[0].upper() + str(n): side
                for side in ("attacker", "defender")
                for n, unit in enumerate(spec["forces"][side]["units"], start=1)
                if unit.get("design") is not None}
    kills = losses = turns = 0
    with reading(log, "log"):
        for event in events:
            turns = max(turns, int(event["turn"]))
            if event["kind"] != "destroyed" or event.get("unit") not in meks:
                continue
            if meks[event["unit"]] == seat:
                losses += 1
            else:
                kills += 1
    return Tally(kills, losses, turns)


def _fought_log(session: Session, row: BattleRow) -> BattleLog | None:
    """The battle's full log, when it is the one the battle row records."""
    log = session.get(BattleLog, row.id)
    recorded = stored_json(row, "log")
    if log is None or not isinstance(recorded, dict) or recorded.get("digest") != log.digest:
        return None
    return log


def _seat(session: Session, row: BattleRow) -> str | None:
    muster = session.get(Muster, row.muster_id) if row.muster_id is not None else None
    if muster is not None and muster.side in ("attacker", "defender"):
        return muster.side
    sides = stored_json(row, "sides")
    if isinstance(sides, dict):
        if sides.get("side") in ("attacker", "defender"):
            return str(sides["side"])
        company = session.get(Company, row.company_id) if row.company_id is not None else None
        if company is not None:
            named = [s for s in ("attacker", "defender") if sides.get(s) == company.name]
            if len(named) == 1:
                return named[0]
    return None


class CampaignStep(StepResult):
    """A campaign's step, with the name of its campaign."""

    campaign: str


def _campaign_steps(session: Session, company: Company) -> dict[int, CampaignStep]:
    """Every campaign step of the company that settled a stored battle, by battle id."""
    steps: dict[int, CampaignStep] = {}
    for row in session.exec(select(Campaign).where(Campaign.company_id == company.id)
                            .order_by(col(Campaign.id))).all():
        for entry in stored_results(session, row):
            if isinstance(entry, dict) and isinstance(entry.get("battle_id"), int):
                steps[entry["battle_id"]] = cast(CampaignStep, {**entry, "campaign": row.name})
    return steps


def battle_list(session: Session, company_name: str) -> BattleListing:
    """The company's battles, oldest first: id, date, scenario, seat, result, turns, kills,
    losses and the odds of winning before the battle (None where not known)."""
    company = get_company(session, company_name)
    steps = _campaign_steps(session, company)
    battles: list[ListedBattle] = []
    for row in session.exec(select(BattleRow).where(BattleRow.company_id == company.id)
                            .order_by(col(BattleRow.id))).all():
        assert row.id is not None
        seat = _seat(session, row)
        log = _fought_log(session, row)
        counted = tally(log, seat) if log is not None and seat is not None else None
        step = steps.get(row.id)
        odds = step.get("odds") if step else None
        battles.append({
            "id": row.id, "date": row.created_at, "scenario": row.scenario, "seat": seat,
            "mode": str(row.mode), "result": row.result,
            "turns": counted.turns if counted else step.get("turns") if step else None,
            "kills": counted.kills if counted else None,
            "losses": counted.losses if counted else None,
            "odds_before": odds.get("win") if isinstance(odds, dict) else None,
            "campaign": step.get("campaign") if step else None})
    return {"company": company.name, "battles": battles}


def treasury_of(entry: StepResult) -> int | float | None:
    """The treasury a campaign step records after its battle (campaign house rule
    treasury), or None: a number, or a mapping holding it as 'after' or 'balance'."""
    value: object = entry.get("treasury")  # as stored, unchecked
    if isinstance(value, dict):
        value = next((value[k] for k in ("after", "balance", "points") if k in value), None)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def _levels_after(entries: list[StepResult], now: dict[str, str]) -> list[dict[str, str]]:
    """Each pilot's level after each step, counted back from the level it has now (``now``,
    by name) through the promotions the steps record."""
    after: list[dict[str, str]] = [{} for _ in entries]
    level = dict(now)
    for i in range(len(entries) - 1, -1, -1):
        for p in entries[i].get("pilots", []):
            name = str(p.get("pilot"))
            promoted = str(p.get("promoted") or "")
            before, sep, then = promoted.partition(" -> ")
            if sep and then.strip() in LEVELS:
                level.setdefault(name, then.strip())
            after[i][name] = level.get(name, "")
            if sep and before.strip() in LEVELS:
                level[name] = before.strip()
    return after


def _campaign_row(session: Session, company: Company) -> Campaign:
    row = session.exec(select(Campaign).where(Campaign.company_id == company.id,
                                              Campaign.status == CampaignStatus.ACTIVE)
                       .order_by(col(Campaign.id).desc())).first() or session.exec(
        select(Campaign).where(Campaign.company_id == company.id)
        .order_by(col(Campaign.id).desc())).first()
    if row is None:
        raise NotFound(f"{company.name} has no campaign; begin one with 'meks campaign start "
                       f"{shell_arg(company.name)}'.")
    return row


def _dead(pilot: Mapping[str, object]) -> bool:
    """Whether a step's post-battle entry says the pilot died (under either spelling)."""
    return bool(pilot.get("died") or pilot.get("dead"))


def campaign_record(session: Session, company_name: str) -> CampaignStory:
    """The company's campaign (the one under way, else the last) step by step: the battle,
    the odds before it against its result, kills and losses, salvage, the treasury after
    it (None unless recorded) and each pilot's progress (kills in the battle, kills in the
    campaign so far, level after it, promotion, new skill, Mek lost, death)."""
    company = get_company(session, company_name)
    row = _campaign_row(session, company)
    plan = stored_json(row, "plan", list)
    entries = cast(list[StepResult], [e for e in stored_results(session, row)
                                      if isinstance(e, dict)])
    now = {p.name: p.level for p in session.exec(
        select(Pilot).where(Pilot.company_id == company.id)).all()}
    levels = _levels_after(entries, now)
    totals: dict[str, int] = {}
    steps: list[RecordedStep] = []
    with reading(row, "results"):
        for i, entry in enumerate(entries):
            battle_id = entry.get("battle_id")
            battle = session.get(BattleRow, battle_id) if isinstance(battle_id, int) else None
            log = _fought_log(session, battle) if battle is not None else None
            counted = tally(log, str(entry["side"])) if log is not None else None
            pilots: list[PilotProgress] = []
            for p in entry.get("pilots", []):
                name = str(p["pilot"])
                totals[name] = totals.get(name, 0) + int(p.get("kills", 0))
                pilots.append({"pilot": name, "mek": p.get("mek"),
                               "kills": int(p.get("kills", 0)), "total_kills": totals[name],
                               "level": levels[i].get(name) or None,
                               "promoted": p.get("promoted"), "new_skill": p.get("new_skill"),
                               "mek_destroyed": bool(p.get("mek_destroyed")),
                               "dead": _dead(p)})
            odds = entry.get("odds")
            held = entry.get("held")
            before = steps[-1]["treasury"] if steps else PAY.start
            step: RecordedStep = {
                "step": i + 1, "scenario": entry["scenario"], "name": entry.get("name"),
                "side": entry["side"], "battle_id": battle_id,
                "odds_before": odds.copy() if isinstance(odds, dict) else None,
                "result": entry["result"], "reason": entry.get("reason"),
                "turns": entry.get("turns"),
                "kills": counted.kills if counted else sum(p["kills"] for p in pilots),
                "losses": counted.losses if counted else sum(p["mek_destroyed"]
                                                             for p in pilots),
                "salvage": list(entry.get("salvage", [])),
                "treasury": treasury_of(entry), "bought": list(entry.get("bought", [])),
                "pilots": pilots}
            if isinstance(held, int) and isinstance(before, int) and held != before:
                step["by_hand"] = held - before  # bought or sold between the steps
            steps.append(step)
    record = {r: sum(1 for s in steps if s["result"] == r) for r in ("win", "loss", "draw")}
    story: CampaignStory = {
        "company": company.name, "campaign": row.name, "id": row.id,
        "status": row.status, "difficulty": row.difficulty, "seed": row.seed,
        "position": row.position, "of": len(plan),
        "plan": [{"scenario": s.get("scenario"), "side": s.get("side")} for s in plan],
        "record": record, "steps": steps, "treasury": row.treasury}
    last = steps[-1]["treasury"] if steps else PAY.start
    if row.status == CampaignStatus.BROKE and isinstance(row.treasury, int) and \
            isinstance(last, int) and row.treasury != last:
        story["broke_by_hand"] = row.treasury - last
    if row.status == CampaignStatus.BROKE:
        if row.position < len(plan):
            story["broke_at"] = story["plan"][row.position]
        story["broke"] = broke_words(story)
    return story


def broke_words(data: CampaignStory) -> str:
    """Where and why a campaign that went broke ended (it records no step for that)."""
    step = data["position"] + 1
    plan = data["plan"][data["position"]] if data["position"] < len(data["plan"]) else None
    scenario = f" ({plan['scenario']})" if plan else ""
    treasury = data.get("treasury")
    held = f" and the {plural(treasury, 'point')} in its treasury" \
        if treasury is not None else ""
    by_hand = data.get("broke_by_hand")
    since = "" if by_hand is None else (
        f" (what was bought or sold by hand since the "
        f"{'last step' if data['steps'] else 'campaign began'} changed the treasury by "
        f"{by_hand:+d})")
    return (f"Broke before step {step}{scenario}: the company's Meks{held}{since} could not "
            "field a legal force, and the campaign ended there.")


__all__ = ["Tally", "battle_list", "broke_words", "campaign_record", "tally", "treasury_of"]
