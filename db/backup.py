"""Backups: every table of the database as one JSON document, and back.

A backup is read in a single transaction, so it is consistent even while other ``meks``
processes write (they wait for it, briefly). It is plain data, so a backup taken from
SQLite restores into PostgreSQL and the other way round.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
    select,
    text,
)
from sqlalchemy.exc import DataError, IntegrityError
from sqlalchemy.types import TypeDecorator
from sqlmodel import Session, SQLModel

import db.models  # noqa: F401 - registers every table
from db.engine import consistent
from db.migrations import LATEST, migrate, recompute_since
from db.migrations.links import LINKS_13
from meks.game.errors import (
    InputError,
    described,
    missing_key,
    problem,
    unknown_key,
    within,
    wrong_kind,
)

FORMAT = "meks-backup"


def tables() -> list[Table]:
    """The product's tables, parents before children."""
    return list(SQLModel.metadata.sorted_tables)


def dump(engine: Engine) -> dict[str, Any]:
    """Every row of every table, read as of one moment even while others write."""
    out: dict[str, list[dict[str, Any]]] = {}
    with consistent(engine).begin() as conn:
        for table in tables():
            rows = conn.execute(select(table).order_by(*table.primary_key.columns)).mappings()
            out[table.name] = [dict(row) for row in rows]
    return {"format": FORMAT, "schema_version": LATEST, "tables": out}


MAX_PROBLEMS = 20  # listed in full; beyond that, a count


def _columns_at(version: int) -> dict[str, set[str]]:
    """Each table's columns as migration ``version`` left them: what a backup made then
    holds. Read from a scratch in-memory database migrated that far."""
    if version == LATEST:
        return {t.name: {c.name for c in t.columns} for t in tables()}
    from sqlalchemy import create_engine, inspect

    scratch = create_engine("sqlite://")
    try:
        with scratch.begin() as conn:
            migrate(conn, upto=version)
            found = inspect(conn)
            return {name: {c["name"] for c in found.get_columns(name)}
                    for name in found.get_table_names() if name != "schema_migrations"}
    finally:
        scratch.dispose()


def _value_problem(column: Column[Any], value: object) -> str | None:
    """What is wrong with ``value`` for ``column``, or None. Integers are held to the
    range every supported database stores (PostgreSQL's INTEGER is 32 bits)."""
    if value is None:
        return None if column.nullable and not column.primary_key else "must have a value"
    kind = column.type
    if isinstance(kind, TypeDecorator):  # such as SQLModel's AutoString: judge what it stores
        kind = kind.impl_instance
    if isinstance(kind, Boolean):
        return None if isinstance(value, bool) else wrong_kind("true or false", value)
    if isinstance(kind, Integer):
        if isinstance(value, bool) or not isinstance(value, int):
            return wrong_kind("a whole number", value)
        bits = 64 if isinstance(kind, BigInteger) else 32
        if not -2 ** (bits - 1) <= value < 2 ** (bits - 1):
            return f"{described(value)} is too large to store; write a smaller number"
        return None
    if isinstance(kind, String):
        if not isinstance(value, str):
            return wrong_kind("text", value)
        if "\x00" in value:
            return "contains a NUL character; remove it"
        most = column.info.get("most_characters")
        if most is not None and len(value) > most:
            return (f"is {len(value)} characters long, and meks keeps such a name to {most}; "
                    "shorten it")
        return json_problem(value) if isinstance(kind, Text) else None
    wanted = kind.python_type
    if isinstance(value, wanted):
        return None
    return wrong_kind(wanted.__name__, value)


def json_problem(value: str) -> str | None:
    """What is wrong with the text of a JSON column (every ``Text`` column holds a JSON
    document: a list, a battle log, a snapshot), or None."""
    try:
        json.loads(value)
    except RecursionError:
        return "is not valid JSON (it is nested too deeply)"
    except ValueError as exc:
        return f"is not valid JSON ({str(exc).splitlines()[0]})"
    return None


def _named(table: Table, row: dict[str, Any]) -> str:
    """The row's battle, for the tables whose rows belong to one: said with its problems."""
    battle = row.get("id") if table.name == "battle" else row.get("battle_id") \
        if table.name == "battle_log" else None
    return f", battle {_shown(battle)}" if battle is not None else ""


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def validate(data: object, source: str) -> dict[str, list[dict[str, Any]]]:
    """The rows of the backup ``data``, table by table, once every one has been checked
    against the tables they go into: the tables and columns of the backup's schema version,
    each value's type, and the keys (no two rows alike where the tables forbid it, every
    link to a row the backup holds). Raises ``InputError`` listing every problem."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(
            data.get("tables"), dict):
        raise InputError(source, ["not a meks backup (made by 'meks db backup')"])
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError(source, [f"schema_version {version!r} is not one meks knows"])
    if version > LATEST:
        raise InputError(source, [f"made by a newer meks (schema {version}); upgrade first"])
    given: dict[str, Any] = data["tables"]
    expected = _columns_at(version)
    problems = [problem(unknown_key(name, sorted(expected)), path="tables")
                for name in sorted(set(given) - set(expected))]
    problems += [problem(missing_key(name), path="tables")
                 for name in sorted(set(expected) - set(given))]
    rows: dict[str, list[dict[str, Any]]] = {}
    for table in tables():
        if table.name not in given or table.name not in expected:  # unknown: said above
            continue
        listed = given[table.name]
        if not isinstance(listed, list):
            problems.append(problem(wrong_kind("a list of rows", listed),
                                    path=within("tables", table.name)))
            continue
        want = expected[table.name]
        for number, row in enumerate(listed, 1):
            where = f"{table.name} row {number}"
            if not isinstance(row, dict):
                problems.append(problem(wrong_kind("a mapping of column values", row),
                                        path=where))
                continue
            problems += [problem(unknown_key(name, sorted(want)), path=where)
                         for name in sorted(set(row) - want)]
            problems += [problem(missing_key(name), path=where)
                         for name in sorted(want - set(row))]
            for name, value in row.items():
                if name in table.c and (wrong := _value_problem(table.c[name], value)):
                    problems.append(problem(wrong, path=f"{where} ({name}"
                                                        f"{_named(table, row)})"))
        rows[table.name] = [row for row in listed if isinstance(row, dict)]
    if not problems:
        problems = _key_problems(rows, version)
    if problems:
        if len(problems) > MAX_PROBLEMS:
            rest = len(problems) - MAX_PROBLEMS
            problems = [*problems[:MAX_PROBLEMS], f"... and {rest} more"]
        raise InputError(source, problems)
    return rows


def _key_problems(rows: dict[str, list[dict[str, Any]]], version: int) -> list[str]:
    """Rows that repeat a key the table holds unique, and links to rows that are not there.
    A backup made before migration 13 may hold ids of musters, battles and plays that name
    rows gone since (they were not links then): restored, they let go of them, as the
    migration did (``recompute_since``)."""
    loose = {(table, column) for table, column, _, _ in LINKS_13} if version < 13 else set()
    problems: list[str] = []
    for table in tables():
        listed = rows.get(table.name, [])
        for constraint in table.constraints:
            if not isinstance(constraint, (PrimaryKeyConstraint, UniqueConstraint)):
                continue
            names = [c.name for c in constraint.columns]
            seen: dict[tuple[Any, ...], int] = {}
            for number, row in enumerate(listed, 1):
                key = tuple(row.get(name) for name in names)
                if None in key:
                    continue
                if key in seen:
                    shown = ", ".join(f"{n} {_shown(v)}" for n, v in zip(names, key, strict=True))
                    problems.append(f"{table.name} rows {seen[key]} and {number} have the same "
                                    f"{shown}, which must be unique")
                else:
                    seen[key] = number
        for link in table.foreign_keys:
            if (table.name, link.parent.name) in loose:
                continue
            target = link.column
            present = {row.get(target.name) for row in rows.get(target.table.name, [])}
            for number, row in enumerate(listed, 1):
                value = row.get(link.parent.name)
                if value is not None and value not in present:
                    problems.append(f"{table.name} row {number}: {link.parent.name} {value} "
                                    f"names no {target.table.name} row")
    return problems


def restore(engine: Engine, data: object, source: str,
            verify: Callable[[Session], list[str]] | None = None) -> dict[str, int]:
    """Replace everything in the database with the backup ``data``; one transaction.

    The backup is checked first (see ``validate``). Rows from a backup made by an older
    schema are brought up to date as the later migrations would have (such as migration
    7's refold of the name keys; see ``recompute_since``). ``verify``, when given, then
    reads the restored data before it is committed, and any problem it reports undoes the
    restore. Either way a refused backup raises ``InputError`` and leaves the database as
    it was."""
    rows = validate(data, source)
    counts: dict[str, int] = {}
    with engine.begin() as conn:
        for table in reversed(tables()):
            conn.execute(table.delete())
        for table in tables():
            listed = rows.get(table.name, [])
            if listed:
                try:
                    conn.execute(table.insert(), listed)
                except (IntegrityError, DataError) as exc:
                    reason = str(exc.orig).splitlines()[0] if exc.orig else str(exc)
                    raise InputError(source, [f"the {table.name} rows cannot be stored "
                                              f"({reason})"]) from None
            counts[table.name] = len(listed)
        # Rows from an older schema get what the later migrations made of stored rows.
        recompute_since(conn, data["schema_version"] if isinstance(data, dict) else LATEST)
        if conn.dialect.name == "postgresql":
            for table in tables():
                pk = list(table.primary_key.columns)
                if len(pk) == 1 and pk[0].autoincrement is not False and table.name != \
                        "battle_log":
                    # never back: an id the database gave before stays given (as
                    # SQLite's AUTOINCREMENT keeps it through the delete above)
                    sequence = conn.execute(text(
                        f"SELECT pg_get_serial_sequence('{table.name}', '{pk[0].name}')"
                    )).scalar_one()
                    if sequence is None:  # a key the database does not count for
                        continue
                    given = conn.execute(text(
                        f"SELECT CASE WHEN is_called THEN last_value ELSE 0 END "
                        f"FROM {sequence}")).scalar_one()
                    top = max(conn.execute(select(func.max(pk[0]))).scalar() or 0, given)
                    conn.execute(text(f"SELECT setval('{sequence}', {max(top, 1)}, "
                                      f"{top > 0})"))
        if verify is not None:
            _verify(conn, verify, source)
    return counts


def _verify(conn: Connection, verify: Callable[[Session], list[str]], source: str) -> None:
    with Session(bind=conn) as session:
        try:
            problems = verify(session)
        except (ValueError, KeyError, TypeError) as exc:
            problems = [f"its data cannot be read back ({exc})"]
    if problems:
        raise InputError(source, [f"restored, it would fail 'meks db check': {problem}"
                                  for problem in problems[:MAX_PROBLEMS]])


def to_text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, default=str)


__all__ = ["FORMAT", "MetaData", "dump", "restore", "tables", "to_text", "validate"]
