"""A muster's force as rows of its own (``muster_mek``, migration 14): each Mek and its
pilot linked by a foreign key, in the order mustered, with what the muster paid. The rows
are what the commands read and the company document shows; migration 14 moves the forces of
an older database out of the muster's JSON, and so does restoring a backup made before it,
leaving a force that does not read where it was, a damaged record; replacing, undoing and
deleting take the rows with their muster. Every test runs on SQLite, and on PostgreSQL with
MEKS_TEST_DB set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlmodel import col, select
from typer.testing import CliRunner

from tests.test_battle_cli import BLUE
from tests.test_campaign_link import _blank, check, links_in_json, write_old_database
from tests.test_play_musters import mustered, run

BEFORE = 13  # the schema before a muster's force had rows of its own


def rows() -> list[tuple[int, int, int, int | None, int | None]]:
    """Every ``muster_mek`` row of the company's one muster (as ``held`` checks): position,
    Mek, pilot, paid, owed."""
    from cli.state import session
    from db.models import MusterMek

    with session() as s:
        found = s.exec(select(MusterMek).order_by(col(MusterMek.muster_id),
                                                  col(MusterMek.position))).all()
        return [(r.position, r.mek_id, r.pilot_id, r.paid, r.owed) for r in found]


def held() -> set[int]:
    """The musters that have ``muster_mek`` rows: the muster there is, if any."""
    from cli.state import session
    from db.models import Muster, MusterMek

    with session() as s:
        linked = set(s.exec(select(MusterMek.muster_id)).all())
        assert linked <= {m.id for m in s.exec(select(Muster)).all()}
        return linked


def old_forces() -> list[str]:
    """What every muster keeps in its old JSON column, by id."""
    from cli.state import session
    from db.models import Muster

    with session() as s:
        return [m.force for m in s.exec(select(Muster).order_by(col(Muster.id))).all()]


def exported(runner: CliRunner, company: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(run(runner, "roster", "export", company))
    return document


def _with_force(tables: dict[str, list[dict[str, Any]]], muster: int,
                force: list[dict[str, int]]) -> None:
    """Backup tables (of a schema before 14) whose muster ``muster`` mustered ``force``, in
    its row and in every company state its events keep."""
    for row in tables["muster"]:
        if row["id"] == muster:
            row["force"] = json.dumps(force)
    for row in tables["event"]:
        for state in ("before", "after"):
            doc = json.loads(row[state]) if row[state] else None
            if isinstance(doc, dict):
                for item in doc.get("musters", []):
                    if item["id"] == muster:
                        item["force"] = force
                row[state] = json.dumps(doc)


def older(backup: dict[str, Any], force: list[dict[str, int]] | None = None
          ) -> dict[str, Any]:
    """``backup`` as a meks of schema 13 made it: each force in its muster's JSON; with
    ``force``, muster 1's force that instead."""
    old = json.loads(json.dumps(backup, default=str))
    old["schema_version"] = BEFORE
    links_in_json(old["tables"])
    if force is not None:
        _with_force(old["tables"], 1, force)
    return old


# Muster 1's force as older musters recorded it: a pilot with nothing said of a hire fee
# (musters before migration 2), a fee and a Mek's debt paid, nothing paid.
VARIED = [{"mek": 1, "pilot": 1}, {"mek": 2, "pilot": 2, "paid": 5, "owed": 3},
          {"mek": 3, "pilot": 3, "paid": 0}]


def test_a_muster_keeps_its_force_as_rows_linking_meks_and_pilots(runner: CliRunner) -> None:
    """The muster writes one row per Mek, in the order named, and nothing in the old JSON
    column; the company document shows the force from the rows as it always did."""
    company = mustered(runner, "Wolves", "attacker")
    assert rows() == [(0, 1, 1, 0, None), (1, 2, 2, 0, None), (2, 3, 3, 0, None)]
    assert old_forces() == ["[]"]
    assert exported(runner, company)["musters"][0]["force"] == [
        {"mek": 1, "pilot": 1, "paid": 0}, {"mek": 2, "pilot": 2, "paid": 0},
        {"mek": 3, "pilot": 3, "paid": 0}]
    shown = json.loads(run(runner, "muster", company, "--scenario", "opening-shots",
                           "--side", "attacker", "WASP-2", "VIPER-1", "WASP-1", "--json"))
    assert [m["mek"] for m in shown["force"]] == ["WASP-2", "VIPER-1", "WASP-1"]
    assert [row[:3] for row in rows()] == [(0, 3, 3), (1, 1, 1), (2, 2, 2)]
    assert len(held()) == 1  # the muster replaced took its rows
    assert "sound" in check(runner)


def test_migration_14_moves_each_force_into_rows(runner: CliRunner,
                                                  temp_database: str) -> None:
    """An older database's forces become rows, each entry as it was recorded (a count it
    did not record stays unrecorded), the JSON emptied; the company reads the same."""
    from db.backup import dump
    from db.engine import engine_for
    from db.migrations import LATEST, applied_versions

    company = mustered(runner, "Wolves", "attacker")
    old = older(dump(engine_for(temp_database)), VARIED)
    _blank(temp_database)
    write_old_database(temp_database, old, version=BEFORE, absent=())
    with engine_for(temp_database).connect() as conn:
        assert applied_versions(conn)[-1] == LATEST
    assert rows() == [(0, 1, 1, None, None), (1, 2, 2, 5, 3), (2, 3, 3, 0, None)]
    assert old_forces() == ["[]"]
    assert exported(runner, company)["musters"][0]["force"] == VARIED
    assert "sound" in check(runner)


def test_migration_14_leaves_a_force_that_does_not_read_where_it_was(
        runner: CliRunner, temp_database: str, tmp_path: Path) -> None:
    """A force naming a Mek that is not there cannot become linked rows: it stays in the
    JSON column, 'db check' names it, and a battle refuses it as a damaged record."""
    from db.backup import dump
    from db.engine import engine_for

    company = mustered(runner, "Wolves", "attacker")
    gone = [{"mek": 1, "pilot": 1, "paid": 0}, {"mek": 99, "pilot": 2, "paid": 0}]
    old = older(dump(engine_for(temp_database)), gone)
    _blank(temp_database)
    write_old_database(temp_database, old, version=BEFORE, absent=())
    assert rows() == []
    assert [json.loads(force) for force in old_forces()] == [gone]
    said = " ".join(check(runner, code=1).split())
    assert "muster 1: the stored force names a Mek or a pilot that is not there" in said
    (tmp_path / "blue.yaml").write_text(BLUE)
    err = " ".join(run(runner, "battle", "auto", "opening-shots", "-a", company, "-d",
                       str(tmp_path / "blue.yaml"), "--seed", "3", code=1).split())
    assert "damaged record (muster 1, force)" in err


def test_a_backup_made_before_migration_14_restores_with_forces_in_rows(
        runner: CliRunner, temp_database: str, tmp_path: Path) -> None:
    """'db restore' of a backup made at schema 13 puts each force in rows, as the migration
    does; a backup made then carries the rows, and restores to the same."""
    from db.backup import dump
    from db.engine import engine_for

    company = mustered(runner, "Wolves", "attacker")
    run(runner, "muster", company, "--scenario", "opening-shots", "--side", "defender",
        "WASP-1", "VIPER-1", "WASP-2")  # replaces muster 1
    current = dump(engine_for(temp_database))
    document = exported(runner, company)
    (tmp_path / "old.json").write_text(json.dumps(older(current)))
    run(runner, "db", "restore", str(tmp_path / "old.json"), "--yes")
    assert rows() == [(0, 2, 2, 0, None), (1, 1, 1, 0, None), (2, 3, 3, 0, None)]
    assert len(held()) == 1
    assert old_forces() == ["[]"]
    assert exported(runner, company) == document
    assert "sound" in check(runner)
    again = dump(engine_for(temp_database))
    assert json.loads(json.dumps(again, default=str)) == json.loads(
        json.dumps(current, default=str))
    run(runner, "db", "backup", str(tmp_path / "new.json"))
    run(runner, "db", "restore", str(tmp_path / "new.json"), "--yes")
    assert rows() == [(0, 2, 2, 0, None), (1, 1, 1, 0, None), (2, 3, 3, 0, None)]
    assert exported(runner, company) == document


def test_a_backup_whose_force_names_a_missing_mek_is_refused(
        runner: CliRunner, temp_database: str, tmp_path: Path) -> None:
    """A backup of this schema whose force row names a Mek it does not hold is refused,
    the link named, and the database left as it was."""
    from db.backup import dump
    from db.engine import engine_for

    mustered(runner, "Wolves", "attacker")
    backup = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    backup["tables"]["muster_mek"][1]["mek_id"] = 99
    (tmp_path / "bad.json").write_text(json.dumps(backup))
    err = " ".join(run(runner, "db", "restore", str(tmp_path / "bad.json"), "--yes",
                       code=2).split())
    assert "muster_mek row 2: mek_id 99 names no mek row" in err
    assert len(rows()) == 3


def test_replacing_undoing_and_deleting_take_a_force_with_its_muster(
        runner: CliRunner) -> None:
    """A muster replaced takes its rows with it, an undo brings them back, an undo of a
    later change keeps them, and deleting the company leaves none."""
    company = mustered(runner, "Wolves", "attacker")
    first = rows()
    run(runner, "muster", company, "--scenario", "opening-shots", "--side", "attacker",
        "WASP-2", "WASP-1", "VIPER-1")
    assert [row[:3] for row in rows()] == [(0, 3, 3), (1, 2, 2), (2, 1, 1)]
    assert len(held()) == 1
    run(runner, "company", "undo", company)
    assert rows() == first
    run(runner, "mek", "buy", company, "WASP")
    run(runner, "company", "undo", company)
    assert rows() == first
    assert "sound" in check(runner)
    run(runner, "company", "delete", company, "--yes")
    assert rows() == []
    assert "sound" in check(runner)
