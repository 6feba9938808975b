"""Battles played at the terminal: the player commands one side, a controller the other.

A play is saved when it starts (scenario, forces, seed, who commands which side) and after
every decision the player makes, each in a short transaction of its own, so that quitting or
a crash loses nothing: ``resume`` fights the battle again from its seed with the recorded
decisions (``meks.engine.recorded.Recorded``) and carries on from where it stopped. When the
battle ends, ``finish`` stores it as ``battle auto`` does (a company gets its battle and its
post-battle sequence) and marks the play finished.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from campaigns.battles import (
    DEFAULT_CONTROLLER,
    Fought,
    Participant,
    controller,
    distinct_names,
    force_from_data,
    force_to_data,
    lock_companies,
    participant,
    store,
    summary,
)
from campaigns.campaign_step import Step, complete_step
from campaigns.company import NotFound, Refused, is_id, lock
from campaigns.files.battle_records import (
    BattleSpec,
    FinishedCampaignPlay,
    FinishedPlay,
    PlaySide,
    PlaySpec,
    UnfinishedPlay,
)
from campaigns.files.scenario_model import scenario_data, stored_scenario
from campaigns.files.scenarios import get_scenario
from campaigns.files.stored import reading, stored_force, stored_json
from campaigns.in_play import play_using
from db.models import BattleMode, Campaign, Company, Muster, Play, PlayStatus, utcnow
from meks.engine import REVISION, as_fought_under
from meks.engine.bot.choices import Difficulty
from meks.engine.controllers import Controller
from meks.engine.core import Battle
from meks.engine.log import digest
from meks.engine.recorded import Decision, Recorded
from meks.engine.units import ForceSpec
from meks.game.catalog import Catalog, load_catalog
from meks.game.dice import Dice
from meks.game.scenario import Scenario
from meks.game.vocabulary import Side

PLAYER = "player"  # the controller name a played side is stored under


@dataclass
class PlayState:
    """A play as loaded: enough to fight its battle again and go on."""

    id: int
    scenario: Scenario
    forces: dict[Side, ForceSpec]
    names: dict[Side, str]
    side: Side
    seed: int
    opponent: str
    decisions: list[Decision] = field(default_factory=list)
    status: str = "active"
    engine: int = REVISION  # the engine revision the play was begun under
    difficulty: Difficulty | None = None  # a campaign's battle: the campaign's difficulty

    def battle(self, player: Controller, catalog: Catalog | None = None) -> Battle:
        """A new battle from the start: the player's side answered by ``player``, the other
        by the play's opponent (the bot at the campaign's difficulty in a campaign's battle)."""
        # the opponent's answers kept, for the stored battle (``finish``)
        controllers = {self.side: player,
                       self.side.enemy: Recorded(controller(self.opponent, self.difficulty))}
        return Battle(self.scenario, dict(self.forces), Dice.from_seed(self.seed),
                      controllers, catalog or load_catalog(), revision=self.engine)


def start(session: Session, scenario_ref: str, side: Side, attacker: str, defender: str,
          *, seed: int | None = None, opponent: str = DEFAULT_CONTROLLER,
          catalog: Catalog | None = None) -> PlayState:
    """Set up a new play between companies (their musters for the scenario) or force files,
    the player commanding ``side``."""
    catalog = catalog or load_catalog()
    controller(opponent)  # refuse an unknown controller before anything is saved
    scenario = get_scenario(scenario_ref)
    lock_companies(session, attacker, defender)  # the play takes their musters
    sides = {Side.ATTACKER: participant(session, attacker, Side.ATTACKER, scenario, catalog),
             Side.DEFENDER: participant(session, defender, Side.DEFENDER, scenario, catalog)}
    return start_sides(session, scenario, side, sides, seed=seed, opponent=opponent)


def start_sides(session: Session, scenario: Scenario, side: Side,
                sides: dict[Side, Participant], *, seed: int | None = None,
                opponent: str = DEFAULT_CONTROLLER, campaign: Step | None = None,
                difficulty: Difficulty | None = None) -> PlayState:
    """Set up a new play between two prepared sides; ``campaign`` ties it to a campaign
    step (the play's columns ``campaign_id`` and ``campaign_step``, the step's details in
    its ``spec``), which is completed when the play is finished. The play holds the sides'
    musters (its columns ``attacker_muster_id`` and ``defender_muster_id``) until then.
    ``difficulty`` (a campaign's) is the level the opponent plays at, kept in the ``spec``."""
    controller(opponent)
    a, d = sides[Side.ATTACKER].company, sides[Side.DEFENDER].company
    if a is not None and d is not None and a.id == d.id:
        raise Refused("A company cannot fight itself; give the other side a force file or "
                      "another company.")
    for part in sides.values():
        if part.muster is not None:
            other = play_using(session, part.muster.id)
            if other is not None:
                assert part.company is not None
                raise Refused(f"{part.company.name}'s force for {scenario.id} is already in "
                              f"play {other}; continue it with 'meks battle resume {other}'.")
    distinct_names(sides)
    seed = Dice.from_seed(seed).seed
    assert seed is not None
    spec: PlaySpec = {
        # The revision the play is begun under (a play stored without one was begun before
        # revision 8 and goes on under the rules of its time: ``as_fought_under``).
        "engine": REVISION,
        "scenario": scenario_data(scenario),
        "forces": {s.value: force_to_data(p.force) for s, p in sides.items()},
        "sides": {s.value: _side_data(p) for s, p in sides.items()},
    }
    if campaign is not None:
        spec["campaign"] = campaign.data()
    if difficulty is not None:
        spec["difficulty"] = difficulty.value
    held = {s: p.muster.id if p.company is not None and p.muster is not None else None
            for s, p in sides.items()}
    row = Play(scenario=scenario.id, side=side.value, opponent=opponent, seed=seed,
               spec=json.dumps(spec), campaign_id=campaign.campaign if campaign else None,
               campaign_step=campaign.position if campaign else None,
               attacker_muster_id=held[Side.ATTACKER], defender_muster_id=held[Side.DEFENDER])
    session.add(row)
    session.flush()
    return _state(row, session)


def _side_data(part: Participant) -> PlaySide:
    if part.company is None or part.muster is None:
        return {"name": part.force.name or "force file"}
    return {"name": part.company.name, "company": part.company.id, "muster": part.muster.id}


def _row(session: Session, play_id: int, *, for_change: bool = False) -> Play:
    """The play with this id; ``for_change``: locked for the rest of the transaction and
    read afresh, so that two terminals saving the same play take turns."""
    row = None
    if is_id(play_id):
        query = select(Play).where(Play.id == play_id)
        if for_change:
            query = query.with_for_update().execution_options(populate_existing=True)
        row = session.exec(query).first()
    if row is None:
        raise NotFound(f"No play has id {play_id}; 'meks battle resume' without an id lists "
                       "the unfinished ones.")
    return row


def _state(row: Play, session: Session) -> PlayState:
    assert row.id is not None
    spec = stored_json(row, "spec", dict)
    if "difficulty" not in spec and row.campaign_id is not None:
        # a campaign's play stored before plays kept the difficulty: the campaign's own
        campaign = session.get(Campaign, row.campaign_id)
        if campaign is not None:
            spec["difficulty"] = campaign.difficulty
    with reading(row, "spec"):
        return PlayState(
            id=row.id,
            scenario=as_fought_under(stored_scenario(spec["scenario"]),
                                     int(spec.get("engine", 1))),
            forces={s: force_from_data(spec["forces"][s.value]) for s in Side},
            names={s: str(spec["sides"][s.value]["name"]) for s in Side},
            side=Side(row.side), seed=row.seed, opponent=row.opponent,
            decisions=stored_json(row, "decisions"), status=row.status,
            engine=int(spec.get("engine", 1)),
            difficulty=Difficulty(spec["difficulty"]) if "difficulty" in spec else None)


def unfinished(session: Session) -> list[UnfinishedPlay]:
    """The plays not yet finished, oldest first."""
    out: list[UnfinishedPlay] = []
    for row in session.exec(select(Play).where(Play.status == PlayStatus.ACTIVE)
                            .order_by(col(Play.id))).all():
        assert row.id is not None
        state = _state(row, session)
        out.append({"id": row.id, "scenario": row.scenario, "side": row.side,
                    "attacker": state.names[Side.ATTACKER],
                    "defender": state.names[Side.DEFENDER],
                    "decisions": len(state.decisions), "updated_at": row.updated_at})
    return out


def load(session: Session, play_id: int) -> PlayState:
    """An unfinished play, to resume. Refused when it is over or its companies' forces
    have gone elsewhere since."""
    row = _row(session, play_id)
    if row.status != PlayStatus.ACTIVE:
        where = f" (stored as battle {row.battle_id})" if row.battle_id else ""
        raise Refused(f"Play {play_id} is over: {row.result}{where}.")
    _participants(session, row)  # refuses if a company's muster was used meanwhile
    step_of(row)  # a damaged campaign step is said now, not when the battle is over
    return _state(row, session)


def set_aside(session: Session, play_id: int) -> str:
    """A play begun under an earlier engine revision whose saved decisions no longer fit
    this revision's rules: it ends with no battle stored (its record stays, marked "set
    aside"), so its companies, musters and campaign step are free to fight the battle
    afresh. Returns the sentence that tells the player so."""
    row = _row(session, play_id, for_change=True)
    state = _state(row, session)
    if row.status == PlayStatus.ACTIVE:
        row.status = PlayStatus.FINISHED
        row.result = "set aside"
        row.updated_at = utcnow()
        session.add(row)
    return (f"Play {play_id} was begun under engine revision {state.engine}, and the decisions "
            f"saved in it no longer fit the rules of revision {REVISION} (docs/rules.md lists "
            "what changed), so it cannot go on where it stopped; it is set aside, and "
            "'meks battle play' (or 'meks campaign next') fights the battle afresh.")


def append_decision(session: Session, play_id: int, index: int, data: Decision) -> None:
    """Save the player's decision number ``index`` (counting from 0)."""
    row = _row(session, play_id, for_change=True)
    decisions = stored_json(row, "decisions")
    if row.status != PlayStatus.ACTIVE or len(decisions) != index:
        raise Refused(f"Play {play_id} has moved on elsewhere (is it open in another "
                      "terminal?); resume it again to continue from where it is now.")
    decisions.append(data)
    row.decisions = json.dumps(decisions)
    row.updated_at = utcnow()
    session.add(row)


def _lock_sides(session: Session, row: Play) -> None:
    """Lock the play's companies (by id, as ``campaigns.company.lock_all`` does) before
    its battle is stored in them."""
    sides = stored_json(row, "spec", dict)["sides"].values()
    for cid in sorted({info["company"] for info in sides if info.get("company") is not None}):
        company = session.get(Company, cid)
        if company is not None:
            lock(session, company)


def _participants(session: Session, row: Play) -> dict[Side, Participant]:
    spec = stored_json(row, "spec", dict)
    sides = {}
    for side in Side:
        force = force_from_data(spec["forces"][side.value])
        info = spec["sides"][side.value]
        company = muster = None
        if info.get("company") is not None:
            company = session.get(Company, info["company"])
            held = row.attacker_muster_id if side is Side.ATTACKER else row.defender_muster_id
            muster = session.get(Muster, held) if held is not None else None
            if company is None or muster is None or muster.company_id != company.id:
                raise Refused(f"Play {row.id}: {info['name']} or its muster no longer exists; "
                              "the battle cannot be finished.")
            if muster.battle_id is not None:
                raise Refused(f"Play {row.id}: {company.name}'s force has fought battle "
                              f"{muster.battle_id} since this play began; the play cannot "
                              "be finished.")
            mustered = {str(entry["mek"]) for entry in stored_force(session, muster)}
            if mustered != {u.ref for u in force.units if u.ref is not None}:
                raise Refused(f"Play {row.id}: {company.name} has mustered a different force "
                              "since this play began; the play cannot be finished.")
        sides[side] = Participant(force, company, muster, named=True)  # as the play began
    return sides


def _opponent_decisions(battle: Battle, side: Side) -> dict[str, list[Decision]]:
    """The decisions of the opponent's side as ``PlayState.battle`` kept them (none when
    the battle was built some other way)."""
    kept = battle.controllers[side]
    return {side.value: kept.decisions} if isinstance(kept, Recorded) else {}


def finish(session: Session, play_id: int, battle: Battle, *,
           choices: Mapping[int, str] | None = None, auto_skills: bool = True
           ) -> FinishedPlay:
    """The play's battle is over: store it like ``battle auto`` (each company gets the
    battle and its post-battle sequence, with the battle's dice rolling on) and mark the
    play finished. Returns the battle's summary (as ``battle auto --json``) and ``play_id``.

    A pilot on the player's side who earns a new skill takes the one ``choices`` names for
    it (by pilot id), else with ``auto_skills`` the bot's pick; else ``ChoicesNeeded`` is
    raised and nothing is stored. The post-battle dice roll on from a copy of the battle's,
    so that asking again rolls the very same dice."""
    row = _row(session, play_id, for_change=True)
    _lock_sides(session, row)
    if row.status != PlayStatus.ACTIVE:
        raise Refused(f"Play {play_id} is already finished.")
    if battle.verdict is None or not battle.verdict.decided:
        raise Refused(f"Play {play_id}'s battle is not over yet.")
    state = _state(row, session)
    step = step_of(row)  # read before anything is stored
    sides = _participants(session, row)
    spec: BattleSpec = {
        "engine": REVISION,
        "scenario": scenario_data(state.scenario),
        "forces": {s.value: force_to_data(p.force) for s, p in sides.items()},
        "controllers": {s.value: PLAYER if s is state.side else state.opponent for s in Side},
        "dice": {"seed": state.seed, "skip": 0},
        "decisions": {state.side.value: state.decisions,
                      **_opponent_decisions(battle, state.side.enemy)},
        "play": play_id,
    }
    if state.difficulty is not None:  # a replay's opponent plays at the same level
        spec["difficulty"] = state.difficulty.value
    fought = Fought(battle, state.scenario, spec, digest(battle.log), sides)
    battle_id = None
    if any(p.company is not None for p in sides.values()):
        battle_id = store(session, fought, _rolling_on(battle.dice), mode=BattleMode.PLAY,
                          asked=None if auto_skills else state.side, choices=choices)
    result = battle.result()
    row.status = PlayStatus.FINISHED
    row.result = result.winner.value if result.winner else "draw"
    row.digest = fought.digest
    row.battle_id = battle_id
    row.updated_at = utcnow()
    session.add(row)
    data: FinishedPlay = {**summary(fought, battle_id), "play_id": play_id,
                          "reports": {s.value: r for s, r in fought.reports.items()}}
    if step is not None:  # a campaign's battle: the campaign moves on
        moved: FinishedCampaignPlay = {
            **data, "campaign": complete_step(session, step, fought, battle_id)}
        return moved
    return data


def step_of(row: Play) -> Step | None:
    """The campaign step the play settles, if any: the campaign and its position from the
    play's columns, the rest of the step from its ``spec``."""
    if row.campaign_id is None or row.campaign_step is None:
        return None
    with reading(row, "spec"):
        details = stored_json(row, "spec", dict)["campaign"]
        return Step.from_data(row.campaign_id, row.campaign_step, details)



def _rolling_on(dice: Dice) -> Dice:
    """Seeded dice at the point ``dice`` have reached (the same values to come, the same
    log so far), leaving ``dice`` as they are."""
    if dice.seed is None:
        return dice
    copy = Dice.from_seed(dice.seed)
    copy.roll(len(dice.log), "the battle's dice")
    copy.log[:] = dice.log
    return copy


__all__ = ["PLAYER", "PlayState", "append_decision", "finish", "load", "start",
           "start_sides", "step_of", "unfinished"]
