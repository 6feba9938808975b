"""Issue 17 items 1-3: the campaign house rules salvage (R3.6), spare_parts with paid repairs
and refits (R3.7) and wear (R3.8): after battles fought by the tool, recorded at the table,
played at the terminal and in campaigns; through undo, export and import, db check,
migrations and old backups."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from cli.app import app

SCENARIOS = Path(__file__).resolve().parent.parent / "campaigns" / "files" / "scenarios"
BLUE = """\
meks:
  - {design: VIPER, pilot: Dee}
  - {design: WASP, pilot: Eve, level: Green}
  - {design: WASP, pilot: Fay, level: Green}
"""


# A battle recorded at the table salvages from the enemy Meks destroyed: three here (R3.6).
RECORD = ("battle", "record", "--enemy-destroyed", "3")


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "unexpected problem" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def run_json(runner: CliRunner, *args: str) -> Any:
    return json.loads(run(runner, *args, "--json"))


def scenario_file(tmp_path: Path, scenario_id: str, budget: int | None = None,
                  **house: object) -> str:
    """Opening Shots under another id with these house rules (and this budget for both
    sides), saved among the player's own scenarios (so that a muster for it is found again
    by its id)."""
    data = yaml.safe_load((SCENARIOS / "1-opening-shots.yaml").read_text())
    data.update(id=scenario_id, name=scenario_id.replace("-", " ").title(), house_rules=house)
    if budget is not None:
        data["attacker"]["budget"] = data["defender"]["budget"] = budget
    folder = tmp_path / "user-scenarios"
    folder.mkdir(exist_ok=True)
    path = folder / f"{scenario_id}.yaml"
    path.write_text(yaml.safe_dump(data))
    return scenario_id


@pytest.fixture
def wolves(runner: CliRunner) -> str:
    run(runner, "company", "create", "Wolves")
    for design, pilot in (("VIPER", "Ana"), ("WASP", "Bo"), ("WASP", "Cy")):
        callsign = run_json(runner, "mek", "buy", "Wolves", design)["callsign"]
        run(runner, "pilot", "hire", "Wolves", pilot)
        run(runner, "pilot", "assign", "Wolves", pilot, callsign)
    return "Wolves"


@pytest.fixture
def blue(tmp_path: Path) -> str:
    path = tmp_path / "blue.yaml"
    path.write_text(BLUE)
    return str(path)


def snapshot(company: str) -> dict[str, Any]:
    from campaigns.company import get_company
    from campaigns.files.roster import snapshot as take
    from cli.state import session

    with session() as s:
        return take(s, get_company(s, company))


def salvage_seed(scenario: str, blue: str, wolves: str, *, outcome: str = "defender",
                 with_lost_part: bool = True) -> tuple[int, list[tuple[str, str]]]:
    """A seed whose battle (``blue`` attacking ``wolves``) ends with ``outcome`` and at
    least one attacking Mek destroyed (one of them having lost a part, if
    ``with_lost_part``), and the parts its wrecks still have working, worked out here from
    the battle's units."""
    from campaigns.battles import fight
    from cli.state import session
    from meks.game.dice import Dice
    from meks.game.vocabulary import Side

    with session() as s:
        for seed in range(300):
            battle = fight(s, scenario, blue, wolves, Dice.from_seed(seed)).battle
            result = battle.result()
            winner = result.winner.value if result.winner else "draw"
            wrecks = [u for u in battle.side_units(Side.ATTACKER)
                      if u.is_mek and u.destroyed_turn is not None]
            broken = any(w.destroyed for u in wrecks for w in u.weapons) or any(
                sy.destroyed for u in wrecks for sy in u.systems)
            if winner == outcome and wrecks and (broken or not with_lost_part):
                parts = [("weapon", w.name) for u in wrecks for w in u.weapons
                         if not w.destroyed]
                parts += [("system", sy.system.name) for u in wrecks for sy in u.systems
                          if not sy.destroyed]
                s.rollback()
                return seed, sorted(parts)
    raise AssertionError("no such seed")  # pragma: no cover


def stock_of(doc: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((p["kind"], p["part"]) for p in doc.get("stockpile", [])
                  for _ in range(p["count"]))


# ---- R3.6 salvage ---------------------------------------------------------------------------

def test_salvage_rule_is_off_by_default_and_the_stored_scenario_form_keeps_it_out_R3_6(
        tmp_path: Path) -> None:
    """The house rules salvage, spare_parts and wear are off unless switched on, and a
    scenario stores them only when on: scenarios stored before them keep their form."""
    from campaigns.files.scenario_model import scenario_data
    from campaigns.files.scenarios import get_scenario
    from meks.game.scenario import HouseRules
    from meks.game.vocabulary import Salvage

    assert HouseRules().salvage is Salvage.NONE
    assert not HouseRules().spare_parts and not HouseRules().wear
    plain = scenario_data(get_scenario("opening-shots"))["house_rules"]
    assert set(plain) == {"pricing", "skill_choice", "repair", "diagonal_moves",
                          "six_always_hits"}
    scenario_file(tmp_path, "spoils", salvage="Winner", wear=True)
    stored = scenario_data(get_scenario("spoils"))["house_rules"]
    assert stored["salvage"] == "winner" and stored["wear"] is True
    assert "spare_parts" not in stored
    assert "salvage: winner" in get_scenario("spoils").house_rules.changed()


def test_salvage_winner_recovers_the_working_parts_of_destroyed_enemy_meks_R3_6(
        runner: CliRunner, wolves: str, blue: str, tmp_path: Path) -> None:
    """battle auto with 'salvage: winner', fixed dice: the winning company's stockpile gets
    every weapon and system of the enemy's destroyed Meks that the battle did not destroy
    (a part a critical destroyed is not recovered); the summary, company show and the
    roster list it; db check passes; undo takes it away exactly."""
    scenario = scenario_file(tmp_path, "spoils", salvage="winner")
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "defender",
        "VIPER-1", "WASP-1", "WASP-2")
    seed, parts = salvage_seed(scenario, blue, wolves)
    before = snapshot(wolves)
    data = run_json(runner, "battle", "auto", scenario, "-a", blue, "-d", wolves,
                    "--seed", str(seed))
    assert data["winner"] == "defender"
    assert sorted(data["salvage"]["defender"]) == sorted(name for _, name in parts)
    after = snapshot(wolves)
    assert stock_of(after) == parts
    shown = run_json(runner, "company", "show", wolves)
    assert stock_of(shown) == parts
    text = run(runner, "company", "show", wolves)
    assert "Stockpile:" in text
    assert "Stockpile" in run(runner, "roster", "export", wolves, "--format", "md")
    assert "sound" in run(runner, "db", "check")
    history = run_json(runner, "company", "history", wolves)
    assert "Salvaged" in history[0]["summary"]
    run(runner, "company", "undo", wolves)
    assert snapshot(wolves) == before and "stockpile" not in before
    assert "sound" in run(runner, "db", "check")


def test_salvage_winner_gives_the_loser_nothing_and_both_gives_both_R3_6(
        runner: CliRunner, wolves: str, blue: str, tmp_path: Path) -> None:
    """Under 'salvage: winner' a company that loses recovers nothing; under 'salvage: both'
    it recovers the parts of the enemy Meks it destroyed all the same."""
    from campaigns.battles import fight, salvage
    from cli.state import session
    from meks.game.dice import Dice
    from meks.game.vocabulary import Side

    winner_only = scenario_file(tmp_path, "spoils", salvage="winner")
    both = scenario_file(tmp_path, "shared-spoils", salvage="both")
    run(runner, "muster", wolves, "--scenario", winner_only, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    with session() as s:  # a battle the company loses having destroyed an enemy Mek
        seed = next(seed for seed in range(300) for b in [fight(
            s, winner_only, wolves, blue, Dice.from_seed(seed)).battle]
            if b.result().winner is Side.DEFENDER and salvage(b, Side.DEFENDER))
        s.rollback()
    data = run_json(runner, "battle", "auto", winner_only, "-a", wolves, "-d", blue,
                    "--seed", str(seed))
    assert data["winner"] == "defender" and "salvage" not in data
    assert "stockpile" not in snapshot(wolves)
    run(runner, "company", "undo", wolves)
    run(runner, "muster", wolves, "--scenario", both, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    data = run_json(runner, "battle", "auto", both, "-a", wolves, "-d", blue,
                    "--seed", str(seed))
    assert data["winner"] == "defender" and data["salvage"]["attacker"]
    assert len(stock_of(snapshot(wolves))) == len(data["salvage"]["attacker"])


def test_salvage_recorded_at_the_table_with_battle_record_R3_6(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """battle record --salvage PART puts the parts named into the stockpile when the
    muster's scenario has salvage on and the result allows it; otherwise it is refused
    (exit 1) and nothing is stored."""
    spoils = scenario_file(tmp_path, "spoils", salvage="winner")
    run(runner, "muster", wolves, "--scenario", spoils, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    before = snapshot(wolves)
    err = run(runner, *RECORD, wolves, "--result", "loss", "--salvage", "Laser",
              "--auto", code=1)
    assert "Only the winner salvages" in err and "--salvage" in err
    err = run(runner, *RECORD, wolves, "--result", "win", "--salvage", "Lazer",
              "--auto", code=1)
    assert "No weapon or system is called 'Lazer'" in err
    assert snapshot(wolves) == before
    data = run_json(runner, *RECORD, wolves, "--result", "win", "--auto",
                    "--salvage", "laser", "--salvage", "Laser", "-s", "heat sink",
                    "--seed", "3")
    assert data["salvage"] == ["Laser", "Laser", "Heat Sink"]
    assert snapshot(wolves)["stockpile"] == [
        {"kind": "weapon", "part": "Laser", "count": 2},
        {"kind": "system", "part": "Heat Sink", "count": 1}]
    run(runner, "company", "undo", wolves)
    assert snapshot(wolves)["meks"] == before["meks"] and "stockpile" not in snapshot(wolves)
    # with the rule off (a plain scenario) --salvage is refused
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    err = run(runner, *RECORD, wolves, "--result", "win", "--salvage", "Laser",
              "--auto", code=1)
    assert "house rule 'salvage' is off" in err


def test_battle_record_keeps_the_house_rules_of_the_scenario_file_mustered_for_R3_6(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """A muster made with --scenario FILE, the file outside the scenarios folder, keeps that
    scenario: battle record takes its house rules (here salvage and bail_out, which the
    built-in scenario it copies has not), even once the file is gone."""
    # the built-in scenario of that id, mustered for by its id, has them off
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    err = run(runner, *RECORD, wolves, "--result", "win", "--salvage", "Laser",
              "--auto", code=1)
    assert "house rule 'salvage' is off" in err
    data = yaml.safe_load((SCENARIOS / "1-opening-shots.yaml").read_text())
    data.update(id="my-opening", house_rules={"salvage": "winner", "bail_out": True})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = elsewhere / "my-opening.yaml"
    path.write_text(yaml.safe_dump(data))
    mustered = run_json(runner, "muster", wolves, "--scenario", str(path), "--side",
                        "attacker", "VIPER-1", "WASP-1", "WASP-2")
    assert mustered["scenario"] == "my-opening"
    path.unlink()
    recorded = run_json(runner, *RECORD, wolves, "--result", "win", "--auto",
                        "--salvage", "Laser", "--bailed", "WASP-1", "--seed", "3")
    assert recorded["salvage"] == ["Laser"]
    assert snapshot(wolves)["stockpile"] == [{"kind": "weapon", "part": "Laser", "count": 1}]


def test_a_muster_keeps_its_scenario_through_undo_export_and_import_R3_6(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """The waiting muster keeps the scenario it was made for, house rules and all: in the
    company's state (undo brings it back), in an exported roster (imported, the copy's
    battle takes those rules; a kept scenario that is not valid is refused, exit 2). A muster
    that has fought keeps it no longer, and db check finds all sound."""
    from campaigns.files.scenario_model import scenario_data
    from campaigns.files.scenarios import read_scenario_file

    spoils = tmp_path / "spoils.yaml"
    data = yaml.safe_load((SCENARIOS / "1-opening-shots.yaml").read_text())
    data.update(id="spoils", house_rules={"salvage": "winner"})
    spoils.write_text(yaml.safe_dump(data))
    run(runner, "muster", wolves, "--scenario", str(spoils), "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    kept = snapshot(wolves)["musters"][-1]["definition"]
    assert kept == scenario_data(read_scenario_file(spoils))
    out = tmp_path / "wolves.json"
    run(runner, "roster", "export", wolves, "--format", "json", "-o", str(out))
    spoils.unlink()
    run(runner, *RECORD, wolves, "--result", "win", "--auto", "-s", "Laser")
    assert "definition" not in snapshot(wolves)["musters"][-1]
    run(runner, "company", "undo", wolves)
    assert snapshot(wolves)["musters"][-1]["definition"] == kept
    run(runner, "roster", "import", str(out), "--name", "Copy")
    assert snapshot("Copy")["musters"][-1]["definition"] == kept
    run(runner, *RECORD, "Copy", "--result", "win", "--auto", "-s", "Laser")
    assert snapshot("Copy")["stockpile"] == [{"kind": "weapon", "part": "Laser", "count": 1}]
    doc = json.loads(out.read_text())
    doc["musters"][-1]["definition"]["house_rules"] = {"salvage": "always"}
    out.write_text(json.dumps(doc))
    err = run(runner, "roster", "import", str(out), "--name", "Bad", code=2)
    assert "musters[0].definition" in err and "salvage" in err
    assert "sound" in run(runner, "db", "check")


def test_a_muster_from_before_musters_kept_their_scenario_R3_6(
        runner: CliRunner, wolves: str, tmp_path: Path, temp_database: str) -> None:
    """Migration 11 on a database of schema 10, and a backup made at schema 10 restored:
    the waiting muster keeps no scenario, and its battle takes the house rules of the
    scenario with its id now, as before."""
    from db.backup import dump
    from db.engine import engine_for
    from db.migrations import LATEST, applied_versions
    from tests.test_campaign_link import _blank, without_kept_scenarios
    from tests.test_campaign_link import write_old_database as write_old_campaign_database

    spoils = scenario_file(tmp_path, "spoils", salvage="winner")
    run(runner, "muster", wolves, "--scenario", spoils, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    old = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    old["schema_version"] = 10
    without_kept_scenarios(old["tables"])
    backup = tmp_path / "v10.json"
    backup.write_text(json.dumps(old))
    _blank(temp_database)
    write_old_campaign_database(temp_database, old, version=10, absent=())
    with engine_for(temp_database).connect() as conn:
        assert applied_versions(conn)[-1] == LATEST
    for restored in (False, True):
        if restored:
            run(runner, "db", "restore", str(backup), "--yes")
        assert "definition" not in snapshot(wolves)["musters"][-1]
        assert "sound" in run(runner, "db", "check")
        run(runner, *RECORD, wolves, "--result", "win", "--auto", "-s", "Laser")
        assert snapshot(wolves)["stockpile"] == [
            {"kind": "weapon", "part": "Laser", "count": 1}]


def test_stockpile_survives_export_and_import_and_bad_parts_are_refused_R3_6(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """A roster's stockpile exports and imports exactly (JSON and YAML); an import naming a
    part the catalog lacks, or listing a part twice, is refused (exit 2) with every
    problem named."""
    spoils = scenario_file(tmp_path, "spoils", salvage="both")
    run(runner, "muster", wolves, "--scenario", spoils, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    run(runner, *RECORD, wolves, "--result", "draw", "--auto", "-s", "PPC",
        "-s", "Jump Jets", "-s", "PPC")
    for fmt in ("json", "yaml"):
        out = tmp_path / f"wolves.{fmt}"
        run(runner, "roster", "export", wolves, "--format", fmt, "-o", str(out))
        run(runner, "roster", "import", str(out), "--name", f"Copy {fmt}")
        assert snapshot(f"Copy {fmt}")["stockpile"] == snapshot(wolves)["stockpile"]
    doc = json.loads((tmp_path / "wolves.json").read_text())
    doc["stockpile"] += [{"kind": "weapon", "part": "Death Ray", "count": 1},
                         {"kind": "weapon", "part": "PPC", "count": 1}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    err = run(runner, "roster", "import", str(bad), "--name", "Bad", code=2)
    assert "no weapon called 'Death Ray'" in err and "PPC is listed twice" in err
    doc["stockpile"] = [{"kind": "weapon", "part": "PPC", "count": 0}]
    bad.write_text(json.dumps(doc))
    assert "stockpile[0].count" in run(runner, "roster", "import", str(bad), "--name", "Bad",
                                       code=2)
    assert "sound" in run(runner, "db", "check")


def test_db_check_finds_a_stockpile_changed_behind_the_history_R3_6(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """db check compares the stockpile with the state the company's history ends with."""
    spoils = scenario_file(tmp_path, "spoils", salvage="winner")
    run(runner, "muster", wolves, "--scenario", spoils, "--side", "attacker", "VIPER-1",
        "WASP-1", "WASP-2")
    run(runner, *RECORD, wolves, "--result", "win", "--auto", "-s", "Laser")
    from sqlmodel import select

    from cli.state import session
    from db.models import StockPart

    with session() as s:
        row = s.exec(select(StockPart)).one()
        row.count = 5
        s.add(row)
    err = run(runner, "db", "check", code=1)
    assert "Wolves" in err and "differs" in err


def test_a_campaign_without_the_house_rules_has_no_lines_for_them(
        runner: CliRunner, tmp_path: Path) -> None:
    """The summary's lines for salvage, repairs, wear and withdrawals come only with the
    house rules that make them (or when something happened under them): a plain campaign
    shows none of them."""
    plan = tmp_path / "plain.yaml"
    plan.write_text("name: Plain\nscenarios:\n  - {scenario: head-to-head, side: attacker}\n")
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--plan", str(plan), "--seed", "1")
    out = run(runner, "campaign", "run", "Hawks")
    assert "Campaign summary" in out
    for line in ("Parts salvaged", "Repairs:", "Wear:", "Withdrawals and overruns"):
        assert line not in out


def test_campaign_plan_switches_salvage_on_and_its_summary_shows_it_R3_6(
        runner: CliRunner, tmp_path: Path) -> None:
    """A campaign plan's house_rules apply to every scenario in it; a bad value is refused
    (exit 2) before the campaign starts; 'campaign run' shows the parts salvaged."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: Spoils of War\nhouse_rules: {salvage: both}\nscenarios:\n"
                    "  - {scenario: opening-shots, side: attacker}\n"
                    "  - {scenario: head-to-head, side: attacker}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("house_rules: {salvage: always}\nscenarios:\n"
                   "  - {scenario: opening-shots, side: attacker}\n")
    run(runner, "company", "create", "Hawks")
    err = run(runner, "campaign", "start", "Hawks", "--plan", str(bad), code=2)
    assert "house_rules.salvage" in err
    # (seed 2: enemy Meks are destroyed in Head to Head, so there are parts to salvage)
    run(runner, "campaign", "start", "Hawks", "--plan", str(plan), "--seed", "2")
    out = run(runner, "campaign", "run", "Hawks")
    assert "Parts salvaged:" in out
    status = run_json(runner, "campaign", "status", "Hawks")
    salvaged = [p for r in status["results"] for p in r.get("salvage", [])]
    assert salvaged and len(stock_of(snapshot("Hawks"))) == len(salvaged)
    assert all(step["house_rules"] == {"salvage": "both"} for step in status["plan"])
    assert "sound" in run(runner, "db", "check")


# ---- migration 9 and old backups ------------------------------------------------------------

def test_migration_9_carries_a_schema_8_database_forward_R3_6(tmp_path: Path) -> None:
    """A database of schema 8 (as its own migrations made it) gets the stockpile table and
    the Meks' lost parts, points owed and wear, all empty; its Meks and history stay sound."""
    from sqlalchemy import create_engine, text

    from db.engine import engine_for, transaction
    from db.migrations import LATEST, applied_versions, migrate

    assert LATEST >= 9
    path = tmp_path / "v8.db"
    with create_engine(f"sqlite:///{path}").begin() as conn:
        migrate(conn, upto=8)
        conn.execute(text("INSERT INTO company (id, name, name_key, created_at) VALUES "
                          "(1, 'Old Guard', 'old guard', 'x')"))
        conn.execute(text(
            "INSERT INTO mek (id, company_id, callsign, callsign_key, design, size, price, "
            "kills, status, damage) VALUES (1, 1, 'Rook', 'rook', 'WASP', 'Light', 8, 2, "
            "'active', 1)"))
    with engine_for(str(path)).connect() as conn:
        assert applied_versions(conn)[-1] == LATEST
    from campaigns.company import show_company

    with transaction(str(path)) as s:
        view = show_company(s, "Old Guard")
    assert view["meks"][0]["callsign"] == "Rook" and view["stockpile"] == []


def test_a_backup_made_at_schema_8_restores_R3_6(runner: CliRunner, wolves: str,
                                                  tmp_path: Path) -> None:
    """'meks db restore' of a backup made before migration 9 (no stockpile table, no new
    Mek columns) restores, and db check finds the database sound."""
    from tests.test_campaign_link import links_in_json

    backup = tmp_path / "now.json"
    run(runner, "db", "backup", str(backup))
    data = json.loads(backup.read_text())
    data["schema_version"] = 8
    links_in_json(data["tables"])  # and what migration 14 moved
    del data["tables"]["stockpile"]
    for row in data["tables"]["mek"]:
        for column in ("lost", "owed", "wear"):
            del row[column]
    old = tmp_path / "v8.json"
    old.write_text(json.dumps(data))
    other = str(tmp_path / "other.db")
    run(runner, "--db", other, "db", "restore", str(old), "--yes")
    assert "sound" in run(runner, "--db", other, "db", "check")
    meks = run_json(runner, "--db", other, "mek", "list", "Wolves")
    assert [m["callsign"] for m in meks] == ["VIPER-1", "WASP-1", "WASP-2"]


# ---- R3.7 spare parts, paid repairs and refits -----------------------------------------------

def lost_part_seed(scenario: str, blue: str, wolves: str) -> tuple[int, dict[int, list[str]]]:
    """A seed whose battle (``blue`` attacking ``wolves``) leaves a company Mek standing
    with a weapon or system destroyed, and the parts each such Mek lost (by Mek id)."""
    from campaigns.battles import fight
    from cli.state import session
    from meks.game.dice import Dice
    from meks.game.vocabulary import Side

    with session() as s:
        for seed in range(300):
            battle = fight(s, scenario, blue, wolves, Dice.from_seed(seed)).battle
            broken = {int(u.ref): [w.name for w in u.weapons if w.destroyed]
                      + [sy.system.name for sy in u.systems if sy.destroyed]
                      for u in battle.side_units(Side.DEFENDER)
                      if u.ref is not None and u.destroyed_turn is None}
            broken = {k: v for k, v in broken.items() if v}
            if broken:
                s.rollback()
                return seed, broken
    raise AssertionError("no such seed")  # pragma: no cover


def test_spare_parts_needs_repair_none_or_paid_R3_7(runner: CliRunner,
                                                    tmp_path: Path) -> None:
    """spare_parts with free repairs is refused in a scenario file (exit 2) and in a
    campaign plan whose house rules would make it so."""
    data = yaml.safe_load((SCENARIOS / "1-opening-shots.yaml").read_text())
    data.update(id="bad-parts", house_rules={"spare_parts": True})
    bad = tmp_path / "bad-parts.yaml"
    bad.write_text(yaml.safe_dump(data))
    err = run(runner, "scenario", "check", str(bad), code=2)
    assert "spare_parts needs 'repair: none' or 'repair: paid'" in err
    plan = tmp_path / "plan.yaml"
    plan.write_text("house_rules: {spare_parts: true}\nscenarios:\n"
                    "  - {scenario: opening-shots, side: attacker}\n")
    run(runner, "company", "create", "Hawks")
    err = run(runner, "campaign", "start", "Hawks", "--plan", str(plan), code=2)
    assert "(scenarios[0]): opening-shots, with the plan" in err and "spare_parts needs" in err


def test_spare_parts_keeps_lost_parts_until_replaced_or_bought_R3_7(
        runner: CliRunner, wolves: str, blue: str, tmp_path: Path) -> None:
    """battle auto with 'repair: none' and spare_parts, fixed dice: a surviving Mek keeps
    the parts the battle destroyed as lost, fights its next battle without them, and gets
    them back only from the stockpile or bought (--buy) at their catalog price, owed at its
    next muster; undo and db check hold throughout."""
    from campaigns.forces import muster_force
    from cli.state import session
    from meks.game.catalog import load_catalog

    catalog = load_catalog()
    scenario = scenario_file(tmp_path, "hard-times", budget=60, repair="none",
                             spare_parts=True)
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "defender",
        "VIPER-1", "WASP-1", "WASP-2")
    seed, broken = lost_part_seed(scenario, blue, wolves)
    run(runner, "battle", "auto", scenario, "-a", blue, "-d", wolves, "--seed", str(seed))
    meks = {m["id"]: m for m in run_json(runner, "mek", "list", wolves)}
    for mek_id, parts in broken.items():
        assert sorted(meks[mek_id]["lost"]) == sorted(parts)
    assert "lost " in run(runner, "mek", "list", wolves)
    mek_id, parts = next(iter(broken.items()))
    callsign = meks[mek_id]["callsign"]
    # the next battle: the Mek fights without its lost parts
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "defender",
        "VIPER-1", "WASP-1", "WASP-2")
    with session() as s:
        _, _, force = muster_force(s, wolves, scenario, catalog)
    unit = next(u for u in force.units if u.ref == str(mek_id))
    assert unit.design is not None
    fitted = [*unit.design.weapons, *unit.design.systems]
    full = meks[mek_id]
    design = catalog.design(full["design"])
    assert len(fitted) == len(design.weapons) + len(design.systems) - len(parts)
    # repair: refused without the parts, every one named; bought with --buy
    before = snapshot(wolves)
    err = run(runner, "mek", "repair", wolves, callsign, code=1)
    assert "stockpile lacks" in err and all(p in err for p in parts) and "--buy" in err
    assert snapshot(wolves) == before
    result = run_json(runner, "mek", "repair", wolves, callsign, "--buy")
    from campaigns.parts import named_part, part_price
    from meks.game.catalog import Size

    price = sum(part_price(named_part(p, catalog), Size(full["size"]), catalog)
                for p in parts)
    assert result["cost"] == price and result["owed"] == price
    shown = {m["id"]: m for m in run_json(runner, "mek", "list", wolves)}
    assert "lost" not in shown[mek_id] and shown[mek_id]["owed"] == price
    # the points owed are charged at the Mek's next muster, and released with it
    mustered = run_json(runner, "muster", wolves, "--scenario", scenario, "--side",
                        "defender", "VIPER-1", "WASP-1", "WASP-2")
    base = sum(f["price"] + f["hire"] for f in mustered["force"])
    assert mustered["cost"] == base + price
    assert "owed" not in {m["id"]: m for m in run_json(runner, "mek", "list", wolves)}[mek_id]
    # a roster whose muster paid what a Mek owed exports and imports whole
    exported = tmp_path / "owed.json"
    run(runner, "roster", "export", wolves, "-o", str(exported))
    assert any(f.get("owed") == price for m in json.loads(exported.read_text())["musters"]
               for f in m["force"])
    run(runner, "roster", "import", str(exported), "--name", "Owed Copy")
    copied = tmp_path / "copy.json"
    run(runner, "roster", "export", "Owed Copy", "-o", str(copied))
    assert [f.get("owed") for m in json.loads(copied.read_text())["musters"]
            for f in m["force"]] == [f.get("owed") for m in json.loads(
                exported.read_text())["musters"] for f in m["force"]]
    run(runner, "company", "undo", wolves)
    assert {m["id"]: m for m in run_json(runner, "mek", "list", wolves)}[mek_id]["owed"] == \
        price
    run(runner, "company", "undo", wolves)  # the repair
    assert snapshot(wolves) == before
    assert "sound" in run(runner, "db", "check")


def test_repair_from_the_stockpile_and_lost_parts_recorded_at_the_table_R3_7(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """battle record --lost MEK=PART keeps the part lost (refused when spare_parts is off,
    or when the Mek has no such working part, every problem named); a part salvaged later
    repairs it from the stockpile, at no cost."""
    plain = scenario_file(tmp_path, "plain-repairs", repair="none")
    run(runner, "muster", wolves, "--scenario", plain, "--side", "attacker", "VIPER-1",
        "WASP-1", "WASP-2")
    err = run(runner, *RECORD, wolves, "--result", "win", "--auto",
              "--lost", "VIPER-1=Laser", code=1)
    assert "'spare_parts' is off" in err
    scenario = scenario_file(tmp_path, "hard-times", repair="paid", spare_parts=True,
                             salvage="winner")
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "attacker", "VIPER-1",
        "WASP-1", "WASP-2")
    viper = run_json(runner, "mek", "list", wolves)[0]
    from meks.game.catalog import load_catalog

    design = load_catalog().design(viper["design"])
    weapon = design.weapons[0]
    err = run(runner, *RECORD, wolves, "--result", "win", "--auto",
              "--lost", f"VIPER-1={weapon}", "--lost", "WASP-1=PPC", "--lost",
              "VIPER-1=Howitzer", code=1)
    assert "WASP-1 has no working PPC" in err and "VIPER-1 has no working Howitzer" in err
    run(runner, *RECORD, wolves, "--result", "win", "--auto",
        "--lost", f"VIPER-1={weapon}", "--seed", "2")
    assert run_json(runner, "mek", "list", wolves)[0]["lost"] == [weapon]
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "attacker", "VIPER-1",
        "WASP-1", "WASP-2")
    run(runner, *RECORD, wolves, "--result", "win", "--auto",
        "--salvage", weapon, "--seed", "2")
    result = run_json(runner, "mek", "repair", wolves, "VIPER-1")
    assert result == {"mek": "VIPER-1", "from_stockpile": [weapon], "bought": [],
                      "cost": 0, "owed": 0}
    assert "stockpile" not in snapshot(wolves)
    assert "sound" in run(runner, "db", "check")


def test_armor_is_never_a_part_lost_at_the_table_R3_7_R6_9(runner: CliRunner,
                                                           tmp_path: Path) -> None:
    """No critical takes armor (R6.9: System Lost is any system but armor), so `--lost` of
    an armor system is refused with the rest, and nothing is recorded."""
    run(runner, "company", "create", "Plated")
    plated = tmp_path / "plated.yaml"
    plated.write_text("name: Plated\nsize: Medium\nweapons: [Cannon]\n"
                      "systems: [Reactive Armor]\n")
    run(runner, "mek", "buy", "Plated", str(plated), "--callsign", "Shell")
    for design in ("WASP", "WASP"):
        run(runner, "mek", "buy", "Plated", design)
    for pilot, mek in (("Ana", "Shell"), ("Bo", "WASP-1"), ("Cy", "WASP-2")):
        run(runner, "pilot", "hire", "Plated", pilot)
        run(runner, "pilot", "assign", "Plated", pilot, mek)
    scenario = scenario_file(tmp_path, "plates", spare_parts=True, repair="none")
    run(runner, "muster", "Plated", "--scenario", scenario, "--side", "attacker", "Shell",
        "WASP-1", "WASP-2")
    err = " ".join(run(runner, *RECORD, "Plated", "--result", "win", "--auto",
                       "--lost", "Shell=reactive", code=1).split())
    assert "Reactive Armor is armor, which no critical takes (R6.9)" in err, err
    run(runner, *RECORD, "Plated", "--result", "win", "--auto", "--lost", "Shell=Cannon")
    shell = next(m for m in run_json(runner, "mek", "list", "Plated") if m["callsign"] == "Shell")
    assert shell["lost"] == ["Cannon"]


def test_paid_repair_charges_each_hit_at_the_next_muster_R3_7(
        runner: CliRunner, wolves: str, blue: str, tmp_path: Path) -> None:
    """battle auto with 'repair: paid', fixed dice: every Hit a surviving Mek took is
    mended, for 1 point a Hit owed at its next muster."""
    from campaigns.battles import fight
    from cli.state import session
    from meks.game.dice import Dice
    from meks.game.vocabulary import Side

    scenario = scenario_file(tmp_path, "paid", repair="paid")
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "defender",
        "VIPER-1", "WASP-1", "WASP-2")
    with session() as s:
        seed, hurt = next(
            (seed, hits) for seed in range(200)
            for hits in [{int(u.ref or 0): u.hits for u in fight(
                s, scenario, blue, wolves, Dice.from_seed(seed)).battle.units
                if u.side is Side.DEFENDER and u.alive and u.hits}] if hits)
        s.rollback()
    data = run_json(runner, "battle", "auto", scenario, "-a", blue, "-d", wolves,
                    "--seed", str(seed))
    assert data["battle_id"]
    meks = {m["id"]: m for m in run_json(runner, "mek", "list", wolves)}
    for mek_id, hits in hurt.items():
        assert meks[mek_id]["damage"] == 0 and meks[mek_id]["owed"] == hits
    status = run_json(runner, "company", "history", wolves)[0]["summary"]
    assert "repairs" in status


def test_refit_changes_a_mek_to_another_legal_design_with_stockpiled_parts_R3_7(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """mek refit lists every problem at once (size, design rules, parts lacking) and
    changes nothing; with the parts in the stockpile it rebuilds the Mek (WASP: Cannon,
    CIWS, Jammer) to a custom design (Cannon, Minigun, Heat Sink), takes those parts out
    and puts the parts it no longer needs in; undo takes it back exactly."""
    bad = tmp_path / "brick.yaml"
    bad.write_text("name: Brick\nsize: Medium\nweapons: [Laser, Laser, Laser, Laser, Laser, "
                   "Laser, Laser, Laser, Laser]\nsystems: []\n")
    before = snapshot(wolves)
    err = run(runner, "mek", "refit", wolves, "WASP-1", str(bad), code=1)
    assert "a refit keeps the chassis" in err and "Huge" in err and "stockpile lacks" in err
    hornet = tmp_path / "hornet.yaml"
    # parts by short names, as design check takes them (R1.0): matched to the catalog's
    hornet.write_text("name: Hornet\nsize: Light\nweapons: [cannon, Mini]\n"
                      "systems: [heat sink]\n")
    err = run(runner, "mek", "refit", wolves, "WASP-1", str(hornet), code=1)
    assert "the stockpile lacks Heat Sink, Minigun" in err
    assert snapshot(wolves) == before
    scenario = scenario_file(tmp_path, "spoils", salvage="winner")
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    run(runner, *RECORD, wolves, "--result", "win", "--auto", "--seed", "1",
        "--salvage", "Minigun", "--salvage", "Heat Sink", "--salvage", "Heat Sink")
    before = snapshot(wolves)
    result = run_json(runner, "mek", "refit", wolves, "WASP-1", str(hornet))
    assert result["design"] == "Hornet" and result["used"] == ["Heat Sink", "Minigun"]
    assert result["stored"] == ["CIWS", "Jammer"]
    after = snapshot(wolves)
    assert after["stockpile"] == [{"kind": "weapon", "part": "CIWS", "count": 1},
                                  {"kind": "system", "part": "Heat Sink", "count": 1},
                                  {"kind": "system", "part": "Jammer", "count": 1}]
    wasp = next(m for m in after["meks"] if m["callsign"] == "WASP-1")
    assert wasp["custom_design"]["weapons"] == ["Cannon", "Minigun"]
    assert "sound" in run(runner, "db", "check")
    run(runner, "company", "undo", wolves)
    assert snapshot(wolves) == before


# ---- R3.8 wear ------------------------------------------------------------------------------

def test_wear_lowers_the_heat_rating_the_engine_sees_never_below_1_R3_8() -> None:
    """A unit built with a heat_loss has that much less chassis Heat (R6.10), never below
    1; heat sinks still add to it."""
    import dataclasses

    from meks.engine.units import build_unit
    from meks.game.vocabulary import Side
    from tests.engine_helpers import CATALOG, mek

    spec = mek("VIPER")
    full = build_unit(spec, "A1", Side.ATTACKER, CATALOG)
    worn = build_unit(dataclasses.replace(spec, heat_loss=1), "A1", Side.ATTACKER, CATALOG)
    assert worn.heat_rating(False) == full.heat_rating(False) - 1
    spent = build_unit(dataclasses.replace(spec, heat_loss=99), "A1", Side.ATTACKER, CATALOG)
    assert spent.base_heat == 1


def test_wear_takes_heat_game_by_game_until_overhauled_R3_8(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """With 'wear: true' every battle a Mek comes out of adds 1 wear (recorded at the
    table here, fixed dice); after 3 its next battle sees 1 less heat; the roster shows
    it; an overhaul clears it for half the Mek's price, owed at its next muster; export,
    import, undo and db check keep it."""
    from campaigns.forces import muster_force
    from cli.state import session

    scenario = scenario_file(tmp_path, "long-war", budget=60, wear=True)
    for n in range(3):
        run(runner, "muster", wolves, "--scenario", scenario, "--side", "attacker",
            "VIPER-1", "WASP-1", "WASP-2")
        data = run_json(runner, *RECORD, wolves, "--result", "win", "--auto",
                        "--seed", str(n))
    assert next(p for p in data["pilots"] if p["mek"] == "VIPER-1")["heat_lost"] == 1
    meks = {m["callsign"]: m for m in run_json(runner, "mek", "list", wolves)}
    assert meks["VIPER-1"]["wear"] == 3 and meks["VIPER-1"]["heat_loss"] == 1
    listed = run(runner, "mek", "list", wolves)
    from cli.store_views import condition

    # issue 27: the column says what wear counts (battles), and the heat it took apart
    assert "Condition" in listed and "overhaul" in listed
    assert condition(meks["VIPER-1"]) == "3 battles since overhaul, heat rating -1"
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    with session() as s:
        _, _, force = muster_force(s, wolves, scenario)
    assert {u.name: u.heat_loss for u in force.units} == {"VIPER-1": 1, "WASP-1": 1,
                                                          "WASP-2": 1}
    out = tmp_path / "wolves.json"
    run(runner, "roster", "export", wolves, "--format", "json", "-o", str(out))
    run(runner, "roster", "import", str(out), "--name", "Copy")
    assert [m.get("wear") for m in snapshot("Copy")["meks"]] == \
        [m.get("wear") for m in snapshot(wolves)["meks"]]
    before = snapshot(wolves)
    result = run_json(runner, "mek", "overhaul", wolves, "VIPER-1")  # no --yes: heat lost
    assert result == {"mek": "VIPER-1", "cost": 6, "owed": 6}  # VIPER costs 12
    viper = run_json(runner, "mek", "list", wolves)[0]
    assert "wear" not in viper and viper["owed"] == 6
    assert "no wear" in run(runner, "mek", "overhaul", wolves, "VIPER-1", code=1)
    assert "sound" in run(runner, "db", "check")
    run(runner, "company", "undo", wolves)
    assert snapshot(wolves) == before


def test_a_campaign_with_salvage_spare_parts_and_wear_runs_end_to_end_R3_6_R3_7_R3_8(
        runner: CliRunner, tmp_path: Path) -> None:
    """'meks campaign run' of a plan that switches on salvage, spare_parts (with paid
    repairs) and wear plays every scenario; its summary has lines for the parts salvaged,
    the repairs and the wear; db check passes, and undo of the last step restores the
    state before it exactly."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: Hard Campaign\nhouse_rules: {salvage: winner, repair: paid, "
                    "spare_parts: true, wear: true}\nscenarios:\n"
                    + "".join(f"  - {{scenario: {s}, side: {side}}}\n" for s, side in (
                        ("opening-shots", "defender"), ("opening-shots", "defender"),
                        ("head-to-head", "attacker"), ("opening-shots", "defender"))))
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--plan", str(plan), "--seed", "11")
    out = run(runner, "campaign", "run", "Hawks")
    for line in ("Parts salvaged:", "Repairs:", "Wear:"):
        assert line in out
    status = run_json(runner, "campaign", "status", "Hawks")
    assert status["status"] == "finished"
    worn = [p for r in status["results"] for p in r["pilots"] if p.get("wear")]
    assert worn
    assert "sound" in run(runner, "db", "check")


def test_overhaul_with_no_heat_lost_yet_asks_for_yes_issue_27(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """Issue 27 item 4: a Mek worn by one battle has lost no heat rating (R3.8: the first
    point goes after 3), so an overhaul would charge half its price for nothing: without
    --yes (no one to ask in CI) it is refused in one sentence, exit 1, nothing changed;
    with --yes it goes through and the Mek owes the price."""
    scenario = scenario_file(tmp_path, "short-war", budget=60, wear=True)
    run(runner, "muster", wolves, "--scenario", scenario, "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    run_json(runner, *RECORD, wolves, "--result", "win", "--auto", "--seed", "1")
    viper = run_json(runner, "mek", "list", wolves)[0]
    assert viper["wear"] == 1 and viper.get("heat_loss", 0) == 0
    before = snapshot(wolves)
    said = run(runner, "mek", "overhaul", wolves, "VIPER-1", code=1)
    assert ("VIPER-1 has lost no heat rating yet (1 battle since overhaul; the first point "
            "goes after 3), so an overhaul would cost 6 points and mend nothing; add --yes "
            "to overhaul it anyway.") in " ".join(said.split())
    assert snapshot(wolves) == before
    result = run_json(runner, "mek", "overhaul", wolves, "VIPER-1", "--yes")
    assert result == {"mek": "VIPER-1", "cost": 6, "owed": 6}
    assert "wear" not in run_json(runner, "mek", "list", wolves)[0]
