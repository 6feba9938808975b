"""The first twelve migrations: the tables and the columns added to them, as each version
made them (frozen definitions; see ``db.migrations``)."""

from __future__ import annotations

import json
import unicodedata

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
