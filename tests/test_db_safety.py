"""Issue 14, items 4 to 7: databases and files that must not hurt.

4. A database written by a newer meks is refused, and never written to.
5. A damaged database is named as damaged (``db check``: exit 1, one line); a backup whose
   stored JSON (a battle's log) is not valid JSON is refused by ``db restore``; a read-only
   database can still be read, and a change to it is refused saying it is read-only.
6. ``db backup`` never writes through a symbolic link; a plan names scenario files only
   inside its own folder, and never makes meks read (and echo) another file.
7. No output shows a database password; a malformed URL is bad usage (exit 2).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app
from db.migrations import LATEST
from tests.conftest import SERVER

ON_SQLITE = pytest.mark.skipif(bool(SERVER), reason="about an SQLite file")
ON_SERVER = pytest.mark.skipif(not SERVER, reason="runs in the PostgreSQL pass (MEKS_TEST_DB)")


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "unexpected" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def dispose() -> None:
    """Close every cached engine, as a new process would start without them."""
    from db.engine import dispose_all

    dispose_all()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---- 4. a database from a newer version ------------------------------------------------------

NEWER = LATEST + 2
NEWER_SENTENCE = (f"was written by a newer version of meks (schema {NEWER}; this one knows up "
                  f"to {LATEST}); upgrade meks to use it.")


def stamp_newer(location: str) -> None:
    """Make the database look written by a newer meks: a later schema version recorded, and
    a column this version does not know."""
    from sqlalchemy import create_engine, text

    from db.location import to_url

    engine = create_engine(to_url(location))
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO schema_migrations (version, description, applied_at)"
                              " VALUES (:v, 'from the future', '2100-01-01')"), {"v": NEWER})
            conn.execute(text("ALTER TABLE mek ADD COLUMN paint TEXT"))
            conn.execute(text("UPDATE mek SET paint = 'red'"))
    finally:
        engine.dispose()


def store_contents(location: str) -> Any:
    """Everything stored, table by table (schema_migrations and the unknown column too)."""
    from sqlalchemy import create_engine, inspect, text

    from db.location import to_url

    engine = create_engine(to_url(location))
    try:
        with engine.connect() as conn:
            names = sorted(inspect(conn).get_table_names())
            return {name: sorted(map(str, conn.execute(text(f"SELECT * FROM {name}")).all()))
                    for name in names}
    finally:
        engine.dispose()


def test_item4_a_database_from_a_newer_meks_is_refused_and_never_written(
        runner: CliRunner, temp_database: str, tmp_path: Path) -> None:
    """Every command that opens it, reading ones included, refuses with one sentence
    naming both schema versions (exit 1); the store is exactly as it was, and no backup
    (which would drop the unknown column) is written."""
    run(runner, "company", "create", "Hawks")
    run(runner, "mek", "buy", "Hawks", "WASP")
    backup = tmp_path / "good.json"
    run(runner, "db", "backup", str(backup))
    dispose()
    stamp_newer(temp_database)
    before = store_contents(temp_database)
    file = None if SERVER else Path(temp_database)
    bytes_before = digest(file) if file else None
    for args in (["mek", "buy", "Hawks", "WASP"], ["company", "create", "Crows"],
                 ["company", "show", "Hawks"], ["company", "list"], ["db", "check"],
                 ["db", "check", "--json"], ["db", "backup", str(tmp_path / "new.json")],
                 ["db", "restore", str(backup), "--yes"]):
        err = run(runner, *args, code=1)
        assert one_line(err).endswith(NEWER_SENTENCE), (args, err)
        dispose()
    assert not (tmp_path / "new.json").exists()
    assert store_contents(temp_database) == before
    if file is not None:
        assert digest(file) == bytes_before
        assert not Path(f"{file}-wal").exists() or Path(f"{file}-wal").stat().st_size == 0


@ON_SQLITE
def test_item4_a_read_only_database_from_a_newer_meks_is_refused_too(
        runner: CliRunner, temp_database: str) -> None:
    run(runner, "company", "create", "Hawks")
    dispose()
    stamp_newer(temp_database)
    with read_only_file(Path(temp_database)):
        err = run(runner, "company", "show", "Hawks", code=1)
    assert one_line(err).endswith(NEWER_SENTENCE)


# ---- 5. damaged databases --------------------------------------------------------------------

PAGE = 4096


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sound SQLite database of twelve companies, two Meks and a pilot each."""
    path = tmp_path_factory.mktemp("league") / "league.db"
    runner = CliRunner()
    for n in range(12):
        for args in (["company", "create", f"Co {n}"], ["mek", "buy", f"Co {n}", "WASP"],
                     ["mek", "buy", f"Co {n}", "THOR"], ["pilot", "hire", f"Co {n}", "Vera"]):
            result = runner.invoke(app, ["--db", str(path), *args])
            assert result.exit_code == 0, result.stderr
    dispose()
    assert path.stat().st_size // PAGE > 20
    return path


def damage(source: Path, target: Path, fraction: float) -> None:
    """A copy of ``source`` with garbage written over one whole page, ``fraction`` of the
    way into the file (never the first page, which says what the file is)."""
    data = bytearray(source.read_bytes())
    page = max(1, int(len(data) // PAGE * fraction))
    data[page * PAGE:(page + 1) * PAGE] = b"\xde\xad\xbe\xef" * (PAGE // 4)
    target.write_bytes(bytes(data))


@ON_SQLITE
@pytest.mark.parametrize("fraction", [0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99])
def test_item5_db_check_reports_a_corrupted_page_as_damage_in_one_line(
        runner: CliRunner, league: Path, tmp_path: Path, fraction: float) -> None:
    """A page of garbage in the middle of a database of several companies: `db check`
    says the file is damaged, in one line, exit 1 (with --json too); every other command
    either works or says the same in one line; none is an "unexpected problem"."""
    db = tmp_path / "damaged.db"
    damage(league, db, fraction)
    result = runner.invoke(app, ["--db", str(db), "db", "check"])
    assert result.exit_code == 1, result.stdout
    assert one_line(result.stderr).startswith("- The database file is damaged (")
    assert "restore it from a backup with 'meks db restore'" in result.stderr
    dispose()
    result = runner.invoke(app, ["--db", str(db), "db", "check", "--json"])
    assert result.exit_code == 1 and result.stderr == ""
    report = json.loads(result.stdout)
    assert report["ok"] is False and len(report["problems"]) == 1
    assert report["problems"][0].startswith("The database file is damaged (")
    for args in (["company", "list"], ["company", "show", "Co 5"], ["mek", "list", "Co 7"],
                 ["mek", "buy", "Co 3", "WASP"], ["db", "backup", str(tmp_path / "b.json")]):
        dispose()
        result = runner.invoke(app, ["--db", str(db), *args])
        assert result.exit_code in (0, 1), (args, result.stderr)
        assert "unexpected" not in result.stderr and "Traceback" not in result.stderr
        if result.exit_code:
            assert "is damaged" in one_line(result.stderr), (args, result.stderr)


@pytest.fixture
def fought(runner: CliRunner, tmp_path: Path) -> Path:
    """A backup of a company that has fought a battle (its log stored)."""
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "8")
    run(runner, "campaign", "next", "Hawks")
    file = tmp_path / "fought.json"
    run(runner, "db", "backup", str(file))
    return file


@pytest.mark.parametrize(("table", "column"), [("battle_log", "log"), ("battle", "log"),
                                               ("battle_log", "spec")])
def test_item5_restore_refuses_a_backup_whose_battle_log_is_not_json(
        runner: CliRunner, fought: Path, tmp_path: Path, table: str, column: str) -> None:
    """The stored log of a battle is a JSON document: a backup holding anything else is
    refused (exit 2) naming the battle, and the database stays as it was."""
    data = json.loads(fought.read_text())
    row = data["tables"][table][0]
    battle = row.get("battle_id", row.get("id"))
    row[column] = '[{"event": "hit", "zone": 3'  # cut short
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    run(runner, "mek", "buy", "Hawks", "THOR")  # made after the backup: must survive
    err = one_line(run(runner, "db", "restore", str(bad), "--yes", code=2))
    assert f"{table} row 1 ({column}, battle {battle}): is not valid JSON" in err
    assert any(m["callsign"].startswith("THOR") for m in json.loads(
        run(runner, "mek", "list", "Hawks", "--json")))
    assert "sound" in run(runner, "db", "check")


# Read-only: the tests run as root, whom file permissions do not stop; meks takes a file
# with no write bit at all (or a folder without one) as read-only whoever runs it, and
# opens it with SQLite's read-only mode, which refuses writes for root too. The check for
# another user's permission (os.access) is exercised by test_item5_read_only_follows_...


def without_write_bits(path: Path, mode: int) -> Any:
    """``path`` (a file, or a folder) given ``mode`` for the block, then its own again."""
    from contextlib import contextmanager

    @contextmanager
    def made() -> Iterator[None]:
        before = stat.S_IMODE(path.stat().st_mode)
        path.chmod(mode)
        try:
            yield
        finally:
            path.chmod(before)
            dispose()

    return made()


def read_only_file(path: Path) -> Any:
    return without_write_bits(path, 0o444)


def read_only_folder(path: Path) -> Any:
    return without_write_bits(path, 0o555)


def reads_and_refuses_writes(runner: CliRunner, db: Path, out: Path) -> None:
    assert json.loads(run(runner, "company", "show", "Hawks", "--json"))["name"] == "Hawks"
    assert "sound" in run(runner, "db", "check")
    assert run(runner, "db", "backup", str(out))
    assert json.loads(out.read_text())["tables"]["mek"][0]["callsign"] == "WASP-1"
    for args in (["mek", "buy", "Hawks", "WASP"], ["company", "create", "Crows"],
                 ["db", "restore", str(out), "--yes"]):
        err = one_line(run(runner, *args, code=1))
        assert err == (f"Error: The database file {db} is read-only, so nothing was changed; "
                       "make the file and its folder writable to change it (reading it works "
                       "as it is)."), err


@ON_SQLITE
def test_item5_a_read_only_database_file_can_be_read_and_refuses_changes(
        runner: CliRunner, temp_database: str, tmp_path: Path) -> None:
    """chmod 0444 in a writable folder: show, check and backup work; a change is refused
    in one sentence saying the file is read-only; the file is unchanged and no journal
    file is left beside it."""
    db = Path(temp_database)
    run(runner, "company", "create", "Hawks")
    run(runner, "mek", "buy", "Hawks", "WASP")
    dispose()
    before = digest(db)
    with read_only_file(db):
        reads_and_refuses_writes(runner, db, tmp_path / "backup.json")
        dispose()
        assert digest(db) == before
        assert sorted(p.name for p in db.parent.iterdir() if p.name.startswith(db.name)) \
            == [db.name]
    run(runner, "mek", "buy", "Hawks", "WASP")  # writable again: works as before


@ON_SQLITE
def test_item5_a_database_in_a_read_only_folder_can_be_read_and_refuses_changes(
        runner: CliRunner, tmp_path: Path) -> None:
    """The file is writable but its folder is not, so SQLite could not make its journal
    there: it is opened read-only, and read without one."""
    folder = tmp_path / "shelf"
    folder.mkdir()
    db = folder / "league.db"
    run(runner, "--db", str(db), "company", "create", "Hawks")
    run(runner, "--db", str(db), "mek", "buy", "Hawks", "WASP")
    dispose()
    before = digest(db)
    with read_only_folder(folder):
        out = tmp_path / "backup.json"
        assert "Hawks" in run(runner, "--db", str(db), "company", "show", "Hawks")
        assert "sound" in run(runner, "--db", str(db), "db", "check")
        run(runner, "--db", str(db), "db", "backup", str(out))
        err = one_line(run(runner, "--db", str(db), "mek", "buy", "Hawks", "WASP", code=1))
        assert f"The database file {db} is read-only" in err
        dispose()
        assert [p.name for p in folder.iterdir()] == ["league.db"]
    assert digest(db) == before


@ON_SQLITE
def test_item5_read_only_follows_the_permissions_of_the_user_running_meks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """For another user than root, a file or folder they may not write is read-only even
    with its write bits set (the check uses os.access, stood in for here)."""
    from db.engine import read_only

    db = tmp_path / "x.db"
    db.write_bytes(b"")
    assert not read_only(db)
    real_access = os.access

    for denied in (db, tmp_path):
        def access(path: Any, mode: int, denied: Path = denied, **kw: Any) -> bool:
            if Path(path) == denied and mode & os.W_OK:
                return False
            return real_access(path, mode, **kw)

        monkeypatch.setattr(os, "access", access)
        assert read_only(db)
        monkeypatch.undo()
    db.chmod(0o444)
    assert read_only(db)


@ON_SQLITE
def test_item5_a_read_only_database_of_an_older_schema_says_it_needs_writing_once(
        runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    with sqlite3.connect(db) as conn:
        conn.executescript((Path(__file__).parent / "fixtures" / "schema_v1.sql").read_text())
    conn.close()
    with read_only_file(db):
        err = one_line(run(runner, "--db", str(db), "company", "list", code=1))
    assert "is read-only and was written by an older meks (schema 1)" in err
    assert f"bring it up to schema {LATEST}" in err
    run(runner, "--db", str(db), "company", "show", "Old Guard")  # writable: upgraded


@ON_SERVER
def test_item5_a_read_only_server_database_can_be_read_and_refuses_changes(
        runner: CliRunner, temp_database: str, tmp_path: Path) -> None:
    """PostgreSQL's read-only transactions (here set for the connection in its URL) are
    said as such, in one sentence, exit 1."""
    run(runner, "company", "create", "Hawks")
    run(runner, "mek", "buy", "Hawks", "WASP")
    dispose()
    sep = "&" if "?" in temp_database else "?"
    locked = f"{temp_database}{sep}options=-c%20default_transaction_read_only%3Don"
    assert "Hawks" in run(runner, "--db", locked, "company", "show", "Hawks")
    assert "sound" in run(runner, "--db", locked, "db", "check")
    run(runner, "--db", locked, "db", "backup", str(tmp_path / "b.json"))
    err = one_line(run(runner, "--db", locked, "mek", "buy", "Hawks", "WASP", code=1))
    assert "is read-only, so nothing was changed" in err
    dispose()
    assert len(json.loads(run(runner, "mek", "list", "Hawks", "--json"))) == 1


# ---- 6. paths -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["to a file", "to nothing", "to a folder"])
def test_item6_db_backup_refuses_a_symbolic_link_and_never_writes_through_it(
        runner: CliRunner, tmp_path: Path, kind: str) -> None:
    run(runner, "company", "create", "Hawks")
    place = tmp_path / "place"
    place.mkdir()
    target = place / "real"
    if kind == "to a file":
        target.write_text("old")
    elif kind == "to a folder":
        target.mkdir()
    link = place / "backup.json"
    link.symlink_to(target)
    err = one_line(run(runner, "db", "backup", str(link), code=2))
    assert err == (f"Error: {link}: is a symbolic link, and meks does not write through links; "
                   "give the path of the file itself")
    assert link.is_symlink() and os.readlink(link) == str(target)
    if kind == "to a file":
        assert target.read_text() == "old"
    elif kind == "to nothing":
        assert not target.exists()
    else:
        assert list(target.iterdir()) == []
    assert sorted(p.name for p in place.iterdir()) == sorted(["backup.json"] + (
        [] if kind == "to nothing" else ["real"]))  # no temporary file left


SECRET = "root:$6$not-for-your-eyes:19000:0:99999:7:::\nSECRETLINE: 1\n"


@pytest.fixture
def outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file outside the plan's folder whose lines must never be shown, and a home folder
    holding a copy of it."""
    secret = tmp_path / "elsewhere" / "shadow.yaml"
    secret.parent.mkdir()
    secret.write_text(SECRET)
    home = tmp_path / "home"
    home.mkdir()
    (home / "shadow.yaml").write_text(SECRET)
    monkeypatch.setenv("HOME", str(home))
    return secret


def plan_naming(folder: Path, ref: str) -> Path:
    folder.mkdir(exist_ok=True)
    plan = folder / "plan.yaml"
    plan.write_text(f"scenarios:\n  - {{scenario: {json.dumps(ref)}, side: attacker}}\n")
    return plan


@pytest.mark.parametrize("how", ["absolute", "dot-dot", "dot-dot inside a path", "home",
                                 "link pointing out", "link in a sub-folder"])
def test_item6_a_plan_names_scenario_files_only_inside_its_own_folder(
        runner: CliRunner, tmp_path: Path, outside: Path, how: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry is refused in one sentence naming it (exit 2), the file is never read and
    none of its lines appear, and no campaign begins."""
    folder = tmp_path / "plans"
    folder.mkdir()
    ref = {"absolute": str(outside), "dot-dot": "../elsewhere/shadow.yaml",
           "dot-dot inside a path": "maps/../../elsewhere/shadow.yaml",
           "home": "~/shadow.yaml", "link pointing out": "linked.yaml",
           "link in a sub-folder": "maps/linked.yaml"}[how]
    (folder / "maps").mkdir()
    (folder / "linked.yaml").symlink_to(outside)
    (folder / "maps" / "linked.yaml").symlink_to(outside)
    plan = plan_naming(folder, ref)
    read: list[Path] = []
    import campaigns.plans as plans_module

    real = plans_module.file_entry
    monkeypatch.setattr(plans_module, "file_entry",
                        lambda path: read.append(path) or real(path))
    run(runner, "company", "create", "Hawks")
    err = one_line(run(runner, "campaign", "start", "Hawks", "--plan", str(plan), code=2))
    assert err == (f"Error: {plan}: line 2 (scenarios[0].scenario): {ref!r} is not a file "
                   f"inside the plan's "
                   f"folder ({folder}); a plan names its scenario files by their place in its "
                   "own folder, such as 'river.yaml', and other scenarios by id")
    assert read == []
    assert "SECRETLINE" not in err and "root:" not in err
    run(runner, "campaign", "status", "Hawks", code=1)  # nothing was started


def test_item6_files_inside_the_plans_folder_still_work(runner: CliRunner,
                                                        tmp_path: Path) -> None:
    """Beside the plan, in a sub-folder, and through a link that stays inside."""
    import yaml

    folder = tmp_path / "plans"
    (folder / "maps").mkdir(parents=True)
    text = (Path(__file__).resolve().parent.parent / "campaigns" / "files" / "scenarios" /
            "5-head-to-head.yaml").read_text()
    data = yaml.safe_load(text)
    data.update(id="river", name="River Crossing", turn_limit=2)
    (folder / "maps" / "river.yaml").write_text(yaml.safe_dump(data))
    (folder / "river.yaml").symlink_to(folder / "maps" / "river.yaml")
    run(runner, "company", "create", "Hawks")
    for ref in ("maps/river.yaml", "river.yaml", "./maps/river.yaml"):
        view = json.loads(run(runner, "campaign", "start", "Hawks", "--plan",
                              str(plan_naming(folder, ref)), "--json"))
        assert view["plan"][0]["definition"]["name"] == "River Crossing"
        run(runner, "company", "undo", "Hawks")
    err = one_line(run(runner, "campaign", "start", "Hawks", "--plan",
                       str(plan_naming(folder, "lake.yaml")), code=2))
    assert f"(scenarios[0].scenario): there is no scenario file 'lake.yaml' in the plan's " \
           "folder " \
           f"({folder})" in err
    (folder / "lake.yaml").mkdir()
    err = one_line(run(runner, "campaign", "start", "Hawks", "--plan",
                       str(plan_naming(folder, "lake.yaml")), code=2))
    assert f"(scenarios[0].scenario): 'lake.yaml' in the plan's folder ({folder}) is a " \
           "folder, not a scenario file" in err


def test_item6_a_stored_plan_never_reads_a_file(runner: CliRunner, outside: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign's plan in the database (restored, or imported with a roster) names its
    scenarios by id: a path there is not read, and its lines are not shown."""
    from sqlmodel import select

    from cli.state import session
    from db.models import Campaign

    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "2")
    with session() as s:
        row = s.exec(select(Campaign)).one()
        row.plan = json.dumps([{"scenario": str(outside), "side": "attacker"}])
        s.add(row)
    monkeypatch.chdir(outside.parent)
    for ref in (str(outside), outside.name):
        with session() as s:
            row = s.exec(select(Campaign)).one()
            row.plan = json.dumps([{"scenario": ref, "side": "attacker"}])
            s.add(row)
        err = one_line(run(runner, "campaign", "next", "Hawks", code=1))
        assert f"No scenario is called {ref!r}" in err
        assert "SECRETLINE" not in err and "root:" not in err


# ---- 7. secrets ------------------------------------------------------------------------------

def spellings(password: str) -> set[str]:
    return {password, quote(password, safe=""), quote(password)}


def url_with(password: str, form: str, host: str = "127.0.0.1:1",
             user: str = "league", database: str = "meks") -> str:
    quoted = quote(password, safe="")
    if form == "userinfo":
        return f"postgresql+psycopg://{user}:{quoted}@{host}/{database}"
    return f"postgresql+psycopg://{user}@{host}/{database}?password={quoted}"


def outputs(runner: CliRunner, location: str, *commands: list[str]) -> tuple[str, list[int]]:
    text, codes = "", []
    for args in commands:
        dispose()
        result = runner.invoke(app, ["--db", location, *args])
        text += result.stdout + result.stderr
        codes.append(result.exit_code)
    return text, codes


COMMANDS = (["db", "path"], ["db", "path", "--json"], ["company", "list"], ["db", "check"],
            ["mek", "buy", "Hawks", "WASP"], ["demo"])


@pytest.mark.parametrize("form", ["userinfo", "query"])
def test_item7_no_output_shows_the_password_of_a_server_that_cannot_be_reached(
        runner: CliRunner, form: str) -> None:
    password = "Tr0ub4dor&3-horse"
    text, codes = outputs(runner, url_with(password, form), *COMMANDS)
    assert codes == [0, 0, 1, 1, 1, 1], text
    assert "Connection refused" in text and "***" in text
    assert "unexpected" not in text
    assert not any(s in text for s in spellings(password)), text


passwords = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=0x2FF,
                                           exclude_categories=("Cc", "Cs", "Zs")),
                    min_size=6, max_size=24)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(password=passwords, form=st.sampled_from(["userinfo", "query"]))
def test_item7_random_passwords_never_appear_in_any_output(runner: CliRunner, password: str,
                                                           form: str) -> None:
    """Whatever the password, no output of a failing connection (nor `db path`) shows it,
    in any spelling."""
    commands = (["db", "path"], ["company", "list"], ["db", "check", "--json"])
    background, _ = outputs(runner, url_with("x", form), *commands)
    assume(not any(s in background for s in spellings(password)))
    text, codes = outputs(runner, url_with(password, form), *commands)
    assert codes[0] == 0 and codes[1] in (1, 2) and codes[2] in (1, 2), text
    assert "unexpected" not in text
    assert not any(s in text for s in spellings(password)), text


@given(password=st.text(min_size=1, max_size=16).filter(lambda p: p.strip() == p),
       form=st.sampled_from(["userinfo", "query"]))
def test_item7_a_url_is_shown_with_its_password_masked(password: str, form: str) -> None:
    """Even a one-letter password: where a URL holds it, `describe` shows *** instead."""
    from db.location import describe

    shown = describe(url_with(password, form, host="db.example"))
    assert "***" in shown
    if form == "userinfo":
        assert shown.startswith("postgresql+psycopg://") and ":***@db.example/meks" in shown
    else:
        assert shown.endswith("?password=***")


def test_item7_an_unexpected_problem_never_shows_the_password(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    """The "unexpected problem" line prints the exception's text: a password inside it
    (here an exception that quotes the URL) is scrubbed."""
    import db.engine

    password = "s3cr3t-Pass"

    def broken(location: str, create: bool = True) -> Any:
        raise RuntimeError(f"cannot use {location} (password={password})")

    monkeypatch.setattr(db.engine, "engine_for", broken)
    for form in ("userinfo", "query"):
        result = runner.invoke(app, ["--db", url_with(password, form), "company", "list"])
        assert result.exit_code == 1
        assert "unexpected problem (RuntimeError: cannot use postgresql" in result.stderr
        assert not any(s in result.stderr for s in spellings(password)), result.stderr


@ON_SERVER
@pytest.mark.parametrize("form", ["userinfo", "query"])
def test_item7_a_wrong_password_for_the_server_is_not_shown(runner: CliRunner,
                                                             form: str) -> None:
    from sqlalchemy.engine import make_url

    url = make_url(SERVER or "")
    host = f"{url.host}:{url.port or 5432}"
    password = "wr0ng-but-private"
    text, codes = outputs(runner, url_with(password, form, host=host,
                                           user=url.username or "", database=url.database
                                           or ""), ["company", "list"], ["db", "check"])
    assert codes == [1, 1], text
    assert "password authentication failed" in text
    assert not any(s in text for s in spellings(password)), text


MALFORMED = {
    "a port that is not a number": (
        "postgresql+psycopg://u:pw-in-url@host:notaport/db", "has a port that is not a number"),
    "no kind of database": ("://", "cannot be read"),
    "an unknown kind of database": ("nosuchdriver://x", "names no kind of database meks knows"),
    "an unknown driver": ("postgresql+nosuch://u:pw-in-url@h/db",
                          "names no kind of database meks knows"),
    "a port out of range": ("postgresql+psycopg://u:pw-in-url@127.0.0.1:99999/db",
                            "has the port 99999"),
    "an unclosed address": ("postgresql+psycopg://u:pw-in-url@[::1/db",
                            "has a port that is not a number"),
    "a port option that is not a number": (
        "postgresql+psycopg://u:pw-in-url@127.0.0.1/db?port=abc", "cannot be used"),
    "an unknown connection option": (
        "postgresql+psycopg://u:pw-in-url@127.0.0.1/db?colour=red", "cannot be used"),
    "a password in an SQLite URL": ("sqlite://:pw-in-url@/x", "cannot be used"),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_item7_a_malformed_database_url_is_a_usage_error(runner: CliRunner,
                                                         case: str) -> None:
    """Exit 2 and one sentence, never "unexpected problem", the password not shown. `db
    path` says so too, except of an option only the server's driver knows to refuse."""
    url, words = MALFORMED[case]
    path = [] if case == "an unknown connection option" else [["db", "path"]]
    for args in (["company", "list"], ["db", "check"], ["mek", "buy", "Hawks", "WASP"],
                 *path):
        dispose()
        result = runner.invoke(app, ["--db", url, *args])
        assert result.exit_code == 2, (case, result.stderr)
        line = one_line(result.stderr)
        assert words in line and "unexpected" not in line, line
        assert "pw-in-url" not in line
