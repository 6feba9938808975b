"""The battle each campaign step fought as a row of its own (``campaign_battle``, migration
15), linked by a foreign key: the step's ``battle_id`` that ``campaign status``, the record
and the company document show comes from it; migration 15 moves the ids of an older
database out of the campaign's results, and so does restoring a backup made before it;
undoing a step, deleting its battle or the company take the row along. Every test runs on
SQLite, and on PostgreSQL with MEKS_TEST_DB set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlmodel import col, select
from typer.testing import CliRunner

from tests.test_campaign_link import _blank, check, links_in_json, write_old_database
from tests.test_play import run

BEFORE = 13  # the schema before a step's battle (and a muster's force) had rows of their own


def links() -> list[tuple[int, int]]:
    """Every ``campaign_battle`` row: the step's place in the results, its battle."""
    from cli.state import session
    from db.models import CampaignBattle

    with session() as s:
        return [(r.position, r.battle_id) for r in s.exec(select(CampaignBattle).order_by(
            col(CampaignBattle.campaign_id), col(CampaignBattle.position))).all()]


def stored_results() -> list[list[dict[str, Any]]]:
    """What every campaign keeps in its results column."""
    from cli.state import session
    from db.models import Campaign

    with session() as s:
        return [json.loads(c.results)
                for c in s.exec(select(Campaign).order_by(col(Campaign.id))).all()]


def status(runner: CliRunner) -> dict[str, Any]:
    shown: dict[str, Any] = json.loads(run(runner, "campaign", "status", "Hawks", "--json"))
    return shown


def exported(runner: CliRunner) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(run(runner, "roster", "export", "Hawks"))
    return document


def one_step(runner: CliRunner) -> int:
    """Hawks, a campaign begun and its first step fought; that step's battle."""
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "4", "--no-treasury")
    battle: int = json.loads(run(runner, "campaign", "next", "Hawks", "--runs", "0",
                                 "--json"))["battle_id"]
    return battle


def test_a_campaign_step_names_its_battle_by_a_linked_row(runner: CliRunner) -> None:
    """The step's battle is a row, the results keep the step's other facts (its battle id
    as nothing), and every view shows the battle as before."""
    battle = one_step(runner)
    assert links() == [(0, battle)]
    [[entry]] = stored_results()
    assert entry["battle_id"] is None and entry["scenario"] == "opening-shots-campaign"
    assert [r["battle_id"] for r in status(runner)["results"]] == [battle]
    assert exported(runner)["campaigns"][0]["results"][0]["battle_id"] == battle
    record = json.loads(run(runner, "campaign", "show", "Hawks", "--json"))
    assert [step["battle_id"] for step in record["steps"]] == [battle]
    battles = json.loads(run(runner, "battle", "list", "Hawks", "--json"))
    # the battle is found to be the campaign's through the step's row
    assert [(b["id"], b["campaign"] is not None) for b in battles["battles"]] == [(battle, True)]
    assert "sound" in check(runner)


def test_migration_15_moves_each_step_battle_into_a_row(runner: CliRunner,
                                                        temp_database: str) -> None:
    """An older database's step battle ids become rows, the results keep nothing of them;
    an id naming a battle that is gone lets go of it (as migration 13 let go of such ids)."""
    from db.backup import dump
    from db.engine import engine_for

    battle = one_step(runner)
    shown = status(runner)
    old = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    old["schema_version"] = BEFORE
    links_in_json(old["tables"])
    [campaign] = old["tables"]["campaign"]
    results = json.loads(campaign["results"])
    assert results[0]["battle_id"] == battle
    campaign["results"] = json.dumps([*results, {**results[0], "battle_id": 999}])
    _blank(temp_database)
    write_old_database(temp_database, old, version=BEFORE, absent=())
    assert links() == [(0, battle)]
    assert [[e["battle_id"] for e in r] for r in stored_results()] == [[None, None]]
    assert [r["battle_id"] for r in status(runner)["results"]] == [battle, None]
    assert status(runner)["results"][0] == shown["results"][0]


def test_a_backup_made_before_migration_15_restores_with_step_battles_in_rows(
        runner: CliRunner, temp_database: str, tmp_path: Path) -> None:
    """'db restore' of a backup made before the rows puts each step's battle in one, as
    the migration does; the campaign reads the same, and a backup made then carries the
    rows and restores to the same."""
    from db.backup import dump
    from db.engine import engine_for

    battle = one_step(runner)
    shown, document = status(runner), exported(runner)
    current = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    old = json.loads(json.dumps(current))
    old["schema_version"] = BEFORE
    links_in_json(old["tables"])
    (tmp_path / "old.json").write_text(json.dumps(old))
    run(runner, "db", "restore", str(tmp_path / "old.json"), "--yes")
    assert links() == [(0, battle)]
    assert status(runner) == shown and exported(runner) == document
    assert "sound" in check(runner)
    assert json.loads(json.dumps(dump(engine_for(temp_database)), default=str)) == current
    run(runner, "db", "backup", str(tmp_path / "new.json"))
    run(runner, "db", "restore", str(tmp_path / "new.json"), "--yes")
    assert links() == [(0, battle)] and status(runner) == shown


def test_undo_and_delete_take_a_step_battle_row_along(runner: CliRunner) -> None:
    """Undoing the step takes its row; the battle deleted (as the next undo does) would
    take it too, the step then naming none; deleting the company leaves none."""
    from cli.state import session
    from db.models import Battle

    battle = one_step(runner)
    run(runner, "company", "undo", "Hawks")  # the campaign's bookkeeping step
    assert links() == [] and status(runner)["results"] == []
    run(runner, "company", "undo", "Hawks")  # and its battle
    again = json.loads(run(runner, "campaign", "next", "Hawks", "--runs", "0",
                           "--json"))["battle_id"]
    assert links() == [(0, again)]
    with session() as s:  # a battle deleted: its step lets go of it
        row = s.get(Battle, again)
        assert row is not None
        s.delete(row)
    assert links() == [] and status(runner)["results"][0]["battle_id"] is None
    run(runner, "company", "delete", "Hawks", "--yes")
    assert links() == [] and stored_results() == []
    assert battle  # the first battle's id, as it was
