"""The links between musters, battles, plays and battle logs, kept by the database as
foreign keys (migration 13): the models and the migrations agree on every link; ids that
named nothing in an older database, or in a backup made before, let go of it; an undo keeps
the battles it keeps with their logs; deleting a company leaves no log behind. Every test
runs on SQLite, and on PostgreSQL with MEKS_TEST_DB set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect
from sqlmodel import SQLModel, select
from typer.testing import CliRunner

import db.models  # noqa: F401 - registers the tables in SQLModel.metadata
from tests.test_battle_cli import BLUE, run, run_json
from tests.test_campaign_link import _blank, check, links_in_json
from tests.test_campaign_link import write_old_database as write_old_campaign_database

BEFORE = 12  # the schema before the links were foreign keys


def links_of(conn: Any, table: str) -> set[tuple[str, str, str]]:
    """Each link of ``table``: its column, the table it names and what deleting that row
    does to it."""
    if conn.dialect.name == "sqlite":  # SQLAlchemy does not read ON DELETE back from SQLite
        return {(row[3], row[2], row[6]) for row in
                conn.exec_driver_sql(f"PRAGMA foreign_key_list({table})").all()}
    return {(k["constrained_columns"][0], k["referred_table"],
             k["options"].get("ondelete", "NO ACTION"))
            for k in inspect(conn).get_foreign_keys(table)}


@pytest.fixture
def fought(runner: CliRunner, tmp_path: Path) -> tuple[str, int]:
    """A company that fought one battle (stored with its full log), and that battle's id."""
    run(runner, "company", "create", "Wolves")
    for design, pilot in (("VIPER", "Ana"), ("WASP", "Bo"), ("WASP", "Cy")):
        callsign = run_json(runner, "mek", "buy", "Wolves", design)["callsign"]
        run(runner, "pilot", "hire", "Wolves", pilot)
        run(runner, "pilot", "assign", "Wolves", pilot, callsign)
    run(runner, "muster", "Wolves", "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    (tmp_path / "blue.yaml").write_text(BLUE)
    battle = run_json(runner, "battle", "auto", "opening-shots", "-a", "Wolves",
                      "-d", str(tmp_path / "blue.yaml"), "--seed", "11")["battle_id"]
    return "Wolves", battle


def logs() -> list[int]:
    from cli.state import session
    from db.models import BattleLog

    with session() as s:
        return sorted(row.battle_id for row in s.exec(select(BattleLog)).all())


def test_the_links_are_foreign_keys_and_the_models_agree(temp_database: str) -> None:
    """A database migrated from blank has every link the models declare, with the same
    action on delete: among them migration 13's four."""
    from db.engine import engine_for
    from db.migrations.links import LINKS_13

    with engine_for(temp_database).connect() as conn:
        for table in SQLModel.metadata.sorted_tables:
            declared = {(fk.parent.name, fk.column.table.name, fk.ondelete or "NO ACTION")
                        for fk in table.foreign_keys}
            assert links_of(conn, table.name) == declared, table.name
        for table, column, parent, ondelete in LINKS_13:
            assert (column, parent, ondelete) in links_of(conn, table)
            assert any(i["column_names"] == [column] for i in inspect(conn).get_indexes(table)) \
                or table == "battle_log"  # the log's link is its primary key


def _dangling(backup: dict[str, Any], battle: int, muster: bool = True) -> dict[str, Any]:
    """``backup`` as a meks of schema 12 made it, with ids naming rows that are gone: a
    battle fought by no company naming a muster deleted since, the log of a battle no longer
    there and (with ``muster``) a muster of the company naming a battle undone since (which
    its history does not know of)."""
    old = json.loads(json.dumps(backup, default=str))
    old["schema_version"] = BEFORE
    tables = old["tables"]
    links_in_json(tables)
    row = next(b for b in tables["battle"] if b["id"] == battle)
    tables["battle"].append({**row, "id": battle + 50, "company_id": None, "muster_id": 8888})
    log = next(entry for entry in tables["battle_log"] if entry["battle_id"] == battle)
    tables["battle_log"].append({**log, "battle_id": 7777})
    if muster:
        held = next(m for m in tables["muster"] if m["battle_id"] == battle)
        tables["muster"].append({**held, "id": held["id"] + 50, "battle_id": 9999})
    return old


def test_migration_13_lets_go_of_ids_that_name_nothing(
        runner: CliRunner, temp_database: str, fought: tuple[str, int]) -> None:
    from db.backup import dump
    from db.engine import engine_for
    from db.migrations import LATEST, applied_versions
    from db.models import Battle, Muster

    _, battle = fought
    old = _dangling(dump(engine_for(temp_database)), battle)
    _blank(temp_database)
    write_old_campaign_database(temp_database, old, version=BEFORE, absent=())
    with engine_for(temp_database).connect() as conn:
        assert applied_versions(conn)[-1] == LATEST
    from cli.state import session

    with session() as s:
        musters = {m.id: m.battle_id for m in s.exec(select(Muster)).all()}
        battles = {b.id: b.muster_id for b in s.exec(select(Battle)).all()}
    assert sorted(musters.values(), key=str) == [battle, None]  # the real link is kept
    assert battles[battle] is not None and battles[battle + 50] is None
    assert logs() == [battle]
    assert "Turn 1" in run(runner, "battle", "show", str(battle))


def test_a_backup_from_before_restores_and_lets_go_of_ids_that_name_nothing(
        runner: CliRunner, temp_database: str, fought: tuple[str, int], tmp_path: Path
) -> None:
    """Restoring a backup made before migration 13 whose ids name rows that are gone: the
    restore goes through, and those ids let go, as the migration does. A backup of this
    schema with such an id is refused, the link named, nothing restored."""
    from db.backup import dump
    from db.engine import engine_for

    _, battle = fought
    current = dump(engine_for(temp_database))
    old = _dangling(current, battle, muster=False)
    (tmp_path / "old.json").write_text(json.dumps(old))
    run(runner, "db", "restore", str(tmp_path / "old.json"), "--yes")
    assert logs() == [battle]
    assert "sound" in check(runner)
    assert "Turn 1" in run(runner, "battle", "show", str(battle))
    new = json.loads(json.dumps(current, default=str))
    new["tables"]["battle_log"].append({**new["tables"]["battle_log"][0], "battle_id": 7777})
    (tmp_path / "new.json").write_text(json.dumps(new))
    err = " ".join(run(runner, "db", "restore", str(tmp_path / "new.json"), "--yes",
                       code=2).split())
    assert "battle_log row 2: battle_id 7777 names no battle row" in err
    assert logs() == [battle]


def test_an_undo_keeps_the_battles_it_keeps_with_their_logs(
        runner: CliRunner, fought: tuple[str, int]) -> None:
    """An undo of a change after a battle writes the company back, battles included, but
    the battle keeps its row, so its full log (which goes with the row) is still there."""
    company, battle = fought
    run(runner, "mek", "buy", company, "WASP")
    run(runner, "company", "undo", company)
    assert logs() == [battle]
    assert "Turn 1" in run(runner, "battle", "show", str(battle))
    assert run_json(runner, "battle", "replay", str(battle))["identical"]
    run(runner, "company", "undo", company)  # the battle itself: its log goes with it
    assert logs() == []


def test_deleting_a_company_leaves_no_log_behind(
        runner: CliRunner, fought: tuple[str, int]) -> None:
    company, _ = fought
    run(runner, "company", "delete", company, "--yes")
    assert logs() == []
    assert "sound" in check(runner)
