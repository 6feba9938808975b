"""Migrations 13 on: the links between rows as foreign keys and as rows of their own, and
ids that are never given twice (frozen definitions; see ``db.migrations``)."""

from __future__ import annotations

import json
import re

from sqlalchemy import (
    Column,
    Connection,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    text,
)

# The links migration 13 made foreign keys, with what deleting the row they point at does:
# a muster and its battle let go of each other, a play lets go of the battle it stored,
# and a battle's full log goes with it. Deferred to the end of the transaction, so that a
# muster and its battle (each naming the other) can be written in either order.
LINKS_13 = (("muster", "battle_id", "battle", "SET NULL"),
            ("battle", "muster_id", "muster", "SET NULL"),
            ("play", "battle_id", "battle", "SET NULL"),
            ("battle_log", "battle_id", "battle", "CASCADE"))


def _v13(conn: Connection) -> None:
    # Ids that named a row without a foreign key become links the database keeps. What
    # they name must be there first (see ``_unlink_v13``).
    _unlink_v13(conn)
    if conn.dialect.name != "sqlite":
        for table, column, _, _ in LINKS_13[:3]:
            conn.execute(text(f"CREATE INDEX ix_{table}_{column} ON {table} ({column})"))
        for table, column, parent, ondelete in LINKS_13:
            conn.execute(text(f"ALTER TABLE {table} ADD CONSTRAINT {table}_{column}_fkey "
                              f"FOREIGN KEY ({column}) REFERENCES {parent} (id) "
                              f"ON DELETE {ondelete} DEFERRABLE INITIALLY DEFERRED"))
        return
    # SQLite adds no constraint to a table: a plain column gets a linked twin, gives it its
    # values and its name; the log's key, which is its table's primary key, gets a new
    # table. Neither needs SQLite's checks turned off.
    for table, column, parent, ondelete in LINKS_13[:3]:
        twin = f"{column}_linked"
        conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {twin} INTEGER REFERENCES "
                          f"{parent} (id) ON DELETE {ondelete} DEFERRABLE INITIALLY DEFERRED"))
        conn.execute(text(f"UPDATE {table} SET {twin} = {column}"))
        conn.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
        conn.execute(text(f"ALTER TABLE {table} RENAME COLUMN {twin} TO {column}"))
        conn.execute(text(f"CREATE INDEX ix_{table}_{column} ON {table} ({column})"))
    md = MetaData()
    Table("battle", md, Column("id", Integer, primary_key=True))
    Table("battle_log_linked", md,
          Column("battle_id", Integer,
                 ForeignKey("battle.id", ondelete="CASCADE", deferrable=True,
                            initially="DEFERRED"),
                 primary_key=True, autoincrement=False),
          Column("digest", String, nullable=False),
          Column("events", Integer, nullable=False),
          Column("spec", Text, nullable=False),
          Column("log", Text, nullable=False))
    md.tables["battle_log_linked"].create(conn)
    conn.execute(text("INSERT INTO battle_log_linked (battle_id, digest, events, spec, log) "
                      "SELECT battle_id, digest, events, spec, log FROM battle_log"))
    conn.execute(text("DROP TABLE battle_log"))
    conn.execute(text("ALTER TABLE battle_log_linked RENAME TO battle_log"))


def _unlink_v13(conn: Connection) -> None:
    # An id that names no row any more lets go of it: a muster or a play whose battle an
    # undo or a company delete removed, a battle whose muster is gone. A log whose battle
    # is gone is dropped: nothing could show it (a log is read through its battle).
    # Run again on rows restored from a backup made before version 13.
    for table, column, parent, _ in LINKS_13[:3]:
        conn.execute(text(f"UPDATE {table} SET {column} = NULL WHERE {column} IS NOT NULL "
                          f"AND {column} NOT IN (SELECT id FROM {parent})"))
    conn.execute(text("DELETE FROM battle_log WHERE battle_id NOT IN (SELECT id FROM battle)"))


def _v14(conn: Connection) -> None:
    # A muster's force as rows of its own, each Mek and pilot linked (until now ids inside
    # the muster's JSON, which nothing kept pointing at a row): in the order mustered, with
    # what the muster paid for each (nothing where it recorded nothing). The rows go with
    # their muster, Mek or pilot. The JSON column stays, emptied, for what it cannot move.
    md = MetaData()
    for parent in ("muster", "mek", "pilot"):
        Table(parent, md, Column("id", Integer, primary_key=True))
    Table("muster_mek", md,
          Column("muster_id", Integer, ForeignKey("muster.id", ondelete="CASCADE"),
                 primary_key=True, autoincrement=False),
          Column("position", Integer, primary_key=True, autoincrement=False),
          Column("mek_id", Integer, ForeignKey("mek.id", ondelete="CASCADE"),
                 nullable=False, index=True),
          Column("pilot_id", Integer, ForeignKey("pilot.id", ondelete="CASCADE"),
                 nullable=False, index=True),
          Column("paid", Integer, nullable=True),
          Column("owed", Integer, nullable=True))
    md.tables["muster_mek"].create(conn)
    _move_forces_v14(conn)


def _move_forces_v14(conn: Connection) -> None:
    # Move each muster's force out of its JSON into ``muster_mek`` and leave '[]' behind
    # (run again on rows restored from a backup made before version 14). A force that does
    # not read as one (``_force_rows_v14``) stays where it is: a damaged record, as before.
    meks = set(conn.execute(text("SELECT id FROM mek")).scalars())
    pilots = set(conn.execute(text("SELECT id FROM pilot")).scalars())
    moved = set(conn.execute(text("SELECT DISTINCT muster_id FROM muster_mek")).scalars())
    for muster_id, force in conn.execute(text(
            "SELECT id, force FROM muster WHERE force <> '[]' ORDER BY id")).all():
        rows = _force_rows_v14(force, meks, pilots)
        if rows is None or muster_id in moved:
            continue
        if rows:
            conn.execute(text("INSERT INTO muster_mek (muster_id, position, mek_id, pilot_id, "
                              "paid, owed) VALUES (:muster, :position, :mek, :pilot, :paid, "
                              ":owed)"), [{**row, "muster": muster_id} for row in rows])
        conn.execute(text("UPDATE muster SET force = '[]' WHERE id = :i"), {"i": muster_id})


def _force_rows_v14(force_text: object, meks: set[int], pilots: set[int]
                    ) -> list[dict[str, int | None]] | None:
    # The rows of a muster's force as of version 14, frozen here: each entry names a Mek
    # and a pilot that are there by id, with what was paid (``paid``, ``owed``) as counts
    # when it says; none when the JSON is not such a list.
    try:
        force: object = json.loads(force_text) if isinstance(force_text, str) else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(force, list):
        return None
    rows: list[dict[str, int | None]] = []
    for position, entry in enumerate(force):
        if not isinstance(entry, dict) or set(entry) - {"mek", "pilot", "paid", "owed"}:
            return None
        mek, pilot = entry.get("mek"), entry.get("pilot")
        counts = [entry.get(key) for key in ("paid", "owed")]
        if type(mek) is not int or type(pilot) is not int or mek not in meks \
                or pilot not in pilots or not all(
                    v is None or (type(v) is int and 0 <= v < 2 ** 31) for v in counts):
            return None
        rows.append({"position": position, "mek": mek, "pilot": pilot,
                     "paid": counts[0], "owed": counts[1]})
    return rows


def _v15(conn: Connection) -> None:
    # The battle each step of a campaign fought as a row of its own, linked (until now an
    # id inside the campaign's results, which nothing kept pointing at a row): the step by
    # its place in the results. The row goes with its campaign or its battle; the results
    # keep their entries, each ``battle_id`` as nothing.
    md = MetaData()
    for parent in ("campaign", "battle"):
        Table(parent, md, Column("id", Integer, primary_key=True))
    Table("campaign_battle", md,
          Column("campaign_id", Integer, ForeignKey("campaign.id", ondelete="CASCADE"),
                 primary_key=True, autoincrement=False),
          Column("position", Integer, primary_key=True, autoincrement=False),
          Column("battle_id", Integer, ForeignKey("battle.id", ondelete="CASCADE"),
                 nullable=False, index=True))
    md.tables["campaign_battle"].create(conn)
    _move_step_battles_v15(conn)


def _move_step_battles_v15(conn: Connection) -> None:
    # Move the battle ids of each campaign's results into ``campaign_battle`` (run again on
    # rows restored from a backup made before version 15). An id that names no battle any
    # more lets go of it, as migration 13 let go of such ids; results that do not read as a
    # list stay as they are (a damaged record).
    battles = set(conn.execute(text("SELECT id FROM battle")).scalars())
    for campaign_id, results_text in conn.execute(text(
            "SELECT id, results FROM campaign ORDER BY id")).all():
        try:
            results: object = json.loads(results_text)
        except (TypeError, ValueError, RecursionError):
            continue
        if not isinstance(results, list):
            continue
        rows, moved = [], False
        for position, entry in enumerate(results):
            battle = entry.get("battle_id") if isinstance(entry, dict) else None
            if battle is None:
                continue
            if type(battle) is int and battle in battles:
                rows.append({"c": campaign_id, "p": position, "b": battle})
            entry["battle_id"] = None
            moved = True
        if not moved:
            continue
        conn.execute(text("DELETE FROM campaign_battle WHERE campaign_id = :c"),
                     {"c": campaign_id})
        if rows:
            conn.execute(text("INSERT INTO campaign_battle (campaign_id, position, battle_id) "
                              "VALUES (:c, :p, :b)"), rows)
        conn.execute(text("UPDATE campaign SET results = :r WHERE id = :i"),
                     {"r": json.dumps(results), "i": campaign_id})



# The tables whose rows a player may name by their id (a company, a Mek, a pilot, a battle,
# a saved play, ...): every table keyed by an ``id`` column of its own.
KEYED_16 = ("company", "mek", "pilot", "muster", "support_roll", "battle", "event",
            "campaign", "play", "stockpile")


def _v16(conn: Connection) -> None:
    # An id once given is never given again. SQLite gave the highest id in use plus one, so
    # after an undo took the newest battle away the next battle took its id, and what had
    # been said of battle 12 then named another battle. PostgreSQL's sequences never go
    # back; SQLite's AUTOINCREMENT keeps the highest id ever given, which only a table made
    # with it has: each keyed table is made again with it, rows, indexes and links as they
    # were (SQLite's own order of steps for changing a table: foreign keys off, views and
    # triggers set aside, a new table, the rows, the old one dropped, the new one renamed,
    # the links checked), and counts on from the highest id it ever gave that the company
    # histories remember (an id an undo freed before this migration is not given again).
    if conn.dialect.name != "sqlite":
        return
    if conn.exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise RuntimeError("migration 16 remakes tables: run it with SQLite's foreign "
                           "keys off, or dropping a table would take its children's rows")
    # links that named no row before (a damaged record 'db check' names) stay as they were
    broken = set(conn.exec_driver_sql("PRAGMA foreign_key_check").all())
    aside = conn.exec_driver_sql(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('view', 'trigger') "
        "AND sql IS NOT NULL ORDER BY type DESC, rowid").all()
    for kind, name, _ in aside:
        conn.exec_driver_sql(f'DROP {kind.upper()} "{name}"')
    given = _given_16(conn)
    for table in KEYED_16:
        create, indexes = _definition(conn, table)
        conn.exec_driver_sql(_with_autoincrement(create, table, f"{table}__remade"))
        conn.exec_driver_sql(f'INSERT INTO "{table}__remade" SELECT * FROM "{table}"')
        conn.exec_driver_sql(f'DROP TABLE "{table}"')
        conn.exec_driver_sql(f'ALTER TABLE "{table}__remade" RENAME TO "{table}"')
        for index in indexes:
            conn.exec_driver_sql(index)
        top = max(given.get(table, 0), conn.exec_driver_sql(
            f'SELECT coalesce(max(id), 0) FROM "{table}"').scalar() or 0)
        conn.exec_driver_sql("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
        if top:
            conn.exec_driver_sql("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)",
                                 (table, top))
    for _, _, sql in aside:
        conn.exec_driver_sql(sql)
    made = set(conn.exec_driver_sql("PRAGMA foreign_key_check").all()) - broken
    if made:
        raise RuntimeError(f"migration 16 would leave links that name no row: {sorted(made)}")


# Where a company's history (its events' snapshots, as this schema writes them) lists the
# rows of each keyed table.
SNAPSHOT_16 = {"company": "company", "meks": "mek", "pilots": "pilot",
               "support": "support_roll", "musters": "muster", "battles": "battle",
               "campaigns": "campaign"}


def _given_16(conn: Connection) -> dict[str, int]:
    # The highest id of each keyed table that a snapshot in the history names: given once,
    # though an undo or a delete may have taken its row away since. A snapshot that does
    # not read is passed over ('db check' names it).
    high: dict[str, int] = {}
    for texts in conn.exec_driver_sql('SELECT "before", "after" FROM event'):
        for text_ in texts:
            try:
                doc = json.loads(text_) if isinstance(text_, str) else None
            except (ValueError, RecursionError):
                continue
            if not isinstance(doc, dict):
                continue
            for key, table in SNAPSHOT_16.items():
                rows = doc.get(key)
                for row in [rows] if isinstance(rows, dict) else \
                        rows if isinstance(rows, list) else []:
                    found = row.get("id") if isinstance(row, dict) else None
                    if type(found) is int and high.get(table, 0) < found < 2 ** 31:
                        high[table] = found
    return high


def _definition(conn: Connection, table: str) -> tuple[str, list[str]]:
    # The statement that made ``table`` and those of its own indexes (not the ones its
    # UNIQUE constraints bring, which the statement makes again).
    rows = conn.exec_driver_sql(
        "SELECT type, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL "
        "ORDER BY type DESC, name", (table,)).all()
    creates = [sql for kind, sql in rows if kind == "table"]
    if len(creates) != 1:
        raise RuntimeError(f"migration 16 finds no table {table}")
    return creates[0], [sql for kind, sql in rows if kind == "index"]


def _with_autoincrement(create: str, table: str, new_name: str) -> str:
    # ``create`` (as the earlier migrations and SQLite's ALTER TABLE wrote it) for a table
    # named ``new_name`` whose ``id`` is an AUTOINCREMENT key. Anything but the shape they
    # wrote is refused rather than guessed at.
    head = re.match(rf'CREATE TABLE "?{table}"? \(\s*id INTEGER NOT NULL,', create)
    constraint = re.findall(r",\s*PRIMARY KEY \(id\)", create)
    if head is None or len(constraint) != 1:
        raise RuntimeError(f"migration 16 cannot read how table {table} was made")
    body = create[head.end():].replace(constraint[0], "", 1)
    return f'CREATE TABLE "{new_name}" (\n\tid INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,{body}'
