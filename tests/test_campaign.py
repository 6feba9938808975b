"""Campaigns and the demo: plans, one scenario at a time, determinism, and surviving a kill."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
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


def history(runner: CliRunner, *db: str, name: str = "Hawks") -> list[tuple[str, str, str]]:
    events = run_json(runner, *db, "company", "history", name)
    return [(e["command"], e["summary"], json.dumps(e["dice"])) for e in reversed(events)]


def test_campaign_plays_the_six_scenarios_in_order(runner: CliRunner) -> None:
    run(runner, "company", "create", "Hawks")
    view = run_json(runner, "campaign", "start", "Hawks", "--seed", "3")
    assert [s["scenario"] for s in view["plan"]] == [
        "opening-shots-campaign", "at-the-hot-gates-campaign", "buying-us-some-time-campaign",
        "through-the-breach-campaign", "head-to-head", "citadel-campaign"]
    first = run_json(runner, "campaign", "next", "Hawks")
    assert first["scenario"] == "opening-shots-campaign" and first["position"] == 1
    assert first["changes"]  # the built-in campaign's copy says what it changes
    assert first["result"] in ("win", "loss", "draw")
    assert first["bought"]  # a new company buys its first Meks
    status = run_json(runner, "campaign", "status", "Hawks")
    assert status["next"]["scenario"] == "at-the-hot-gates-campaign"
    assert "opening-shots" in run(runner, "campaign", "status", "Hawks")
    out = run(runner, "campaign", "run", "Hawks")
    assert "Campaign summary" in out and "Meks bought" in out
    final = run_json(runner, "campaign", "status", "Hawks")
    assert final["status"] == "finished" and len(final["results"]) == 6
    commands = {e["command"] for e in run_json(runner, "company", "history", "Hawks")}
    assert {"support roll", "mek buy", "pilot hire", "pilot assign", "muster", "battle",
            "campaign next"} <= commands
    run(runner, "campaign", "next", "Hawks", code=1)  # nothing left to play


def test_a_new_company_flies_the_regular_pilot_opening_shots_provides(
        runner: CliRunner) -> None:
    """Issue 25 (a new company won Opening Shots a sixth of the time, all its pilots Green):
    the scenario provides each side one Regular and two Green pilots, and the Regular's hire
    fee is waived (R3.3), so the campaign's muster hires a Regular for the first empty
    cockpit and Green pilots for the rest, within the budget."""
    run(runner, "company", "create", "Kites")
    run(runner, "campaign", "start", "Kites", "--seed", "3")
    first = run_json(runner, "campaign", "next", "Kites")
    assert first["scenario"] == "opening-shots-campaign"
    hires = [e["summary"] for e in run_json(runner, "company", "history", "Kites")
             if e["command"] == "pilot hire"]
    assert len(hires) == 3
    assert sum("Regular" in h for h in hires) == 1, hires
    assert sum("Green" in h for h in hires) == 2, hires


def test_a_campaign_muster_flies_the_pilots_of_meks_left_at_home_before_hiring(
        runner: CliRunner, tmp_path: Path) -> None:
    """A Mek the force needs is flown by a pilot the company has, when that pilot's own Mek
    stays at home, before a new Green pilot is hired for it (the best of them: a Regular with
    a skill and kills used to sit at home while a new hire flew)."""
    (tmp_path / "heavy.yaml").write_text(
        "id: heavy-duel\nname: Heavy Duel\n"
        "attacker: {budget: 30, composition: {Heavy: 1}, setup: {zones: [7]}}\n"
        "defender: {budget: 30, composition: {Heavy: 1}, setup: {zones: [3]}}\n"
        "victory:\n  attacker: {type: destroy_all, side: attacker}\n"
        "  defender: {type: destroy_all, side: defender}\n")
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: Heavy\nscenarios:\n  - {scenario: heavy.yaml, side: attacker}\n")
    run(runner, "company", "create", "Hawks")
    run(runner, "mek", "buy", "Hawks", "WASP", "--callsign", "Scout")
    run(runner, "pilot", "hire", "Hawks", "Ace")
    run(runner, "pilot", "assign", "Hawks", "Ace", "Scout")
    run(runner, "campaign", "start", "Hawks", "--plan", str(plan), "--seed", "3")
    step = run_json(runner, "campaign", "next", "Hawks")
    assert step["bought"] == ["DRAKEN-1"]
    assert [p["pilot"] for p in step["pilots"]] == ["Ace"]
    changes = [(command, summary) for command, summary, _ in history(runner)]
    assert ("pilot assign", "Ace now pilots DRAKEN-1.") in changes
    assert [c for c, _ in changes].count("pilot hire") == 1  # Ace's own, by hand


def test_printed_plays_the_six_scenarios_as_printed(runner: CliRunner) -> None:
    run(runner, "company", "create", "Owls")
    view = run_json(runner, "campaign", "start", "Owls", "--printed")
    assert [s["scenario"] for s in view["plan"]] == [
        "opening-shots", "at-the-hot-gates", "buying-us-some-time", "through-the-breach",
        "head-to-head", "citadel"]
    assert view["name"] == "The six scenarios of the rules, as printed"


def test_a_plan_and_printed_together_are_bad_usage(runner: CliRunner, tmp_path: Path) -> None:
    """Two ways to name the campaign's scenarios at once is a command line to correct
    (exit 2, as other options that exclude each other), said before the company is looked
    up, and nothing begins."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: Short\nscenarios:\n  - {scenario: head-to-head, side: attacker}\n")
    run(runner, "company", "create", "Owls")
    for company in ("Owls", "Nobody"):
        said = run(runner, "campaign", "start", company, "--plan", str(plan), "--printed",
                   code=2)
        assert "either a plan file or --printed, not both" in said
    run(runner, "campaign", "status", "Owls", code=1)  # no campaign was begun


def test_a_campaign_with_the_same_seed_gives_identical_events(runner: CliRunner,
                                                              tmp_path: Path) -> None:
    logs = []
    for n in (1, 2):
        db = ["--db", str(tmp_path / f"c{n}.db")]
        run(runner, *db, "company", "create", "Hawks")
        run(runner, *db, "campaign", "start", "Hawks", "--seed", "77")
        run(runner, *db, "campaign", "run", "Hawks")
        logs.append(history(runner, *db))
    assert logs[0] == logs[1]


def test_campaign_plan_file(runner: CliRunner, tmp_path: Path) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: Border War\ndifficulty: hard\nscenarios:\n"
                    "  - {scenario: head-to-head, side: defender}\n"
                    "  - {scenario: opening-shots, side: attacker}\n")
    run(runner, "company", "create", "Hawks")
    view = run_json(runner, "campaign", "start", "Hawks", "--plan", str(plan), "--seed", "1")
    assert (view["name"], view["difficulty"], len(view["plan"])) == ("Border War", "hard", 2)
    run(runner, "campaign", "start", "Hawks", code=1)  # one campaign at a time
    run(runner, "campaign", "run", "Hawks")
    status = run_json(runner, "campaign", "status", "Hawks")
    assert status["status"] == "finished"
    # the campaign's name under the same key in status and show
    assert status["campaign"] == status["name"] == "Border War"
    assert run_json(runner, "campaign", "show", "Hawks")["campaign"] == "Border War"


def test_the_house_rules_a_plan_sets_are_shown_at_start_and_in_status(
        runner: CliRunner, tmp_path: Path) -> None:
    """A plan's house rules win over a scenario's own; the player reads which rules each
    battle is fought under when the campaign begins and in its status."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: Border War\nhouse_rules: {salvage: both, wear: true}\n"
                    "scenarios:\n  - {scenario: opening-shots, side: attacker}\n"
                    "  - {scenario: head-to-head, side: defender}\n")
    run(runner, "company", "create", "Hawks")
    said = " ".join(run(runner, "campaign", "start", "Hawks", "--plan", str(plan)).split())
    assert "House rules in every battle: salvage: both, wear: true." in said
    view = run_json(runner, "campaign", "status", "Hawks")
    assert view["in_force"][1][:2] == ["salvage: both", "wear: true"]
    assert "salvage: both, wear: true" in " ".join(
        run(runner, "campaign", "status", "Hawks").split())
    run(runner, "company", "create", "Owls")
    run(runner, "campaign", "start", "Owls", "--printed", "--no-treasury")
    assert "as ruled" in run(runner, "campaign", "status", "Owls")


def test_a_plan_can_name_a_scenario_file_which_the_campaign_keeps(runner: CliRunner,
                                                                   tmp_path: Path) -> None:
    """The file is found beside the plan and copied into the campaign, so moving it away
    changes nothing. A file that takes a built-in scenario's id is refused."""
    import yaml

    folder = tmp_path / "plans"
    folder.mkdir()
    text = (REPO / "campaigns" / "files" / "scenarios" / "5-head-to-head.yaml").read_text()
    data = yaml.safe_load(text)
    data.update(id="citadel", name="Mirror Match", turn_limit=3)  # the id of a built-in
    (folder / "mirror.yaml").write_text(yaml.safe_dump(data))
    (folder / "plan.yaml").write_text("scenarios:\n  - {scenario: mirror.yaml, side: attacker}\n")
    run(runner, "company", "create", "Hawks")
    err = run(runner, "campaign", "start", "Hawks", "--plan", str(folder / "plan.yaml"), code=2)
    assert "give this file an id of its own" in " ".join(err.split())
    data.update(id="mirror-match")
    (folder / "mirror.yaml").write_text(yaml.safe_dump(data))
    view = run_json(runner, "campaign", "start", "Hawks", "--plan", str(folder / "plan.yaml"),
                    "--seed", "3")
    assert view["plan"][0]["definition"]["name"] == "Mirror Match"
    (folder / "mirror.yaml").unlink()
    run(runner, "campaign", "next", "Hawks")
    status = run_json(runner, "campaign", "status", "Hawks")
    assert status["status"] == "finished"
    battle = run_json(runner, "battle", "show", str(status["results"][0]["battle_id"]))
    assert battle["report"][1] == "Set-up: Mirror Match"
    assert not any(line.startswith("Turn 4") for line in battle["report"])
    roster = tmp_path / "hawks.json"  # the copy travels with the roster
    run(runner, "roster", "export", "Hawks", "-o", str(roster))
    run(runner, "roster", "import", str(roster), "--name", "Hawks II")
    copied = run_json(runner, "campaign", "status", "Hawks II")
    assert copied["plan"][0]["definition"]["name"] == "Mirror Match"


@pytest.mark.parametrize(("text", "expected"), [
    ("scenarios:\n  - {scenario: nowhere, side: attacker}\n",
     "line 2 (scenarios[0].scenario): No scenario is called 'nowhere'"),
    ("scenarios:\n  - {scenario: citadel, side: middle}\n",
     "line 2 (scenarios[0].side): must be attacker or defender"),
    ("difficulty: brutal\nscenarios:\n  - {scenario: citadel, side: defender}\n",
     "line 1 (difficulty): must be one of easy, normal, hard"),
    ("house_rules: {salvage: sometimes}\nscenarios: [{scenario: citadel, side: defender}]\n",
     "line 1 (house_rules.salvage): text 'sometimes' is not one of"),
    ("scenarios: []\n", "line 1 (scenarios): lists no scenario"),
    ("scenarios: [\n", "line"),
    ("scenarioz: []\n", "did you mean 'scenarios'"),
])
def test_bad_plan_files_exit_2(runner: CliRunner, tmp_path: Path, text: str,
                               expected: str) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text(text)
    run(runner, "company", "create", "Hawks")
    err = run(runner, "campaign", "start", "Hawks", "--plan", str(plan), code=2)
    assert expected in err
    run(runner, "campaign", "status", "Hawks", code=1)  # nothing was started


def test_undo_a_campaign_step(runner: CliRunner) -> None:
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "4")
    run(runner, "campaign", "next", "Hawks")
    status = run_json(runner, "campaign", "status", "Hawks")
    said = run(runner, "company", "undo", "Hawks")  # the campaign's bookkeeping step
    assert run_json(runner, "campaign", "status", "Hawks")["position"] == status[
        "position"] - 1
    assert "its battle and what was done getting ready" in " ".join(said.split())
    # the step's battle still stands: fighting the step again would count its gains twice
    pilots = run_json(runner, "pilot", "list", "Hawks")
    for command in (("campaign", "next", "Hawks"), ("campaign", "run", "Hawks")):
        err = " ".join(run(runner, *command, code=1).split())
        assert "has fought this step's battle already (battle" in err, err
        assert "'meks company undo Hawks'" in err
    assert run_json(runner, "pilot", "list", "Hawks") == pilots
    assert "Undid battle" in run(runner, "company", "undo", "Hawks")  # then the battle
    run(runner, "campaign", "next", "Hawks")  # fought afresh
    assert run_json(runner, "campaign", "status", "Hawks")["position"] == status["position"]


def test_a_step_undone_with_its_battle_standing_is_not_fought_again_in_a_roster_copy(
        runner: CliRunner, tmp_path: Path) -> None:
    """The step's battle is known by the step's dice, not by the company's history, so a
    company imported from a roster written in that state cannot fight the step again
    either (it has no history to undo the battle by): the export says so as it writes such
    a roster, and the imported company's campaign refuses the step with what to do."""
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "4")
    run(runner, "campaign", "next", "Hawks")
    run(runner, "company", "undo", "Hawks")  # the step alone: its battle still stands
    written = runner.invoke(app, ["roster", "export", "Hawks", "--format", "json", "-o",
                                  str(tmp_path / "hawks.json")])
    assert written.exit_code == 0, written.stderr
    note = " ".join(written.stderr.split())
    assert "back at a step whose battle still stands (battle 1)" in note, note
    assert "'meks company undo Hawks'" in note
    read = runner.invoke(app, ["roster", "export", "Hawks", "--format", "md"])
    assert read.exit_code == 0 and "still stands" not in read.stderr  # for reading: no note
    run(runner, "roster", "import", str(tmp_path / "hawks.json"), "--name", "Kites")
    pilots = run_json(runner, "pilot", "list", "Kites")
    for command in (("campaign", "next", "Kites"), ("campaign", "run", "Kites")):
        err = " ".join(run(runner, *command, code=1).split())
        assert "came from a roster written after this step alone was undone" in err, err
        assert "(battle 2)" in err
    assert run_json(runner, "pilot", "list", "Kites") == pilots
    # with the battle undone too, the step is fought again and the roster has no note
    run(runner, "company", "undo", "Hawks")
    run(runner, "campaign", "next", "Hawks")
    again = runner.invoke(app, ["roster", "export", "Hawks", "--format", "yaml"])
    assert again.exit_code == 0 and not again.stderr


def test_demo_reads_well_at_80_columns_without_colour(tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80", "MEKS_DB": str(tmp_path / "d.db")}
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cli", "demo", "--seed", "5"], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - started
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Founded Demo Company" in out and "Campaign summary" in out
    assert "\x1b[" not in out  # no colour codes
    assert max(len(line) for line in out.splitlines()) <= 80
    assert elapsed < 60
    again = subprocess.run([sys.executable, "-m", "cli", "demo", "--seed", "5"], cwd=REPO,
                           env=env, capture_output=True, text=True, timeout=120)
    assert "Founded Demo Company 2" in again.stdout


def test_demo_numbers_a_name_taken_as_names_are_compared_and_keeps_to_the_length(
        temp_database: str) -> None:
    """The name the demo founds its company under is free as every command compares names
    (case, spacing, full-width forms), and a number added to a name of the longest kind
    cuts it short instead of making one the founding refuses."""
    from campaigns.company import create_company, unused_company_name
    from db.engine import transaction
    from db.models import NAME_LENGTH

    longest = "A" * NAME_LENGTH
    with transaction(temp_database) as s:
        for name in ("Demo Company", longest):
            create_company(s, name)
        assert unused_company_name(s, "Fresh") == "Fresh"
        wide = "\uff24\uff45\uff4d\uff4f Company"  # "Demo" in full-width letters
        for typed, numbered in (("demo  company", "demo company 2"), (wide, f"{wide} 2"),
                                ("Demo Company ", "Demo Company 2")):
            assert unused_company_name(s, typed) == numbered, typed
        create_company(s, unused_company_name(s, "demo  company"))
        assert unused_company_name(s, "DEMO COMPANY") == "DEMO COMPANY 3"
        numbered = unused_company_name(s, longest)
        assert numbered == "A" * (NAME_LENGTH - 2) + " 2" and len(numbered) == NAME_LENGTH
        create_company(s, numbered)


def test_ctrl_c_during_campaign_run_says_the_finished_steps_are_kept(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    import campaigns.campaign

    real = campaigns.campaign.next_scenario
    calls: list[int] = []

    def interrupted_at_the_second(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(campaigns.campaign, "next_scenario", interrupted_at_the_second)
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "8")
    err = " ".join(run(runner, "campaign", "run", "Hawks", "--runs", "0", code=130).split())
    assert err == ("Interrupted. The campaign is kept up to its last finished step: "
                   "'meks campaign run Hawks' goes on from there.")
    assert run_json(runner, "campaign", "status", "Hawks")["position"] == 1


def test_ctrl_c_during_campaign_next_says_nothing_of_the_step_was_kept(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    import campaigns.campaign

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "8")
    monkeypatch.setattr(campaigns.campaign, "next_scenario", interrupted)
    err = " ".join(run(runner, "campaign", "next", "Hawks", "--runs", "0", code=130).split())
    assert err == ("Interrupted. Nothing of the step was kept: 'meks campaign next Hawks' "
                   "plays it from its start, with the same dice.")
    assert run_json(runner, "campaign", "status", "Hawks")["position"] == 0


@pytest.mark.slow
def test_campaign_run_killed_at_random_moments_carries_on_to_the_same_end(
        runner: CliRunner, tmp_path: Path) -> None:
    """SIGKILL at 30 random moments; after each the database opens, `meks db check` passes,
    and the campaign, carried on, ends exactly as an uninterrupted run with the same seed.
    The campaign is restarted from scratch whenever it finishes, so that all 30 kills land
    in a running campaign."""
    reference = str(tmp_path / "reference.db")
    run(runner, "--db", reference, "company", "create", "Hawks")
    run(runner, "--db", reference, "campaign", "start", "Hawks", "--seed", "99")
    run(runner, "--db", reference, "campaign", "run", "Hawks")
    expected = run_json(runner, "--db", reference, "campaign", "status", "Hawks")["results"]

    rng = random.Random(1)
    kills, rounds = 0, 0
    while kills < 30:
        rounds += 1
        db = str(tmp_path / f"killed{rounds}.db")
        run(runner, "--db", db, "company", "create", "Hawks")
        run(runner, "--db", db, "campaign", "start", "Hawks", "--seed", "99")
        while kills < 30:
            proc = subprocess.Popen([sys.executable, "-m", "cli", "--db", db, "campaign",
                                     "run", "Hawks"], cwd=REPO, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.3, 1.0))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
            assert "sound" in run(runner, "--db", db, "db", "check")
            status = run_json(runner, "--db", db, "campaign", "status", "Hawks")
            assert status["position"] == len(status["results"])
            assert status["results"] == expected[:len(status["results"])]
            if status["status"] == "finished":
                break
        run(runner, "--db", db, "campaign", "run", "Hawks")
        assert run_json(runner, "--db", db, "campaign", "status", "Hawks")["results"] == \
            expected


def test_the_enemy_rolls_support_before_its_muster_so_rich_uncle_adds_points_R4_2() -> None:
    from campaigns.campaign import enemy_force
    from campaigns.files.scenarios import get_scenario
    from meks.engine.bot.choices import Difficulty, muster
    from meks.game.catalog import load_catalog
    from meks.game.dice import Dice
    from meks.game.vocabulary import Side

    catalog = load_catalog()
    scenario = get_scenario("head-to-head")
    rules = scenario.side(Side.DEFENDER)
    dice = Dice.from_sequence([3, 6, 6] * rules.support_rolls)  # table 3-4, 6: Rich Uncle, +6
    force = enemy_force(scenario, Side.DEFENDER, Difficulty.HARD, catalog, dice)
    assert force.support == ("Rich Uncle",) * rules.support_rolls
    richer = muster(rules.budget + 6 * rules.support_rolls, rules.max_size, rules.composition,
                    catalog, Difficulty.HARD)
    assert [u.design.name for u in force.units if u.design] == [d.name for d in richer]
    assert sum(d.price or 0 for d in richer) > rules.budget  # the extra points were spent


def test_difficulty_takes_any_case_and_refuses_others_as_usage(runner: CliRunner) -> None:
    run(runner, "company", "create", "Hawks")
    err = run(runner, "campaign", "start", "Hawks", "--difficulty", "insane", code=2)
    assert "is not a difficulty" in err and "hard" in err
    view = run_json(runner, "campaign", "start", "Hawks", "--difficulty", "HARD")
    assert view["difficulty"] == "hard"


def test_support_rolled_by_hand_counts_towards_the_campaigns_grant_R4_1(
        runner: CliRunner) -> None:
    """Opening Shots grants one roll: one rolled by hand before 'campaign next' is that
    roll, so the campaign rolls none of its own and the muster takes it: the step names it
    as its support, as it does a roll it made."""
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "1")
    rolled = run_json(runner, "support", "roll", "Hawks", "--count", "1", "--seed", "3")
    step = run_json(runner, "campaign", "next", "Hawks")
    assert step["support"] == [r["result"] for r in rolled] != []
    assert run_json(runner, "company", "show", "Hawks")["support"] == []  # none left waiting


HEAD_TO_HEAD = "scenarios:\n  - {scenario: head-to-head, side: attacker}\n"


def hand_mustered_hawks(runner: CliRunner, *hire: str) -> None:
    """Hawks with a WASP flown by Vera, mustered by hand before a Head to Head campaign."""
    run(runner, "company", "create", "Hawks")
    run(runner, "mek", "buy", "Hawks", "WASP")
    run(runner, "pilot", "hire", "Hawks", "Vera", *hire)
    run(runner, "pilot", "assign", "Hawks", "Vera", "WASP-1")


def campaign_muster_after_a_hand_muster(runner: CliRunner, tmp_path: Path) -> Any:
    """Muster Hawks' WASP-1 by hand, then play a one-scenario campaign (Head to Head, as the
    attacker): the campaign's muster."""
    run(runner, "muster", "Hawks", "--budget", "50", "WASP-1")
    plan = tmp_path / "plan.yaml"
    plan.write_text(HEAD_TO_HEAD)
    run(runner, "campaign", "start", "Hawks", "--plan", str(plan), "--seed", "1")
    run(runner, "campaign", "next", "Hawks")
    return run_json(runner, "company", "show", "Hawks")["last_muster"]


def test_a_muster_made_by_hand_gives_back_its_hire_fees_to_the_campaign_R3_3(
        runner: CliRunner, tmp_path: Path) -> None:
    """The campaign's muster replaces the hand-made one, so Vera's fee, paid by that muster,
    is owed again and the campaign's force must leave room for it."""
    hand_mustered_hawks(runner, "--regular")
    muster = campaign_muster_after_a_hand_muster(runner, tmp_path)
    assert muster["scenario"] == "head-to-head" and muster["cost"] <= muster["budget"] == 60


def test_a_muster_made_by_hand_gives_back_its_rich_uncle_to_the_campaign_R4_2(
        runner: CliRunner, tmp_path: Path) -> None:
    """The Rich Uncle attached to the hand-made muster joins the campaign's muster again,
    and its points are spent on the force."""
    hand_mustered_hawks(runner)
    [uncle] = run_json(runner, "support", "roll", "Hawks", "--seed", "112")
    assert uncle["result"] == "Rich Uncle" and uncle["points"] == 5
    muster = campaign_muster_after_a_hand_muster(runner, tmp_path)
    assert muster["budget"] == 65 and muster["cost"] > 60
