"""An SQLite database another process is writing, a full disk, a damaged record of
migrations, tables dropped outside meks: commands that only read wait for no writer, and
every failure is one sentence that says what happened (not "check the path")."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from cli.app import app
from tests.conftest import SERVER

pytestmark = pytest.mark.skipif(bool(SERVER), reason="about an SQLite file")


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "unexpected" not in result.stderr
    return result.stdout if code == 0 else " ".join(result.stderr.split())


@pytest.fixture
def short_wait(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Writers give up after a second instead of a minute; engines made afresh."""
    import db.engine

    db.engine.dispose_all()
    monkeypatch.setattr(db.engine, "BUSY_TIMEOUT_MS", 1000)
    yield
    db.engine.dispose_all()


@pytest.fixture
def writer(runner: CliRunner, temp_database: str, short_wait: None) -> Iterator[None]:
    """Another program in the middle of a change: it holds the write lock, and has written
    a company it has not committed."""
    import db.engine

    run(runner, "company", "create", "Hawks")
    db.engine.dispose_all()
    other = sqlite3.connect(temp_database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE company SET name = 'Half-done' WHERE name = 'Hawks'")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_reading_waits_for_no_writer_and_sees_what_was_committed(
        runner: CliRunner, writer: None) -> None:
    """In WAL mode a reader needs no lock: 'company list' and 'company show' answer at
    once, with the company as it was last committed (issue: reads waited 60 s, then failed)."""
    start = time.monotonic()
    assert "Hawks" in run(runner, "company", "list")
    assert "Hawks" in run(runner, "company", "show", "Hawks")
    assert "Half-done" not in run(runner, "company", "list")
    assert time.monotonic() - start < 1.0  # a writer's wait would have taken a second


def test_a_change_that_outwaits_the_busy_time_says_the_database_is_busy(
        runner: CliRunner, writer: None) -> None:
    err = run(runner, "mek", "buy", "Hawks", "WASP", code=1)
    assert "is busy: another program" in err and "try again" in err
    assert "Check the path" not in err


def test_a_full_disk_is_said_to_be_a_full_disk(temp_database: str) -> None:
    from db.engine import explain

    for code, words in ((13, "the disk is full"), (10, "the disk failed to read or write")):
        orig = sqlite3.OperationalError("database or disk is full")
        orig.sqlite_errorcode = code
        said = str(explain(OperationalError("INSERT", {}, orig), temp_database))
        assert words in said and "nothing was changed" in said and "free some space" in said


def test_a_record_of_migrations_changed_outside_meks_is_named_as_such(
        runner: CliRunner, temp_database: str, short_wait: None) -> None:
    """A migration the record says is missing, whose tables are there all the same: the
    tables were changed outside meks (not a path to check)."""
    import db.engine

    run(runner, "company", "create", "Hawks")
    db.engine.dispose_all()
    with sqlite3.connect(temp_database) as conn:
        conn.execute("DELETE FROM schema_migrations WHERE version = 14")  # muster_mek
    conn.close()
    err = run(runner, "company", "list", code=1)
    assert "its record of migrations does not account for" in err
    assert "changed outside meks" in err and "meks db restore" in err
    assert "Check the path" not in err
    assert Path(temp_database).exists()


def test_db_check_names_a_table_and_a_column_dropped_outside_meks(
        runner: CliRunner, temp_database: str, short_wait: None) -> None:
    """'db check' compares the tables and columns with what meks keeps: one missing is a
    problem (exit 1), said with what to do, where it used to say the database was sound."""
    import db.engine

    run(runner, "company", "create", "Hawks")
    db.engine.dispose_all()
    with sqlite3.connect(temp_database) as conn:
        conn.execute("DROP TABLE muster_mek")
        conn.execute("ALTER TABLE pilot DROP COLUMN kills")
    conn.close()
    err = run(runner, "db", "check", code=1)
    assert "- table muster_mek is missing" in err
    assert "- table pilot lacks the column kills" in err
    assert "; the database's tables were changed outside meks, so restore it from a backup" \
        in err


def test_meks_tables_without_their_record_of_migrations_are_not_another_programs(
        runner: CliRunner, temp_database: str, short_wait: None) -> None:
    """A database holding meks's own tables whose schema_migrations was dropped is said to
    have been changed outside meks (it used to be called another program's)."""
    import db.engine

    run(runner, "company", "create", "Hawks")
    db.engine.dispose_all()
    with sqlite3.connect(temp_database) as conn:
        conn.execute("DROP TABLE schema_migrations")
    conn.close()
    err = run(runner, "company", "list", code=1)
    assert "holds meks's tables but not its record of migrations" in err
    assert "another program" not in err and "meks db restore" in err
