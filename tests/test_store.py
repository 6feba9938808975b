"""The company store and the between-games commands (docs/rules.md sections 2 and 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app

CO = "Black Hand"


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    if code:
        assert result.stderr.strip(), "a refusal says why on stderr"
        assert "Traceback" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def run_json(runner: CliRunner, *args: str) -> Any:
    return json.loads(run(runner, *args, "--json"))


def state(runner: CliRunner, name: str = CO) -> dict[str, Any]:
    """The company's full document, as the roster export writes it."""
    from campaigns.company import get_company
    from campaigns.files.roster import snapshot
    from cli.state import session

    with session() as s:
        return snapshot(s, get_company(s, name))


@pytest.fixture
def company(runner: CliRunner) -> str:
    run(runner, "company", "create", CO)
    run(runner, "mek", "buy", CO, "WASP")
    run(runner, "mek", "buy", CO, "DRAKEN", "--callsign", "Anvil")
    run(runner, "pilot", "hire", CO, "Ana")
    run(runner, "pilot", "hire", CO, "Bo", "--regular")
    run(runner, "pilot", "assign", CO, "Ana", "WASP-1")
    run(runner, "pilot", "assign", CO, "Bo", "Anvil")
    return CO


# ---- companies ------------------------------------------------------------------------------

def test_company_create_list_show(runner: CliRunner) -> None:
    created = run_json(runner, "company", "create", "  Black   Hand ")
    assert created["name"] == CO
    assert [c["name"] for c in run_json(runner, "company", "list")] == [CO]
    assert CO in run(runner, "company", "list")
    view = run_json(runner, "company", "show", "black hand")
    assert (view["name"], view["meks"], view["pilots"]) == (CO, [], [])


def test_company_names_are_unique_ignoring_case(runner: CliRunner) -> None:
    run(runner, "company", "create", CO)
    err = run(runner, "company", "create", "BLACK HAND", code=1)
    assert "already exists" in err


def test_unknown_company_exits_1(runner: CliRunner) -> None:
    run(runner, "company", "create", "Somebody")  # a database to look in
    err = run(runner, "company", "show", "Nobody", code=1)
    assert "No company" in err


def test_company_show_json_shape(runner: CliRunner, company: str) -> None:
    view = run_json(runner, "company", "show", company)
    mek = view["meks"][0]
    assert set(mek) >= {"id", "callsign", "design", "size", "price", "status"}
    assert (mek["callsign"], mek["design"], mek["size"], mek["price"], mek["status"]) == (
        "WASP-1", "WASP", "Light", 9, "active")
    pilot = view["pilots"][1]
    assert set(pilot) >= {"id", "name", "level", "kills", "scenarios", "skills", "mek",
                          "status"}
    assert (pilot["name"], pilot["level"], pilot["mek"], pilot["skills"]) == (
        "Bo", "Regular", "Anvil", [])


def test_company_delete_asks_unless_yes(runner: CliRunner, company: str) -> None:
    err = run(runner, "company", "delete", company, code=2)
    assert "--yes" in err
    assert run_json(runner, "company", "list")
    run(runner, "company", "delete", company, "--yes")
    assert run_json(runner, "company", "list") == []


def test_history_newest_first_with_dice(runner: CliRunner, company: str) -> None:
    run(runner, "support", "roll", company, "--seed", "1")
    events = run_json(runner, "company", "history", company)
    assert events[0]["command"] == "support roll"
    assert len(events[0]["dice"]) >= 2
    assert events[-1]["command"] == "company create"
    assert "Hired Ana" in run(runner, "company", "history", company)


# ---- Meks -----------------------------------------------------------------------------------

def test_buy_stock_mek_at_printed_price_R1_7(runner: CliRunner, company: str) -> None:
    odin = run_json(runner, "mek", "buy", company, "odin")
    assert (odin["design"], odin["price"], odin["callsign"]) == ("ODIN", 27, "ODIN-1")
    computed = run_json(runner, "mek", "buy", company, "ODIN", "--pricing", "computed")
    assert computed["price"] == 33


def test_buy_custom_design_from_file(runner: CliRunner, company: str, tmp_path: Path) -> None:
    path = tmp_path / "hunter.yaml"
    path.write_text("name: Hunter\nsize: Heavy\nweapons: [Rail Cannon, Rail Cannon, Howitzer]\n"
                    "systems: [Jammer]\n")
    mek = run_json(runner, "mek", "buy", company, str(path), "-c", "Stalker")
    assert (mek["design"], mek["price"], mek["callsign"]) == ("Hunter", 8 + 6 + 4 + 3,
                                                              "Stalker")


def test_buy_illegal_design_is_refused_and_stores_nothing(
        runner: CliRunner, company: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("name: Bad\nsize: Light\nsystems: [Director]\n")
    before = state(runner)
    err = run(runner, "mek", "buy", company, str(path), code=1)
    assert "Director" in err
    assert state(runner) == before


def test_buy_unknown_design_suggests(runner: CliRunner, company: str) -> None:
    err = run(runner, "mek", "buy", company, "drakn", code=1)
    assert "DRAKEN" in err


def test_callsigns_unique_ignoring_case(runner: CliRunner, company: str) -> None:
    err = run(runner, "mek", "buy", company, "WASP", "-c", "anvil", code=1)
    assert "Anvil" in err
    err = run(runner, "mek", "rename", company, "WASP-1", "ANVIL", code=1)
    assert "already has" in err


def test_meks_by_callsign_or_id(runner: CliRunner, company: str) -> None:
    meks = run_json(runner, "mek", "list", company)
    anvil = next(m for m in meks if m["callsign"] == "Anvil")
    renamed = run_json(runner, "mek", "rename", company, str(anvil["id"]), "Hammer")
    assert renamed["callsign"] == "Hammer"
    assert run_json(runner, "mek", "list", company)[1]["pilot"] == "Bo"


def test_sell_leaves_the_stable_but_stays_in_history(runner: CliRunner, company: str) -> None:
    run(runner, "mek", "sell", company, "wasp-1")
    assert [m["callsign"] for m in run_json(runner, "mek", "list", company)] == ["Anvil"]
    assert len(run_json(runner, "mek", "list", company, "--all")) == 2
    assert run_json(runner, "pilot", "show", company, "Ana")["mek"] is None
    assert any("Sold WASP-1" in e["summary"] for e in run_json(runner, "company", "history",
                                                               company))
    run(runner, "mek", "sell", company, "WASP-1", code=1)


# ---- pilots ---------------------------------------------------------------------------------

def test_hire_green_free_or_regular_R2_2(runner: CliRunner, company: str) -> None:
    pilots = run_json(runner, "pilot", "list", company)
    assert [(p["name"], p["level"], p["hire_cost"]) for p in pilots] == [
        ("Ana", "Green", 0), ("Bo", "Regular", 5)]


def test_pilot_names_unique_ignoring_case(runner: CliRunner, company: str) -> None:
    err = run(runner, "pilot", "hire", company, "ANA", code=1)
    assert "Ana" in err


def test_assign_moves_the_previous_pilot_out(runner: CliRunner, company: str) -> None:
    run(runner, "pilot", "hire", company, "Cy")
    run(runner, "pilot", "assign", company, "Cy", "Anvil")
    pilots = {p["name"]: p["mek"] for p in run_json(runner, "pilot", "list", company)}
    assert pilots == {"Ana": "WASP-1", "Bo": None, "Cy": "Anvil"}


def test_pilot_show_and_unknown_pilot(runner: CliRunner, company: str) -> None:
    assert "Regular" in run(runner, "pilot", "show", company, "bo")
    run(runner, "pilot", "show", company, "Zed", code=1)


# ---- support and muster ---------------------------------------------------------------------

def test_support_roll_shows_dice_and_waits_for_the_muster_R4_1(
        runner: CliRunner, company: str) -> None:
    rolls = run_json(runner, "support", "roll", company, "--count", "3", "--seed", "7")
    assert len(rolls) == 3
    for r in rolls:
        low, high = (int(x) for x in r["table"].split("-"))
        assert low <= r["table_die"] <= high
    assert len(run_json(runner, "company", "show", company)["support"]) == 3
    again = run_json(runner, "support", "roll", company, "--count", "3", "--seed", "7")
    assert [r["result"] for r in again] == [r["result"] for r in rolls]


def test_muster_counts_prices_and_regular_hire_R3_3(runner: CliRunner, company: str) -> None:
    result = run_json(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    assert (result["cost"], result["budget"]) == (9 + 24 + 5, 40)
    # The Regular hire is paid once: the next muster no longer counts it.
    run(runner, "battle", "record", company, "--result", "draw", "--auto", "--seed", "1")
    assert run_json(runner, "muster", company, "--budget", "33", "WASP-1", "Anvil")["cost"] == 33


def test_muster_over_budget_refused_and_nothing_stored_R3_3(
        runner: CliRunner, company: str) -> None:
    before = state(runner)
    err = run(runner, "muster", company, "--budget", "30", "WASP-1", "Anvil", code=1)
    assert "38" in err and "30" in err
    assert state(runner) == before


def test_muster_too_large_refused_R3_3(runner: CliRunner, company: str) -> None:
    err = run(runner, "muster", company, "--budget", "60", "--max-size", "medium", "WASP-1",
              "Anvil", code=1)
    assert "Heavy Meks are larger than allowed" in err


def test_muster_needs_pilots(runner: CliRunner, company: str) -> None:
    run(runner, "mek", "buy", company, "VIPER")
    err = run(runner, "muster", company, "--budget", "60", "VIPER-1", code=1)
    assert "no pilot" in err


def test_rich_uncle_adds_points_to_the_budget_R4_2(runner: CliRunner, company: str) -> None:
    from campaigns.company import support_roll
    from cli.state import session
    from meks.game.dice import Dice

    with session() as s:  # table 3-4, entry 6 = Rich Uncle, then 4 points
        support_roll(s, company, Dice.from_sequence([3, 6, 4]))
    result = run_json(runner, "muster", company, "--budget", "34", "WASP-1", "Anvil")
    assert result["budget"] == 38 and result["support"] == ["Rich Uncle"]


# ---- battle record: the post-battle sequence --------------------------------------------------

def record(runner: CliRunner, *args: str, code: int = 0) -> Any:
    out = run(runner, "battle", "record", CO, *args, *(["--json"] if code == 0 else []),
              code=code)
    return json.loads(out) if code == 0 else out


def test_battle_record_needs_a_muster(runner: CliRunner, company: str) -> None:
    err = record(runner, "--result", "win", code=1)
    assert "muster" in err


def test_post_battle_sequence_R3_4(runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    out = record(runner, "--result", "win", "--kills", "Bo=2", "--destroyed", "WASP-1",
                 "--auto", "--seed", "3")
    assert out["result"] == "win"
    view = run_json(runner, "company", "show", company)
    meks = {m["callsign"]: m for m in view["meks"]}
    assert meks["WASP-1"]["status"] == "destroyed"  # struck off
    assert meks["Anvil"]["kills"] == 2  # kill marks
    pilots = {p["name"]: p for p in view["pilots"]}
    assert pilots["Ana"]["status"] == "active" and pilots["Ana"]["mek"] is None  # ejected
    assert pilots["Ana"]["scenarios"] == 1 and pilots["Ana"]["level"] == "Regular"
    assert pilots["Bo"]["kills"] == 2 and pilots["Bo"]["scenarios"] == 1
    assert view["last_muster"]["recorded"]
    record(runner, "--result", "win", code=1)  # that muster is spent


def test_dead_pilot_is_kept_in_history_R2_6(runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    record(runner, "--result", "loss", "--dead", "Ana", "--kills", "Ana=1", "--auto")
    ana = run_json(runner, "pilot", "show", company, "Ana")
    assert ana["status"] == "dead" and ana["scenarios"] == 0
    assert ana["kills"] == 1  # R2.5: the kill made before she died is hers for good
    err = run(runner, "pilot", "assign", company, "Ana", "Anvil", code=1)
    assert "dead" in err


def test_new_skill_roll_shows_dice_and_uses_choice_R2_3(runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    # Seeds are searched for one where Bo (Regular, no skills) rolls 5+.
    from meks.game.dice import Dice

    seed = next(s for s in range(100) if Dice.from_seed(s).roll(2, "x")[1] >= 5)
    out = record(runner, "--result", "win", "--choose", "Bo=Maneuver", "--seed", str(seed))
    bo = next(p for p in out["pilots"] if p["pilot"] == "Bo")
    assert bo["skill_roll"]["success"] and bo["new_skill"] == "Maneuver"
    assert run_json(runner, "pilot", "show", company, "Bo")["skills"] == ["Maneuver"]


def test_skill_choice_without_choose_or_auto_stores_nothing(
        runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    from meks.game.dice import Dice

    seed = next(s for s in range(100) if Dice.from_seed(s).roll(2, "x")[1] >= 5)
    before = state(runner)
    err = record(runner, "--result", "win", "--seed", str(seed), code=2)
    assert "--choose" in err and "Bo" in err
    assert state(runner) == before


def test_kills_for_a_pilot_outside_the_force_refused(runner: CliRunner, company: str) -> None:
    run(runner, "pilot", "hire", company, "Cy")
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    err = record(runner, "--result", "win", "--kills", "Cy=1", "--auto", code=1)
    assert "not in the force" in err
    record(runner, "--result", "win", "--kills", "Bo=x", code=2)


# ---- undo -----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "command",
    [
        ["mek", "buy", CO, "THOR"],
        ["pilot", "hire", CO, "Cy", "--regular"],
        ["pilot", "assign", CO, "Ana", "Anvil"],
        ["mek", "sell", CO, "WASP-1"],
        ["mek", "rename", CO, "WASP-1", "Sting"],
        ["support", "roll", CO, "--count", "2"],
        ["muster", CO, "--budget", "40", "WASP-1", "Anvil"],
    ],
)
def test_undo_restores_the_earlier_state_exactly_R3_5(
        runner: CliRunner, company: str, command: list[str]) -> None:
    before = state(runner)
    run(runner, *command)
    assert state(runner) != before
    run(runner, "company", "undo", company)
    assert state(runner) == before


def test_undo_battle_record_R3_5(runner: CliRunner, company: str) -> None:
    run(runner, "support", "roll", company)
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    before = state(runner)
    record(runner, "--result", "win", "--kills", "Bo=3", "--destroyed", "WASP-1", "--auto")
    run(runner, "company", "undo", company)
    assert state(runner) == before
    events = run_json(runner, "company", "history", company)
    assert events[0]["command"] == "undo" and events[1]["undone"]


def test_undo_walks_back_one_change_at_a_time(runner: CliRunner, company: str) -> None:
    start = state(runner)
    run(runner, "mek", "buy", company, "THOR")
    middle = state(runner)
    run(runner, "mek", "buy", company, "ODIN")
    run(runner, "company", "undo", company)
    assert state(runner) == middle
    run(runner, "company", "undo", company)
    assert state(runner) == start


def test_nothing_to_undo(runner: CliRunner) -> None:
    run(runner, "company", "create", CO)
    err = run(runner, "company", "undo", CO, code=1)
    assert "nothing" in err.lower() or "no change" in err


# ---- where the data lives ---------------------------------------------------------------------

def test_db_path_follows_option_then_env(runner: CliRunner, temp_database: str,
                                         tmp_path: Path) -> None:
    from db.location import describe

    assert run(runner, "db", "path").strip() == describe(temp_database)
    other = tmp_path / "other.db"
    assert run(runner, "--db", str(other), "db", "path").strip() == str(other)


def test_db_path_default_is_in_user_data_dir(runner: CliRunner,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEKS_DB")
    from db.location import default_path

    assert run(runner, "db", "path").strip() == str(default_path())
    assert default_path().name == "meks.db"


def test_db_option_isolates_data(runner: CliRunner, tmp_path: Path) -> None:
    other = str(tmp_path / "league.db")
    run(runner, "--db", other, "company", "create", "Elsewhere")
    assert run_json(runner, "company", "list") == []
    assert [c["name"] for c in run_json(runner, "--db", other, "company", "list")] == [
        "Elsewhere"]


def test_unopenable_database_is_a_clear_error(runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.db"
    folder.mkdir()
    err = run(runner, "--db", str(folder), "company", "list", code=2)  # unreadable input
    assert "Cannot open the database" in err and "folder" in err


def test_battle_record_prompts_for_the_skill_at_a_terminal_R2_4(
        runner: CliRunner, company: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.battle_cmd

    monkeypatch.setattr(cli.battle_cmd, "interactive", lambda: True)
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    from meks.game.dice import Dice

    seed = next(s for s in range(100) if Dice.from_seed(s).roll(2, "x")[1] >= 5)
    result = runner.invoke(app, ["battle", "record", company, "--result", "win", "--seed",
                                 str(seed)], input="tactics\n")
    assert result.exit_code == 0, result.stderr
    assert "earned a new skill" in result.stdout
    assert run_json(runner, "pilot", "show", company, "Bo")["skills"] == ["Tactics"]


def test_battle_record_asks_again_for_a_skill_that_cannot_be_taken_R2_4(
        runner: CliRunner, company: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlmodel import select

    import cli.battle_cmd
    from cli.state import session
    from db.models import Pilot

    monkeypatch.setattr(cli.battle_cmd, "interactive", lambda: True)
    with session() as s:  # Bo holds one skill: the second comes with any roll (R2.3)
        bo = s.exec(select(Pilot).where(Pilot.name == "Bo")).one()
        bo.skills = json.dumps(["Pinpoint Attack"])
        s.add(bo)
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    result = runner.invoke(app, ["battle", "record", company, "--result", "win", "--seed",
                                 "1"], input="xyzzy\npinpoint attack\ntactics\n")
    assert result.exit_code == 0, result.stderr
    assert "No skill is called 'xyzzy'" in result.stderr
    assert "Pinpoint Attack cannot be chosen for Bo, who already has it" in result.stderr
    assert result.stdout.count("Skill [") == 3
    assert run_json(runner, "pilot", "show", company, "Bo")["skills"] == [
        "Pinpoint Attack", "Tactics"]


def test_company_delete_confirms_at_a_terminal(
        runner: CliRunner, company: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.company_cmd

    monkeypatch.setattr(cli.company_cmd, "interactive", lambda: True)
    result = runner.invoke(app, ["company", "delete", company], input="n\n")
    assert result.exit_code == 1 and "nothing was deleted" in result.stderr
    assert run_json(runner, "company", "list")
    result = runner.invoke(app, ["company", "delete", company], input="y\n")
    assert result.exit_code == 0
    assert run_json(runner, "company", "list") == []


def test_auto_skill_follows_the_mek_R2_4(catalog) -> None:  # type: ignore[no-untyped-def]
    from meks.game.pilots import auto_skill

    assert auto_skill([], catalog.design("DEMON"), catalog) == "Accuracy"
    assert auto_skill([], catalog.design("SAGITARII"), catalog) == "Guidance"
    # THOR: two PPCs and two Cannons; a tie goes to the family listed first.
    assert auto_skill([], catalog.design("THOR"), catalog) == "Steady Hand"
    assert auto_skill(["Accuracy"], catalog.design("DEMON"), catalog) == "Maneuver"


def test_promotion_thresholds_R2_1(catalog) -> None:  # type: ignore[no-untyped-def]
    from meks.game.pilots import level_for

    assert level_for(0, 0, catalog).level == "Green"
    assert level_for(0, 1, catalog).level == "Regular"
    assert level_for(5, 2, catalog).level == "Regular"
    assert level_for(5, 3, catalog).level == "Veteran"
    assert level_for(9, 10, catalog).level == "Veteran"
    assert level_for(10, 10, catalog).level == "Elite"
    assert level_for(0, 0, catalog, current="Regular").level == "Regular"  # never demoted


def test_skill_roll_targets_R2_3(catalog) -> None:  # type: ignore[no-untyped-def]
    from meks.game.dice import Dice
    from meks.game.pilots import roll_for_skill, skill_target

    assert [skill_target(n) for n in range(5)] == [5, 1, 2, 3, 4]
    green = catalog.level("Green")
    assert roll_for_skill(green, 0, Dice.from_sequence([]), "x") is None
    vet = roll_for_skill(catalog.level("Veteran"), 0, Dice.from_sequence([4]), "x")
    assert vet is not None and vet.success and vet.total == 5
    reg = roll_for_skill(catalog.level("Regular"), 0, Dice.from_sequence([4]), "x")
    assert reg is not None and not reg.success
    elite = roll_for_skill(catalog.level("Elite"), 4, Dice.from_sequence([1]), "x")
    assert elite is not None and not elite.success and elite.total == 3


def test_support_roll_tables_R4_1(catalog) -> None:  # type: ignore[no-untyped-def]
    from meks.game.dice import Dice
    from meks.game.support import roll_support

    assert roll_support(Dice.from_sequence([2, 4]), catalog).entry.name == "Support Fire"
    assert roll_support(Dice.from_sequence([3, 2]), catalog).entry.name == "Decoy"
    assert roll_support(Dice.from_sequence([6, 4]), catalog).entry.name == "Gunship"
    uncle = roll_support(Dice.from_sequence([4, 6, 5]), catalog)
    assert (uncle.entry.name, uncle.points) == ("Rich Uncle", 5)


def test_mustering_again_replaces_the_waiting_muster_R3_3(
        runner: CliRunner, company: str) -> None:
    from campaigns.company import support_roll
    from cli.state import session
    from meks.game.dice import Dice

    with session() as s:  # Rich Uncle, 4 points
        support_roll(s, company, Dice.from_sequence([3, 6, 4]))
    first = run_json(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    assert first["cost"] == 38 and first["budget"] == 44
    # Changing one's mind before the battle: the support and Bo's unpaid hire carry over.
    second = run_json(runner, "muster", company, "--budget", "40", "Anvil")
    assert second["replaced"] and second["support"] == ["Rich Uncle"]
    assert (second["cost"], second["budget"]) == (29, 44)
    assert len(state(runner)["musters"]) == 1


def test_a_muster_naming_a_mek_twice_is_refused(runner: CliRunner, company: str) -> None:
    err = run(runner, "muster", company, "--budget", "60", "Anvil", "anvil", code=1)
    assert "named twice" in err and "R3.3" in err


def test_composition_is_exact(runner: CliRunner, company: str) -> None:
    from campaigns.company import Refused as MusterRefused
    from campaigns.musters import Limits, muster
    from cli.state import session
    from meks.game.catalog import Size

    with pytest.raises(MusterRefused, match="needs exactly 2 Light Meks, not 1"), session() as s:
        muster(s, company, Limits.plain(60, composition={Size.LIGHT: 2}), ["WASP-1"])
    with pytest.raises(MusterRefused, match="may have no Heavy Meks, but it has 1"), session() as s:
        muster(s, company, Limits.plain(60, composition={Size.LIGHT: 1}),
               ["WASP-1", "Anvil"])
    with session() as s:
        assert muster(s, company, Limits.plain(60, composition={Size.LIGHT: 1}), ["WASP-1"])


def test_a_dead_pilot_loses_the_mek_too_R2_6(runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    record(runner, "--result", "loss", "--dead", "Bo", "--auto")
    meks = {m["callsign"]: m["status"] for m in run_json(runner, "mek", "list", company,
                                                         "--all")}
    assert meks["Anvil"] == "destroyed"


def test_a_misspelt_skill_choice_is_refused(runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    err = record(runner, "--result", "win", "--choose", "Bo=Manouver", code=1)
    assert "Maneuver" in err


def test_names_are_shown_as_typed_not_as_markup(runner: CliRunner, company: str) -> None:
    run(runner, "pilot", "hire", company, "[red]")
    assert "[red]" in run(runner, "pilot", "list", company)


# ---- scenarios supply the limits (docs/scenarios.md) --------------------------------------------

@pytest.fixture
def opening(runner: CliRunner) -> str:
    run(runner, "company", "create", CO)
    for design, pilot, regular in (("VIPER", "Ana", True), ("WASP", "Bo", False),
                                   ("WASP", "Cy", False)):
        callsign = run_json(runner, "mek", "buy", CO, design)["callsign"]
        run(runner, "pilot", "hire", CO, pilot, *(["--regular"] if regular else []))
        run(runner, "pilot", "assign", CO, pilot, callsign)
    return CO


def test_muster_for_a_scenario_uses_its_budget_and_composition(
        runner: CliRunner, opening: str) -> None:
    # Opening Shots: 30 points, exactly 1 Medium and 2 Light, 1 Regular pilot provided free.
    result = run_json(runner, "muster", opening, "--scenario", "opening-shots", "--side",
                      "attacker", "VIPER-1", "WASP-1", "WASP-2")
    assert (result["cost"], result["budget"], result["scenario"]) == (30, 30, "opening-shots")
    run(runner, "company", "undo", opening)
    err = run(runner, "muster", opening, "--scenario", "opening-shots", "--side", "attacker",
              "VIPER-1", "WASP-1", code=1)
    assert "exactly 2 Light" in err


def test_muster_scenario_needs_a_side_and_excludes_budget(runner: CliRunner,
                                                          opening: str) -> None:
    run(runner, "muster", opening, "--scenario", "opening-shots", "VIPER-1", code=2)
    run(runner, "muster", opening, "--scenario", "opening-shots", "--side", "attacker",
        "--budget", "30", "VIPER-1", code=2)
    run(runner, "muster", opening, "VIPER-1", code=2)  # no budget, no scenario
    err = run(runner, "muster", opening, "--scenario", "no-such", "--side", "attacker",
              "VIPER-1", code=1)
    assert "No scenario" in err


def test_support_roll_for_a_scenario_side_R4_1(runner: CliRunner, opening: str) -> None:
    """--scenario rolls what the side is granted, less the results already waiting for
    the next muster (as a campaign's step counts them); once all are rolled, a second
    --scenario is refused (the muster would refuse the surplus), --count still rolls."""
    assert len(run_json(runner, "support", "roll", opening, "--count", "1")) == 1
    out = run(runner, "support", "roll", opening, "--scenario", "at-the-hot-gates",
              "--side", "defender", "--seed", "5")
    assert "3 for the defender in At the Hot Gates, less the 1 waiting already" in \
        " ".join(out.split())
    err = run(runner, "support", "roll", opening, "--scenario", "at-the-hot-gates",
              "--side", "defender", code=1)
    assert "has 3 support results waiting for its next muster already, as many as the " \
        "scenario grants" in " ".join(err.split())
    assert len(run_json(runner, "support", "roll", opening, "--count", "1")) == 1


def test_log_hero_adds_a_support_roll_R4_1(runner: CliRunner, opening: str) -> None:
    from campaigns.company import find_pilot, get_company
    from cli.state import session

    with session() as s:
        pilot = find_pilot(s, get_company(s, opening), "Bo")
        pilot.skills = json.dumps(["Log Hero"])
        s.add(pilot)
    out = run(runner, "support", "roll", opening, "--scenario", "at-the-hot-gates", "--side",
              "attacker")
    assert "Log Hero" in out
    assert len(run_json(runner, "company", "show", opening)["support"]) == 2


def test_a_suggested_command_quotes_a_company_name_with_spaces(runner: CliRunner) -> None:
    import subprocess

    from campaigns.company import shell_arg

    run(runner, "company", "create", CO)
    message = " ".join(run(runner, "mek", "rename", CO, "Ghost", "Spook", code=1).split())
    assert "See 'meks mek list \"Black Hand\"'." in message
    message = " ".join(run(runner, "odds", "opening-shots", "-a", CO, "-d", CO,
                           code=1).split())
    assert "'meks muster \"Black Hand\" --scenario opening-shots" in message
    for name in ("Hawks", "Black Hand", 'O"Neil $HOME `x` \\', "it's"):
        said = subprocess.run(["bash", "-c", f"printf %s {shell_arg(name)}"],
                              capture_output=True, text=True, check=True).stdout
        assert said == name  # the shell reads it back as the one word it was


def test_a_mek_in_the_waiting_muster_cannot_be_sold(runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    before = state(runner)
    err = " ".join(run(runner, "mek", "sell", company, "Anvil", code=1).split())
    assert "waiting for its battle" in err and "meks battle record" in err
    assert "mustering again without it" in err  # undo reverts only the last change
    assert "meks company undo" in err and "if that muster is the company's last change" in err
    assert state(runner) == before
    record(runner, "--result", "win", "--auto", "--seed", "1")
    run(runner, "mek", "sell", company, "Anvil")  # once the battle is recorded, it may go


def test_a_mek_outside_the_waiting_muster_can_be_sold(runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "Anvil")
    run(runner, "mek", "sell", company, "WASP-1")


def test_a_pilot_moved_after_the_muster_keeps_the_new_mek_R2_6(
        runner: CliRunner, company: str) -> None:
    run(runner, "mek", "buy", company, "VIPER")
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    run(runner, "pilot", "assign", company, "Ana", "VIPER-1")
    run(runner, "pilot", "hire", company, "Cy")
    run(runner, "pilot", "assign", company, "Cy", "WASP-1")
    record(runner, "--result", "loss", "--destroyed", "WASP-1", "--auto", "--seed", "5")
    pilots = {p["name"]: p["mek"] for p in run_json(runner, "pilot", "list", company)}
    assert pilots == {"Ana": "VIPER-1", "Bo": "Anvil", "Cy": None}


def test_the_pilot_of_a_destroyed_mek_ejects_R2_6(runner: CliRunner, company: str) -> None:
    run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    record(runner, "--result", "loss", "--destroyed", "WASP-1", "--auto", "--seed", "5")
    pilots = {p["name"]: p["mek"] for p in run_json(runner, "pilot", "list", company)}
    assert pilots == {"Ana": None, "Bo": "Anvil"}


def test_a_scenario_muster_takes_no_more_support_than_granted_R4_1(
        runner: CliRunner, opening: str) -> None:
    args = ["muster", opening, "--scenario", "opening-shots", "--side", "attacker",
            "VIPER-1", "WASP-1", "WASP-2"]
    run(runner, "support", "roll", opening, "--count", "3", "--seed", "2")
    before = state(runner)
    err = " ".join(run(runner, *args, code=1).split())
    assert "3 support results are waiting but the scenario grants 1" in err
    assert "meks company undo" in err and "undoes the company's latest change first" in err
    assert state(runner) == before
    run(runner, "company", "undo", opening)
    run(runner, "support", "roll", opening, "--seed", "2")
    assert len(run_json(runner, *args)["support"]) == 1


def test_log_hero_lets_a_scenario_muster_take_one_more_support_result_R4_2(
        runner: CliRunner, opening: str) -> None:
    from campaigns.company import find_pilot, get_company
    from cli.state import session

    with session() as s:
        pilot = find_pilot(s, get_company(s, opening), "Bo")
        pilot.skills = json.dumps(["Log Hero"])
        s.add(pilot)
    run(runner, "support", "roll", opening, "--count", "2", "--seed", "2")
    result = run_json(runner, "muster", opening, "--scenario", "opening-shots", "--side",
                      "attacker", "VIPER-1", "WASP-1", "WASP-2")
    assert len(result["support"]) == 2


def test_pilot_show_lists_only_the_events_that_concern_the_pilot(
        runner: CliRunner, company: str) -> None:
    run(runner, "mek", "buy", company, "VIPER")
    run(runner, "pilot", "hire", company, "Bob")
    run(runner, "pilot", "assign", company, "Bob", "VIPER-1")
    run(runner, "muster", company, "--budget", "40", "Anvil")
    run(runner, "pilot", "hire", company, "Cy")
    run(runner, "company", "undo", company)  # Cy's id may be given to the next hire
    run(runner, "pilot", "hire", company, "Dee")
    bo = [e["summary"] for e in run_json(runner, "pilot", "show", company, "Bo")["history"]]
    assert bo == ["Mustered Anvil for 29/40 points.", "Bo now pilots Anvil.",
                  "Hired Bo (Regular, 5 points at the first muster the pilot flies in, unless "
                  "its scenario provides one)."]
    dee = [e["summary"] for e in run_json(runner, "pilot", "show", company, "Dee")["history"]]
    assert dee == ["Hired Dee (Green)."]


@pytest.mark.parametrize("name", ["1", "#2", " 007 ", "\u246b", "\uff03\uff11\uff12"])
def test_names_made_of_digits_are_refused_as_they_read_as_ids(
        runner: CliRunner, company: str, name: str) -> None:
    before = state(runner)
    for command in (["company", "create", name], ["mek", "buy", company, "WASP", "-c", name],
                    ["mek", "rename", company, "WASP-1", name],
                    ["pilot", "hire", company, name]):
        err = " ".join(run(runner, *command, code=1).split())
        assert "only digits" in err and "id" in err
    assert state(runner) == before
    assert len(run_json(runner, "company", "list")) == 1
    run(runner, "pilot", "hire", company, "Agent 007")  # digits with letters are fine


def test_digits_of_other_scripts_make_a_name_as_they_never_read_as_ids_R3_2(
        runner: CliRunner, company: str) -> None:
    arabic = "\u0661\u0662"  # Arabic-Indic 12, which no command reads as an id
    run(runner, "mek", "buy", company, "WASP", "-c", arabic)
    run(runner, "pilot", "hire", company, arabic)
    run(runner, "pilot", "assign", company, arabic, arabic)
    assert run_json(runner, "pilot", "show", company, arabic)["mek"] == arabic
    assert run_json(runner, "company", "create", arabic)["name"] == arabic


def test_an_empty_callsign_is_refused_when_buying_too(runner: CliRunner, company: str) -> None:
    before = state(runner)
    for blank in ("", "   "):
        err = run(runner, "mek", "buy", company, "WASP", "--callsign", blank, code=1)
        assert "cannot be empty" in err
        run(runner, "mek", "rename", company, "WASP-1", blank, code=1)
    assert state(runner) == before


def test_names_are_normalised_so_lookalikes_are_one_name_R3_2(
        runner: CliRunner, company: str) -> None:
    composed, decomposed = "Jos\u00e9", "Jose\u0301"
    hired = run_json(runner, "pilot", "hire", company, decomposed + "\u200b")
    assert hired["name"] == composed  # stored composed, the zero-width space dropped
    for twin in (composed, decomposed, "JOS\u00c9", "Jo\u200bs\u00e9", "Jos\u00e9\u00a0",
                 "\u202eJos\u00e9"):
        assert "already has a pilot" in run(runner, "pilot", "hire", company, twin, code=1)
    assert run_json(runner, "pilot", "show", company, decomposed)["name"] == composed
    assert run_json(runner, "pilot", "hire", company, "Ana\tMaria\n")["name"] == "Ana Maria"
    run(runner, "mek", "rename", company, "WASP-1", "\uff37asp")  # full-width W
    assert "already has a Mek" in run(runner, "mek", "buy", company, "WASP", "-c", "wasp",
                                      code=1)


def test_a_name_that_is_not_text_is_refused(runner: CliRunner, company: str) -> None:
    err = run(runner, "pilot", "hire", company, "A\udcffB", code=2)
    assert "not UTF-8" in err


def test_a_custom_design_cannot_take_a_stock_name(runner: CliRunner, company: str,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "wasp.yaml"
    path.write_text("name: wasp\nsize: Light\nweapons: [Cannon]\n")
    before = state(runner)
    err = run(runner, "mek", "buy", company, str(path), code=1)
    assert "its own name" in " ".join(err.split())
    path.write_text("name: \"Hor\\nnet\"\nsize: Light\nweapons: [Cannon]\n")
    run(runner, "mek", "buy", company, str(path), code=2)
    assert state(runner) == before


def test_the_muster_shows_the_regular_hire_fees_R3_3(runner: CliRunner, company: str) -> None:
    result = run_json(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    assert [(f["mek"], f["price"], f["hire"]) for f in result["force"]] == [
        ("WASP-1", 9, 0), ("Anvil", 24, 5)]
    run(runner, "company", "undo", company)
    table = run(runner, "muster", company, "--budget", "40", "WASP-1", "Anvil")
    assert "Hire" in table and "38/40" in table


def test_a_rich_uncle_of_one_point_says_point(runner: CliRunner, company: str) -> None:
    from rich.console import Console

    from cli.store_views import support

    row = {"table_die": 3, "entry_die": 6, "table": "3-4", "result": "Rich Uncle",
           "effect": "Points.", "points": 1}
    console = Console(width=200, record=True)
    console.print(support([row]))
    assert "Rolled 1 point." in console.export_text()


def test_a_failed_buy_lists_its_problems_cleanly(runner: CliRunner, company: str,
                                                 tmp_path: Path) -> None:
    path = tmp_path / "brick.yaml"
    path.write_text("name: Brick\nsize: Light\nweapons: [PPC, Plasma]\n")
    err = " ".join(run(runner, "mek", "buy", company, str(path), code=1).split())
    assert ".;" not in err and "'Laser'?); (2) 1 Huge weapon" in err


def test_a_callsign_kept_by_a_sold_mek_says_so(runner: CliRunner, company: str) -> None:
    run(runner, "mek", "sell", company, "WASP-1")
    err = " ".join(run(runner, "mek", "buy", company, "WASP", "-c", "wasp-1", code=1).split())
    assert "sold Mek" in err


def test_renaming_to_the_same_callsign_changes_nothing(runner: CliRunner, company: str) -> None:
    events = len(run_json(runner, "company", "history", company))
    assert "nothing changed" in run(runner, "mek", "rename", company, "Anvil", " Anvil ")
    assert len(run_json(runner, "company", "history", company)) == events
    run(runner, "mek", "rename", company, "Anvil", "ANVIL")  # a new spelling is a change
    assert len(run_json(runner, "company", "history", company)) == events + 1


def test_names_have_a_length_limit(runner: CliRunner, company: str, tmp_path: Path) -> None:
    long = "x" * 61
    before = state(runner)
    for command in (["company", "create", long], ["pilot", "hire", company, long],
                    ["mek", "buy", company, "WASP", "-c", long],
                    ["mek", "rename", company, "Anvil", long]):
        assert "at most 60 characters" in " ".join(run(runner, *command, code=1).split())
    path = tmp_path / "long.yaml"
    path.write_text(f"name: {'y' * 51}\nsize: Light\nweapons: [Cannon]\n")
    run(runner, "mek", "buy", company, str(path), code=2)
    assert state(runner) == before
    run(runner, "pilot", "hire", company, "x" * 60)


def test_muster_budget_has_the_scenario_limit(runner: CliRunner, company: str) -> None:
    from campaigns.files.scenario_model import SideRules
    from cli.muster_cmd import MAX_BUDGET

    assert SideRules(budget=MAX_BUDGET).budget == MAX_BUDGET
    with pytest.raises(ValueError):
        SideRules(budget=MAX_BUDGET + 1)
    err = run(runner, "muster", company, "--budget", str(MAX_BUDGET + 1), "WASP-1", code=2)
    assert "Traceback" not in err and "ValidationError" not in err


def test_a_file_named_like_a_stock_design_does_not_hide_it(runner: CliRunner, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "DRAKEN").mkdir()
    (tmp_path / "VIPER").write_text("name: Vee\nsize: Light\nweapons: [Rail Cannon]\n"
                                    "systems: []\n")
    run(runner, "company", "create", CO)
    assert run_json(runner, "mek", "buy", CO, "DRAKEN")["design"] == "DRAKEN"
    assert run_json(runner, "mek", "buy", CO, "VIPER")["design"] == "VIPER"
    assert run_json(runner, "mek", "buy", CO, "./VIPER")["design"] == "Vee"  # a path: a file
