"""Backups: every table of the database as one JSON document, and back.

A backup is read in a single transaction, so it is consistent even while other ``meks``
processes write (they wait for it, briefly). It is plain data, so a backup taken from
SQLite restores into PostgreSQL and the other way round.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Engine, MetaData, Table, func, select, text
from sqlmodel import SQLModel

import db.models  # noqa: F401 - registers every table
from db.migrations import LATEST
from meks.errors import InputError

FORMAT = "meks-backup"


def tables() -> list[Table]:
    """The product's tables, parents before children."""
    return list(SQLModel.metadata.sorted_tables)


def dump(engine: Engine) -> dict[str, Any]:
    out: dict[str, list[dict[str, Any]]] = {}
    with engine.begin() as conn:
        for table in tables():
            rows = conn.execute(select(table).order_by(*table.primary_key.columns)).mappings()
            out[table.name] = [dict(row) for row in rows]
    return {"format": FORMAT, "schema_version": LATEST, "tables": out}


def restore(engine: Engine, data: object, source: str) -> dict[str, int]:
    """Replace everything in the database with the backup ``data``; one transaction."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(
            data.get("tables"), dict):
        raise InputError(source, ["not a meks backup (made by 'meks db backup')"])
    version = data.get("schema_version")
    if not isinstance(version, int) or version > LATEST:
        raise InputError(source, [f"made by a newer meks (schema {version}); upgrade first"])
    known = {t.name: t for t in tables()}
    unknown = sorted(set(data["tables"]) - set(known))
    if unknown:
        raise InputError(source, [f"unknown table {name!r}" for name in unknown])
    counts: dict[str, int] = {}
    with engine.begin() as conn:
        for table in reversed(tables()):
            conn.execute(table.delete())
        for table in tables():
            rows = data["tables"].get(table.name, [])
            if not isinstance(rows, list):
                raise InputError(source, [f"table {table.name!r} is not a list of rows"])
            columns = {c.name for c in table.columns}
            clean = [{k: v for k, v in row.items() if k in columns} for row in rows
                     if isinstance(row, dict)]
            if clean:
                conn.execute(table.insert(), clean)
            counts[table.name] = len(clean)
        if conn.dialect.name == "postgresql":
            for table in tables():
                pk = list(table.primary_key.columns)
                if len(pk) == 1 and pk[0].autoincrement is not False and table.name != \
                        "battle_log":
                    top = conn.execute(select(func.max(pk[0]))).scalar() or 0
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', "
                                      f"'{pk[0].name}'), {max(top, 1)}, {top > 0})"))
    return counts


def to_text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, default=str)


__all__ = ["FORMAT", "MetaData", "dump", "restore", "tables", "to_text"]
