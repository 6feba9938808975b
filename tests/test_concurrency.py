"""Four processes making 200 mixed changes each on one database at once: every change is
there, none twice, and no process ever shows an error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from tests.conftest import SERVER

REPO = Path(__file__).resolve().parent.parent
WORKERS = 4
CHANGES = 200

# Each worker has its own company in the shared database and cycles through buy, hire,
# assign, and every tenth round a muster and a recorded battle: 5 changes a round.
WORKER = """
import json, sys
from typer.testing import CliRunner
from cli.app import app
db, name, changes = sys.argv[1], sys.argv[2], int(sys.argv[3])
runner = CliRunner()
errors, done = [], 0
def do(*args):
    global done
    if done >= changes:
        return
    r = runner.invoke(app, ["--db", db, *args])
    if r.exit_code:
        errors.append((args, r.stderr))
    done += 1
k = 0
while done < changes:
    k += 1
    do("mek", "buy", name, "WASP", "--callsign", f"{name}-M{k}")
    do("pilot", "hire", name, f"{name}-P{k}")
    do("pilot", "assign", name, f"{name}-P{k}", f"{name}-M{k}")
    if k % 10 == 0 and done + 2 <= changes:
        do("muster", name, "--budget", "100", f"{name}-M{k}")
        do("battle", "record", name, "--result", "win", "--auto", "--seed", str(k))
print(json.dumps({"done": done, "rounds": k, "errors": errors}))
"""


def run_workers(db: str) -> list[dict[str, object]]:
    runner = CliRunner()
    for n in range(WORKERS):
        assert runner.invoke(app, ["--db", db, "company", "create", f"C{n}"]).exit_code == 0
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, db, f"C{n}", str(CHANGES)],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for n in range(WORKERS)]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
        assert "locked" not in err and "Traceback" not in err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def check_every_change(db: str, results: list[dict[str, object]]) -> None:
    runner = CliRunner()
    for n, result in enumerate(results):
        assert result["errors"] == [], result["errors"]
        assert result["done"] == CHANGES
        rounds = int(str(result["rounds"]))
        view = json.loads(runner.invoke(app, ["--db", db, "company", "show", f"C{n}",
                                              "--json"]).stdout)
        assert sorted(m["callsign"] for m in view["meks"]) == sorted(
            f"C{n}-M{k}" for k in range(1, rounds + 1))
        assert len(view["pilots"]) in (rounds, rounds - 1)  # the last round may stop early
        assert all(p["mek"] in (None, p["name"].replace("-P", "-M")) for p in view["pilots"])
        assert len(view["battles"]) == rounds // 10
        events = json.loads(runner.invoke(app, ["--db", db, "company", "history", f"C{n}",
                                                "--json"]).stdout)
        assert len(events) == CHANGES + 1  # every change once, plus the founding
    check = runner.invoke(app, ["--db", db, "db", "check"])
    assert check.exit_code == 0, check.stderr


@pytest.mark.slow
@pytest.mark.skipif(bool(SERVER), reason="an SQLite file: the first pass of CI runs it")
def test_four_processes_on_one_sqlite_file(tmp_path: Path) -> None:
    db = str(tmp_path / "shared.db")
    check_every_change(db, run_workers(db))


@pytest.mark.slow
@pytest.mark.skipif(not SERVER, reason="runs in the PostgreSQL pass (MEKS_TEST_DB)")
def test_four_processes_on_one_postgresql_database(temp_database: str) -> None:
    check_every_change(temp_database, run_workers(temp_database))
