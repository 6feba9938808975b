"""Campaigns: a company plays a series of scenarios, one after another, solo.

Each step of ``next_scenario`` is one transaction: the support rolls, the muster (buying
Meks and hiring pilots as needed), the battle against an enemy the tool musters, and the
post-battle sequence, each recorded as events. A step killed half-way leaves nothing, and
the next call plays the same scenario again with the same dice: a campaign's dice come from
its seed, one stream per scenario.

The plan a campaign plays (a plan file or a built-in one) is ``campaigns.plans``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlmodel import Session, col, select

from campaigns import treasury as treasury_rule
from campaigns.balance import ENEMY_LEVEL as ENEMY_LEVEL
from campaigns.balance import (
    ODDS_OFFSET,
    balance,
    enemy_force,
    enemy_support,
)
from campaigns.battles import (
    DEFAULT_CONTROLLER,
    Participant,
    both,
    controller,
    fight_sides,
    store,
)
from campaigns.campaign_muster import MusterMenu, auto_muster, auto_repair, muster_menu
from campaigns.campaign_step import Step, complete_step, odds_before
from campaigns.company import (
    NotFound,
    Refused,
    changing,
    company_to_change,
    get_company,
    shell_arg,
    support_roll,
    waiting_muster,
)
from campaigns.files.records import (
    BrokeStep,
    FoughtStep,
    HouseRulesRecord,
    OddsShown,
    OddsView,
    PlannedStep,
    StepResult,
)
from campaigns.files.stored import stored_json, stored_results
from campaigns.files.view_records import CampaignView, CompanyCampaign, SupportResult
from campaigns.forces import muster_force
from campaigns.in_play import play_using
from campaigns.musters import support_left
from campaigns.plans import (
    BUILT_IN_HOUSE_RULES,
    BUILT_IN_NAME,
    BUILT_IN_PLAN,
    PRINTED_NAME,
    PRINTED_PLAN,
    keeps_treasury,
    load_plan,
    step_scenario,
)
from campaigns.play import PlayState, load, start_sides
from campaigns.step_battle import active_campaign, derive_seed, standing_battle, step_seed
from campaigns.treasury import Broke, points
from db.models import (
    Campaign,
    CampaignStatus,
    Company,
    Event,
    Play,
    PlayStatus,
    SupportRoll,
)
from meks.engine.bot.choices import DIFFICULTIES, Difficulty
from meks.game.catalog import Catalog, load_catalog
from meks.game.dice import Dice
from meks.game.errors import UsageError
from meks.game.scenario import Scenario
from meks.game.text import plural
from meks.game.vocabulary import Side


def start_campaign(session: Session, company_name: str, *, plan: Path | None = None,
                   seed: int | None = None, difficulty: str | None = None,
                   printed: bool = False, treasury: bool | None = None) -> CampaignView:
    """Begin a campaign of the plan file ``plan``, or of the built-in plan (the printed one
    with ``printed``). ``treasury`` switches the house rule treasury on or off over the
    plan's own choice (None keeps it)."""
    if plan is not None and printed:  # bad usage, said before anything is looked up
        raise UsageError("Give either a plan file or --printed, not both.")
    company = company_to_change(session, company_name)
    if active_campaign(session, company) is not None:
        raise Refused(f"{company.name} is already on a campaign; finish it with 'meks "
                      f"campaign run {shell_arg(company.name)}' first.")
    if plan is not None:
        name, steps, plan_difficulty = load_plan(plan)
    else:
        name, built_in = (PRINTED_NAME, PRINTED_PLAN) if printed else \
            (BUILT_IN_NAME, BUILT_IN_PLAN)
        house: HouseRulesRecord = {} if printed else BUILT_IN_HOUSE_RULES
        steps = []
        for s, side in built_in:
            built: PlannedStep = {"scenario": s, "side": side}
            if house:
                built["house_rules"] = house.copy()
            steps.append(built)
        plan_difficulty = "normal"
    if treasury is not None:
        for step in steps:
            rules: HouseRulesRecord = {**(step.get("house_rules") or {})}
            rules.pop("treasury", None)
            if treasury:
                rules["treasury"] = True
            elif step_scenario({**step, "house_rules": {}}).house_rules.treasury:
                rules["treasury"] = False  # the scenario's own, switched off by the plan
            if rules:
                step["house_rules"] = rules
            else:
                step.pop("house_rules", None)
    level = difficulty or plan_difficulty
    if level not in DIFFICULTIES:
        raise Refused(f"Difficulty must be one of {', '.join(DIFFICULTIES)}.")
    seed = Dice.from_seed(seed).seed
    assert seed is not None
    start_points = treasury_rule.PAY.start if keeps_treasury(steps) else None
    with changing(session, company, "campaign start") as change:
        row = Campaign(company_id=company.id or 0, name=name, plan=json.dumps(steps),
                       seed=seed, difficulty=level, treasury=start_points)
        session.add(row)
        session.flush()
        count = f"{len(steps)} scenario{'s' * (len(steps) != 1)}"
        change.summary = f"Began the campaign '{name}' ({count}, {level})." + (
            f" Treasury: {plural(start_points, 'point')}." if start_points is not None else "")
    return campaign_view(session, row)


def campaign_view(session: Session, row: Campaign) -> CampaignView:
    plan = stored_json(row, "plan", list)
    results: list[StepResult] = stored_results(session, row)
    record = {r: sum(1 for x in results if x["result"] == r) for r in ("win", "loss", "draw")}
    broke = row.status == CampaignStatus.BROKE
    view: CampaignView = {
        "id": row.id, "name": row.name, "status": row.status, "seed": row.seed,
        "difficulty": row.difficulty, "position": row.position, "plan": plan,
        "next": plan[row.position] if row.position < len(plan) and not broke else None,
        "results": results, "record": record,
        "in_force": [step_scenario(step).house_rules.changed() for step in plan]}
    if row.treasury is not None:
        view["treasury"] = row.treasury
    if broke and row.position < len(plan):
        view["broke_at"] = plan[row.position]
    return view


def status(session: Session, company_name: str) -> CompanyCampaign:
    company = get_company(session, company_name)
    row = active_campaign(session, company) or session.exec(select(Campaign).where(
        Campaign.company_id == company.id).order_by(col(Campaign.id).desc())).first()
    if row is None:
        raise NotFound(f"{company.name} has no campaign; begin one with 'meks campaign start "
                       f"{shell_arg(company.name)}'.")
    # "campaign" as 'campaign show' and the battle records name it ("name" as before)
    return {"company": company.name, "campaign": row.name, **campaign_view(session, row)}


# ---- one scenario ---------------------------------------------------------------------------

@dataclass
class Prepared:
    """A campaign step made ready for its battle: support rolled and the force mustered."""

    row: Campaign
    company: Company
    scenario: Scenario
    side: Side
    dice: Dice
    sides: dict[Side, Participant]
    support: list[str]
    bought: list[str]
    odds: OddsView | None = None
    repairs: list[str] = field(default_factory=list)
    spent: int | None = None  # what the treasury paid getting ready (house rule treasury)
    held: int | None = None  # the treasury as the step began (house rule treasury)


def _active(session: Session, company: Company) -> Campaign:
    row = active_campaign(session, company)
    if row is None:
        begin = f"'meks campaign start {shell_arg(company.name)}'"
        last = session.exec(select(Campaign).where(Campaign.company_id == company.id)
                            .order_by(col(Campaign.id).desc())).first()
        if last is not None and last.status == CampaignStatus.BROKE:
            plan = stored_json(last, "plan", list)
            at = plan[last.position] if last.position < len(plan) else None
            where = f" ({at.get('scenario')})" if isinstance(at, dict) else ""
            raise Refused(f"{company.name}'s last campaign, '{last.name}', ended broke before "
                          f"step {last.position + 1}{where}; begin a new one with {begin}.")
        raise Refused(f"{company.name} has no campaign under way; begin one with {begin}.")
    return row


def prepare(session: Session, company: Company, row: Campaign, catalog: Catalog, *,
            runs: int | None = None, controller_name: str = DEFAULT_CONTROLLER,
            timings: dict[str, float] | None = None,
            choice: list[str] | None = None) -> Prepared:
    """Support rolls, the company's muster and the enemy's force for the next scenario. The
    enemy's muster is balanced (``campaigns.balance``) and the company's odds of the coming
    battle worked out: estimated where they can be (``runs`` None), or fought ``runs`` times
    by ``controller_name`` as well; with ``runs`` 0, the enemy musters its full budget and
    no odds are given. ``timings``, when given, receives the seconds the odds and the
    balancing took (``balance``)."""
    waiting = waiting_muster(session, company)
    busy = play_using(session, waiting.id) if waiting is not None else None
    if busy is not None:
        raise Refused(f"{company.name} has an unfinished battle at the terminal, play {busy}, "
                      f"that holds its mustered force; finish it with 'meks battle resume "
                      f"{busy}' before the campaign goes on.")
    before = points(session, company)
    scenario, side, dice, support, repairs = _before_muster(session, company, row, catalog)
    bought = auto_muster(session, company, scenario, side, catalog, choice)
    _, muster_row, force = muster_force(session, company.name, scenario.id, catalog)
    difficulty = Difficulty(row.difficulty)
    rolls = enemy_support(scenario, side.enemy, catalog, dice)
    started = time.perf_counter()
    if runs != 0:
        balanced = balance(scenario, side, force, difficulty, catalog, rolls,
                           seed=derive_seed(row.seed, ODDS_OFFSET + row.position),
                           runs=runs, controller_name=controller_name)
        enemy, odds = balanced.enemy, balanced.view()
    else:
        enemy, odds = enemy_force(scenario, side.enemy, difficulty, catalog, rolls=rolls), None
    if timings is not None:
        timings["balance"] = time.perf_counter() - started
    sides = {side: Participant(force, company, muster_row), side.enemy: Participant(enemy)}
    # the support the muster took: rolled now, or rolled before for it (``support_roll``)
    taken = [r.result for r in session.exec(select(SupportRoll).where(
        SupportRoll.muster_id == muster_row.id).order_by(col(SupportRoll.id))).all()]
    return Prepared(row, company, scenario, side, dice, sides,
                    taken if taken else [s["result"] for s in support], bought, odds, repairs,
                    None if before is None else before - (points(session, company) or 0),
                    before)


def _before_muster(session: Session, company: Company, row: Campaign, catalog: Catalog
                   ) -> tuple[Scenario, Side, Dice, list[SupportResult], list[str]]:
    """The campaign's next scenario and the company's side in it, the step's dice, and
    what comes before its muster: the support rolls it grants and lost parts put back."""
    step = stored_json(row, "plan", list)[row.position]
    scenario = step_scenario(step)
    side = Side(step["side"])
    dice = Dice.from_seed(step_seed(row, row.position))
    # support the player already rolled for the next muster counts towards the grant
    count, _, _ = support_left(session, company.name, scenario, side)
    support = support_roll(session, company.name, dice, count, catalog) if count else []
    repairs = auto_repair(session, company, catalog)
    return scenario, side, dice, support, repairs


def next_scenario(session: Session, company_name: str,
                  catalog: Catalog | None = None,
                  controller_name: str = DEFAULT_CONTROLLER, *,
                  runs: int | None = None,
                  timings: dict[str, float] | None = None,
                  choice: list[str] | None = None) -> FoughtStep | BrokeStep:
    """Play the campaign's next scenario, every step recorded; returns its summary, with the
    company's odds before the battle and what balancing did (``odds``; None with ``runs``
    0). Both sides are commanded by ``controller_name`` (the bot, at the campaign's
    difficulty, by default), and so are the battles the odds fight. ``timings``, when
    given, receives the seconds spent preparing the battle (support, musters, odds and
    balancing: ``prepare``), on the odds and balancing alone (``balance``) and fighting it
    (``fight``). ``choice``, when given, names the force to muster (``MusterMenu.choose``)
    in place of the tool's suggestion."""
    controller(controller_name)  # an unknown name is refused before anything changes
    check_runs(runs)
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    row = _active(session, company)
    if playing_step(session, row) is not None:
        raise Refused(f"{company.name}'s next battle is being played at the terminal; "
                      f"continue it with 'meks campaign next {shell_arg(company.name)} --play'.")
    started = time.perf_counter()
    ready = _prepare_or_broke(session, company, row, catalog, runs=runs,
                              controller_name=controller_name, timings=timings,
                              choice=choice)
    if isinstance(ready, dict):
        return ready
    prepared = time.perf_counter()
    fought = fight_sides(ready.scenario, ready.sides, ready.dice, catalog=catalog,
                         controllers=both(controller_name),
                         difficulty=Difficulty(row.difficulty))
    if timings is not None:
        timings["prepare"] = prepared - started
        timings["fight"] = time.perf_counter() - prepared
    battle_id = store(session, fought, ready.dice)
    return {**complete_step(session, _step_data(ready), fought, battle_id),
            "controllers": fought.spec["controllers"], "difficulty": row.difficulty,
            "odds": ready.odds}


def _refuse_if_step_fought(session: Session, company: Company, row: Campaign) -> None:
    """A step whose battle still stands is not fought again: its gains would count twice."""
    fought = standing_battle(session, company, row)
    if fought is None:
        return
    who = shell_arg(company.name)
    twice = "fighting it again would count that battle's kills and skills twice"
    undone_here = session.exec(select(Event.id).where(
        Event.company_id == company.id, Event.command == "campaign next",
        col(Event.undone).is_(True))).first() is not None
    if undone_here:
        raise Refused(f"{company.name} has fought this step's battle already (battle "
                      f"{fought}): only the step was undone, and {twice}. Undo the battle "
                      f"too ('meks company undo {who}', as many times as it takes), then go "
                      "on.")
    raise Refused(f"{company.name} came from a roster written after this step alone was "
                  f"undone, so it holds the step's battle already (battle {fought}) and {twice}."
                  " Undo the battle too in the company the roster came from, then export "
                  "and import it again.")


def _prepare_or_broke(session: Session, company: Company, row: Campaign, catalog: Catalog,
                      **how: Any) -> Prepared | BrokeStep:
    """``prepare``, or, when the company cannot field a legal force with what it owns and
    what its treasury can pay for (house rule treasury), the campaign ended as broke, with
    nothing of the preparation kept (``went_broke``)."""
    _refuse_if_step_fought(session, company, row)
    try:
        with session.begin_nested():
            return prepare(session, company, row, catalog, **how)
    except Broke as exc:
        return went_broke(session, company, row, exc.message)


def went_broke(session: Session, company: Company, row: Campaign, why: str) -> BrokeStep:
    """End the campaign as broke at its next scenario (recorded as an event); the result
    ``campaign next`` shows."""
    plan = stored_json(row, "plan", list)
    step = plan[row.position]
    scenario = step_scenario(step)
    with changing(session, company, "campaign next") as change:
        row.status = CampaignStatus.BROKE
        session.add(row)
        change.summary = (f"{company.name} went broke before {scenario.name}; the campaign "
                          "is over.")
    return {"company": company.name, "campaign": row.name, "position": row.position,
            "of": len(plan), "finished": True, "scenario": scenario.id,
            "name": scenario.name, "side": step["side"], "result": "broke", "reason": why,
            "treasury": row.treasury, "battle_id": None, "turns": 0, "support": [],
            "bought": [], "pilots": []}


def check_runs(runs: int | None) -> None:
    """The number of battles a campaign's odds fight: None (estimated where they can be),
    0 (no odds, no balancing) or more."""
    if runs is not None and runs < 0:
        raise Refused("The odds before a campaign battle need 0 or more runs (--runs 0 "
                      "skips the odds and the balancing).")


def _step_data(ready: Prepared) -> Step:
    assert ready.row.id is not None
    return Step(ready.row.id, ready.row.position, ready.side, ready.support, ready.bought,
                ready.repairs, odds_before(ready.odds), ready.spent, ready.held)


def playing_step(session: Session, row: Campaign) -> int | None:
    """The unfinished play of this campaign's next battle, if one is under way."""
    return session.exec(select(Play.id).where(
        Play.campaign_id == row.id, Play.campaign_step == row.position,
        Play.status == PlayStatus.ACTIVE).order_by(col(Play.id))).first()


def play_step(session: Session, company_name: str, opponent: str = DEFAULT_CONTROLLER,
              catalog: Catalog | None = None, *, runs: int | None = None,
              shown: OddsShown | None = None,
              choice: list[str] | None = None) -> tuple[PlayState, bool]:
    """The play of the campaign's next battle, the company commanded at the terminal: the
    one under way, or a new one after the support rolls, the muster and the balancing
    (``runs`` battles, ``opponent`` commanding both sides: the company's odds were the bot
    to command it). Returns the play's state and whether it is new; a new play's odds go
    into ``shown`` as ``shown["odds"]`` when ``shown`` is given."""
    check_runs(runs)
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    row = _active(session, company)
    waiting = playing_step(session, row)
    if waiting is not None:
        return load(session, waiting), False
    ready = _prepare_or_broke(session, company, row, catalog, runs=runs,
                              controller_name=opponent, choice=choice)
    if isinstance(ready, dict):
        raise WentBroke(ready)
    if shown is not None:
        shown["odds"] = ready.odds
    state = start_sides(session, ready.scenario, ready.side, ready.sides,
                        seed=step_seed(row, row.position, played=True), opponent=opponent,
                        campaign=_step_data(ready), difficulty=Difficulty(row.difficulty))
    return state, True


def next_muster_menu(session: Session, company_name: str,
                     catalog: Catalog | None = None) -> MusterMenu | None:
    """What the campaign's next muster will choose from, worked out as ``prepare`` works it
    out (support rolled, lost parts put back: the same dice, so the same results) and then
    undone, nothing kept; None when its battle is under way at the terminal already (its
    force is chosen) or the company is broke (``campaign next`` records it)."""
    catalog = catalog or load_catalog()
    company = company_to_change(session, company_name)
    row = _active(session, company)
    if playing_step(session, row) is not None:
        return None
    nested = session.begin_nested()
    try:
        scenario, side, *_ = _before_muster(session, company, row, catalog)
        return muster_menu(session, company, scenario, side, catalog)
    except Broke:
        return None
    finally:
        nested.rollback()


class WentBroke(Exception):
    """``play_step`` found the company broke: the campaign is over, ``result`` says how.
    The caller commits the transaction (the campaign's end is recorded) and shows it."""

    def __init__(self, result: BrokeStep) -> None:
        super().__init__(result["reason"])
        self.result = result
