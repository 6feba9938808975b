"""``meks db check``: is the database sound, and does every company's state agree with its
history?"""

from __future__ import annotations

import json

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from campaigns.roster import snapshot
from db.models import Company, Event


def check(session: Session) -> list[str]:
    """Every problem found; an empty list means the database is sound. Checks the storage
    (SQLite's integrity and foreign keys), and for every company that its events chain
    (each change starts from the state the previous one left) and end at its current
    state."""
    problems: list[str] = []
    conn = session.connection()
    if conn.dialect.name == "sqlite":
        result = conn.exec_driver_sql("PRAGMA integrity_check").scalar()
        if result != "ok":
            problems.append(f"SQLite integrity check: {result}")
        for row in conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall():
            problems.append(f"table {row[0]} row {row[1]} points at a missing {row[2]} row")
    for company in session.exec(select(Company).order_by(col(Company.id))).all():
        events = session.exec(select(Event).where(Event.company_id == company.id)
                              .order_by(col(Event.id))).all()
        state = None
        for event in events:
            before = json.loads(event.before) if event.before else None
            if state is not None and before is not None and before != state:
                problems.append(f"{company.name}: event {event.id} ({event.command}) does "
                                "not start from the state the previous event left")
            if event.after:
                state = json.loads(event.after)
        if state is not None and state != snapshot(session, company):
            problems.append(f"{company.name}: the current state differs from the state its "
                            "history ends with")
    return problems


def restore(engine: Engine, data: object, source: str) -> dict[str, int]:
    """Replace the database with the backup ``data`` (``db.backup.restore``), refused with
    the database unchanged unless the restored data passes ``check``. Rows restored by
    table."""
    from db.backup import restore as restore_rows

    return restore_rows(engine, data, source, verify=check)
