"""Reports to open in a browser or print: a company's campaign (``campaign report``) and one
battle (``battle report``), each one self-contained HTML page.

The pages come from Jinja2 templates (``campaigns/reports/templates``) that escape every value by
default; the charts are SVG drawn by matplotlib (``campaigns.reports.charts``), put in the page as
they are; the style is in the page. Nothing in a page asks for a file or an address: it
reads the same offline.

A battle's map is found by fighting the stored battle again from its seed, dice and
decisions, turn by turn, noting after each turn where every unit stands; a battle that no
longer replays identically (an earlier engine revision) shows its log's result without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from campaigns.battles import log_row, rebuilt
from campaigns.company import get_company
from campaigns.files.stored import stored_json
from campaigns.record import battle_list, broke_words, campaign_record
from db.models import Battle as BattleRow
from meks.engine.core import Battle
from meks.engine.log import digest
from meks.game.errors import MeksError
from meks.game.vocabulary import Side, UnitKind

ZONES = tuple(range(1, 10))  # row by row, north (the top edge) first


@dataclass(frozen=True)
class Placed:
    """One unit at the end of a turn."""

    id: str
    side: str
    name: str
    design: str
    zone: int | None
    state: str  # standing | destroyed (this turn) | exited | waiting
    hidden: bool = False  # set up hidden, not yet seen by the enemy
    decoy: bool = False
    unseen: bool = False  # infantry the enemy has not found


@dataclass
class TurnMap:
    """The nine zones after a turn (turn 0: after set-up), or after a run of quiet turns
    (``last``: the run's last turn) in which nothing moved, fought or was destroyed."""

    turn: int
    units: list[Placed]
    combat: list[int]
    destroyed: list[str]
    last: int | None = None

    def in_zone(self, zone: int) -> dict[str, list[Placed]]:
        return {side.value: [u for u in self.units if u.zone == zone and u.side == side.value
                             and u.state in ("standing", "destroyed")] for side in Side}

    @property
    def off_map(self) -> list[Placed]:
        return [u for u in self.units if u.state in ("waiting", "exited")]

    def quiet_as(self, other: TurnMap) -> bool:
        """Nothing happened in this turn that ``other`` (the turn before) does not show."""
        return (not self.combat and not self.destroyed
                and [(u.id, u.zone, u.state, u.hidden) for u in self.units]
                == [(u.id, u.zone, u.state, u.hidden) for u in other.units])


@dataclass
class BattleMap:
    """A stored battle turn by turn, with what each side kept from the other."""

    battle_id: int
    scenario: str
    sides: dict[str, str]
    result: str
    terrain: dict[int, str] = field(default_factory=dict)
    turns: list[TurnMap] = field(default_factory=list)
    reveal: dict[str, list[str]] = field(default_factory=dict)
    problem: str | None = None  # why there is no map

    def rows(self) -> list[list[int]]:
        return [list(ZONES[i:i + 3]) for i in (0, 3, 6)]


def _placed(battle: Battle, turn: int) -> list[Placed]:
    units = []
    for u in battle.units:
        if u.destroyed_turn is not None and u.destroyed_turn < turn:
            continue  # fell in an earlier turn: shown then
        if u.exited_turn is not None and u.exited_turn < turn:
            continue
        state = ("destroyed" if u.destroyed_turn is not None else
                 "exited" if u.exited_turn is not None else
                 "waiting" if not u.arrived or u.zone is None else "standing")
        units.append(Placed(u.id, u.side.value, u.name, u.design, u.zone, state,
                            hidden=u.hidden, decoy=u.decoy,
                            unseen=u.kind is UnitKind.INFANTRY and not u.detected))
    return units


def _snapshot(battle: Battle, turn: int) -> TurnMap:
    return TurnMap(turn, _placed(battle, turn),
                   sorted(z for z, t in battle.fought_in.items() if t == turn and turn > 0),
                   [u.name for u in battle.units if u.destroyed_turn == turn])


def fought_turns(battle: Battle) -> list[TurnMap]:
    """Fight a battle set up by ``rebuilt`` to its end, noting the map after set-up and
    after every turn."""
    battle.setup()
    turns = [_snapshot(battle, 0)]
    while battle.verdict is None or not battle.verdict.decided:
        battle.play_turn()
        turns.append(_snapshot(battle, battle.turn))
    return turns


def _merged(turns: list[TurnMap]) -> list[TurnMap]:
    """Runs of quiet turns shown once."""
    merged: list[TurnMap] = []
    for turn in turns:
        if merged and merged[-1].turn > 0 and turn.quiet_as(merged[-1]) \
                and not merged[-1].combat and not merged[-1].destroyed:
            merged[-1].last = turn.turn
        else:
            merged.append(turn)
    return merged


def battle_map(session: Session, battle_id: int) -> BattleMap:
    """A stored battle's map turn by turn and its reveal (raises ``NotFound`` for a battle
    with no log to fight again)."""
    from meks.engine.reveal import reveal

    row, log = log_row(session, battle_id)
    sides = stored_json(row, "sides")
    names = {s.value: str(sides.get(s.value, s.value)) if isinstance(sides, dict)
             else s.value for s in Side}
    battle = rebuilt(session, battle_id)
    result = {"win": "won", "loss": "lost", "draw": "drawn"}.get(row.result, row.result)
    found = BattleMap(battle_id, battle.scenario.name, names, result,
                      {z: battle.scenario.terrain_of(z) for z in ZONES})
    try:
        turns = fought_turns(battle)
    except MeksError as error:
        found.problem = (f"This battle cannot be fought again as it was, so it has no map: "
                         f"{error}")
        return found
    if digest(battle.log) != log.digest:
        found.problem = ("This battle no longer replays identically (it was fought by an "
                         "earlier engine revision), so it has no map.")
        return found
    found.turns = _merged(turns)
    found.reveal = {s.value: reveal(battle, s, unseen=False) for s in Side}
    return found


# ---- the pages --------------------------------------------------------------------------

def _environment() -> Any:
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(loader=PackageLoader("campaigns.reports", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def _render(template: str, **values: Any) -> str:
    from markupsafe import Markup

    charts = {k: Markup(v) if v else None for k, v in values.pop("charts", {}).items()}
    return str(_environment().get_template(template).render(charts=charts, **values))


def battle_report(session: Session, battle_id: int) -> str:
    """One battle's page: its result, the nine zones turn by turn and the reveal."""
    row = session.get(BattleRow, battle_id)
    found = battle_map(session, battle_id)
    company = None
    if row is not None and row.company_id is not None:
        from db.models import Company

        owner = session.get(Company, row.company_id)
        company = owner.name if owner is not None else None
    title = f"Battle {battle_id}: {found.scenario}"
    return _render("battle.html.j2", title=title, company=company, battle=found)


def campaign_report(session: Session, company_name: str) -> str:
    """The company's campaign page: the record step by step, the charts, then each
    battle's map."""
    from campaigns.reports.charts import odds_chart, pilots_chart, treasury_chart

    company = get_company(session, company_name)
    record = campaign_record(session, company.name)
    steps = record["steps"]
    maps = {}
    for step in steps:
        if isinstance(step["battle_id"], int):
            try:
                maps[step["battle_id"]] = battle_map(session, step["battle_id"])
            except MeksError as error:  # a battle carried in by a roster, or removed
                maps[step["battle_id"]] = BattleMap(step["battle_id"], step["name"] or
                                                    step["scenario"], {}, step["result"],
                                                    problem=str(error))
    broke = (record["position"] + 1, record["treasury"]) if record["status"] == "broke" \
        and record["treasury"] is not None else None
    charts = {"odds": odds_chart(steps) if steps else None,
              "treasury": treasury_chart(steps, broke), "pilots": pilots_chart(steps)}
    battles = battle_list(session, company.name)["battles"]
    return _render("campaign.html.j2", title=f"{record['company']}: {record['campaign']}",
                   record=record, maps=maps, charts=charts, battles=battles,
                   broke=broke_words(record))


__all__ = ["BattleMap", "Placed", "TurnMap", "battle_map", "battle_report",
           "campaign_report", "fought_turns"]
