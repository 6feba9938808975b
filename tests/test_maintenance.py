"""`meks db check | backup | restore`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cli.app import app

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
    run(runner, *db, "campaign", "start", "Hawks", "--seed", "8")
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


def test_restore_refuses_what_is_not_a_backup(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    for text in ("not json", '{"format": "other"}', '[1, 2]'):
        bad.write_text(text)
        run(runner, "db", "restore", str(bad), "--yes", code=2)
    run(runner, "db", "restore", str(tmp_path / "missing.json"), "--yes", code=2)


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
