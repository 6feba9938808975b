"""After a battle (docs/rules.md R3.4): record what happened to the force last mustered, strike
off destroyed Meks, repair the rest, credit kills and scenarios, promote pilots and roll for
their new skills."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from campaigns.company import (
    Change,
    Refused,
    changing,
    company_to_change,
    find_mek,
    find_pilot,
)
from campaigns.files.records import PilotOutcome
from campaigns.files.stored import reading, stored_force, stored_json
from campaigns.files.view_records import RecordedBattle
from campaigns.in_play import play_using
from campaigns.parts import (
    REPAIR_PRICE,
    SYSTEM,
    WEAPON,
    Part,
    counted,
    design_parts,
    fitted,
    heat_loss,
    lost_parts,
    mek_design,
    named_part,
    salvages,
    store_parts,
)
from db.models import Battle, BattleMode, Mek, MekStatus, Muster, Pilot, PilotStatus
from meks.engine.bot.choices import choose_skill
from meks.game.catalog import Catalog, Design, Size, load_catalog
from meks.game.construction import most_carried
from meks.game.criticals import CRITICAL_TABLE
from meks.game.dice import Dice
from meks.game.errors import MeksError, UsageError
from meks.game.pilots import (
    FAMILIARITY,
    available_skills,
    base_skill,
    level_for,
    roll_for_skill,
    skill_label,
)
from meks.game.rules import random_pick
from meks.game.scenario import HouseRules
from meks.game.vocabulary import Repair, Salvage

RESULTS = ("win", "loss", "draw")
# How a battle ended early for a company (house rule withdrawal, R6.13), as reports say it.
WITHDRAWAL_WORDS = {"withdrew": "withdrew", "overran": "overran the enemy",
                    "enemy withdrew": "the enemy withdrew", "overrun": "overrun by the enemy"}


@dataclass(frozen=True)
class PendingChoice:
    pilot: str
    mek: str
    options: tuple[str, ...]
    suggested: str
    pilot_id: int = 0


class ChoicesNeeded(MeksError):
    """Some pilots earned a new skill and nobody said which; nothing was stored."""

    exit_code = 2

    def __init__(self, pending: Sequence[PendingChoice]) -> None:
        self.pending = tuple(pending)
        names = ", ".join(f"{p.pilot} (suggested: {p.suggested})" for p in self.pending)
        super().__init__(
            f"A new skill was earned by {names}. Nothing was recorded: choose with "
            "--choose PILOT=SKILL, or pass --auto to take the suggested skills."
        )


def _design_of(mek: Mek, catalog: Catalog) -> Design | None:
    if mek.custom_design:
        data = stored_json(mek, "custom_design")
        return Design(name=data["name"], size=Size(data["size"]),
                      weapons=tuple(data["weapons"]), systems=tuple(data["systems"]))
    return catalog.ix.design.find(mek.design)


def check_skill(choice: str, options: Sequence[str], catalog: Catalog | None = None,
                pilot: str = "the pilot") -> str:
    """The catalog name of the skill ``choice`` names, if it is one of ``options`` (the
    skills ``pilot`` does not hold yet); refused otherwise."""
    skill = (catalog or load_catalog()).skill(choice).name
    if skill not in options:
        raise Refused(f"{skill} cannot be chosen for {pilot}, who already has it.")
    return skill


def record_battle(
    session: Session,
    company_name: str,
    result: str,
    dice: Dice,
    *,
    kills: Mapping[str, int] | None = None,
    destroyed: Sequence[str] = (),
    dead: Sequence[str] = (),
    choices: Mapping[str, str] | None = None,
    auto: bool = False,
    salvage: Sequence[str] = (),
    lost_parts_of: Sequence[tuple[str, str]] = (),
    bailed: Sequence[str] = (),
    withdrawal: str | None = None,
    enemy_destroyed: int | None = None,
    catalog: Catalog | None = None,
) -> RecordedBattle:
    """Record a game played at the table for the force last mustered and run the post-battle
    sequence. ``salvage`` names the parts the company recovered (house rule salvage, R3.6),
    ``lost_parts_of`` the parts surviving Meks lost, as (Mek, part) (spare_parts, R3.7).
    ``bailed`` names the Meks whose pilots bailed out (bail_out, R6.12): lost, their pilots
    safe; ``withdrawal`` is "withdrew" or "overran" when the company ended the battle so
    (withdrawal, R6.13). ``enemy_destroyed``: how many enemy Meks were destroyed, which
    bounds the salvage (R3.6); by default, the kills credited.
    Raises ``ChoicesNeeded`` (and stores nothing) when a pilot earns a skill that neither
    ``choices`` nor ``auto`` settles."""
    catalog = catalog or load_catalog()
    if result not in RESULTS:
        raise Refused(f"The result must be win, loss or draw, not {result!r}.")
    company = company_to_change(session, company_name)
    last = session.exec(select(Muster).where(Muster.company_id == company.id)
                        .order_by(col(Muster.id).desc())).first()
    if last is None or last.battle_id is not None:
        raise Refused(f"{company.name} has no muster waiting for a battle; muster a force "
                      "first with 'meks muster'.")
    busy = play_using(session, last.id)
    if busy is not None:
        raise Refused(f"{company.name}'s mustered force is in play {busy}, still unfinished; "
                      f"its battle is recorded when you finish it with 'meks battle resume "
                      f"{busy}'.")
    force = stored_force(session, last)
    meks = {f["mek"]: session.get(Mek, f["mek"]) for f in force}
    pilots = {f["pilot"]: session.get(Pilot, f["pilot"]) for f in force}
    flown = {f["pilot"]: f["mek"] for f in force}

    def in_force_pilot(ref: str) -> Pilot:
        pilot = find_pilot(session, company, ref)
        if pilot.id not in pilots:
            raise Refused(f"{pilot.name} was not in the force mustered for this battle.")
        return pilot

    kill_counts: dict[int, int] = {}
    for ref, n in (kills or {}).items():
        if n < 0:
            raise Refused("Kills cannot be negative.")
        credited = in_force_pilot(ref)
        assert credited.id is not None
        if credited.id in kill_counts:
            raise UsageError(twice(credited.name, "--kills"))
        kill_counts[credited.id] = n
    lost: set[int] = set()
    for ref in destroyed:
        wreck = find_mek(session, company, ref, active=False)
        if wreck.id not in meks:
            raise Refused(f"{wreck.callsign} was not in the force mustered for this battle.")
        assert wreck.id is not None
        lost.add(wreck.id)
    died: set[int] = set()
    for ref in dead:
        fallen = in_force_pilot(ref)
        assert fallen.id is not None
        died.add(fallen.id)
        lost.add(flown[fallen.id])  # a pilot dies only with its Mek's reactor (R2.6)
    chosen: dict[int, str] = {}
    for ref, skill in (choices or {}).items():
        chooser = in_force_pilot(ref)
        assert chooser.id is not None
        chosen[chooser.id] = catalog.skill(skill).name  # a misspelt skill is caught now
    house = house_rules_of(last)
    recovered = tuple(named_part(name, catalog) for name in salvage)
    if recovered and not salvages(house.salvage, result):
        raise Refused(_no_salvage(house.salvage, last.scenario, result))
    credits = sum(kill_counts.values())
    if enemy_destroyed is not None and enemy_destroyed < credits:
        raise UsageError(f"--enemy-destroyed {enemy_destroyed} is fewer than the {credits} "
                         f"kill{'s' * (credits != 1)} credited with --kills; each kill is an "
                         "enemy Mek destroyed, so give at least that many.")
    if recovered:
        _check_salvage_bound(recovered, credits if enemy_destroyed is None else
                             enemy_destroyed, enemy_destroyed is not None, catalog)
    where = f"in {last.scenario}" if last.scenario else "without a scenario"
    abandoned: set[int] = set()
    if bailed and not house.bail_out:
        raise Refused(f"Nobody bails out {where}: its house rule 'bail_out' is off (R6.12). "
                      "Leave out --bailed.")
    for ref in bailed:
        wreck = find_mek(session, company, ref, active=False)
        if wreck.id not in meks:
            raise Refused(f"{wreck.callsign} was not in the force mustered for this battle.")
        assert wreck.id is not None
        pilot_id = next(p for p, m in flown.items() if m == wreck.id)
        if pilot_id in died:
            raise Refused(f"The pilot who bails out of {wreck.callsign} survives (R6.12): "
                          "leave out --dead for them, or --bailed for the Mek.")
        abandoned.add(wreck.id)
        lost.add(wreck.id)
    # after the Meks bailed out of are known: a lost Mek keeps no parts, however it was lost
    broken = _broken_at_table(session, company, lost_parts_of, meks, lost, house,
                              last.scenario, catalog)
    if withdrawal is not None:
        needed = {"withdrew": "loss", "overran": "win"}
        if withdrawal not in needed:
            raise Refused(f"The withdrawal must be 'withdrew' or 'overran', not "
                          f"{withdrawal!r}.")
        if not house.withdrawal:
            raise Refused(f"No side withdraws or overruns {where}: its house rule "
                          "'withdrawal' is off (R6.13). Leave out --withdrew and --overran.")
        if result != needed[withdrawal]:
            does = "withdraws loses" if withdrawal == "withdrew" else "overruns wins"
            raise Refused(f"A company that {does} (R6.13): record it with --result "
                          f"{needed[withdrawal]}, not {result}.")

    with changing(session, company, "battle record") as change:
        battle = Battle(company_id=company.id, muster_id=last.id, scenario=last.scenario,
                        mode=BattleMode.TABLE, result=result, seed=dice.seed,
                        sides=json.dumps({"company": company.name, "side": last.side}))
        session.add(battle)
        session.flush()
        report = aftermath(session, last, battle,
                           Aftermath(result, kill_counts, lost, died, salvage=recovered,
                                     broken=broken, bailed=abandoned, withdrawal=withdrawal),
                           dice, change, choices=chosen, auto=auto,
                           house=house, catalog=catalog)
        battle.log = json.dumps({"dice": change.dice, "report": report,
                                 **({"withdrawal": withdrawal} if withdrawal else {})})
        session.add(battle)
    recorded: RecordedBattle = {"battle_id": battle.id, "result": result, "seed": dice.seed,
                                "pilots": report, "salvage": [p.name for p in recovered]}
    if withdrawal:
        recorded["withdrawal"] = withdrawal
    return recorded


def most_parts_on_a_mek(catalog: Catalog) -> int:
    """The most weapons and systems one legal Mek can carry (R1.2 to R1.4): on the largest
    chassis, a weapon on every Massive and Huge mount, a CIWS pair and a small weapon for
    each Massive mount, and a system in every slot."""
    return max(3 * c.mounts.massive + c.mounts.huge + c.slots for c in catalog.chassis)


def _check_salvage_bound(parts: Sequence[Part], wrecks: int, stated: bool,
                         catalog: Catalog) -> None:
    """Salvage recorded at the table comes only from the enemy Meks destroyed, which the
    record does not know: they are the kills credited, or the number stated with
    --enemy-destroyed, and none carries more than ``most_parts_on_a_mek`` parts, nor more
    of one part than a legal Mek can carry (``most_carried``, R3.6)."""
    most = most_parts_on_a_mek(catalog)
    counted = (f"{wrecks} enemy Mek{'s' * (wrecks != 1)} destroyed" if stated else
               f"{wrecks} kill{'s' * (wrecks != 1)} credited")
    advice = ("name each part recovered once, or give --enemy-destroyed N when more enemy "
              "Meks were destroyed.")
    if parts and wrecks == 0:
        raise Refused(f"Salvage comes from destroyed enemy Meks (R3.6), and this record has "
                      f"{counted}; credit the kills with --kills, or give --enemy-destroyed "
                      "N when Meks were destroyed otherwise.")
    if len(parts) > wrecks * most:
        raise Refused(f"{len(parts)} parts salvaged is more than {counted} could carry (at "
                      f"most {most} parts a Mek, R3.6); {advice}")
    for part, n in sorted(Counter(parts).items()):
        item = catalog.weapon(part.name) if part.kind == WEAPON else \
            catalog.system(part.name)
        each = most_carried(item, catalog)
        if n > wrecks * each:
            raise Refused(f"{n} {part.name} salvaged is more than {counted} could carry (a "
                          f"Mek carries at most {each}, R1.2-R1.4, R3.6); {advice}")


def twice(name: str, option: str) -> str:
    """The one refusal of a name given twice on a command line."""
    return f"{name} is given twice with {option}; give each once."


def _broken_at_table(session: Session, company: Any, given: Sequence[tuple[str, str]],
                     meks: Mapping[int, Mek | None], lost: set[int], house: HouseRules,
                     scenario: str | None, catalog: Catalog) -> dict[int, list[Part]]:
    """The parts each surviving Mek lost in a battle recorded at the table (R3.7), checked:
    every problem is named at once."""
    if not given:
        return {}
    if not house.spare_parts:
        where = f"in {scenario}" if scenario else "without a scenario"
        raise Refused(f"Lost parts are mended after a battle {where}: its house rule "
                      "'spare_parts' is off (R3.7). Leave out --lost.")
    broken: dict[int, list[Part]] = {}
    problems = []
    for ref, name in given:
        mek = find_mek(session, company, ref, active=False)
        part = named_part(name, catalog)
        if mek.id not in meks:
            problems.append(f"{mek.callsign} was not in the force mustered for this battle")
            continue
        assert mek.id is not None
        if mek.id in lost:
            problems.append(f"{mek.callsign} was destroyed, so it keeps no parts")
            continue
        carried = design_parts(fitted(mek_design(mek, catalog), lost_parts(mek)))
        for gone in broken.get(mek.id, []):
            carried.remove(gone)
        if part not in carried:
            problems.append(f"{mek.callsign} has no working {part.name} to lose")
            continue
        if part.kind == SYSTEM and not CRITICAL_TABLE.losable(catalog.system(part.name)):
            problems.append(f"{part.name} is armor, which no critical takes (R6.9), so "
                            f"{mek.callsign} cannot have lost it")
            continue
        broken.setdefault(mek.id, []).append(part)
    if problems:
        raise Refused("The lost parts are refused [R3.7]: " + "; ".join(problems) + ".")
    return broken


def house_rules_of(muster: Muster) -> HouseRules:
    """The house rules of the scenario a muster was made for: those of the copy it keeps
    (a scenario file's, even once the file is gone), else, for a muster made before musters
    kept one, of the scenario with its id now; the rulings' defaults for a muster made
    without a scenario, or for one that can no longer be found."""
    if muster.definition is not None:
        from campaigns.files.scenario_model import stored_scenario

        data = stored_json(muster, "definition", dict)
        with reading(muster, "definition"):
            return stored_scenario(data).house_rules
    if muster.scenario is None:
        return HouseRules()
    from campaigns.files.scenarios import find_scenario

    try:
        entry = find_scenario(muster.scenario, files=False)
    except MeksError:
        return HouseRules()
    assert entry.scenario is not None
    return entry.scenario.house_rules


def _no_salvage(rule: Salvage, scenario: str | None, result: str) -> str:
    where = f"in {scenario}" if scenario else "without a scenario"
    if rule is Salvage.NONE:
        return (f"Nothing can be salvaged {where}: its house rule 'salvage' is off (R3.6). "
                "Leave out --salvage.")
    return (f"Only the winner salvages {where} (house rule 'salvage: winner', R3.6), and "
            f"this battle was a {result}; leave out --salvage.")


@dataclass(frozen=True)
class Aftermath:
    """What a battle did to one company's force: its result, Mek kills by pilot id, Meks
    lost and pilots killed (by id)."""

    result: str
    kills: Mapping[int, int]
    lost: set[int]
    died: set[int]
    damage: Mapping[int, int] = dataclasses.field(default_factory=dict)  # Mek id -> hits
    salvage: Sequence[Part] = ()  # parts recovered into the stockpile (R3.6)
    # Mek id -> the parts the battle destroyed on it (kept lost under spare_parts, R3.7)
    broken: Mapping[int, Sequence[Part]] = dataclasses.field(default_factory=dict)
    bailed: set[int] = dataclasses.field(default_factory=set)  # Meks bailed out of (R6.12)
    # how the battle ended early for the company (R6.13): "withdrew", "overran", "enemy
    # withdrew" or "overrun"
    withdrawal: str | None = None


def aftermath(session: Session, muster: Muster, battle: Battle, what: Aftermath, dice: Dice,
              change: Change, *, choices: Mapping[int, str] | None = None, auto: bool = False,
              random_skills: bool = False, house: HouseRules | None = None,
              catalog: Catalog | None = None) -> list[PilotOutcome]:
    """The post-battle sequence (R3.4) for the force of ``muster``, inside ``change``:
    destroyed Meks struck off, the rest repaired, kills and scenarios credited, promotions
    and the new-skill rolls. Raises ``ChoicesNeeded`` when a skill is earned that neither
    ``choices``, ``auto`` nor ``random_skills`` (the ``skill_choice: random`` house rule,
    for battles the tool fought) settles. Repairs follow ``house``."""
    catalog = catalog or load_catalog()
    house = house or HouseRules()
    repair = house.repair
    keep_lost = house.spare_parts and repair is not Repair.FREE
    chosen = dict(choices or {})
    force = stored_force(session, muster)
    meks = {f["mek"]: session.get(Mek, f["mek"]) for f in force}
    pilots = {f["pilot"]: session.get(Pilot, f["pilot"]) for f in force}
    flown = {f["pilot"]: f["mek"] for f in force}
    start = len(dice.log)
    report: list[PilotOutcome] = []
    pending: list[PendingChoice] = []
    for pilot_id, pilot in pilots.items():
        assert pilot is not None
        mek = meks[flown[pilot_id]]
        assert mek is not None
        entry: PilotOutcome = {"pilot": pilot.name, "mek": mek.callsign,
                                 "kills": what.kills.get(pilot_id, 0)}
        mek.kills += entry["kills"]
        if mek.id in what.lost:
            mek.status = MekStatus.DESTROYED
            mek.damage = 0
            entry["mek_destroyed"] = True
            if mek.id in what.bailed:  # house rule bail_out (R6.12): the pilot ejected
                entry["bailed_out"] = True
            # Whoever sits in the wreck now steps out, even a pilot assigned to it after
            # the muster; a pilot moved to another Mek since keeps that one (R2.6).
            for seated in session.exec(select(Pilot).where(Pilot.mek_id == mek.id)).all():
                seated.mek_id = None
                session.add(seated)
        else:
            if repair is Repair.NONE:  # house rule R3.4: the Mek keeps its damage
                mek.damage = what.damage.get(mek.id or 0, mek.damage)
                entry["damage"] = mek.damage
            elif repair is Repair.PAID:  # house rule R3.7: every Hit is mended, for points
                cost = what.damage.get(mek.id or 0, 0) * REPAIR_PRICE
                mek.damage = 0
                mek.owed += cost
                entry["repaired"] = True
                if cost:
                    entry["repair_cost"] = cost
            else:
                mek.damage = 0
                entry["repaired"] = True
            broken = what.broken.get(mek.id or 0, ())
            if keep_lost and broken:  # house rule spare_parts (R3.7)
                mek.lost = json.dumps([p.data() for p in [*lost_parts(mek), *broken]])
                entry["lost_parts"] = [p.name for p in broken]
            if house.wear:  # house rule wear (R3.8): one more battle on the Mek
                chassis = Size(mek.size)
                was = heat_loss(mek.wear, chassis, catalog)
                mek.wear += 1
                entry["wear"] = mek.wear
                if heat_loss(mek.wear, chassis, catalog) > was:
                    entry["heat_lost"] = heat_loss(mek.wear, chassis, catalog)
        session.add(mek)
        pilot.kills += entry["kills"]  # a kill counts however the battle ends for its pilot
        if pilot_id in what.died:
            pilot.status, pilot.mek_id = PilotStatus.DEAD, None
            entry["dead"] = True
            session.add(pilot)
            report.append(entry)
            continue
        pilot.status = PilotStatus.ACTIVE
        pilot.scenarios += 1
        old = pilot.level
        pilot.level = level_for(pilot.kills, pilot.scenarios, catalog, old).level
        if pilot.level != old:
            entry["promoted"] = f"{old} -> {pilot.level}"
        held = stored_json(pilot, "skills", list)
        roll = roll_for_skill(catalog.level(pilot.level), len(held), dice, pilot.name)
        if roll is not None:
            entry["skill_roll"] = {"die": roll.die, "bonus": roll.bonus,
                                   "needed": roll.target, "success": roll.success}
            options = available_skills(held, catalog)
            if roll.success and options:
                suggested = choose_skill(held, _design_of(mek, catalog), catalog)
                if pilot_id in chosen:
                    skill = check_skill(chosen[pilot_id], options, catalog, pilot.name)
                elif random_skills:  # house rule R2.4
                    skill = options[random_pick(dice, len(options),
                                                  f"random skill for {pilot.name}")]
                elif auto:
                    skill = suggested
                else:
                    pending.append(PendingChoice(pilot.name, mek.callsign, tuple(options),
                                                 suggested, pilot_id))
                    skill = ""
                if skill:
                    size = Size(mek.size) if base_skill(skill) == FAMILIARITY else None
                    held.append(skill_label(skill, size))
                    entry["new_skill"] = held[-1]
            pilot.skills = json.dumps(held)
        session.add(pilot)
        report.append(entry)
    if pending:
        raise ChoicesNeeded(pending)
    change.rolled(dice, start)
    muster.battle_id = battle.id
    # The scenario's copy was kept for this battle; every event keeps the company's state,
    # so a fought muster does not carry it on.
    muster.definition = None
    session.add(muster)
    if what.salvage:
        store_parts(session, muster.company_id, what.salvage)
    n = len(report)
    early = f", {WITHDRAWAL_WORDS[what.withdrawal]}" if what.withdrawal else ""
    change.summary = (f"{'Fought' if battle.mode is not BattleMode.TABLE else 'Recorded'} a "
                      f"{what.result}{early} ({n} pilot{'s' if n != 1 else ''}): "
                      + "; ".join(_line(e) for e in report) + "."
                      + (f" Salvaged {counted(what.salvage)}." if what.salvage else ""))
    return report


def outcome_bits(entry: PilotOutcome, *, all_kills: bool = False) -> list[str]:
    """What the post-battle sequence did to one pilot, as short phrases."""
    bits = []
    if entry.get("kills") or all_kills:
        bits.append(f"{entry['kills']} kill{'s' if entry['kills'] != 1 else ''}")
    if entry.get("bailed_out"):
        bits.append(f"bailed out of {entry['mek']} (lost)")
    elif entry.get("mek_destroyed"):
        bits.append(f"lost {entry['mek']}")
    if entry.get("dead"):
        bits.append("killed")
    if entry.get("promoted"):
        bits.append(f"promoted {entry['promoted']}")
    if entry.get("new_skill"):
        bits.append(f"learned {entry['new_skill']}")
    if entry.get("lost_parts"):
        bits.append(f"{entry['mek']} lost {', '.join(entry['lost_parts'])} until replaced")
    if entry.get("repair_cost"):
        n = entry["repair_cost"]
        bits.append(f"repairs {n} point{'s' * (n != 1)}")
    if entry.get("heat_lost"):
        bits.append(f"{entry['mek']} worn to -{entry['heat_lost']} heat")
    return bits


def _line(entry: PilotOutcome) -> str:
    bits = outcome_bits(entry)
    return str(entry["pilot"]) + (": " + ", ".join(bits) if bits else "")
