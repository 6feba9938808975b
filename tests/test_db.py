"""The database: migrations from blank and from the first schema, SQLite settings, and two
processes writing at once."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, inspect
from sqlmodel import SQLModel

import db.models  # noqa: F401 - registers the tables in SQLModel.metadata
from db.engine import engine_for
from db.migrations import LATEST, MIGRATIONS, applied_versions

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parent.parent


def columns(engine_url: str) -> dict[str, dict[str, bool]]:
    inspector = inspect(create_engine(engine_url))
    return {table: {c["name"]: bool(c["nullable"]) for c in inspector.get_columns(table)}
            for table in inspector.get_table_names() if table != "schema_migrations"}


def test_blank_database_is_migrated_to_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "blank.db"
    engine = engine_for(str(path))
    with engine.connect() as conn:
        assert applied_versions(conn) == [m.version for m in MIGRATIONS]
    expected = {t.name: {c.name: bool(c.nullable) for c in t.columns}
                for t in SQLModel.metadata.sorted_tables}
    assert columns(f"sqlite:///{path}") == expected


def test_first_schema_database_is_upgraded_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    with sqlite3.connect(path) as conn:
        conn.executescript((FIXTURES / "schema_v1.sql").read_text())
    engine = engine_for(str(path))
    with engine.connect() as conn:
        assert applied_versions(conn)[-1] == LATEST
    from campaigns.company import show_company
    from db.engine import transaction

    with transaction(str(path)) as s:
        view = show_company(s, "old guard")
    assert view["meks"][0]["callsign"] == "Rook"
    assert view["pilots"][0]["skills"] == ["Accuracy"]
    from campaigns.hangar import list_pilots

    with transaction(str(path)) as s:
        assert list_pilots(s, "Old Guard")[0]["hire_cost"] == 0


def test_migrations_are_recorded_once(tmp_path: Path) -> None:
    from db.engine import dispose_all

    path = str(tmp_path / "twice.db")
    engine_for(path)
    dispose_all()
    with engine_for(path).connect() as conn:
        assert applied_versions(conn) == [m.version for m in MIGRATIONS]


def test_sqlite_connection_settings(tmp_path: Path) -> None:
    engine = engine_for(str(tmp_path / "p.db"))
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000


WORKER = """
import json, sys
from typer.testing import CliRunner
from cli.app import app
runner = CliRunner()
codes, errors = [], []
for i in range(int(sys.argv[2])):
    r = runner.invoke(app, ["--db", sys.argv[1], "mek", "buy", "Crowd", "WASP",
                            "--callsign", f"{sys.argv[3]}-{i}"])
    codes.append(r.exit_code)
    if r.exit_code:
        errors.append(r.stderr)
print(json.dumps({"codes": codes, "errors": errors}))
"""


def test_two_processes_buying_at_once_lose_nothing(tmp_path: Path, runner) -> None:  # type: ignore[no-untyped-def]
    from cli.app import app

    path = str(tmp_path / "shared.db")
    assert runner.invoke(app, ["--db", path, "company", "create", "Crowd"]).exit_code == 0
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, path, "50", name], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in ("a", "b")]
    outputs = [p.communicate(timeout=300) for p in procs]
    for (out, err), proc in zip(outputs, procs, strict=True):
        assert proc.returncode == 0, err
        result = json.loads(out.strip().splitlines()[-1])
        assert result["errors"] == []
        assert set(result["codes"]) == {0}
        assert "locked" not in err
    listed = runner.invoke(app, ["--db", path, "mek", "list", "Crowd", "--json"])
    assert len(json.loads(listed.stdout)) == 100


# ---- commands that only read do not make a database ---------------------------------------

def test_db_check_and_backup_do_not_make_a_missing_database(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from cli.app import app

    missing = tmp_path / "typo_dir" / "x.db"
    for args in (["db", "check"], ["db", "check", "--json"],
                 ["db", "backup", str(tmp_path / "b.json")]):
        result = runner.invoke(app, ["--db", str(missing), *args])
        assert result.exit_code == 1, result.stderr
        assert f"No database at {missing}" in result.stderr
        assert "Traceback" not in result.stderr
    assert not missing.parent.exists()
    assert not (tmp_path / "b.json").exists()
    result = runner.invoke(app, ["--db", str(missing), "db", "path"])  # where it would be
    assert result.exit_code == 0 and result.stdout.strip() == str(missing)
    assert not missing.parent.exists()


def test_db_check_and_backup_leave_an_empty_file_alone(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from cli.app import app

    empty = tmp_path / "empty.db"
    empty.touch()
    for args in (["db", "check"], ["db", "check", "--json"],
                 ["db", "backup", str(tmp_path / "b.json")]):
        result = runner.invoke(app, ["--db", str(empty), *args])
        assert result.exit_code == 1, result.stderr
        assert f"No database at {empty} (the file is empty)" in result.stderr
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert empty.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]
    result = runner.invoke(app, ["--db", str(empty), "company", "create", "Hawks"])
    assert result.exit_code == 0, result.stderr  # a command that changes data makes it
    result = runner.invoke(app, ["--db", str(empty), "db", "check"])
    assert result.exit_code == 0, result.stderr


def test_a_folder_or_a_file_that_is_no_database_is_unreadable_input(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from cli.app import app

    folder = tmp_path / "a-folder.db"
    folder.mkdir()
    text = tmp_path / "notes.db"
    text.write_text("not a database\n")
    for where, what in ((folder, "it is a folder"), (text, "not an SQLite database")):
        for args in (["db", "check"], ["db", "backup", str(tmp_path / "b.json")],
                     ["company", "create", "Hawks"]):
            result = runner.invoke(app, ["--db", str(where), *args])
            assert result.exit_code == 2, (where, args, result.stderr)
            assert what in result.stderr and "Traceback" not in result.stderr
            assert len(result.stderr.strip().splitlines()) == 1
    assert text.read_text() == "not a database\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-folder.db", "notes.db"]


def test_a_file_that_says_it_is_empty_but_is_no_database_is_refused(runner) -> None:  # type: ignore[no-untyped-def]
    """A file of /proc says it holds no bytes, yet holds text: it is no database, and every
    command that opens it says so, rather than reading it as empty or asking SQLite."""
    import pytest

    from cli.app import app

    proc = Path("/proc/version")
    if not proc.is_file() or proc.stat().st_size:
        pytest.skip("no /proc file that says it is empty")
    for args in (["company", "list"], ["company", "create", "Hawks"], ["db", "check"]):
        result = runner.invoke(app, ["--db", str(proc), *args])
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        assert "the file is not an SQLite database" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_engine_for_without_create_leaves_no_file(tmp_path: Path) -> None:
    import pytest

    from db.errors import NoDatabase

    path = tmp_path / "nothing.db"
    with pytest.raises(NoDatabase):
        engine_for(str(path), create=False)
    assert not path.exists()
    engine_for(str(path))  # made on request
    assert engine_for(str(path), create=False) is engine_for(str(path))


def test_name_keys_are_refolded_and_lookalikes_kept_apart(tmp_path: Path) -> None:
    from sqlalchemy import text

    from db.migrations import migrate

    path = tmp_path / "v6.db"
    with create_engine(f"sqlite:///{path}").begin() as conn:
        migrate(conn, upto=6)
        conn.execute(text("INSERT INTO company (id, name, name_key, created_at) VALUES "
                          "(1, 'Old Guard', 'old guard', 'x'), "
                          "(2, 'Caf\u0065\u0301', 'caf\u0065\u0301', 'x')"))
        conn.execute(text(
            "INSERT INTO pilot (id, company_id, name, name_key, level, kills, scenarios, "
            "skills, status, hire_cost) VALUES "
            "(1, 1, 'Jose\u0301', 'jose\u0301', 'Green', 0, 0, '[]', 'active', 0), "
            "(2, 1, 'Jos\u00e9', 'jos\u00e9', 'Green', 0, 0, '[]', 'active', 0), "
            "(3, 1, 'Ana', 'ana', 'Green', 0, 0, '[]', 'active', 0)"))
    engine_for(str(path))
    with sqlite3.connect(path) as conn:
        companies = dict(conn.execute("SELECT id, name_key FROM company"))
        pilots = dict(conn.execute("SELECT id, name_key FROM pilot"))
    assert companies == {1: "old guard", 2: "caf\u00e9"}
    # The pilot already found as 'José' keeps the key; the decomposed twin is kept apart.
    assert pilots == {1: "jos\u00e9\u200b1", 2: "jos\u00e9", 3: "ana"}
    from campaigns.company import find_pilot, get_company
    from db.engine import transaction

    with transaction(str(path)) as s:
        company = get_company(s, "Cafe\u0301")
        assert company.id == 2
        assert find_pilot(s, get_company(s, "old guard"), "Jose\u0301").id == 2
    from campaigns.company import undo
    from campaigns.hangar import hire_pilot

    with transaction(str(path)) as s:  # undo writes both twins back
        hire_pilot(s, "Old Guard", "Cy")
        undo(s, "Old Guard")
    with sqlite3.connect(path) as conn:
        assert dict(conn.execute("SELECT id, name_key FROM pilot")) == pilots


def test_statuses_are_enums_stored_as_the_text_they_always_were(tmp_path: Path) -> None:
    """Issue 29 item 4: a status reads back as its enum; the column keeps the same text, so a
    database of the first schema (plain text statuses) loads with no migration of them."""
    from sqlmodel import select

    from db.engine import transaction
    from db.models import Mek, MekStatus, Pilot, PilotStatus

    path = tmp_path / "v1.db"
    with sqlite3.connect(path) as conn:
        conn.executescript((FIXTURES / "schema_v1.sql").read_text())
    with transaction(str(path)) as s:
        mek = s.exec(select(Mek)).first()
        pilot = s.exec(select(Pilot)).first()
        assert mek is not None and pilot is not None
        assert mek.status is MekStatus.ACTIVE and pilot.status is PilotStatus.ACTIVE
        mek.status = MekStatus.DESTROYED
        pilot.status = PilotStatus.DEAD
        s.add(mek)
        s.add(pilot)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT status FROM mek").fetchone() == ("destroyed",)
        assert conn.execute("SELECT status FROM pilot").fetchone() == ("dead",)
    with transaction(str(path)) as s:
        assert s.exec(select(Mek)).one().status is MekStatus.DESTROYED


def test_commands_that_only_read_a_company_do_not_make_a_missing_database(  # type: ignore[no-untyped-def]
        runner, tmp_path: Path) -> None:
    """A read (or an undo or delete, which need a company to act on) at a path where no
    database is refuses in one sentence and makes neither the database nor its folder; a
    mistyped --db leaves no trace."""
    from cli.app import app

    missing = tmp_path / "typo_dir" / "x.db"
    for args in (["company", "show", "Hawks"], ["company", "history", "Hawks"],
                 ["company", "undo", "Hawks"], ["company", "delete", "Hawks", "--yes"],
                 ["battle", "show", "1"], ["battle", "replay", "1"],
                 ["battle", "list", "Hawks"], ["campaign", "status", "Hawks"],
                 ["campaign", "show", "Hawks"], ["mek", "list", "Hawks"],
                 ["pilot", "list", "Hawks"], ["pilot", "show", "Hawks", "Vera"]):
        result = runner.invoke(app, ["--db", str(missing), *args])
        assert result.exit_code == 1, (args, result.stderr)
        assert f"No database at {missing}." in result.stderr, args
        assert "meks company create" in result.stderr and "--db" in result.stderr
        assert "Traceback" not in result.stderr
    assert not missing.parent.exists()


def test_company_list_where_no_database_is_lists_none_and_makes_none(  # type: ignore[no-untyped-def]
        runner, tmp_path: Path) -> None:
    from cli.app import app

    missing = tmp_path / "typo_dir" / "x.db"
    shown = runner.invoke(app, ["--db", str(missing), "company", "list"])
    assert shown.exit_code == 0 and "No companies yet" in shown.stdout
    listed = runner.invoke(app, ["--db", str(missing), "company", "list", "--json"])
    assert listed.exit_code == 0 and json.loads(listed.stdout) == []
    assert not missing.parent.exists()
    made = runner.invoke(app, ["--db", str(missing), "company", "create", "Hawks"])
    assert made.exit_code == 0 and missing.exists()  # a change makes it, folder and all
