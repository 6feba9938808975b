"""``meks db check``: is the database sound, does every company's state agree with its
history, and do every play's campaign link and musters agree with what the play records?"""

from __future__ import annotations

import json

from sqlalchemy import Engine, Text
from sqlalchemy import select as select_columns
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from campaigns.files.roster import snapshot
from campaigns.files.stored import DamagedRecord, is_force
from campaigns.roster_io import stored_problems
from db.backup import json_problem, tables
from db.engine import is_damage
from db.errors import RESTORE_ADVICE, damaged
from db.models import (
    NAME_LENGTH,
    Campaign,
    Company,
    Event,
    Mek,
    Muster,
    Pilot,
    Play,
    PlayStatus,
    fold,
)
from meks.game.catalog import load_catalog
from meks.game.text import shown


def check(session: Session) -> list[str]:
    """Every problem found; an empty list means the database is sound. Checks the storage
    (SQLite's integrity and foreign keys), and for every company that its events chain
    (each change starts from the state the previous one left) and end at its current
    state. A damaged file is one problem, said in one line: what is stored in it cannot be
    trusted, so nothing further is checked."""
    try:
        return _check(session)
    except DBAPIError as exc:
        if not is_damage(exc):
            raise
        return [damaged(str(exc.orig).strip().splitlines()[0])]


def _check(session: Session) -> list[str]:
    problems: list[str] = []
    conn = session.connection()
    if conn.dialect.name == "sqlite":
        found = [line for row in conn.exec_driver_sql("PRAGMA integrity_check").scalars()
                 for line in str(row).splitlines() if line.strip("* ") and
                 not line.startswith("*** in database")]
        if found != ["ok"]:
            more = f", and {len(found) - 1} more" if len(found) > 1 else ""
            return [damaged(f"SQLite's integrity check: {found[0]}{more}")]
        for row in conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall():
            problems.append(f"table {row[0]} row {row[1]} points at a missing {row[2]} row")
    missing = _missing_parts(session)
    if missing:  # nothing further can be read as meks keeps it
        return problems + missing
    problems += _stored_json_problems(session)
    problems += _force_problems(session)
    problems += _play_link_problems(session)
    problems += _name_key_problems(session)
    catalog = load_catalog()
    for company in session.exec(select(Company).order_by(col(Company.id))).all():
        events = session.exec(select(Event).where(Event.company_id == company.id)
                              .order_by(col(Event.id))).all()
        state = None
        for event in events:
            try:
                before = json.loads(event.before) if event.before else None
                after = json.loads(event.after) if event.after else None
            except ValueError:  # reported with the stored JSON
                state = None
                continue
            if state is not None and before is not None and before != state:
                problems.append(f"{_named(company.name)}: event {event.id} ({event.command}) does "
                                "not start from the state the previous event left")
            if after is not None:
                state = after
        try:
            now = snapshot(session, company)
        except DamagedRecord:  # reported with the stored JSON
            continue
        problems += [f"{_named(company.name)}: {wrong}" for wrong in stored_problems(
            now, catalog)]
        if state is not None and state != now:
            problems.append(f"{_named(company.name)}: the current state differs from the state its "
                            "history ends with")
    return problems


def _named(name: str) -> str:
    """A company's name for a problem: as it is, or cut short and quoted when it is longer
    than a name meks gives (one read from a backup may be anything)."""
    return name if len(name) <= NAME_LENGTH else shown(name, NAME_LENGTH)


def _missing_parts(session: Session) -> list[str]:
    """Each table or column meks keeps that the database lacks (dropped or renamed outside
    meks), the last with what to do about it."""
    from sqlalchemy import inspect
    from sqlmodel import SQLModel

    found = inspect(session.connection())
    names = set(found.get_table_names())
    problems = []
    for table in SQLModel.metadata.sorted_tables:
        if table.name not in names:
            problems.append(f"table {table.name} is missing")
            continue
        have = {column["name"] for column in found.get_columns(table.name)}
        lacking = [column.name for column in table.columns if column.name not in have]
        if lacking:
            problems.append(f"table {table.name} lacks the column"
                            f"{'s' * (len(lacking) > 1)} {', '.join(lacking)}")
    if problems:
        problems[-1] += (f"; the database's tables were changed outside meks, so "
                         f"{RESTORE_ADVICE}")
    return problems


def _stored_json_problems(session: Session) -> list[str]:
    """Every stored JSON document (a snapshot, a force, a battle log...) that no longer
    reads as JSON, named by its table, row and column."""
    problems = []
    conn = session.connection()
    for table in tables():
        texts = [c for c in table.columns if isinstance(c.type, Text)]
        if not texts:
            continue
        keys = list(table.primary_key.columns)
        for row in conn.execute(select_columns(*keys, *texts).order_by(*keys)):
            ident = ", ".join(str(v) for v in row[:len(keys)])
            for column, value in zip(texts, row[len(keys):], strict=True):
                wrong = None if value is None else json_problem(value)
                if wrong:
                    problems.append(f"{table.name} {ident}: the stored {column.name} {wrong}")
    return problems


def _force_problems(session: Session) -> list[str]:
    """Every muster whose old JSON column still holds a force: one migration 14 could not
    move into ``muster_mek`` (its links are checked by the database, as every row's). The
    commands that use it refuse it as a damaged record."""
    problems = []
    for muster in session.exec(select(Muster).where(col(Muster.force) != "[]")
                               .order_by(col(Muster.id))).all():
        try:
            force = json.loads(muster.force)
        except (TypeError, ValueError, RecursionError):  # reported with the stored JSON
            continue
        if not is_force(force):
            problems.append(f"muster {muster.id}: the stored force is not a list of entries "
                            "each naming a Mek and a pilot by id")
        else:
            problems.append(f"muster {muster.id}: the stored force names a Mek or a pilot "
                            "that is not there (or holds what no force holds), so it was "
                            "never moved into muster_mek")
    return problems


def _name_key_problems(session: Session) -> list[str]:
    """Every company, Mek or pilot whose lookup key is not its name folded: such a row is
    not found by its own name. A key may also be the folded name, a zero-width space and a
    number: what migration 7 and a roster import give the second of two names that fold
    alike, which only a database written before names were normalised can hold."""
    problems = []
    rows: list[tuple[str, str, str, str, int | None]] = [
        ("company", "name_key", c.name, c.name_key, c.id)
        for c in session.exec(select(Company).order_by(col(Company.id))).all()]
    rows += [("mek", "callsign_key", m.callsign, m.callsign_key, m.id)
             for m in session.exec(select(Mek).order_by(col(Mek.id))).all()]
    rows += [("pilot", "name_key", p.name, p.name_key, p.id)
             for p in session.exec(select(Pilot).order_by(col(Pilot.id))).all()]
    for table, column, name, key, ident in rows:
        folded = fold(name)
        head, mark, tail = key.partition("\u200b")
        if key == folded or (mark and head == folded and tail.isdecimal()):
            continue
        problems.append(f"{table} {ident} ({shown(name, NAME_LENGTH)}): its {column} "
                        f"{shown(key, NAME_LENGTH)} is not its name folded, so it cannot be "
                        f"found by name; set it to {shown(folded, NAME_LENGTH)}")
    return problems


def _play_link_problems(session: Session) -> list[str]:
    """Every play whose campaign columns (``campaign_id``, ``campaign_step``) are not the
    campaign step its ``spec`` records (see ``recorded_step``)."""
    problems = []
    owners = {c.id: c.company_id for c in session.exec(select(Campaign)).all()
              if c.id is not None}
    muster_owners = {m.id: m.company_id for m in session.exec(select(Muster)).all()
                     if m.id is not None}
    for row in session.exec(select(Play).order_by(col(Play.id))).all():
        try:
            spec = json.loads(row.spec)
        except (ValueError, RecursionError):  # reported with the stored JSON
            continue
        link = (row.campaign_id, row.campaign_step)
        wanted = recorded_step(spec, owners)
        if link != wanted:
            problems.append(f"play {row.id}: its campaign columns say {_link(link)}, but the "
                            f"play's record says {_link(wanted)}")
        held = (row.attacker_muster_id, row.defender_muster_id)
        recorded = recorded_musters(spec, muster_owners)
        if not musters_agree(held, recorded, row.status == PlayStatus.ACTIVE):
            problems.append(f"play {row.id}: its muster columns say {_musters(held)}, but the "
                            f"play's record says {_musters(recorded)}")
    return problems


def recorded_musters(spec: object, owners: dict[int, int]) -> tuple[int | None, int | None]:
    """The attacker's and the defender's musters a play's ``spec`` records (its ``sides``
    entries' ``muster``), which its columns hold; ``owners``: each muster's company. None
    for a side that records none, or a muster that is gone or is not of the company the
    side records (its id perhaps given to another since). Migration 10 fills the columns
    by the same rule."""
    sides = spec.get("sides") if isinstance(spec, dict) else None
    held: list[int | None] = []
    for side in ("attacker", "defender"):
        info = sides.get(side) if isinstance(sides, dict) else None
        muster = info.get("muster") if isinstance(info, dict) else None
        company = info.get("company") if isinstance(info, dict) else None
        held.append(muster if type(muster) is int and type(company) is int
                    and owners.get(muster) == company else None)
    return held[0], held[1]


def musters_agree(held: tuple[int | None, int | None],
                  recorded: tuple[int | None, int | None], active: bool) -> bool:
    """Whether a play's muster columns (``held``) agree with the musters its record names
    (``recorded_musters``). An unfinished play holds exactly those. A finished play holds
    them or, side by side, nothing: its muster may since have been replaced (the column
    let go) and the new muster given the same id."""
    if active:
        return held == recorded
    return all(h is None or h == r for h, r in zip(held, recorded, strict=True))


def _musters(held: tuple[object, object]) -> str:
    attacker, defender = held
    if attacker is None and defender is None:
        return "no muster"
    return " and ".join(f"the {side}'s muster {muster}" for side, muster
                        in (("attacker", attacker), ("defender", defender))
                        if muster is not None)


NO_STEP: tuple[None, None] = (None, None)


def recorded_step(spec: object, owners: dict[int, int]) -> tuple[int | None, int | None]:
    """The campaign and plan position a play's ``spec`` records (its ``campaign`` entry's
    ``id`` and ``position``), which its columns must hold; ``owners``: each campaign's
    company. None for both when it records none, or names a campaign that is gone or
    belongs to none of the play's companies: a play stored before the columns were (schema
    8), whose campaign was deleted, its id perhaps given to another since. Migration 8
    fills the columns by the same rule."""
    if not isinstance(spec, dict) or not isinstance(spec.get("campaign"), dict):
        return NO_STEP
    campaign, position = spec["campaign"].get("id"), spec["campaign"].get("position")
    if not all(type(v) is int and 0 <= v < 2 ** 31 for v in (campaign, position)):
        return NO_STEP
    sides = spec.get("sides")
    companies = {info["company"] for info in sides.values()
                 if isinstance(info, dict) and type(info.get("company")) is int} \
        if isinstance(sides, dict) else set()
    if campaign not in owners or owners[campaign] not in companies:
        return NO_STEP
    return campaign, position


def _link(link: tuple[object, object]) -> str:
    campaign, step = link
    if campaign is None and step is None:
        return "no campaign"
    return f"campaign {campaign} at plan position {step}"


def restore(engine: Engine, data: object, source: str) -> dict[str, int]:
    """Replace the database with the backup ``data`` (``db.backup.restore``), refused with
    the database unchanged unless the restored data passes ``check``. Rows restored by
    table."""
    from db.backup import restore as restore_rows

    return restore_rows(engine, data, source, verify=check)
