"""Ordered, recorded schema migrations.

Each migration has a version number and a function that changes the schema through a
connection. ``migrate`` applies the missing ones in order, inside one transaction, and records
each in ``schema_migrations``; it is run every time a database is opened, so an older
database is brought up to date automatically; a database whose recorded schema is above
``LATEST`` (written by a newer meks) raises ``NewerSchema`` before anything is written to
it. Migrations describe the schema as it was at
their version (frozen table definitions), never by importing the current models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Column, Connection, Integer, MetaData, String, Table, text

from db.migrations.links import (
    _move_forces_v14,
    _move_step_battles_v15,
    _unlink_v13,
    _v13,
    _v14,
    _v15,
    _v16,
)
from db.migrations.tables import (
    _hold_musters_v10,
    _link_plays_v8,
    _v1,
    _v2,
    _v3,
    _v4,
    _v5,
    _v6,
    _v7,
    _v8,
    _v9,
    _v10,
    _v11,
    _v12,
)


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    apply: Callable[[Connection], None]
    # For a migration that recomputes stored data from other columns (written to be run
    # again): rows restored from a backup made before it are brought up to date by it.
    recompute: Callable[[Connection], None] | None = None



MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "companies, Meks, pilots, support, musters, battles, events", _v1),
    Migration(2, "points owed by pilots hired as Regular", _v2),
    Migration(3, "battle logs kept apart from company state", _v3),
    Migration(4, "campaigns: a company's plan of scenarios", _v4),
    Migration(5, "battles played at the terminal, saved decision by decision", _v5),
    Migration(6, "damage a Mek carries when repairs are off", _v6),
    Migration(7, "name keys refolded with Unicode normalisation", _v7, recompute=_v7),
    Migration(8, "a play's campaign and step as columns", _v8, recompute=_link_plays_v8),
    Migration(9, "stockpiles, lost parts, points owed and wear (salvage, spare parts, wear)",
              _v9),
    Migration(10, "the musters a play holds as columns", _v10, recompute=_hold_musters_v10),
    Migration(11, "the scenario a muster was made for, kept with it", _v11),
    Migration(12, "a campaign's treasury (house rule treasury)", _v12),
    Migration(13, "links between musters, battles, plays and logs as foreign keys", _v13,
              recompute=_unlink_v13),
    Migration(14, "a muster's force as rows linking its Meks and pilots", _v14,
              recompute=_move_forces_v14),
    Migration(15, "the battle of each campaign step as a row linking it", _v15,
              recompute=_move_step_battles_v15),
    Migration(16, "ids never given twice (SQLite: keyed tables made again with AUTOINCREMENT)",
              _v16),
)

LATEST = MIGRATIONS[-1].version

_VERSIONS = Table(
    "schema_migrations", MetaData(),
    Column("version", Integer, primary_key=True),
    Column("description", String, nullable=False),
    Column("applied_at", String, nullable=False),
)


class NewerSchema(Exception):
    """The database records a schema version above ``LATEST``: a newer meks wrote it."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema {version} is newer than {LATEST}")
        self.version = version


def applied_versions(conn: Connection) -> list[int]:
    if not conn.dialect.has_table(conn, "schema_migrations"):
        return []
    return sorted(r[0] for r in conn.execute(_VERSIONS.select().with_only_columns(
        _VERSIONS.c.version)))


def up_to_date(conn: Connection) -> bool:
    """Whether every migration has been applied to the database (read only; one a newer
    meks wrote raises ``NewerSchema``)."""
    done = set(applied_versions(conn))
    if done and max(done) > LATEST:
        raise NewerSchema(max(done))
    return done >= {migration.version for migration in MIGRATIONS}


def recompute_since(conn: Connection, version: int) -> list[int]:
    """Run, on ``conn`` and inside the caller's transaction, the data steps of the
    migrations after ``version`` that recompute stored data: rows written by schema
    ``version`` (restored from a backup made then) get what those migrations would have
    made of them. Returns the versions whose steps ran."""
    ran = []
    for migration in MIGRATIONS:
        if migration.version > version and migration.recompute is not None:
            migration.recompute(conn)
            ran.append(migration.version)
    return ran


def migrate(conn: Connection, upto: int | None = None) -> list[int]:
    """Apply the missing migrations (up to ``upto``) on ``conn``, inside the caller's
    transaction. Returns the versions applied. A database a newer meks wrote raises
    ``NewerSchema`` first, having written nothing."""
    from db.models import utcnow

    if conn.dialect.name == "postgresql":  # one migrator at a time
        conn.execute(text("SELECT pg_advisory_xact_lock(727274)"))
    done = set(applied_versions(conn))
    if done and max(done) > LATEST:
        raise NewerSchema(max(done))
    _VERSIONS.create(conn, checkfirst=True)
    applied = []
    for migration in MIGRATIONS:
        if migration.version in done or (upto is not None and migration.version > upto):
            continue
        migration.apply(conn)
        conn.execute(_VERSIONS.insert().values(version=migration.version,
                                               description=migration.description,
                                               applied_at=utcnow()))
        applied.append(migration.version)
    return applied
