"""`meks db check | backup | restore`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from tests.test_campaign_link import links_in_json

REPO = Path(__file__).resolve().parent.parent


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def run_json(runner: CliRunner, *args: str) -> Any:
    return json.loads(run(runner, *args, "--json"))


def campaign(runner: CliRunner, *db: str) -> None:
    run(runner, *db, "company", "create", "Hawks")
    run(runner, *db, "campaign", "start", "Hawks", "--seed", "8", "--no-treasury")
    run(runner, *db, "campaign", "next", "Hawks")
    run(runner, *db, "company", "undo", "Hawks")
    run(runner, *db, "mek", "buy", "Hawks", "THOR")


def test_db_check_passes_on_a_sound_database(runner: CliRunner) -> None:
    campaign(runner)
    assert "sound" in run(runner, "db", "check")
    assert run_json(runner, "db", "check") == {"ok": True, "problems": []}


def test_db_check_finds_state_that_history_does_not_explain(runner: CliRunner) -> None:
    campaign(runner)
    from sqlmodel import select

    from cli.state import session
    from db.models import Mek

    with session() as s:
        mek = s.exec(select(Mek)).first()
        assert mek is not None
        mek.kills += 5  # changed behind the history's back
        s.add(mek)
    err = run(runner, "db", "check", code=1)
    assert "Hawks" in err and "differs" in err


def test_backup_and_restore_round_trip(runner: CliRunner, tmp_path: Path) -> None:
    campaign(runner)
    before = json.loads(run(runner, "roster", "export", "Hawks", "--format", "json"))
    file = tmp_path / "backup.json"
    run(runner, "db", "backup", str(file))
    other = str(tmp_path / "other.db")
    run(runner, "--db", other, "db", "restore", str(file), code=2)  # asks first
    run(runner, "--db", other, "db", "restore", str(file), "--yes")
    assert json.loads(run(runner, "--db", other, "roster", "export", "Hawks", "--format",
                          "json")) == before
    run(runner, "--db", other, "db", "check")
    run(runner, "--db", other, "mek", "buy", "Hawks", "WASP")  # ids carry on after restore


def test_a_restore_refused_into_a_new_file_leaves_no_file_behind(runner: CliRunner,
                                                                  tmp_path: Path) -> None:
    """A backup that reads well but whose companies disagree with their history is refused
    after the new file was made to restore into: the file goes again (it held nothing)."""
    campaign(runner)
    file = tmp_path / "backup.json"
    run(runner, "db", "backup", str(file))
    doc = json.loads(file.read_text(encoding="utf-8"))
    doc["tables"]["company"][0]["name"] = "Someone Else"  # not what its history says
    file.write_text(json.dumps(doc), encoding="utf-8")
    other = tmp_path / "new.db"
    err = run(runner, "--db", str(other), "db", "restore", str(file), "--yes", code=2)
    assert "differs" in err or "history" in err
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(other.name)]
    doc["tables"]["company"][0]["name"] = "A" * 100_000  # a name no command could give
    file.write_text(json.dumps(doc), encoding="utf-8")
    err = run(runner, "--db", str(other), "db", "restore", str(file), "--yes", code=2)
    assert len(err) < 1000 and "is 100000 characters long" in err and "AAAA" not in err
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(other.name)]


def test_a_name_key_that_is_not_the_name_folded_is_a_problem(runner: CliRunner,
                                                             tmp_path: Path) -> None:
    """A row is looked up by its name folded (``db.models.fold``): a key edited to anything
    else (in a backup, or in the database behind meks's back) would leave the row that no
    command finds by name. db check names it with the key it should have, and a restore
    refuses it; the key migration 7 gives the second of two lookalike names is sound."""
    campaign(runner)
    run(runner, "pilot", "hire", "Hawks", "Vera")
    file = tmp_path / "backup.json"
    run(runner, "db", "backup", str(file))
    doc = json.loads(file.read_text(encoding="utf-8"))
    pilot = next(p for p in doc["tables"]["pilot"] if p["name"] == "Vera")
    pilot["name_key"] = "someone"
    file.write_text(json.dumps(doc), encoding="utf-8")
    other = str(tmp_path / "other.db")
    err = run(runner, "--db", other, "db", "restore", str(file), "--yes", code=2)
    assert f"pilot {pilot['id']} ('Vera'): its name_key 'someone' is not its name folded" in err
    assert "set it to 'vera'" in err
    pilot["name_key"] = f"vera\u200b{pilot['id']}"  # as migration 7 keeps a lookalike
    file.write_text(json.dumps(doc), encoding="utf-8")
    run(runner, "--db", other, "db", "restore", str(file), "--yes")

    import sqlite3

    with sqlite3.connect(other) as conn:  # edited behind meks's back
        conn.execute("UPDATE company SET name_key = 'falcons'")
        mek_id, callsign = conn.execute("SELECT id, callsign FROM mek").fetchone()
        conn.execute("UPDATE mek SET callsign_key = 'X' WHERE id = ?", (mek_id,))
    conn.close()
    err = run(runner, "--db", other, "db", "check", code=1)
    assert "company 1 ('Hawks'): its name_key 'falcons' is not its name folded" in err
    assert f"mek {mek_id} ({callsign!r}): its callsign_key 'X'" in err
    problems = run_json_failing(runner, "--db", other, "db", "check")
    assert len(problems) == 2


def test_a_pilot_no_command_could_make_is_a_problem(runner: CliRunner,
                                                    tmp_path: Path) -> None:
    """A backup whose pilot row and history agree on what no command gives (an unknown
    level, a skill held twice, kills below 0) is refused as 'roster import' refuses it."""
    campaign(runner)
    run(runner, "pilot", "hire", "Hawks", "Vera")
    file = tmp_path / "backup.json"
    run(runner, "db", "backup", str(file))
    original = file.read_text(encoding="utf-8")
    for column, value, said in (("level", "Godlike", "'godlike' is not one of 'green'"),
                                ("kills", -7, "kills"),
                                ("skills", '["Flying", "Flying"]', "skills")):
        doc = json.loads(original)
        pilot = next(p for p in doc["tables"]["pilot"] if p["name"] == "Vera")
        pilot[column] = value
        last = doc["tables"]["event"][-1]
        after = json.loads(last["after"])
        held = next(p for p in after["pilots"] if p["name"] == "Vera")
        held[column] = json.loads(value) if column == "skills" else value
        last["after"] = json.dumps(after)
        file.write_text(json.dumps(doc), encoding="utf-8")
        err = " ".join(run(runner, "--db", str(tmp_path / f"{column}.db"), "db", "restore",
                           str(file), "--yes", code=2).split())
        assert "would fail 'meks db check': Hawks: pilots[" in err and said in err.lower(), err


def run_json_failing(runner: CliRunner, *args: str) -> list[str]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 1, result.stderr
    return json.loads(result.stdout)["problems"]


def test_a_broken_json_file_is_worded_in_plain_words(runner: CliRunner,
                                                     tmp_path: Path) -> None:
    """The JSON reader's own terse messages ('Unterminated string starting at') come in
    our words, with the line and column."""
    bad = tmp_path / "bad.json"
    for text, said in (('{"format": "meks-ba', "line 1, column 12: text in quotes that is "
                                               "never closed (it opens here)"),
                       ('{"format" 1}', "line 1, column 11: a colon is missing here"),
                       ("[1] x", "line 1, column 5: more text after the end of the JSON")):
        bad.write_text(text, encoding="utf-8")
        err = " ".join(run(runner, "db", "restore", str(bad), "--yes", code=2).split())
        assert said in err, err


def test_a_blank_database_location_is_bad_usage(runner: CliRunner,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """--db '' (or spaces) names no database: refused, not taken for MEKS_DB or the default
    file; MEKS_DB of spaces likewise. MEKS_DB set empty means unset, as in the shell."""
    assert "--db is empty" in run(runner, "--db", "", "db", "path", code=2)
    assert "--db is blank" in run(runner, "--db", "  ", "db", "path", code=2)
    monkeypatch.setenv("MEKS_DB", "   ")
    assert "MEKS_DB is blank" in run(runner, "db", "path", code=2)
    monkeypatch.setenv("MEKS_DB", "")
    assert run(runner, "db", "path").strip()  # the default file


def test_restore_refuses_what_is_not_a_backup(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    for text in ("not json", '{"format": "other"}', '[1, 2]'):
        bad.write_text(text)
        run(runner, "db", "restore", str(bad), "--yes", code=2)
    run(runner, "db", "restore", str(tmp_path / "missing.json"), "--yes", code=2)



def damaged(tmp_path: Path, name: str, change: Any) -> Path:
    """A backup of the test database, with ``change`` applied to its document."""
    file = tmp_path / f"{name}.json"
    if not (tmp_path / "good.json").exists():
        run(runner := CliRunner(), "company", "create", "Hawks")
        run(runner, "mek", "buy", "Hawks", "WASP")
        run(runner, "pilot", "hire", "Hawks", "Vera")
        run(runner, "db", "backup", str(tmp_path / "good.json"))
    data = json.loads((tmp_path / "good.json").read_text())
    change(data)
    file.write_text(json.dumps(data))
    return file


DAMAGE = {
    "a link to a missing row": (lambda d: d["tables"]["mek"][0].update(company_id=999),
                                "mek row 1: company_id 999 names no company row"),
    "a repeated row": (lambda d: d["tables"]["company"].append(d["tables"]["company"][0]),
                       "company rows 1 and 2 have the same id 1"),
    "a missing table": (lambda d: d["tables"].pop("mek"),
                        "tables: missing required key 'mek'; add it"),
    "a number too large": (lambda d: d["tables"]["mek"][0].update(price=10 ** 30),
                           "mek row 1 (price): the number 1000000000000000000000000000000 is too "
                           "large to store"),
    "a fraction": (lambda d: d["tables"]["mek"][0].update(price=1e30),
                   "mek row 1 (price): expected a whole number, found the number 1e+30"),
    "text for a number": (lambda d: d["tables"]["mek"][0].update(price="abc"),
                          "mek row 1 (price): expected a whole number, found text 'abc'"),
    "a number for text": (lambda d: d["tables"]["pilot"][0].update(name=7),
                          "pilot row 1 (name): expected text, found the number 7"),
    "a null where a value is needed": (lambda d: d["tables"]["mek"][0].update(size=None),
                                       "mek row 1 (size): must have a value"),
    "an unknown column": (lambda d: d["tables"]["mek"][0].update(colour="red"),
                          "mek row 1: unknown key 'colour'"),
    "a missing column": (lambda d: d["tables"]["mek"][0].pop("size"),
                         "mek row 1: missing required key 'size'; add it"),
    "a row that is not an object": (lambda d: d["tables"]["mek"].append([1]),
                                    "mek row 2: expected a mapping of column values, found a list"),
    "state its history does not explain": (
        lambda d: d["tables"]["mek"][0].update(price=5),
        "restored, it would fail 'meks db check': Hawks: the current state differs"),
    "unreadable stored JSON": (lambda d: d["tables"]["pilot"][0].update(skills="{oops"),
                               "pilot row 1 (skills): is not valid JSON"),
    "a name longer than meks gives": (
        lambda d: d["tables"]["company"][0].update(name="H" * 100_000),
        "company row 1 (name): is 100000 characters long, and meks keeps such a name to 60"),
}


@pytest.mark.parametrize("case", DAMAGE, ids=list(DAMAGE))
def test_restore_refuses_a_damaged_backup_and_changes_nothing(
        runner: CliRunner, tmp_path: Path, case: str) -> None:
    change, message = DAMAGE[case]
    file = damaged(tmp_path, "damaged", change)
    run(runner, "mek", "buy", "Hawks", "THOR")  # made after the backup: must survive
    err = run(runner, "db", "restore", str(file), "--yes", code=2)
    assert message in err
    assert "Integrity" not in err and "unexpected" not in err and "SQL" not in err
    assert len(run_json(runner, "mek", "list", "Hawks")) == 2
    assert "sound" in run(runner, "db", "check")


def test_restore_lists_every_problem_of_a_backup(runner: CliRunner, tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["tables"]["mek"][0].update(price="abc", colour="red")
        data["tables"]["pilot"][0].update(kills=True)

    err = run(runner, "db", "restore", str(damaged(tmp_path, "two", change)), "--yes", code=2)
    assert "3 problems" in err
    assert "unknown key 'colour'" in err and "(price): expected a whole number" in err
    assert "pilot row 1 (kills): expected a whole number, found true" in err


def test_restore_takes_a_backup_made_by_an_older_schema(runner: CliRunner,
                                                        tmp_path: Path) -> None:
    def as_version_1(data: dict[str, Any]) -> None:
        data["schema_version"] = 1
        links_in_json(data["tables"])
        for name in ("battle_log", "campaign", "play", "stockpile"):  # tables added since
            del data["tables"][name]
        for row in data["tables"]["pilot"]:
            del row["hire_cost"]  # columns added since
        for row in data["tables"]["mek"]:
            for column in ("damage", "lost", "owed", "wear"):
                del row[column]

    file = damaged(tmp_path, "old", as_version_1)
    other = str(tmp_path / "other.db")
    run(runner, "--db", other, "db", "restore", str(file), "--yes")
    assert run_json(runner, "--db", other, "pilot", "list", "Hawks")[0]["hire_cost"] == 0
    assert "sound" in run(runner, "--db", other, "db", "check")


WRITER = """
import sys
from typer.testing import CliRunner
from cli.app import app
runner = CliRunner()
for i in range(40):
    r = runner.invoke(app, ["--db", sys.argv[1], "mek", "buy", "Hawks", "WASP"])
    assert r.exit_code == 0, r.stderr
"""


def test_backup_is_consistent_while_another_process_writes(runner: CliRunner,
                                                           tmp_path: Path) -> None:
    db = str(tmp_path / "busy.db")
    run(runner, "--db", db, "company", "create", "Hawks")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, db], cwd=REPO,
                              stderr=subprocess.PIPE, text=True)
    files = []
    for n in range(3):
        file = tmp_path / f"b{n}.json"
        run(runner, "--db", db, "db", "backup", str(file))
        files.append(file)
    _, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    for n, file in enumerate(files):
        copy = str(tmp_path / f"copy{n}.db")
        run(runner, "--db", copy, "db", "restore", str(file), "--yes")
        assert "sound" in run(runner, "--db", copy, "db", "check")


def test_restore_of_a_backup_made_before_migration_7_refolds_the_name_keys(
        runner: CliRunner, tmp_path: Path) -> None:
    # Before schema 7 a name could be stored decomposed ('Jose' + a combining acute) with
    # a key folded without normalisation; migration 7 refolds such keys, and so must a
    # restore of a backup made then, or the company is found by neither spelling.
    run(runner, "company", "create", "José")
    run(runner, "pilot", "hire", "José", "Aná")
    run(runner, "mek", "buy", "José", "WASP", "--callsign", "Ré")
    good = tmp_path / "good.json"
    run(runner, "db", "backup", str(good))

    def decomposed(value: Any) -> Any:
        if isinstance(value, str):
            for composed, parts, escaped in (("é", "e\u0301", "e\\u0301"),
                                             ("á", "a\u0301", "a\\u0301")):
                value = value.replace(composed, parts).replace(
                    f"\\u{ord(composed):04x}", escaped)
            return value
        if isinstance(value, dict):
            return {k: decomposed(v) for k, v in value.items()}
        if isinstance(value, list):
            return [decomposed(v) for v in value]
        return value

    data = decomposed(json.loads(good.read_text()))
    data["schema_version"] = 6
    tables = data["tables"]
    links_in_json(tables)
    del tables["stockpile"]  # added by migration 9, with the Mek columns below
    for row in tables["mek"]:
        for column in ("lost", "owed", "wear"):
            del row[column]
    tables["company"][0]["name_key"] = "jose\u0301"  # folded as before schema 7
    tables["pilot"][0]["name_key"] = "ana\u0301"
    tables["mek"][0]["callsign_key"] = "re\u0301"
    assert tables["company"][0]["name"] == "Jose\u0301"
    old = tmp_path / "v6.json"
    old.write_text(json.dumps(data))
    run(runner, "db", "restore", str(old), "--yes")  # over the test database (any kind)
    for spelling in ("José", "Jose\u0301"):
        shown = run_json(runner, "company", "show", spelling)
        assert shown["pilots"][0]["name"] == "Ana\u0301"
        run(runner, "pilot", "show", spelling, "Aná")
        run(runner, "pilot", "show", spelling, "Ana\u0301")
    assert "already" in run(runner, "company", "create", "José", code=1)
    assert "already" in run(runner, "pilot", "hire", "José", "Aná", code=1)
    run(runner, "mek", "buy", "José", "WASP", "--callsign", "Ré", code=1)
    assert "sound" in run(runner, "db", "check")


def test_restore_refuses_json_nested_too_deeply_as_unreadable(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    db = tmp_path / "deep.db"
    done = subprocess.run([sys.executable, "-m", "cli", "--db", str(db), "db", "restore",
                           str(deep), "--yes"], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert "nested more than 100 deep" in done.stderr
    assert "unexpected" not in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_backup_is_written_whole_or_not_at_all(runner: CliRunner, tmp_path: Path) -> None:
    run(runner, "company", "create", "Hawks")
    place = tmp_path / "place"
    place.mkdir()
    (place / "a-folder").mkdir()
    for target, reason in ((place / "a-folder", "this is a folder, not a file, and meks "
                            "replaces only regular files; give another name"),
                           (place / "no-such-folder" / "b.json",
                            "cannot be written: its folder does not exist")):
        err = run(runner, "db", "backup", str(target), code=2)
        assert " ".join(err.split()) == f"Error: {target}: {reason}"
    assert [p.name for p in place.iterdir()] == ["a-folder"]  # no temporary file left
    (place / "real.json").write_text("old")
    (place / "link.json").symlink_to(place / "real.json")
    err = run(runner, "db", "backup", str(place / "link.json"), code=2)
    assert "is a symbolic link, and meks does not write through links" in err  # issue 14.6
    assert (place / "link.json").is_symlink()
    assert (place / "real.json").read_text() == "old"


def test_backup_and_check_read_one_moment_even_on_postgresql(runner: CliRunner,
                                                               temp_database: str) -> None:
    """A backup (and ``db check``) reads table after table; a change committed by another
    process between two of those reads must show in all of them or in none. Here a company
    and its Mek are committed by a second connection right after the backup has read the
    company table: the backup holds neither. (On SQLite the reading transaction keeps one
    moment by itself; on PostgreSQL it takes REPEATABLE READ.)"""
    from sqlalchemy import event, text

    from db.backup import dump
    from db.engine import engine_for

    assert runner.invoke(app, ["company", "create", "Early"]).exit_code == 0
    engine = engine_for(temp_database)
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite transactions see one moment already; BEGIN IMMEDIATE would "
                    "make the second writer wait for the backup")
    sneaked: list[bool] = []

    def sneak_in(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if sneaked or "FROM mek" not in statement:
            return
        sneaked.append(True)
        other = engine.connect()
        try:
            with other.begin():
                cid = other.execute(text(
                    "INSERT INTO company (name, name_key, created_at) "
                    "VALUES ('Late', 'late', '2026-01-01') RETURNING id")).scalar_one()
                other.execute(text(
                    "INSERT INTO mek (company_id, callsign, callsign_key, design, size, "
                    "price, kills, status, damage) VALUES (:c, 'L-1', 'l-1', 'WASP', "
                    "'Light', 9, 0, 'active', 0)"), {"c": cid})
        finally:
            other.close()

    event.listen(engine, "before_cursor_execute", sneak_in)
    try:
        data = dump(engine)
    finally:
        event.remove(engine, "before_cursor_execute", sneak_in)
    assert sneaked
    assert [c["name"] for c in data["tables"]["company"]] == ["Early"]
    assert data["tables"]["mek"] == []


def test_db_check_reads_one_moment_on_postgresql(temp_database: str) -> None:
    """``meks db check`` compares every company's history with its state, table by table;
    on PostgreSQL its transaction is REPEATABLE READ so a change committed meanwhile cannot
    make a sound database look unsound."""
    from db.engine import transaction

    with transaction(temp_database, snapshot=True) as session:
        level = session.connection().get_isolation_level()
    if session.get_bind().dialect.name == "postgresql":
        assert level == "REPEATABLE READ"
    else:
        assert level == "SERIALIZABLE"  # SQLite's own


def test_restore_says_a_database_file_is_not_a_backup(runner: CliRunner,
                                                      tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    run(runner, "--db", str(copy), "company", "create", "Hawks")
    err = run(runner, "db", "restore", str(copy), "--yes", code=2)
    assert "is an SQLite database file, not a backup" in err
    assert "'meks --db FILE db backup OUT'" in err and "UTF-8" not in err
    assert len(err.strip().splitlines()) == 1
