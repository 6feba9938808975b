"""An id once given is never given again (migration 16): a battle an undo took away leaves
its id unused, so what was said of it never names another battle; the same for companies,
pilots, plays and every other row a player names by its id. An older database is brought
up to it with every row, index and link as it was. Every test runs on SQLite, and on
PostgreSQL with MEKS_TEST_DB set (whose sequences never went back)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from tests.test_battle_cli import run, run_json
from tests.test_campaign_link import _blank, check
from tests.test_campaign_link import write_old_database as write_old_campaign_database
from tests.test_links import fought  # noqa: F401 - a fixture

BEFORE = 15  # the schema before ids were never given twice


def _fight_again(runner: CliRunner, company: str, tmp_path: Path) -> int:
    run(runner, "muster", company, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    return int(run_json(runner, "battle", "auto", "opening-shots", "-a", company,
                        "-d", str(tmp_path / "blue.yaml"), "--seed", "12")["battle_id"])


def test_a_battle_an_undo_took_away_leaves_its_id_unused(
        runner: CliRunner, fought: tuple[str, int], tmp_path: Path) -> None:  # noqa: F811
    company, battle = fought
    run(runner, "company", "undo", company)  # the battle
    run(runner, "battle", "show", str(battle), code=1)
    again = _fight_again(runner, company, tmp_path)
    assert again > battle
    err = " ".join(run(runner, "battle", "show", str(battle), code=1).split())
    assert f"{battle}" in err  # still names nothing, not the new battle


def test_a_restore_gives_no_id_the_database_gave_since_the_backup(
        runner: CliRunner, fought: tuple[str, int], tmp_path: Path) -> None:  # noqa: F811
    """A backup made before a battle, restored after it: the battle fought next takes an id
    above the one the lost battle had (SQLite keeps its count through the restore's delete;
    PostgreSQL's sequence is set no lower than it stood)."""
    company, battle = fought
    run(runner, "company", "undo", company)
    run(runner, "db", "backup", str(tmp_path / "before.json"))
    later = _fight_again(runner, company, tmp_path)
    run(runner, "db", "restore", str(tmp_path / "before.json"), "--yes")
    run(runner, "battle", "show", str(later), code=1)
    assert _fight_again(runner, company, tmp_path) > later > battle


def test_a_company_deleted_and_pilots_undone_leave_their_ids_unused(
        runner: CliRunner) -> None:
    first = run_json(runner, "company", "create", "Hawks")["id"]
    run(runner, "company", "delete", "Hawks", "--yes")
    assert run_json(runner, "company", "create", "Hawks")["id"] > first
    hired = run_json(runner, "pilot", "hire", "Hawks", "Ana")["id"]
    run(runner, "company", "undo", "Hawks")
    assert run_json(runner, "pilot", "hire", "Hawks", "Ana")["id"] > hired


def test_migration_16_keeps_every_row_index_and_link(
        runner: CliRunner, temp_database: str, fought: tuple[str, int],  # noqa: F811
        tmp_path: Path) -> None:
    """A database of schema 15 holding a fought battle: brought up to date, it holds the
    same rows, 'db check' calls it sound, the battle replays, and an undo of that battle
    leaves its id unused."""
    from db.backup import dump
    from db.engine import engine_for

    company, battle = fought
    before = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    old = json.loads(json.dumps(before))
    _blank(temp_database)
    write_old_campaign_database(temp_database, old, version=BEFORE, absent=())
    after = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    assert after["tables"] == before["tables"]
    assert "sound" in check(runner)
    assert run_json(runner, "battle", "replay", str(battle))["identical"]
    run(runner, "company", "undo", company)
    assert _fight_again(runner, company, tmp_path) > battle
    if "://" not in temp_database:
        with sqlite3.connect(temp_database) as conn:
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
            indexes = {row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
            made = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'battle'")
            assert "AUTOINCREMENT" in made.fetchone()[0]
            assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 0  # its own default
        assert {"ix_battle_company_id", "ix_battle_muster_id", "ix_play_battle_id",
                "ix_muster_battle_id", "ix_pilot_mek_id"} <= indexes


def test_migration_16_gives_no_id_an_undo_freed_before_it(
        runner: CliRunner, temp_database: str, fought: tuple[str, int],  # noqa: F811
        tmp_path: Path) -> None:
    """A battle an undo took away under schema 15 left its id in the company's history:
    the migration counts on from it, so the next battle takes a new id. (SQLite: a
    PostgreSQL sequence never went back, and the old database here is made from rows.)"""
    from db.backup import dump
    from db.engine import engine_for

    if "://" in temp_database:
        pytest.skip("SQLite's migration")
    company, battle = fought
    run(runner, "company", "undo", company)
    old = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    assert old["tables"]["battle"] == []
    _blank(temp_database)
    write_old_campaign_database(temp_database, old, version=BEFORE, absent=())
    assert _fight_again(runner, company, tmp_path) > battle


def test_migration_16_keeps_a_damaged_link_and_a_view_of_the_players(
        runner: CliRunner, temp_database: str, fought: tuple[str, int],  # noqa: F811
        tmp_path: Path) -> None:
    """SQLite: a link that named no row before the migration (a damaged record) does not
    stop it, and 'db check' still names it; a view the player made of meks's tables is set
    aside while the tables are made again, and is there after."""
    from db.backup import dump
    from db.engine import engine_for

    if "://" in temp_database:
        pytest.skip("SQLite's migration")
    old = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    _blank(temp_database)
    write_old_campaign_database(temp_database, old, version=BEFORE, absent=())
    with sqlite3.connect(temp_database) as conn:
        conn.execute("INSERT INTO support_roll (id, company_id, muster_id, table_die, "
                     "entry_die, result, points, used) VALUES (99, 999, NULL, 1, 1, 'x', 0, 0)")
        conn.execute("CREATE VIEW callsigns AS SELECT c.name, m.callsign FROM company c "
                     "JOIN mek m ON m.company_id = c.id")
    said = " ".join(run(runner, "db", "check", code=1).split())
    assert "table support_roll row 99 points at a missing company row" in said, said
    with sqlite3.connect(temp_database) as conn:
        assert len(conn.execute("SELECT * FROM callsigns").fetchall()) == 3
        made = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'support_roll'")
        assert "AUTOINCREMENT" in made.fetchone()[0]


def test_migration_16_refuses_to_run_with_foreign_keys_on(tmp_path: Path) -> None:
    """Dropping a table with SQLite's foreign keys on would take its children's rows with
    it: the migration refuses, and its transaction leaves the database as it was."""
    from db.migrations import applied_versions, migrate

    engine = create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as conn:
        migrate(conn, upto=BEFORE)
    with engine.connect() as conn:
        driver = conn.connection.driver_connection
        assert driver is not None
        driver.execute("PRAGMA foreign_keys = ON")  # outside a transaction, where it counts
        with pytest.raises(RuntimeError, match="foreign keys off"), conn.begin():
            migrate(conn)
        assert applied_versions(conn)[-1] == BEFORE
        assert "AUTOINCREMENT" not in conn.execute(text(
            "SELECT sql FROM sqlite_master WHERE name = 'battle'")).scalar_one()
