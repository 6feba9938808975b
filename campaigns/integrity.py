"""``meks db check``: is the database sound, and does every company's state agree with its
history?"""

from __future__ import annotations

import json

from sqlalchemy import Engine, Text
from sqlalchemy import select as select_columns
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from campaigns.roster import snapshot
from campaigns.stored import DamagedRecord
from db.backup import json_problem, tables
from db.engine import damaged, is_damage
from db.models import Company, Event


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
    problems += _stored_json_problems(session)
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
                problems.append(f"{company.name}: event {event.id} ({event.command}) does "
                                "not start from the state the previous event left")
            if after is not None:
                state = after
        try:
            now = snapshot(session, company)
        except DamagedRecord:  # reported with the stored JSON
            continue
        if state is not None and state != now:
            problems.append(f"{company.name}: the current state differs from the state its "
                            "history ends with")
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


def restore(engine: Engine, data: object, source: str) -> dict[str, int]:
    """Replace the database with the backup ``data`` (``db.backup.restore``), refused with
    the database unchanged unless the restored data passes ``check``. Rows restored by
    table."""
    from db.backup import restore as restore_rows

    return restore_rows(engine, data, source, verify=check)
