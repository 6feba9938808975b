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

import json
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    apply: Callable[[Connection], None]
    # For a migration that recomputes stored data from other columns (written to be run
    # again): rows restored from a backup made before it are brought up to date by it.
    recompute: Callable[[Connection], None] | None = None


def _v1_tables() -> MetaData:
    md = MetaData()

    def fk(target: str, nullable: bool = False, ondelete: str = "CASCADE") -> Column[int]:
        return Column(target.split(".")[0] + "_id", Integer,
                      ForeignKey(target, ondelete=ondelete), nullable=nullable, index=True)

    Table("company", md,
          Column("id", Integer, primary_key=True),
          Column("name", String, nullable=False),
          Column("name_key", String, nullable=False, unique=True),
          Column("created_at", String, nullable=False))
    Table("mek", md,
          Column("id", Integer, primary_key=True),
          fk("company.id"),
          Column("callsign", String, nullable=False),
          Column("callsign_key", String, nullable=False),
          Column("design", String, nullable=False),
          Column("custom_design", Text, nullable=True),
          Column("size", String, nullable=False),
          Column("price", Integer, nullable=False),
          Column("kills", Integer, nullable=False),
          Column("status", String, nullable=False),
          UniqueConstraint("company_id", "callsign_key"))
    Table("pilot", md,
          Column("id", Integer, primary_key=True),
          fk("company.id"),
          Column("name", String, nullable=False),
          Column("name_key", String, nullable=False),
          Column("level", String, nullable=False),
          Column("kills", Integer, nullable=False),
          Column("scenarios", Integer, nullable=False),
          Column("skills", Text, nullable=False),
          Column("status", String, nullable=False),
          fk("mek.id", nullable=True, ondelete="SET NULL"),
          UniqueConstraint("company_id", "name_key"))
    Table("muster", md,
          Column("id", Integer, primary_key=True),
          fk("company.id"),
          Column("scenario", String, nullable=True),
          Column("side", String, nullable=True),
          Column("budget", Integer, nullable=False),
          Column("max_size", String, nullable=True),
          Column("cost", Integer, nullable=False),
          Column("force", Text, nullable=False),
          Column("battle_id", Integer, nullable=True),
          Column("created_at", String, nullable=False))
    Table("support_roll", md,
          Column("id", Integer, primary_key=True),
          fk("company.id"),
          fk("muster.id", nullable=True, ondelete="SET NULL"),
          Column("table_die", Integer, nullable=False),
          Column("entry_die", Integer, nullable=False),
          Column("result", String, nullable=False),
          Column("points", Integer, nullable=False),
          Column("used", Boolean, nullable=False))
    Table("battle", md,
          Column("id", Integer, primary_key=True),
          fk("company.id", nullable=True),
          Column("muster_id", Integer, nullable=True),
          Column("scenario", String, nullable=True),
          Column("mode", String, nullable=False),
          Column("sides", Text, nullable=False),
          Column("seed", BigInteger, nullable=True),
          Column("result", String, nullable=False),
          Column("log", Text, nullable=False),
          Column("created_at", String, nullable=False))
    Table("event", md,
          Column("id", Integer, primary_key=True),
          fk("company.id", nullable=True, ondelete="SET NULL"),
          Column("company_name", String, nullable=False),
          Column("command", String, nullable=False),
          Column("summary", String, nullable=False),
          Column("dice", Text, nullable=False),
          Column("before", Text, nullable=True),
          Column("after", Text, nullable=True),
          Column("undoes", Integer, nullable=True),
          Column("undone", Boolean, nullable=False),
          Column("created_at", String, nullable=False))
    return md


def _v1(conn: Connection) -> None:
    _v1_tables().create_all(conn)


def _v2(conn: Connection) -> None:
    # A pilot hired as Regular owes its 5 points at its first muster (R3.3).
    conn.execute(text("ALTER TABLE pilot ADD COLUMN hire_cost INTEGER NOT NULL DEFAULT 0"))


def _v3(conn: Connection) -> None:
    # Battle logs live apart from the company state: events snapshot a company, and a
    # log of several hundred events in every snapshot would grow the history fast.
    md = MetaData()
    Table("battle_log", md,
          Column("battle_id", Integer, primary_key=True, autoincrement=False),
          Column("digest", String, nullable=False),
          Column("events", Integer, nullable=False),
          Column("spec", Text, nullable=False),
          Column("log", Text, nullable=False))
    md.create_all(conn)


def _v4(conn: Connection) -> None:
    md = MetaData()
    Table("company", md, Column("id", Integer, primary_key=True))
    Table("campaign", md,
          Column("id", Integer, primary_key=True),
          Column("company_id", Integer, ForeignKey("company.id", ondelete="CASCADE"),
                 nullable=False, index=True),
          Column("name", String, nullable=False),
          Column("plan", Text, nullable=False),
          Column("position", Integer, nullable=False),
          Column("seed", BigInteger, nullable=False),
          Column("difficulty", String, nullable=False),
          Column("status", String, nullable=False),
          Column("results", Text, nullable=False),
          Column("created_at", String, nullable=False))
    md.tables["campaign"].create(conn)


def _v5(conn: Connection) -> None:
    # Battles fought at the terminal, saved after every decision so they can be resumed.
    md = MetaData()
    Table("play", md,
          Column("id", Integer, primary_key=True),
          Column("scenario", String, nullable=False),
          Column("side", String, nullable=False),
          Column("opponent", String, nullable=False),
          Column("seed", BigInteger, nullable=False),
          Column("spec", Text, nullable=False),
          Column("decisions", Text, nullable=False),
          Column("status", String, nullable=False),
          Column("result", String, nullable=True),
          Column("digest", String, nullable=True),
          Column("battle_id", Integer, nullable=True),
          Column("created_at", String, nullable=False),
          Column("updated_at", String, nullable=False))
    md.create_all(conn)


def _v6(conn: Connection) -> None:
    # Hits a Mek carries into its next battle when a scenario says 'repair: none' (R3.4).
    conn.execute(text("ALTER TABLE mek ADD COLUMN damage INTEGER NOT NULL DEFAULT 0"))


def _fold_v7(name: str) -> str:
    # The name key as of version 7 (NFKC, casefold, invisible characters dropped, spacing
    # collapsed), frozen here so that this migration keeps meaning the same.
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join("".join(c for c in text if c.isspace()
                            or unicodedata.category(c) not in ("Cc", "Cf", "Cs")).split())


def _v7(conn: Connection) -> None:
    # Name keys are refolded with Unicode normalisation, so that a name typed with composed
    # or decomposed accents, or with a zero-width space, is found either way. ASCII names
    # keep their keys. Two rows that now fold alike (possible only in a database written
    # before) keep distinct keys: the one whose key changes (or the later one) gets a
    # zero-width space and its id, which no typed name folds to; it is found by its id.
    for table, name, key, scope in (("company", "name", "name_key", None),
                                    ("mek", "callsign", "callsign_key", "company_id"),
                                    ("pilot", "name", "name_key", "company_id")):
        scope_col = f", {scope}" if scope else ""
        rows = conn.execute(text(f"SELECT id, {name}, {key}{scope_col} FROM {table} "
                                 "ORDER BY id")).all()
        wanted: dict[int, str] = {}
        taken: set[tuple[object, str]] = set()
        # A row whose key does not change keeps it, so it is still found by that name.
        for row in sorted(rows, key=lambda r: (_fold_v7(r[1]) != r[2], r[0])):
            new = _fold_v7(row[1])
            if (row[3] if scope else None, new) in taken:
                new = f"{new}\u200b{row[0]}"
            taken.add((row[3] if scope else None, new))
            if new != row[2]:
                wanted[row[0]] = new
        # Two passes, so no row is ever given a key another still holds.
        for row_id in wanted:
            conn.execute(text(f"UPDATE {table} SET {key} = :k WHERE id = :i"),
                         {"k": f"\u200b\u200b{row_id}", "i": row_id})
        for row_id, new in wanted.items():
            conn.execute(text(f"UPDATE {table} SET {key} = :k WHERE id = :i"),
                         {"k": new, "i": row_id})


def _v8(conn: Connection) -> None:
    # A play's campaign step as columns of its own (until now only inside the play's JSON,
    # which every lookup parsed for every unfinished play): the campaign, linked as the
    # store's other rows are (indexed, going with the campaign), and its place in the plan.
    conn.execute(text("ALTER TABLE play ADD COLUMN campaign_id INTEGER "
                      "REFERENCES campaign (id) ON DELETE CASCADE"))
    conn.execute(text("ALTER TABLE play ADD COLUMN campaign_step INTEGER"))
    conn.execute(text("CREATE INDEX ix_play_campaign_id ON play (campaign_id)"))
    _link_plays_v8(conn)


def _link_plays_v8(conn: Connection) -> None:
    # Fill the columns from what each play's JSON says (run again on rows restored from a
    # backup made before version 8).
    owners: dict[int, int] = {row[0]: row[1] for row in conn.execute(
        text("SELECT id, company_id FROM campaign"))}
    for play_id, spec, campaign_id, step in conn.execute(text(
            "SELECT id, spec, campaign_id, campaign_step FROM play ORDER BY id")).all():
        link = _step_named_v8(spec, owners)
        if link != (campaign_id, step):
            conn.execute(text("UPDATE play SET campaign_id = :c, campaign_step = :s "
                              "WHERE id = :i"), {"c": link[0], "s": link[1], "i": play_id})


def _step_named_v8(spec_text: object, owners: dict[int, int]) -> tuple[int | None, int | None]:
    # The campaign and step a play's JSON names as of version 8 (``spec.campaign.id`` and
    # ``.position``), frozen here: none when the JSON does not read, or names a campaign that
    # is gone or belongs to no company of the play's sides (its id taken again since).
    none = (None, None)
    try:
        spec: object = json.loads(spec_text) if isinstance(spec_text, str) else None
    except (ValueError, RecursionError):
        return none
    if not isinstance(spec, dict) or not isinstance(spec.get("campaign"), dict):
        return none
    step = spec["campaign"]
    campaign, position = step.get("id"), step.get("position")
    if not all(type(v) is int and 0 <= v < 2 ** 31 for v in (campaign, position)):
        return none
    sides = spec.get("sides")
    companies = {info["company"] for info in sides.values()
                 if isinstance(info, dict) and type(info.get("company")) is int} \
        if isinstance(sides, dict) else set()
    if campaign not in owners or owners[campaign] not in companies:
        return none
    return campaign, position


def _v9(conn: Connection) -> None:
    # The campaign house rules salvage, spare_parts and wear (R3.6 to R3.8): a company's
    # stockpile of parts, and on each Mek its lost parts, the points it owes at its next
    # muster and the battles it has fought since new or overhauled.
    md = MetaData()
    Table("company", md, Column("id", Integer, primary_key=True))
    Table("stockpile", md,
          Column("id", Integer, primary_key=True),
          Column("company_id", Integer, ForeignKey("company.id", ondelete="CASCADE"),
                 nullable=False, index=True),
          Column("kind", String, nullable=False),
          Column("part", String, nullable=False),
          Column("count", Integer, nullable=False),
          UniqueConstraint("company_id", "kind", "part"))
    md.tables["stockpile"].create(conn)
    conn.execute(text("ALTER TABLE mek ADD COLUMN lost TEXT NOT NULL DEFAULT '[]'"))
    conn.execute(text("ALTER TABLE mek ADD COLUMN owed INTEGER NOT NULL DEFAULT 0"))
    conn.execute(text("ALTER TABLE mek ADD COLUMN wear INTEGER NOT NULL DEFAULT 0"))


def _v10(conn: Connection) -> None:
    # The musters a play holds as columns of their own (until now only inside the play's
    # JSON, which every lookup parsed for every unfinished play): each side's muster,
    # indexed, and let go (set to nothing) when the muster is deleted, so that a finished
    # play never stops a muster from being replaced.
    for side in ("attacker", "defender"):
        conn.execute(text(f"ALTER TABLE play ADD COLUMN {side}_muster_id INTEGER "
                          "REFERENCES muster (id) ON DELETE SET NULL"))
        conn.execute(text(f"CREATE INDEX ix_play_{side}_muster_id ON play ({side}_muster_id)"))
    _hold_musters_v10(conn)


def _hold_musters_v10(conn: Connection) -> None:
    # Fill the columns from what each play's JSON says (run again on rows restored from a
    # backup made before version 10).
    owners: dict[int, int] = {row[0]: row[1] for row in conn.execute(
        text("SELECT id, company_id FROM muster"))}
    for play_id, spec, attacker, defender in conn.execute(text(
            "SELECT id, spec, attacker_muster_id, defender_muster_id FROM play "
            "ORDER BY id")).all():
        held = _musters_named_v10(spec, owners)
        if held != (attacker, defender):
            conn.execute(text("UPDATE play SET attacker_muster_id = :a, "
                              "defender_muster_id = :d WHERE id = :i"),
                         {"a": held[0], "d": held[1], "i": play_id})


def _musters_named_v10(spec_text: object, owners: dict[int, int]
                       ) -> tuple[int | None, int | None]:
    # The attacker's and the defender's musters a play's JSON names as of version 10
    # (``spec.sides.<side>.muster``), frozen here: none for a side whose entry does not
    # read, or names a muster that is gone or is not of the company the entry names (its
    # id taken again since).
    try:
        spec: object = json.loads(spec_text) if isinstance(spec_text, str) else None
    except (ValueError, RecursionError):
        return None, None
    sides = spec.get("sides") if isinstance(spec, dict) else None
    held: list[int | None] = []
    for side in ("attacker", "defender"):
        info = sides.get(side) if isinstance(sides, dict) else None
        muster = info.get("muster") if isinstance(info, dict) else None
        company = info.get("company") if isinstance(info, dict) else None
        held.append(muster if type(muster) is int and type(company) is int
                    and owners.get(muster) == company else None)
    return held[0], held[1]


def _v11(conn: Connection) -> None:
    # The scenario a muster was made for, kept with it (a JSON document), so that the
    # battle recorded for it follows that scenario's house rules even when it came from a
    # file that is gone, or that shares its id with another scenario. Musters made before
    # keep none, and are looked up by their scenario's id as they were.
    conn.execute(text("ALTER TABLE muster ADD COLUMN definition TEXT"))


def _v12(conn: Connection) -> None:
    # The company's points under the campaign house rule treasury, kept on its campaign.
    # Campaigns begun before keep none: they go on without a treasury, as they began.
    conn.execute(text("ALTER TABLE campaign ADD COLUMN treasury INTEGER"))


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
