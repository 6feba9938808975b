"""Damaged stored data (issue 14, item 5): JSON the product stored itself that no longer
reads (edited by hand, or damaged) stops the command with one sentence naming the record
and saying to run 'meks db check' or restore a backup, exit 1; never an unexpected problem.
Each test damages a row with SQL, as a hand edit would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app

BLUE = """\
meks:
  - {design: VIPER, pilot: Dee}
  - {design: WASP, pilot: Eve}
  - {design: WASP, pilot: Fay}
"""


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "unexpected problem" not in result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def damage(sql: str, **values: Any) -> None:
    from sqlalchemy import text

    from cli.state import session

    with session() as s:
        s.connection().execute(text(sql), values)


def refused_as_damaged(runner: CliRunner, record: str, *args: str) -> None:
    err = run(runner, *args, code=1)
    assert f"damaged record ({record})" in err
    assert "meks db check" in err and "restore" in err
    assert len(err.strip().splitlines()) <= 3  # one sentence (the terminal may wrap it)


@pytest.fixture
def wolves(runner: CliRunner) -> str:
    run(runner, "company", "create", "Wolves")
    for design, pilot in (("VIPER", "Ana"), ("WASP", "Bo"), ("WASP", "Cy")):
        callsign = json.loads(run(runner, "mek", "buy", "Wolves", design, "--json"))["callsign"]
        run(runner, "pilot", "hire", "Wolves", pilot)
        run(runner, "pilot", "assign", "Wolves", pilot, callsign)
    run(runner, "muster", "Wolves", "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    return "Wolves"


@pytest.fixture
def blue(tmp_path: Path) -> str:
    (tmp_path / "blue.yaml").write_text(BLUE)
    return str(tmp_path / "blue.yaml")


@pytest.mark.parametrize("force", ["not json", "{\"mek\": 1}", "[{\"pilot\": 1}]", "[7]"])
def test_damaged_muster_force_is_one_sentence(runner: CliRunner, wolves: str, blue: str,
                                              force: str) -> None:
    """A muster's stored force that is not JSON, not a list, or whose entries lack their
    keys: the battle is refused naming 'muster N, force'."""
    damage("UPDATE muster SET force = :force", force=force)
    refused_as_damaged(runner, "muster 1, force", "battle", "auto", "opening-shots",
                       "-a", wolves, "-d", blue)


@pytest.mark.parametrize("force", ["[{\"pilot\": 1}]", "[{\"mek\": \"1\", \"pilot\": 1}]",
                                   "[{\"mek\": 1, \"pilot\": 1, \"paid\": -5}]",
                                   "[{\"mek\": 1, \"pilot\": true}]", "[7]"])
@pytest.mark.parametrize("command", [
    ("battle", "record", "Wolves", "--result", "win", "--auto"),
    ("mek", "sell", "Wolves", "VIPER-1"),
    ("muster", "Wolves", "--scenario", "opening-shots", "--side", "attacker", "VIPER-1"),
])
def test_damaged_muster_force_entries_are_one_sentence_everywhere(
        runner: CliRunner, wolves: str, force: str, command: tuple[str, ...]) -> None:
    """Every command that reads a muster's force checks the shape of each entry
    (``campaigns.files.records.ForceEntry``: a Mek and a pilot by id, what was paid as a
    count) before using it: recording its battle, selling one of its Meks, mustering in its
    place. A damaged entry is refused naming 'muster 1, force', and nothing changes."""
    damage("UPDATE muster SET force = :force", force=force)
    before = run(runner, "company", "history", wolves, "--json")
    refused_as_damaged(runner, "muster 1, force", *command)
    assert run(runner, "company", "history", wolves, "--json") == before
    said = run(runner, "db", "check", code=1)  # which the refusal says to run
    assert "muster 1: the stored force is not a list of entries" in said


@pytest.mark.parametrize("skills", ["[oops", "{}", "null"])
def test_damaged_pilot_skills_are_one_sentence(runner: CliRunner, wolves: str,
                                               skills: str) -> None:
    """A pilot's stored skills that are not a JSON list: 'company show' names the pilot."""
    damage("UPDATE pilot SET skills = :skills WHERE name = 'Bo'", skills=skills)
    refused_as_damaged(runner, "pilot 2, skills", "company", "show", wolves)


@pytest.mark.parametrize("spec", [
    "{",
    "[]",
    json.dumps({"scenario": {"id": "x"}, "forces": {}, "dice": {}}),
    json.dumps({"forces": {}}),
])
def test_damaged_battle_record_is_one_sentence(runner: CliRunner, wolves: str, blue: str,
                                               spec: str) -> None:
    """A battle's stored record (its scenario, forces and dice) that no longer reads:
    'battle replay' names it instead of failing on the stored scenario's checks."""
    out = run(runner, "battle", "auto", "opening-shots", "-a", wolves, "-d", blue, "--json")
    battle_id = json.loads(out)["battle_id"]
    damage("UPDATE battle_log SET spec = :spec", spec=spec)
    refused_as_damaged(runner, f"battle_log {battle_id}, spec", "battle", "replay",
                       str(battle_id))


def test_db_check_names_every_damaged_stored_document(runner: CliRunner) -> None:
    """The refusal of a damaged record says to run 'meks db check': it must then list
    each stored JSON document that no longer reads (table, row and column), exit 1, and
    not fail on the damage itself."""
    run(runner, "company", "create", "Hawks")
    run(runner, "pilot", "hire", "Hawks", "Vera")
    run(runner, "mek", "buy", "Hawks", "WASP")
    damage("UPDATE pilot SET skills = :s", s="[oops")
    damage("UPDATE event SET \"before\" = :s WHERE id = (SELECT MAX(id) FROM event)", s="{")
    said = run(runner, "db", "check", code=1)
    assert "pilot 1: the stored skills is not valid JSON" in said
    assert "event 3: the stored before is not valid JSON" in said
    data = json.loads(runner.invoke(app, ["db", "check", "--json"]).stdout)
    assert data["ok"] is False and len(data["problems"]) == 2


def test_damaged_scenario_copy_in_a_campaign_plan_is_one_sentence(runner: CliRunner,
                                                                   tmp_path: Path) -> None:
    """A campaign keeps a copy of each scenario file its plan named; a copy damaged in the
    database stops 'campaign next' with the damaged-record sentence."""
    import yaml

    text = (Path(__file__).resolve().parent.parent / "campaigns" / "files" / "scenarios" /
            "5-head-to-head.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    data.update(id="river", name="River Crossing")
    (tmp_path / "river.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    (tmp_path / "plan.yaml").write_text(
        "name: River\nscenarios:\n  - {scenario: river.yaml, side: attacker}\n",
        encoding="utf-8")
    run(runner, "company", "create", "Hawks")
    plan = json.loads(run(runner, "campaign", "start", "Hawks", "--plan",
                          str(tmp_path / "plan.yaml"), "--json"))["plan"]
    plan[0]["definition"]["turn_limit"] = "soon"
    damage("UPDATE campaign SET plan = :p", p=json.dumps(plan))
    said = run(runner, "campaign", "next", "Hawks", code=1)
    assert "damaged record (the campaign plan's copy of" in said
