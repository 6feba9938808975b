"""Battles fought by the engine: set them up from companies or force files, fight them,
store them with their full log, run the post-battle sequence for each company, show and
replay them."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import Session, select

from campaigns.company import (
    NotFound,
    Refused,
    changing,
    is_id,
    lock_all,
    shaped_as_file,
    support_grant,
    too_much_support,
)

# (re-exported: callers import these from here too)
from campaigns.fighters import CONTROLLERS as CONTROLLERS
from campaigns.fighters import DEFAULT_CONTROLLER as DEFAULT_CONTROLLER
from campaigns.fighters import both as both
from campaigns.fighters import controller as controller
from campaigns.fighters import force_from_data as force_from_data
from campaigns.fighters import force_to_data as force_to_data
from campaigns.files.battle_records import (
    BailedOut,
    BattleReport,
    BattleSpec,
    BattleSummary,
    Replayed,
    SummaryExtras,
    UnitSummary,
)
from campaigns.files.records import PilotOutcome
from campaigns.files.scenario_model import scenario_data, stored_scenario
from campaigns.files.scenarios import get_scenario
from campaigns.files.stored import reading, stored_force, stored_json
from campaigns.forces import load_force_file, muster_force
from campaigns.in_play import play_using
from campaigns.parts import SYSTEM, WEAPON, Part, salvages, wreck_parts
from campaigns.postbattle import Aftermath, aftermath
from db.models import Battle as BattleRow
from db.models import BattleLog, BattleMode, Company, Muster
from meks.engine import REVISION, as_fought_under
from meks.engine.bot.choices import Difficulty
from meks.engine.controllers import Baseline, Controller
from meks.engine.core import Battle
from meks.engine.decisions import Retreat
from meks.engine.log import Event, digest, render
from meks.engine.recorded import Recorded
from meks.engine.units import ForceSpec, Unit
from meks.game.catalog import Catalog, load_catalog
from meks.game.construction import check_design
from meks.game.dice import Dice
from meks.game.errors import MeksError
from meks.game.scenario import Scenario
from meks.game.vocabulary import Side, SkillChoice


@dataclass
class Participant:
    """One side of a battle: its force, and the company and muster it came from."""

    force: ForceSpec
    company: Company | None = None
    muster: Muster | None = None
    named: bool = False  # its units' names carry its side's initial (``distinct_names``)


@dataclass
class Fought:
    battle: Battle
    scenario: Scenario
    spec: BattleSpec
    digest: str
    sides: dict[Side, Participant] = field(default_factory=dict)
    reports: dict[Side, list[PilotOutcome]] = field(default_factory=dict)
    # What each company's post-battle sequence did besides its pilots' report: the parts it
    # salvaged (R3.6), by name.
    salvage: dict[Side, list[str]] = field(default_factory=dict)


def is_force_file(ref: str) -> bool:
    """Whether a side given as ``ref`` names a force file rather than a company: a name
    ending .yaml or .yml, a regular file there, or a path (one beginning /, ./, ../ or ~/,
    or one with a folder in it that leads to something): a folder or a device given as a
    side is then refused as the file it is, not looked up as a company."""
    import os

    from campaigns.files.reading import is_file

    if shaped_as_file(ref) or is_file(ref):
        return True
    try:
        return os.sep in ref and os.path.lexists(ref)
    except (OSError, ValueError):
        return False


def priced(force: ForceSpec, scenario: Scenario, catalog: Catalog) -> ForceSpec:
    """A force file's Meks at the prices the scenario buys them at: printed, or computed from
    their parts under the house rule ``pricing: computed`` (R1.7), as a company's muster
    would pay."""
    units = tuple(dataclasses.replace(u, points=check_design(u.design, catalog).purchase_price(
        scenario.house_rules.pricing)) if u.design is not None else u for u in force.units)
    return dataclasses.replace(force, units=units)


def participant(session: Session | None, ref: str, side: Side, scenario: Scenario,
                catalog: Catalog) -> Participant:
    if is_force_file(ref):
        force = priced(load_force_file(Path(ref), catalog), scenario, catalog)
        rules = scenario.side(side)
        problems = rules.size_problems([u.design.size for u in force.units if u.design])
        cost = sum(u.points for u in force.units)
        if cost > rules.budget:
            problems.append(f"it costs {cost} points and the budget is {rules.budget}")
        # R4.1, R4.2: the support rolls a company's muster for this side may take
        heroes = [u.pilot.name for u in force.units
                  if u.pilot is not None and "Log Hero" in u.pilot.skills]
        excess = too_much_support(len(force.support), *support_grant(
            rules.support_rolls, f"the {side.value} in {scenario.id}", heroes))
        if excess is not None:
            problems.append(f"{excess}; list no more than that under 'support' in the file")
        if problems:
            raise Refused(f"The force in {ref} cannot fight as the {side.value} in "
                          f"{scenario.name}: " + "; ".join(problems) + ".")
        return Participant(force)
    if session is None:
        raise Refused(f"{ref!r} is not a force file.")
    company, muster, force = muster_force(session, ref, scenario.id, catalog)
    playing = play_using(session, muster.id)
    if playing is not None:
        raise Refused(f"{company.name}'s force for {scenario.id} is in play {playing}, "
                      f"still unfinished; continue it with 'meks battle resume {playing}'.")
    if muster.side is not None and muster.side != side.value:
        raise Refused(f"{company.name} mustered as the {muster.side} for {scenario.id}, not "
                      f"the {side.value}; muster again with --side {side.value}.")
    return Participant(force, company, muster)


def fight(session: Session | None, scenario_ref: str, attacker: str, defender: str,
          dice: Dice, *, controllers: dict[Side, str] | None = None,
          catalog: Catalog | None = None) -> Fought:
    """Fight a battle between companies (their musters) or force files, each side commanded
    by the controller ``controllers`` names (the bot by default). Nothing is stored here;
    ``store`` does that."""
    catalog = catalog or load_catalog()
    scenario = get_scenario(scenario_ref)
    if session is not None:  # the battle is stored in the companies that fight it
        lock_companies(session, attacker, defender)
    sides = {Side.ATTACKER: participant(session, attacker, Side.ATTACKER, scenario, catalog),
             Side.DEFENDER: participant(session, defender, Side.DEFENDER, scenario, catalog)}
    return fight_sides(scenario, sides, dice, controllers=controllers, catalog=catalog)


def lock_companies(session: Session, *refs: str) -> None:
    """Lock the companies among ``refs`` (the others are force files) before their musters
    are read, for a battle that will be stored in them (``campaigns.company.lock_all``)."""
    lock_all(session, [ref for ref in refs if not is_force_file(ref)])


def fight_sides(scenario: Scenario, sides: dict[Side, Participant], dice: Dice, *,
                controllers: dict[Side, str] | None = None,
                catalog: Catalog | None = None,
                difficulty: Difficulty | None = None) -> Fought:
    """Fight a battle between two prepared sides, each commanded by the controller
    ``controllers`` names (the bot by default; at ``difficulty``, a campaign's, when given:
    the spec keeps it, so that a replay commands the battle the same way)."""
    catalog = catalog or load_catalog()
    names = controllers or both()
    a, d = sides[Side.ATTACKER].company, sides[Side.DEFENDER].company
    if a is not None and d is not None and a.id == d.id:
        raise Refused("A company cannot fight itself; give the other side a force file or "
                      "another company.")
    distinct_names(sides)
    skip = len(dice.log)  # dice already rolled before the battle (support rolls)
    # every answer kept, so that the battle replays as fought whatever the bot or the
    # baseline would answer later
    recorders = {s: Recorded(controller(names[s], difficulty)) for s in Side}
    battle = Battle(scenario, {s: p.force for s, p in sides.items()}, dice,
                    dict[Side, Controller](recorders), catalog)
    battle.run()
    spec: BattleSpec = {
        "engine": REVISION,
        "scenario": scenario_data(scenario),
        "forces": {s.value: force_to_data(p.force) for s, p in sides.items()},
        "controllers": {s.value: names[s] for s in Side},
        "dice": {"seed": dice.seed, "skip": skip} if dice.seed is not None
        else {"values": [r.value for r in dice.log[skip:]]},
        "decisions": {s.value: r.decisions for s, r in recorders.items()},
    }
    if difficulty is not None:
        spec["difficulty"] = difficulty.value
    return Fought(battle, scenario, spec, digest(battle.log), sides)


def distinct_names(sides: dict[Side, Participant]) -> None:
    """Every unit gets its side's initial ("VIPER-1 (A)"), so that the report can tell two
    units of one name apart. Every unit, not only those whose name the enemy shares: a
    side's own names must not change with what the enemy fields, or a player would read
    in them a Mek that is hidden or not yet on the map (R8.1). A side named once is not
    named again; a name that ends like a tag gets its own ("Anvil (A) (A)" beside
    "Anvil (A)"), so that no two units of a side share one."""
    for side, part in sides.items():
        if part.named:
            continue
        tag = f" ({side.value[0].upper()})"
        part.force = dataclasses.replace(part.force, units=tuple(
            dataclasses.replace(u, name=u.name + tag) for u in part.force.units))
        part.named = True


def store(session: Session, fought: Fought, dice: Dice, *, auto_skills: bool = True,
          mode: BattleMode = BattleMode.AUTO, asked: Side | None = None,
          choices: Mapping[int, str] | None = None) -> int | None:
    """Store a fought battle for each company in it, with its log, and run each company's
    post-battle sequence (its report lands in ``fought.reports``). Returns the battle's id
    (the attacker company's, if both).

    A new skill a pilot earns is the bot's pick (``auto_skills``), except on the side
    ``asked`` (the side a player commanded), whose pilots take the skill ``choices`` names
    (by pilot id); a pilot there with no choice raises ``ChoicesNeeded`` and nothing is
    stored."""
    battle = fought.battle
    result = battle.result()
    first_id: int | None = None
    events = json.dumps([e.as_dict() for e in battle.log])
    for side, part in fought.sides.items():
        if part.company is None or part.muster is None:
            continue
        outcome = "draw" if result.winner is None else (
            "win" if result.winner is side else "loss")
        with changing(session, part.company, "battle") as change:
            row = BattleRow(company_id=part.company.id, muster_id=part.muster.id,
                            scenario=fought.scenario.id, mode=mode, result=outcome,
                            seed=dice.seed, sides=json.dumps(_sides(fought, result.winner)),
                            log=json.dumps({"digest": fought.digest,
                                            "events": len(battle.log)}))
            session.add(row)
            session.flush()
            assert row.id is not None
            _store_log(session, row.id, fought, events)
            what = _aftermath(session, part, battle, side, outcome)
            if salvages(fought.scenario.house_rules.salvage, outcome):
                what = dataclasses.replace(what, salvage=salvage(battle, side.enemy))
                fought.salvage[side] = [p.name for p in sorted(what.salvage)]
            fought.reports[side] = aftermath(
                session, part.muster, row, what, dice,
                change, auto=auto_skills and side is not asked, choices=choices,
                random_skills=fought.scenario.house_rules.skill_choice is SkillChoice.RANDOM,
                house=fought.scenario.house_rules)
        first_id = first_id or row.id
    return first_id


def _store_log(session: Session, battle_id: int, fought: Fought, events: str) -> None:
    old = session.get(BattleLog, battle_id)
    if old is not None:  # a log left by a battle that an undo removed
        session.delete(old)
        session.flush()
    session.add(BattleLog(battle_id=battle_id, digest=fought.digest,
                          events=len(fought.battle.log), spec=json.dumps(fought.spec),
                          log=events))


def _sides(fought: Fought, winner: Side | None) -> dict[str, str]:
    # the winner, then each side's name in the order ``fought.sides`` holds them
    return {"winner": winner.value if winner else "draw",
            **{s.value: (p.company.name if p.company else p.force.name)
               for s, p in fought.sides.items()}}


def _aftermath(session: Session, part: Participant, battle: Battle, side: Side,
               outcome: str) -> Aftermath:
    assert part.muster is not None
    pilot_of = {str(f["mek"]): f["pilot"] for f in stored_force(session, part.muster)}
    kills: dict[int, int] = {}
    lost: set[int] = set()
    died: set[int] = set()
    damage: dict[int, int] = {}
    broken: dict[int, list[Part]] = {}
    bailed: set[int] = set()
    for unit in battle.side_units(side):
        if unit.ref is None:
            continue
        pilot_id = pilot_of[unit.ref]
        damage[int(unit.ref)] = unit.hits
        gone = ([Part(WEAPON, w.name) for w in unit.weapons if w.destroyed]
                + [Part(SYSTEM, s.system.name) for s in unit.systems if s.destroyed])
        if gone:
            broken[int(unit.ref)] = gone
        if unit.mek_kills:
            kills[pilot_id] = unit.mek_kills
        if unit.destroyed_turn is not None:
            lost.add(int(unit.ref))
            if unit.pilot is not None and unit.pilot.dead:
                died.add(pilot_id)
            if unit.bailed:
                bailed.add(int(unit.ref))
    return Aftermath(outcome, kills, lost, died, damage, broken=broken, bailed=bailed,
                     withdrawal=withdrawal_of(battle, side))


def withdrawal_of(battle: Battle, side: Side) -> str | None:
    """How a battle ended early for ``side`` (house rule withdrawal, R6.13): "withdrew",
    "overran", "enemy withdrew" or "overrun"; None when it did not."""
    early = battle.early
    if early is None:
        return None
    who, how = early
    if how is Retreat.WITHDRAW:
        return "withdrew" if who is side else "enemy withdrew"
    return "overran" if who is side else "overrun"


def salvage(battle: Battle, side: Side) -> list[Part]:
    """What can be recovered from ``side``'s destroyed Meks (R3.6): their weapons and
    systems that the battle did not destroy. Decoys and support units carry none."""
    parts: list[Part] = []
    for unit in battle.side_units(side):
        if unit.is_mek and not unit.decoy and unit.destroyed_turn is not None:
            parts += wreck_parts([(w.name, w.destroyed) for w in unit.weapons],
                                 [(s.system.name, s.destroyed) for s in unit.systems])
    return parts


def summary(fought: Fought, battle_id: int | None) -> BattleSummary:
    battle = fought.battle
    result = battle.result()
    extra: SummaryExtras = {}
    if fought.salvage:
        extra["salvage"] = {s.value: parts for s, parts in fought.salvage.items()}
    if result.early is not None:
        extra["withdrawal"] = {"side": result.early[0].value, "by": result.early[1].name.lower()}
    return {
        "battle_id": battle_id,
        "scenario": fought.scenario.id,
        "seed": battle.dice.seed,
        "winner": result.winner.value if result.winner else "draw",
        "reason": result.reason,
        "turns": result.turns,
        "events": len(battle.log),
        "log_digest": fought.digest,
        "controllers": dict(fought.spec.get("controllers", {})),
        "units": [unit_summary(u) for u in battle.units if not u.decoy],
        **extra,
    }


def unit_summary(unit: Unit) -> UnitSummary:
    state = ("destroyed" if unit.destroyed_turn is not None else
             "exited" if unit.exited_turn is not None else
             "waiting" if not unit.arrived else "standing")
    bailed: BailedOut = {"bailed_out": True} if unit.bailed else {}
    return {"id": unit.id, "side": unit.side.value, "name": unit.name, "design": unit.design,
            "hits": unit.hits, "max_hits": unit.max_hits, "state": state,
            "kills": unit.mek_kills, **bailed,
            "pilot": None if unit.pilot is None else {
                "name": unit.pilot.name, "level": unit.pilot.level.level,
                "dead": unit.pilot.dead}}


# ---- show and replay -----------------------------------------------------------------------

def _log_row(session: Session, battle_id: int) -> tuple[BattleRow, BattleLog]:
    """The battle and its full log. A log counts only if it is the one the battle row
    records (same digest): a log left behind by a battle that an undo removed must not be
    shown for a later battle that was given the same id."""
    row = session.get(BattleRow, battle_id) if is_id(battle_id) else None
    if row is None:
        raise NotFound(f"No battle has id {battle_id}. See a company's battles with "
                       "'meks battle list COMPANY'.")
    log = session.get(BattleLog, battle_id)
    recorded = stored_json(row, "log")
    if log is not None and isinstance(recorded, dict) and recorded.get("digest") == log.digest:
        return row, log
    if row.mode is BattleMode.TABLE:
        raise NotFound(f"Battle {battle_id} was played on a real table and recorded by its "
                       "result alone, so there is no log to show or replay.")
    company = session.get(Company, row.company_id) if row.company_id is not None else None
    owner = f"{company.name}'s " if company is not None else ""
    raise NotFound(f"Battle {battle_id} came into {owner}roster by 'meks roster import', "
                   "which carries a battle's result but not its log, so it cannot be shown "
                   "or replayed here; the database it was exported from still can.")


def log_row(session: Session, battle_id: int) -> tuple[BattleRow, BattleLog]:
    """The battle and its full log (``NotFound`` when it has none to show or replay)."""
    return _log_row(session, battle_id)


def show(session: Session, battle_id: int, rolls: bool = False) -> BattleReport:
    """A stored battle's report: its whole log, then the reveal (issue 26), what each side
    kept from the other and where, found by fighting the battle again (when it replays
    identically; ``--rolls`` marks each line of the log one side did not see too)."""
    row, log = _log_row(session, battle_id)
    events = [Event.from_dict(e) for e in stored_json(log, "log")]
    report = render(events, rolls=rolls)
    fought, error = _fight_again(session, battle_id)
    if error is None and digest(fought.log) == log.digest:
        from meks.engine.reveal import reveal

        if rolls:
            report = _marked(fought, rolls)
        for side in Side:
            report += ["", *reveal(fought, side, unseen=False)]
    return {"battle_id": battle_id, "scenario": row.scenario, "result": row.result,
            "sides": stored_json(row, "sides"), "seed": row.seed, "events": log.events,
            "log_digest": log.digest, "report": report}


def _marked(battle: Battle, rolls: bool) -> list[str]:
    """The whole log, each line only one side saw marked with that side (R8.1)."""
    private = battle.sight.private
    lines: list[str] = []
    for i, event in enumerate(battle.log):
        side = private.get(i)
        mark = "" if side is None else f"[{side.value} only] "
        lines += [line[:len(line) - len(line.lstrip())] + mark + line.lstrip()
                  for line in render([event], rolls=rolls)]
    return lines


def _fight_again(session: Session, battle_id: int, catalog: Catalog | None = None
                 ) -> tuple[Battle, MeksError | None]:
    """The stored battle fought again from its scenario, forces, dice and controllers (the
    engine revision it was fought under), and the error that stopped it, if one did."""
    battle = rebuilt(session, battle_id, catalog)
    try:
        battle.run()
    except MeksError as error:
        if battle.revision == REVISION:
            raise
        return battle, error
    return battle, None


def rebuilt(session: Session, battle_id: int, catalog: Catalog | None = None) -> Battle:
    """The stored battle set up to be fought again, not yet begun: its scenario, forces,
    dice and controllers, under the engine revision it was fought by."""
    catalog = catalog or load_catalog()
    _, log = _log_row(session, battle_id)
    spec = stored_json(log, "spec", dict)
    with reading(log, "spec"):
        scenario = stored_scenario(spec["scenario"])
        forces = {s: force_from_data(spec["forces"][s.value]) for s in Side}
        dice_spec = spec["dice"]
    if "seed" in dice_spec:
        dice = Dice.from_seed(dice_spec["seed"])
        dice.roll(dice_spec.get("skip", 0), "dice rolled before the battle")
        dice.log.clear()
    else:
        dice = Dice.from_sequence(dice_spec["values"])
    recorded = spec.get("decisions", {})
    controllers: dict[Side, Controller] = {}
    with reading(log, "spec"):
        level = Difficulty(spec["difficulty"]) if "difficulty" in spec else None
    for side in Side:
        name = spec["controllers"][side.value]
        # the side's own controller, asked only past the end of a side's record (a player's
        # side: the baseline)
        own = controller(name, level) if name in CONTROLLERS else Baseline()
        if side.value in recorded:  # the side's decisions, replayed (see ``BattleSpec``)
            controllers[side] = Recorded(own, list(recorded[side.value]))
        else:
            controllers[side] = own
    then = spec.get("engine", 1)
    return Battle(as_fought_under(scenario, then), forces, dice, controllers, catalog,
                  revision=then)


def replay(session: Session, battle_id: int, catalog: Catalog | None = None
           ) -> Replayed:
    """Fight the stored battle again from its scenario, forces, dice and controllers and
    compare the logs."""
    _, log = _log_row(session, battle_id)
    then = stored_json(log, "spec", dict).get("engine", 1)
    battle, error = _fight_again(session, battle_id, catalog)
    if error is not None:
        # An earlier revision's decisions may not be legal ones any more (revision 4, R8.1):
        # the battle cannot be fought again as it was, which the result says.
        return {"battle_id": battle_id, "identical": False, "stored_digest": log.digest,
                "replayed_digest": "(stopped)", "events": len(battle.log),
                "engine_revision": then, "current_engine_revision": REVISION,
                "stopped": str(error)}
    now = digest(battle.log)
    return {"battle_id": battle_id, "identical": now == log.digest, "stored_digest": log.digest,
            "replayed_digest": now, "events": len(battle.log),
            "engine_revision": then, "current_engine_revision": REVISION}


def battles_of(session: Session, company: Company) -> list[BattleRow]:
    return list(session.exec(select(BattleRow).where(BattleRow.company_id == company.id)))


