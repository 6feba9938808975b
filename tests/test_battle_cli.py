"""`meks battle auto | show | replay`, force files and dice files (issue: the battle engine)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from campaigns.files.scenarios import builtin_file
from cli.app import app

RED = """\
name: Red Lance
meks:
  - {design: VIPER, pilot: Ana}
  - {design: WASP, pilot: Bo, level: Green}
  - {design: WASP, pilot: Cy, level: Green}
support: [Ambush]
"""
BLUE = """\
meks:
  - {design: VIPER, pilot: Dee, skills: [Accuracy]}
  - {design: WASP, pilot: Eve}
  - {design: WASP, pilot: Fay}
"""


def run(runner: CliRunner, *args: str, code: int = 0, stdin: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def run_json(runner: CliRunner, *args: str) -> Any:
    return json.loads(run(runner, *args, "--json"))


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "red.yaml").write_text(RED)
    (tmp_path / "blue.yaml").write_text(BLUE)
    return str(tmp_path / "red.yaml"), str(tmp_path / "blue.yaml")


def test_battle_auto_between_force_files(runner: CliRunner, files: tuple[str, str]) -> None:
    red, blue = files
    data = run_json(runner, "battle", "auto", "opening-shots", "--attacker", red,
                    "--defender", blue, "--seed", "7")
    assert set(data) >= {"battle_id", "scenario", "seed", "winner", "turns", "events",
                         "log_digest"}
    assert data["battle_id"] is None and data["scenario"] == "opening-shots"
    assert data["winner"] in ("attacker", "defender", "draw")
    assert 1 <= data["turns"] <= 12 and data["events"] > 10
    report = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue, "--seed", "7")
    assert "Turn 1" in report and "Result:" in report


def test_a_scenario_file_with_a_built_in_id_fights_no_battle(
        runner: CliRunner, files: tuple[str, str], tmp_path: Path) -> None:
    red, blue = files
    text = builtin_file("opening-shots").read_text(encoding="utf-8")
    changed = tmp_path / "shots.yaml"
    changed.write_text(text.replace("name: Opening Shots", "name: Other Shots"))
    err = run(runner, "battle", "auto", str(changed), "-a", red, "-d", blue, "--seed", "7",
              code=2)
    assert "the id 'opening-shots' belongs to the built-in scenario Opening Shots; give this " \
           "file an id of its own" in " ".join(err.split())
    changed.write_text(text)  # the built-in's own contents fight as the built-in
    data = run_json(runner, "battle", "auto", str(changed), "-a", red, "-d", blue,
                    "--seed", "7")
    assert data["scenario"] == "opening-shots"


def test_same_seed_same_battle(runner: CliRunner, files: tuple[str, str]) -> None:
    red, blue = files
    digests = {run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                        "--seed", "42")["log_digest"] for _ in range(2)}
    assert len(digests) == 1
    other = run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                     "--seed", "43")["log_digest"]
    assert other not in digests


def test_without_a_seed_one_is_drawn_and_printed(runner: CliRunner,
                                                 files: tuple[str, str]) -> None:
    red, blue = files
    data = run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue)
    again = run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                     "--seed", str(data["seed"]))
    assert again["log_digest"] == data["log_digest"]


@pytest.fixture
def wolves(runner: CliRunner) -> str:
    run(runner, "company", "create", "Wolves")
    for design, pilot, regular in (("VIPER", "Ana", True), ("WASP", "Bo", False),
                                   ("WASP", "Cy", False)):
        callsign = run_json(runner, "mek", "buy", "Wolves", design)["callsign"]
        run(runner, "pilot", "hire", "Wolves", pilot, *(["--regular"] if regular else []))
        run(runner, "pilot", "assign", "Wolves", pilot, callsign)
    return "Wolves"


def fought_battle(runner: CliRunner, company: str, enemy: str) -> int:
    """The id of the Opening Shots battle (seed 11) ``company``, mustered with its three
    Meks, fights against the force file ``enemy``, both sides the bot's."""
    run(runner, "muster", company, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    battle_id = run_json(runner, "battle", "auto", "opening-shots", "-a", company, "-d",
                         enemy, "--seed", "11")["battle_id"]
    assert isinstance(battle_id, int)
    return battle_id


def test_company_battle_is_stored_shown_replayed_and_runs_post_battle(
        runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    _, blue = files
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    data = run_json(runner, "battle", "auto", "opening-shots", "-a", wolves, "-d", blue,
                    "--seed", "11")
    battle_id = data["battle_id"]
    assert isinstance(battle_id, int)
    # each pilot's post-battle report comes with the result, as a play's does
    pilots = {e["pilot"] for e in data["reports"]["attacker"]}
    assert pilots == {p["name"] for p in run_json(runner, "pilot", "list", wolves)}
    assert set(data["reports"]) == {"attacker"}  # the force file has no company to report
    shown = run(runner, "battle", "show", str(battle_id))
    assert "Turn 1" in shown
    replay = run_json(runner, "battle", "replay", str(battle_id))
    assert replay["identical"] and replay["stored_digest"] == data["log_digest"]
    assert "replays identically" in run(runner, "battle", "replay", str(battle_id))
    view = run_json(runner, "company", "show", wolves)
    assert all(p["scenarios"] == 1 for p in view["pilots"] if p["status"] != "dead")
    assert view["last_muster"]["recorded"]
    events = run_json(runner, "company", "history", wolves)
    assert events[0]["command"] == "battle"
    # The muster is spent: fighting again needs a new one.
    err = run(runner, "battle", "auto", "opening-shots", "-a", wolves, "-d", blue, code=1)
    assert "no force mustered" in err


def test_a_stored_battle_keeps_every_sides_decisions_and_replays_as_fought(
        runner: CliRunner, wolves: str, files: tuple[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A battle the bot fought keeps each side's answers, so that it replays as it was
    fought even once the bot would answer otherwise (here the baseline stands in for a
    changed bot); without the record the changed controller fights another battle."""
    from sqlmodel import select

    import campaigns.battles as battles_module
    from cli.state import session
    from db.models import BattleLog
    from meks.engine.controllers import Baseline

    _, blue = files
    battle_id = fought_battle(runner, wolves, blue)
    with session() as s:
        spec = json.loads(s.exec(select(BattleLog).where(
            BattleLog.battle_id == battle_id)).one().spec)
    assert spec["controllers"] == {"attacker": "bot", "defender": "bot"}
    for side in ("attacker", "defender"):
        asked = {d["ask"] for d in spec["decisions"][side]}
        assert {"deploy", "movement", "range_choice"} <= asked
    monkeypatch.setattr(battles_module, "controller", lambda name, level=None: Baseline())
    assert run_json(runner, "battle", "replay", str(battle_id))["identical"]
    with session() as s:  # as a battle stored before the decisions were kept
        log = s.exec(select(BattleLog).where(BattleLog.battle_id == battle_id)).one()
        del spec["decisions"]
        log.spec = json.dumps(spec)
        s.add(log)
        s.commit()
    result = runner.invoke(app, ["battle", "replay", str(battle_id), "--json"])
    assert result.exit_code == 1 and not json.loads(result.stdout)["identical"]


def test_a_replay_that_differs_names_the_engine_revisions(
        runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    from sqlmodel import select

    from cli.state import session
    from db.models import Battle as BattleRow
    from db.models import BattleLog
    from meks.engine import REVISION

    _, blue = files
    battle_id = fought_battle(runner, wolves, blue)
    replay = run_json(runner, "battle", "replay", str(battle_id))
    assert replay["engine_revision"] == replay["current_engine_revision"] == REVISION
    with session() as s:  # as if fought long ago, by another engine, to another log
        log = s.exec(select(BattleLog).where(BattleLog.battle_id == battle_id)).one()
        row = s.get(BattleRow, battle_id)
        assert row is not None
        spec = json.loads(log.spec)
        del spec["engine"]
        log.spec, log.digest = json.dumps(spec), "0" * 64
        row.log = json.dumps({**json.loads(row.log), "digest": "0" * 64})
        s.add(log)
        s.add(row)
        s.commit()
    err = " ".join(run(runner, "battle", "replay", str(battle_id), code=1).split())
    assert "does NOT replay identically" in err
    assert f"engine revision 1 and this is revision {REVISION}" in err


def test_a_replay_whose_old_decisions_are_no_longer_legal_says_so_issue_15(
        runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    """A battle from an earlier engine revision whose recorded decisions are not legal
    answers any more (revision 4 refuses them) is reported as not replaying, with the
    revisions named, not as an unexpected problem."""
    from sqlmodel import select

    from cli.state import session
    from db.models import BattleLog
    from meks.engine import REVISION

    _, blue = files
    battle_id = fought_battle(runner, wolves, blue)
    with session() as s:  # as if played at the terminal under revision 3, set up nowhere
        log = s.exec(select(BattleLog).where(BattleLog.battle_id == battle_id)).one()
        spec = json.loads(log.spec)
        spec["engine"] = 3
        spec["decisions"] = {"attacker": [{"ask": "deploy", "turn": 0, "value": {"A1": 99}}]}
        log.spec = json.dumps(spec)
        s.add(log)
        s.commit()
    result = runner.invoke(app, ["battle", "replay", str(battle_id)])
    assert result.exit_code == 1, result.output
    err = " ".join(result.stderr.split())
    assert "does NOT replay identically" in err and "The replay stopped:" in err
    assert f"engine revision 3 and this is revision {REVISION}" in err
    assert "unexpected" not in err


def test_undoing_a_battle_takes_its_log_with_it(runner: CliRunner, wolves: str,
                                                files: tuple[str, str]) -> None:
    from sqlmodel import select

    from cli.state import session
    from db.models import BattleLog

    _, blue = files
    battle_id = fought_battle(runner, wolves, blue)
    with session() as s:
        assert s.get(BattleLog, battle_id) is not None
    run(runner, "company", "undo", wolves)
    with session() as s:
        assert s.exec(select(BattleLog)).all() == []
    run(runner, "battle", "show", str(battle_id), code=1)


def test_a_roster_imported_under_a_new_name_names_it_in_its_battles(
        runner: CliRunner, wolves: str, files: tuple[str, str], tmp_path: Path) -> None:
    _, blue = files
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    run(runner, "battle", "auto", "opening-shots", "-a", wolves, "-d", blue, "--seed", "11")
    roster = tmp_path / "wolves.json"
    run(runner, "roster", "export", wolves, "-o", str(roster))
    run(runner, "roster", "import", str(roster), "--name", "Wolf Pack")
    doc = json.loads(run(runner, "roster", "export", "Wolf Pack", "--format", "json"))
    assert [b["sides"]["attacker"] for b in doc["battles"]] == ["Wolf Pack"]
    assert doc["battles"][0]["sides"]["defender"] not in (wolves, "Wolf Pack")  # the other


def test_company_without_a_muster_for_the_scenario_is_refused(
        runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    _, blue = files
    before = run_json(runner, "company", "show", wolves)
    err = run(runner, "battle", "auto", "opening-shots", "-a", wolves, "-d", blue, code=1)
    assert "muster" in err
    assert run_json(runner, "company", "show", wolves) == before


def test_company_on_the_wrong_side_is_refused(runner: CliRunner, wolves: str,
                                              files: tuple[str, str]) -> None:
    red, _ = files
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    err = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", wolves, code=1)
    assert "attacker" in err


def test_undo_a_fought_battle(runner: CliRunner, wolves: str, files: tuple[str, str]) -> None:
    _, blue = files
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    before = run_json(runner, "company", "show", wolves)
    run(runner, "battle", "auto", "opening-shots", "-a", wolves, "-d", blue, "--seed", "3")
    run(runner, "company", "undo", wolves)
    assert run_json(runner, "company", "show", wolves) == before
    run(runner, "battle", "auto", "opening-shots", "-a", wolves, "-d", blue, "--seed", "3")


def test_dice_file_replays_fixed_values_and_refuses_bad_ones(
        runner: CliRunner, files: tuple[str, str], tmp_path: Path) -> None:
    red, blue = files
    seeded = run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                      "--seed", "5")
    from campaigns.battles import fight
    from meks.game.dice import Dice

    values = [r.value for r in fight(None, "opening-shots", red, blue,
                                     Dice.from_seed(5)).battle.dice.log]
    dice_file = tmp_path / "dice.txt"
    dice_file.write_text("# the dice of seed 5\n" + " ".join(map(str, values)) + "\n")
    from_file = run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                         "--dice", str(dice_file))
    assert from_file["log_digest"] == seeded["log_digest"]
    dice_file.write_text("3 4\n5 7\n")
    err = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
              "--dice", str(dice_file), code=2)
    assert "line 2" in err and "'7'" in err
    dice_file.write_text("3 4 5\n")
    err = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
              "--dice", str(dice_file), code=1)
    assert "ran out" in err


def test_manual_dice_are_asked_for(runner: CliRunner, files: tuple[str, str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.battle_cmd

    monkeypatch.setattr(cli.battle_cmd, "interactive", lambda: True)  # a player types them
    red, blue = files
    from campaigns.battles import fight
    from meks.game.dice import Dice

    values = [r.value for r in fight(None, "opening-shots", red, blue,
                                     Dice.from_seed(9)).battle.dice.log]
    stdin = "9\n" + "\n".join(map(str, values)) + "\n"  # a 9 is refused and asked again
    out = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue, "--dice",
              "manual", stdin=stdin)
    assert "Die for attacker initiative" in out
    assert "Result:" in out


def test_bad_battle_input_is_refused_cleanly(runner: CliRunner, files: tuple[str, str],
                                            tmp_path: Path) -> None:
    red, blue = files
    err = run(runner, "battle", "auto", "no-such-scenario", "-a", red, "-d", blue, code=1)
    assert "No scenario" in err
    illegal = tmp_path / "illegal.yaml"
    illegal.write_text("meks:\n  - {design: illegal-mek.yaml}\n")
    (tmp_path / "illegal-mek.yaml").write_text("name: X\nsize: Light\nsystems: [Director]\n")
    err = run(runner, "battle", "auto", "opening-shots", "-a", str(illegal), "-d", blue,
              code=1)
    assert "Director" in err
    broken = tmp_path / "broken.yaml"
    broken.write_text("meks: [\n")
    run(runner, "battle", "auto", "opening-shots", "-a", str(broken), "-d", blue, code=2)
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("meks:\n  - {design: WASP, levle: Green}\n")
    err = run(runner, "battle", "auto", "opening-shots", "-a", str(wrong), "-d", blue, code=2)
    assert "level" in err
    run(runner, "battle", "show", "99", code=1)
    run(runner, "battle", "replay", "99", code=1)


def test_force_file_must_fit_the_scenario(runner: CliRunner, files: tuple[str, str],
                                          tmp_path: Path) -> None:
    _, blue = files
    big = tmp_path / "big.yaml"
    big.write_text("meks:\n  - {design: THOR}\n  - {design: WASP}\n  - {design: WASP}\n")
    err = run(runner, "battle", "auto", "opening-shots", "-a", str(big), "-d", blue, code=1)
    assert "exactly 1 Medium" in err and "budget" in err


def test_force_file_takes_no_more_support_than_the_scenario_grants_R4_1(
        runner: CliRunner, wolves: str, files: tuple[str, str], tmp_path: Path) -> None:
    """A force file lists at most the scenario side's support rolls (Opening Shots: one),
    plus one when a pilot of it has Log Hero, as a company's muster may take; more is
    refused (exit 1) by battle auto, odds and battle play, in the muster's own words."""
    _, blue = files
    meks = ("meks:\n  - {design: VIPER, pilot: Ana, skills: [%s]}\n  - {design: WASP}\n"
            "  - {design: WASP}\n")

    def force(support: list[str], skills: str = "") -> str:
        path = tmp_path / f"force-{len(support)}-{bool(skills)}.yaml"
        path.write_text(meks % skills + f"support: [{', '.join(support)}]\n")
        return str(path)

    seven = force(["Ambush", "Decoy", "Minefield", "Surprise", "Gun Sled", "Air Strike",
                   "Support Fire"])
    said = (f"The force in {seven} cannot fight as the attacker in Opening Shots: 7 support "
            "results are waiting but the scenario grants 1 (1 for the attacker in "
            "opening-shots); list no more than that under 'support' in the file.")
    for args in (["battle", "auto", "opening-shots", "-a", seven, "-d", blue],
                 ["odds", "opening-shots", "-a", seven, "-d", blue, "--runs", "2"]):
        assert said in " ".join(run(runner, *args, code=1).split())
    from campaigns.company import Refused
    from campaigns.play import start
    from cli.state import session
    from meks.game.vocabulary import Side

    with pytest.raises(Refused) as refused, session() as s:  # battle play, at a terminal
        start(s, "opening-shots", Side.DEFENDER, seven, blue)
    assert " ".join(refused.value.message.split()) == said
    run(runner, "battle", "auto", "opening-shots", "-a", force(["Ambush"]), "-d", blue)
    hero = force(["Ambush", "Decoy"], "Log Hero")
    run(runner, "battle", "auto", "opening-shots", "-a", hero, "-d", blue)
    err = " ".join(run(runner, "battle", "auto", "opening-shots", "-a",
                       force(["Ambush", "Decoy", "Surprise"], "Log Hero"), "-d", blue,
                       code=1).split())
    assert "3 support results are waiting but the scenario grants 2 (1 for the attacker in " \
        "opening-shots, plus 1 for Ana's Log Hero)" in err
    # a company's muster says it in the same words
    run(runner, "support", "roll", wolves, "--count", "7", "--seed", "2")
    err = " ".join(run(runner, "muster", wolves, "--scenario", "opening-shots", "--side",
                       "attacker", "VIPER-1", "WASP-1", "WASP-2", code=1).split())
    assert "7 support results are waiting but the scenario grants 1 (1 for the attacker in " \
        "opening-shots)" in err


def test_end_of_input_at_a_dice_prompt_stops_cleanly(runner: CliRunner,
                                                     files: tuple[str, str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.battle_cmd

    monkeypatch.setattr(cli.battle_cmd, "interactive", lambda: True)
    red, blue = files
    err = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue, "--dice",
              "manual", code=130, stdin="4\n")
    assert "Stopped at a prompt; nothing was changed." in err
    # on a line of its own, not after the prompt the end of input left the cursor on
    assert "\nError: Stopped at a prompt" in err


def test_manual_dice_with_nobody_at_a_terminal_is_bad_usage(
        runner: CliRunner, files: tuple[str, str]) -> None:
    """Under CI, or with standard input not a terminal, nobody can roll: refused before
    anything is asked or fought (exit 2), pointing at a dice file or a seed."""
    red, blue = files
    err = " ".join(run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                       "--dice", "manual", code=2, stdin="4\n").split())
    assert "asks for every die at a terminal" in err and "--seed" in err
    assert "Die for" not in err


def test_force_file_refuses_an_unknown_size_and_a_callsign_used_twice(
        runner: CliRunner, files: tuple[str, str], tmp_path: Path) -> None:
    _, blue = files
    odd = tmp_path / "odd.yaml"
    odd.write_text("meks:\n  - {design: VIPER, skills: ['Chassis Familiarity (Huge)']}\n"
                   "  - {design: WASP, callsign: Twin}\n  - {design: WASP, callsign: twin}\n")
    err = " ".join(run(runner, "battle", "auto", "opening-shots", "-a", str(odd), "-d", blue,
                       code=1).split())
    assert "'Chassis Familiarity (Huge)' names no Mek size" in err
    assert "the callsign 'twin' is already Mek 2's" in err
    # a Mek given no callsign takes the next of its design's that is free
    named = tmp_path / "named.yaml"
    named.write_text("meks:\n  - {design: VIPER, callsign: WASP-2}\n  - {design: WASP}\n"
                     "  - {design: WASP}\n")
    data = json.loads(run(runner, "battle", "auto", "opening-shots", "-a", str(named), "-d",
                          blue, "--json"))
    assert data["battle_id"] is None
    from campaigns.forces import load_force_file

    assert [u.name for u in load_force_file(named).units] == ["WASP-2", "WASP-1", "WASP-3"]


def test_force_file_refuses_pilots_the_game_cannot_have_R2_3(
        runner: CliRunner, files: tuple[str, str], tmp_path: Path) -> None:
    """A force file's pilots are as a company's could be: no skill while Green, none held
    twice, one Mek a pilot (in any case of the name); every problem named at once."""
    _, blue = files
    odd = tmp_path / "pilots.yaml"
    odd.write_text("meks:\n  - {design: VIPER, pilot: Ana, level: Green, skills: [Accuracy]}\n"
                   "  - {design: WASP, pilot: Bo, skills: [Tactics, tactics]}\n"
                   "  - {design: WASP, pilot: ana}\n")
    for args in (("battle", "auto", "opening-shots", "-a", str(odd), "-d", blue),
                 ("odds", "opening-shots", "-a", str(odd), "-d", blue, "--runs", "2")):
        err = " ".join(run(runner, *args, code=1).split())
        assert "Mek 1: the pilot is Green and holds 1 skill; a pilot learns none while " \
            "Green." in err
        assert "Mek 2: Tactics is held more than once; no pilot holds a skill twice." in err
        assert "Mek 3: its pilot 'ana' already flies Mek 1" in err


def test_force_file_names_an_unknown_level_and_an_unknown_skill_at_once(
        runner: CliRunner, files: tuple[str, str], tmp_path: Path) -> None:
    _, blue = files
    odd = tmp_path / "pilots.yaml"
    odd.write_text("meks:\n  - {design: VIPER, level: Godlike, skills: [Flying]}\n"
                   "  - {design: WASP, level: Green, skills: [Flying, Accuracy]}\n")
    err = " ".join(run(runner, "battle", "auto", "opening-shots", "-a", str(odd), "-d", blue,
                       code=1).split())
    assert "Mek 1: " in err and "Godlike" in err and err.count("Flying") >= 2
    assert "Mek 2: the pilot is Green" in err


def test_force_file_pays_the_scenarios_prices_R1_7(runner: CliRunner, tmp_path: Path) -> None:
    """Under `pricing: computed` a force file's Meks cost what their parts add up to, as a
    company's muster pays: an ODIN (27 printed, 33 computed) no longer fits 30 points."""
    scenario = tmp_path / "computed.yaml"
    scenario.write_text("id: computed\nname: Computed\nturn_limit: 8\n"
                        "attacker: {budget: 30, setup: {zones: [7, 8, 9]}}\n"
                        "defender: {budget: 30, setup: {zones: [1, 2, 3]}}\n"
                        "victory:\n  attacker: {type: occupy, side: attacker, zone: 2}\n"
                        "  defender: {type: destroy_all, side: defender}\n"
                        "house_rules: {pricing: computed}\n")
    odin = tmp_path / "odin.yaml"
    odin.write_text("meks: [{design: ODIN}]\n")
    err = " ".join(run(runner, "battle", "auto", str(scenario), "-a", str(odin), "-d",
                       str(odin), code=1).split())
    assert "it costs 33 points and the budget is 30" in err
    printed = tmp_path / "printed.yaml"
    printed.write_text(scenario.read_text().replace("pricing: computed", "pricing: printed")
                       .replace("id: computed", "id: printed"))
    run(runner, "battle", "auto", str(printed), "-a", str(odin), "-d", str(odin))


def test_repair_none_house_rule_keeps_damage_for_the_next_battle_R3_4(
        runner: CliRunner, wolves: str, files: tuple[str, str], tmp_path: Path) -> None:
    import yaml

    from campaigns.battles import fight
    from cli.state import session
    from meks.engine.units import build_unit
    from meks.game.dice import Dice
    from meks.game.vocabulary import Side

    source = Path(__file__).parent.parent / "campaigns/files/scenarios" / "1-opening-shots.yaml"
    data = yaml.safe_load(source.read_text())
    data.update(id="no-repairs", name="No Repairs", house_rules={"repair": "none"})
    scenario = tmp_path / "no-repairs.yaml"
    scenario.write_text(yaml.safe_dump(data))
    _, blue = files
    run(runner, "muster", wolves, "--scenario", str(scenario), "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    with session() as s:  # find a battle the company comes out of with a damaged Mek
        seed, hurt = next(
            (seed, units) for seed in range(200)
            for units in [[(int(u.ref or 0), u.hits) for u in fight(
                s, str(scenario), wolves, blue, Dice.from_seed(seed)).battle.units
                if u.side is Side.ATTACKER and u.alive and u.hits]] if units)
    run(runner, "battle", "auto", str(scenario), "-a", wolves, "-d", blue, "--seed", str(seed))
    meks = {m["id"]: m["damage"] for m in run_json(runner, "mek", "list", wolves)}
    for mek_id, hits in hurt:
        assert meks[mek_id] == hits
    # ... and a damaged Mek starts its next battle with those hits taken.
    from tests.engine_helpers import CATALOG, mek

    unit = build_unit(dataclasses.replace(mek("VIPER"), damage=2), "A1", Side.ATTACKER,
                      CATALOG)
    assert unit.hits == 2 and unit.remaining == 1


def test_battle_show_ends_with_the_reveal_issue_26(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """After the battle the report says what each side kept from the other and where (the
    hidden Mek, the decoy, the minefield); with --rolls each line only one side saw is
    marked."""
    hiding = tmp_path / "hiding.yaml"
    hiding.write_text(BLUE + "support: [Minefield, Hidden Mek, Decoy]\n")
    run(runner, "muster", wolves, "--scenario", "at-the-hot-gates", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    data = run_json(runner, "battle", "auto", "at-the-hot-gates", "-a", wolves, "-d",
                    str(hiding), "--seed", "5")
    shown = run(runner, "battle", "show", str(data["battle_id"]))
    reveal = shown[shown.index("What the defender kept from the attacker:"):]
    assert "was hidden, set up in zone" in reveal and "was a decoy" in reveal
    assert "A minefield lay in zone" in reveal
    assert "What the attacker kept from the defender:" in shown
    rolls = run(runner, "battle", "show", str(data["battle_id"]), "--rolls")
    assert "[defender only] Defender decides: the decoy in zone" in rolls
