"""Reading back the JSON the product stored itself (a muster's force, a pilot's skills, a
battle's or a game's record, a campaign's plan).

What the product stored was valid when it was stored; if it no longer reads (the database
was edited by hand, or damaged), the command stops with one sentence naming the record and
what to do, a ``DamagedRecord`` (exit 1), rather than failing somewhere deep in the code.

``stored_json`` reads one stored column; ``stored_force`` reads a muster's force (its
``muster_mek`` rows, as ``campaigns.files.records.ForceEntry``) and ``store_force`` writes
it; ``stored_results`` and ``store_results`` do the same for a campaign's results, each
step's battle in its ``campaign_battle`` row; ``reading`` turns a damaged shape met while
using what was read (a key missing, a list where a mapping was, a value the game refuses)
into the same sentence.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlmodel import Session, col, delete, select

from campaigns.files.records import ForceEntry, StepResult
from db.models import Campaign, CampaignBattle, Muster, MusterMek
from meks.game.errors import MeksError


class DamagedRecord(MeksError):
    """Stored data that no longer reads as the product stored it."""

    def __init__(self, record: str) -> None:
        self.record = record
        super().__init__(
            f"The database holds a damaged record ({record}): it no longer reads as meks "
            "stored it. Run 'meks db check' to see what is wrong, or restore a backup with "
            "'meks db restore'.")


def describe(row: object, column: str = "") -> str:
    """'muster 4, force': the table and id of ``row``, and the column."""
    table = getattr(row, "__tablename__", type(row).__name__.lower())
    ident = getattr(row, "id", getattr(row, "battle_id", None))  # battle_log: the battle's
    text = f"{table} {ident}" if ident is not None else str(table)
    return f"{text}, {column}" if column else text


def stored_json(row: object, column: str, shape: type | tuple[type, ...] = object) -> Any:
    """The JSON stored in ``row.column``, which must be of ``shape`` (``list``, ``dict``);
    ``DamagedRecord`` naming the record if it is not readable JSON of that shape."""
    text = getattr(row, column)
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise DamagedRecord(describe(row, column)) from None
    if not isinstance(data, shape):
        raise DamagedRecord(describe(row, column))
    return data


def stored_force(session: Session, row: Muster) -> list[ForceEntry]:
    """The force of the muster ``row`` (its ``muster_mek`` rows, in the order mustered):
    each Mek and its pilot by id, with what the muster paid (``ForceEntry``; a count the
    muster recorded nothing for is left out). ``DamagedRecord`` naming the record if the
    muster's old JSON column still holds a force that migration 14 could not move."""
    if row.force != "[]":
        raise DamagedRecord(describe(row, "force"))
    force: list[ForceEntry] = []
    for mek, pilot, paid, owed in session.exec(
            select(MusterMek.mek_id, MusterMek.pilot_id, MusterMek.paid, MusterMek.owed)
            .where(MusterMek.muster_id == row.id).order_by(col(MusterMek.position))).all():
        entry: ForceEntry = {"mek": mek, "pilot": pilot}
        if paid is not None:
            entry["paid"] = paid
        if owed is not None:
            entry["owed"] = owed
        force.append(entry)
    return force


def store_force(session: Session, muster_id: int, force: list[ForceEntry]) -> None:
    """Make ``force`` the force of the muster ``muster_id`` (its ``muster_mek`` rows),
    replacing any it had."""
    session.exec(delete(MusterMek).where(col(MusterMek.muster_id) == muster_id))
    for position, entry in enumerate(force):
        session.add(MusterMek(muster_id=muster_id, position=position, mek_id=entry["mek"],
                              pilot_id=entry["pilot"], paid=entry.get("paid"),
                              owed=entry.get("owed")))
    session.flush()


def stored_results(session: Session, row: Campaign) -> list[Any]:
    """The results stored in the campaign ``row``, each step's ``battle_id`` the battle its
    ``campaign_battle`` row names (nothing when it has none); ``DamagedRecord`` naming the
    record if they are not a list. The entries are as stored (``StepResult``), unchecked."""
    results: list[Any] = stored_json(row, "results", list)
    battles = dict(session.exec(
        select(CampaignBattle.position, CampaignBattle.battle_id)
        .where(CampaignBattle.campaign_id == row.id)).all())
    for position, entry in enumerate(results):
        if isinstance(entry, dict) and "battle_id" in entry:
            entry["battle_id"] = battles.get(position)
    return results


def store_results(session: Session, row: Campaign, results: list[StepResult]) -> None:
    """Make ``results`` the results of the campaign ``row``: each step's battle as its
    ``campaign_battle`` row, the rest in the JSON column (``battle_id`` kept as nothing)."""
    assert row.id is not None
    session.exec(delete(CampaignBattle).where(col(CampaignBattle.campaign_id) == row.id))
    kept: list[StepResult] = []
    for position, entry in enumerate(results):
        battle = entry.get("battle_id")
        if battle is not None:
            session.add(CampaignBattle(campaign_id=row.id, position=position,
                                       battle_id=battle))
            entry = {**entry, "battle_id": None}
        kept.append(entry)
    row.results = json.dumps(kept)
    session.add(row)
    session.flush()


def is_force(data: object) -> bool:
    """Whether ``data`` has the shape of a muster's force (``ForceEntry``): a list of
    mappings, each naming a Mek and a pilot by id, with what was paid as counts."""
    return isinstance(data, list) and all(
        isinstance(entry, dict)
        and all(_is_id(entry.get(key)) for key in ("mek", "pilot"))
        and all(_is_count(entry[key]) for key in ("paid", "owed") if key in entry)
        for entry in data)


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_count(value: object) -> bool:
    return _is_id(value) and isinstance(value, int) and value >= 0


@contextmanager
def reading(row: object, column: str = "") -> Iterator[None]:
    """Within this, a damaged shape in what was read from ``row`` (a missing key, a wrong
    type, a value the game refuses) is a ``DamagedRecord`` naming it. Errors the product
    words itself (``MeksError``) pass through unchanged."""
    try:
        yield
    except MeksError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        raise DamagedRecord(describe(row, column)) from None
