"""One opponent everywhere (issue 16 item 1): every command that fights battles is
commanded by the bot unless --controller says otherwise, says which controller it used, and
the odds predict the battles 'battle auto' fights; and a player who commands a battle at
the terminal chooses their pilots' new skills (issue 16 item 3)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from meks.game.vocabulary import Side
from tests.test_battle_cli import BLUE, RED, run, run_json


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "red.yaml").write_text(RED)
    (tmp_path / "blue.yaml").write_text(BLUE)
    return str(tmp_path / "red.yaml"), str(tmp_path / "blue.yaml")


# ---- item 1: the same controller everywhere ------------------------------------------------

def test_the_command_line_and_the_library_agree_on_the_controllers() -> None:
    """--controller offers exactly the library's controllers, the library's default first
    (the command line names them without importing the engine, to start quickly)."""
    from campaigns.battles import CONTROLLERS as KNOWN
    from campaigns.battles import DEFAULT_CONTROLLER
    from cli.battle_cmd import CONTROLLERS

    assert CONTROLLERS[0] == DEFAULT_CONTROLLER == "bot"
    assert set(CONTROLLERS) == set(KNOWN)


def test_battle_auto_is_fought_by_the_bot_unless_told_otherwise(
        runner: CliRunner, files: tuple[str, str]) -> None:
    """battle auto: the bot on both sides by default, --controller baseline on request;
    --json and the report's result line say which."""
    from campaigns.battles import fight
    from meks.game.dice import Dice

    red, blue = files
    data = run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                    "--seed", "9")
    assert data["controllers"] == {"attacker": "bot", "defender": "bot"}
    assert data["log_digest"] == fight(None, "opening-shots", red, blue, Dice.from_seed(9),
                                       controllers={s: "bot" for s in Side}).digest
    text = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue, "--seed", "9")
    assert "the bot commanding both sides" in text
    data = run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                    "--seed", "9", "--controller", "Baseline")
    assert data["controllers"] == {"attacker": "baseline", "defender": "baseline"}
    assert data["log_digest"] == fight(None, "opening-shots", red, blue, Dice.from_seed(9),
                                       controllers={s: "baseline" for s in Side}).digest
    err = run(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
              "--controller", "genius", code=2)
    assert "'genius' is not a controller" in err


@pytest.mark.parametrize("controller", [None, "baseline"])
def test_the_odds_predict_the_battles_battle_auto_fights(
        runner: CliRunner, files: tuple[str, str], controller: str | None) -> None:
    """meks odds fights, run by run, the very battles 'battle auto' fights with the same
    controller and each run's seed: by default both are the bot's."""
    from meks.analysis.odds import run_seed

    red, blue = files
    chosen = ["--controller", controller] if controller else []
    odds = run_json(runner, "odds", "opening-shots", "-a", red, "-d", blue, "--runs", "10",
                    "--seed", "3", *chosen)
    assert odds["controller"] == (controller or "bot")
    winners = [run_json(runner, "battle", "auto", "opening-shots", "-a", red, "-d", blue,
                        "--seed", str(run_seed(3, i)), *chosen)["winner"] for i in range(10)]
    assert odds["attacker"]["count"] == winners.count("attacker")
    assert odds["defender"]["count"] == winners.count("defender")
    assert odds["draw"]["count"] == winners.count("draw")


def test_the_odds_screen_says_which_controller_it_predicts_with(
        runner: CliRunner, files: tuple[str, str]) -> None:
    red, blue = files
    text = " ".join(run(runner, "odds", "opening-shots", "-a", red, "-d", blue,
                        "--runs", "3").split())
    assert "bot commanding both sides" in text
    assert "Predicted with the bot commanding both sides: the opponent of battle auto, " \
           "battle play and campaigns." in text
    text = " ".join(run(runner, "odds", "opening-shots", "-a", red, "-d", blue, "--runs", "3",
                        "--controller", "baseline").split())
    assert "Predicted with the baseline commanding both sides; battle auto, battle play " \
           "and campaigns fight against the bot unless told otherwise." in text


def test_the_default_number_of_battles_follows_the_controller(
        runner: CliRunner, files: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """meks odds: 400 battles with the bot, 1000 with the baseline (about four times
    faster); odds skill: 200 and 1000 per variant. Checked with smaller stand-ins."""
    import campaigns.odds

    assert campaigns.odds.RUNS == {"bot": 400, "baseline": 1000}
    assert campaigns.odds.SKILL_RUNS == {"bot": 200, "baseline": 1000}
    monkeypatch.setattr(campaigns.odds, "RUNS", {"bot": 6, "baseline": 9})
    monkeypatch.setattr(campaigns.odds, "SKILL_RUNS", {"bot": 2, "baseline": 3})
    red, blue = files
    assert run_json(runner, "odds", "opening-shots", "-a", red, "-d", blue)["runs"] == 6
    assert run_json(runner, "odds", "opening-shots", "-a", red, "-d", blue,
                    "--controller", "baseline")["runs"] == 9
    skill = run_json(runner, "odds", "skill", red, "--scenario", "opening-shots", "--side",
                     "attacker", "--against", blue)
    assert skill["runs"] == 2 and skill["controller"] == "bot"
    text = " ".join(run(runner, "odds", "skill", red, "--scenario", "opening-shots", "--side",
                        "attacker", "--against", blue).split())
    assert "Predicted with the bot commanding both sides" in text


def test_the_ladder_takes_a_controller_and_keeps_the_baseline_by_default(
        runner: CliRunner) -> None:
    """The ladder's duels are the baseline's unless --controller says otherwise (the
    policy 'odds duel' solves exactly; the bot is about ten times slower in a duel)."""
    plain = run_json(runner, "odds", "ladder", "--runs", "1", "-t", "Plains")
    bot = run_json(runner, "odds", "ladder", "--runs", "1", "-t", "Plains",
                   "--controller", "bot")
    assert plain["controller"] == "baseline" and bot["controller"] == "bot"
    text = " ".join(run(runner, "odds", "ladder", "--runs", "1", "-t", "Plains").split())
    assert "the baseline commanding both Meks" in text


@pytest.fixture
def hawks(runner: CliRunner) -> str:
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "5", "--difficulty", "hard")
    return "Hawks"


def test_campaign_battles_are_the_bots_at_the_campaigns_difficulty(
        runner: CliRunner, hawks: str) -> None:
    """campaign next: the bot on both sides, built at the campaign's difficulty, which the
    battle keeps so that its replay is commanded the same way; --json says so."""
    from sqlmodel import select

    from campaigns.battles import controller
    from cli.state import session
    from db.models import BattleLog
    from meks.engine.bot.choices import Difficulty

    assert controller("bot", Difficulty.HARD).difficulty is Difficulty.HARD  # type: ignore[attr-defined]
    assert controller("bot").difficulty is Difficulty.NORMAL  # type: ignore[attr-defined]
    data = run_json(runner, "campaign", "next", hawks)
    assert data["controllers"] == {"attacker": "bot", "defender": "bot"}
    assert data["difficulty"] == "hard"
    with session() as s:
        log = s.exec(select(BattleLog).where(BattleLog.battle_id == data["battle_id"])).one()
        spec = json.loads(log.spec)
    assert spec["controllers"] == {"attacker": "bot", "defender": "bot"}
    assert spec["difficulty"] == "hard"
    assert run_json(runner, "battle", "replay", str(data["battle_id"]))["identical"]


def test_campaign_next_and_run_take_a_controller(runner: CliRunner, hawks: str) -> None:
    data = run_json(runner, "campaign", "next", hawks, "--controller", "baseline")
    assert data["controllers"] == {"attacker": "baseline", "defender": "baseline"}
    assert run_json(runner, "battle", "replay", str(data["battle_id"]))["identical"]
    played = run_json(runner, "campaign", "run", hawks, "--controller", "baseline")["played"]
    assert played and all(p["controllers"] == {"attacker": "baseline",
                                               "defender": "baseline"} for p in played)
    run(runner, "demo", "--controller", "nobody", code=2)


def test_campaign_next_play_passes_the_controller_and_the_skill_choice_on(
        runner: CliRunner, hawks: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.play_run
    import cli.state

    seen: dict[str, Any] = {}

    def fake(state: Any, **options: Any) -> None:
        seen.update(options, opponent=state.opponent)
    monkeypatch.setattr(cli.state, "interactive", lambda: True)
    monkeypatch.setattr(cli.play_run, "play_to_end", fake)
    result = runner.invoke(app, ["campaign", "next", hawks, "--play", "--controller",
                                 "baseline", "--auto-skills"], input="\n")  # the muster
    assert result.exit_code == 0, result.stderr
    assert seen == {"auto_skills": True, "opponent": "baseline",
                    "resume": "meks campaign next Hawks --play"}


def test_battle_play_and_resume_pass_the_controller_and_the_skill_choice_on(
        runner: CliRunner, files: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.battle_cmd
    import cli.play_run

    seen: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(cli.battle_cmd, "interactive", lambda: True)
    monkeypatch.setattr(cli.play_run, "play_to_end",
                        lambda state, **options: seen.append((state.opponent, options)))
    red, blue = files
    base = ["battle", "play", "opening-shots", "--side", "attacker", "-a", red, "-d", blue]
    run(runner, *base)
    run(runner, *base, "--controller", "baseline", "--auto-skills")
    run(runner, *base, "--opponent", "baseline")  # the option's former name still works
    run(runner, "battle", "resume", "1", "--auto-skills")
    assert seen == [("bot", {"auto_skills": False}), ("baseline", {"auto_skills": True}),
                    ("baseline", {"auto_skills": False}), ("bot", {"auto_skills": True})]


# ---- item 3: a player who commands the battle chooses the new skills ----------------------

@pytest.fixture
def wolves(runner: CliRunner) -> str:
    run(runner, "company", "create", "Wolves")
    for design, pilot, regular in (("VIPER", "Ana", True), ("WASP", "Bo", False),
                                   ("WASP", "Cy", False)):
        callsign = json.loads(run(runner, "mek", "buy", "Wolves", design, "--json"))["callsign"]
        run(runner, "pilot", "hire", "Wolves", pilot, *(["--regular"] if regular else []))
        run(runner, "pilot", "assign", "Wolves", pilot, callsign)
    run(runner, "muster", "Wolves", "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    return "Wolves"


class Undo(Exception):
    """Raised to roll a trial back."""


def enter(text: str, default: str) -> str:
    return default


def console() -> Any:
    from rich.console import Console

    return Console(file=io.StringIO(), width=100, no_color=True)


def skill_seed(company: str, blue: str) -> tuple[int, Any]:
    """A seed whose played battle (Enter everywhere) ends with a pilot of ``company``
    earning a new skill, and the question it raises; each trial is rolled back."""
    from campaigns.play import finish, start
    from campaigns.postbattle import ChoicesNeeded
    from cli.play_run import run as play
    from cli.state import session

    for seed in range(1, 40):
        try:
            with session() as s:
                state = start(s, "opening-shots", Side.ATTACKER, company, blue, seed=seed)
                battle = play(state, console(), lambda i, d: None, enter)
                finish(s, state.id, battle, auto_skills=False)
                raise Undo
        except ChoicesNeeded as needed:
            return seed, needed.pending
        except Undo:
            continue
    raise AssertionError("no seed gives a new skill")


@pytest.fixture
def skilled(wolves: str, files: tuple[str, str]) -> Iterator[tuple[Any, Any]]:
    """A play of the Wolves in which one of their pilots earns a new skill, and the
    question that skill raises."""
    from campaigns.play import start
    from cli.state import session

    _, blue = files
    seed, pending = skill_seed(wolves, blue)
    with session() as s:
        state = start(s, "opening-shots", Side.ATTACKER, wolves, blue, seed=seed)
    yield state, pending


def pilots(runner: CliRunner) -> dict[str, list[str]]:
    view = run_json(runner, "company", "show", "Wolves")
    return {p["name"]: p["skills"] for p in view["pilots"]}


def test_finishing_a_played_battle_asks_the_players_side_and_rolls_the_same_dice(
        runner: CliRunner, skilled: tuple[Any, Any]) -> None:
    """Issue 16 item 3: without the automatic pick, a pilot of the player's side who earns
    a skill stops the post-battle sequence with the question (nothing stored, the battle's
    dice untouched); given the choice, the same roll stands and the skill is the chosen
    one."""
    from campaigns.play import finish
    from campaigns.postbattle import ChoicesNeeded
    from cli.play_run import run as play
    from cli.state import session

    state, _ = skilled
    battle = play(state, console(), lambda i, d: None, enter)
    rolled = len(battle.dice.log)
    with pytest.raises(ChoicesNeeded) as asked, session() as s:
        finish(s, state.id, battle, auto_skills=False)
    assert len(battle.dice.log) == rolled
    (pending,) = asked.value.pending
    choice = next(o for o in pending.options if o != pending.suggested)
    with session() as s:
        data = finish(s, state.id, battle, auto_skills=False,
                      choices={pending.pilot_id: choice})
    entry = next(e for e in data["reports"]["attacker"] if e["pilot"] == pending.pilot)
    assert entry["new_skill"] == choice and entry["skill_roll"]["success"]
    assert pilots(runner)[pending.pilot] == [choice]


def test_the_terminal_asks_each_pilot_who_earns_a_skill(
        runner: CliRunner, skilled: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16 item 3: at a terminal, the player is asked for each new skill (the skills
    the pilot may take listed, the bot's pick as the default); a skill it cannot take is
    said and asked again."""
    import cli.state
    from cli.play_run import play_to_end

    state, _ = skilled
    monkeypatch.setattr(cli.state, "interactive", lambda: True)
    answers = ["Nonsense", "tactics"]

    def ask(text: str, default: str) -> str:
        return answers.pop(0) if text == "Skill" else default
    play_to_end(state, ask=ask)
    out, err = capsys.readouterr()
    said = " ".join(out.split())
    assert "earned a new skill. Options: Accuracy, Guidance" in said
    assert "Enter takes" in said and "learned Tactics" in said
    assert "Choose one of the options above" in err and not answers
    assert "Tactics" in [s for skills in pilots(runner).values() for s in skills]


@pytest.mark.parametrize("terminal", [False, True])
def test_no_terminal_or_auto_skills_takes_the_bots_pick(
        runner: CliRunner, skilled: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch,
        terminal: bool) -> None:
    """Issue 16 item 3: with no one at the terminal (CI, no standard input), or with
    --auto-skills, nobody is asked and the pilot takes the bot's pick."""
    import cli.state
    from cli.play_run import play_to_end

    state, (pending,) = skilled
    monkeypatch.setattr(cli.state, "interactive", lambda: terminal)

    def ask(text: str, default: str) -> str:
        assert text != "Skill", "asked for a skill"
        return default
    play_to_end(state, ask=ask, auto_skills=terminal)
    learned = {name: skills for name, skills in pilots(runner).items() if skills}
    assert learned == {pending.pilot: [pending.suggested]}


def test_quitting_at_the_skill_question_keeps_the_battle_to_resume(
        runner: CliRunner, skilled: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """q at the skill question stores nothing: resuming fights the battle to its end again
    and asks once more."""
    import typer

    import cli.state
    from campaigns.play import load
    from cli.play_run import play_to_end
    from cli.state import session

    state, _ = skilled
    monkeypatch.setattr(cli.state, "interactive", lambda: True)
    with pytest.raises(typer.Exit) as stopped:
        play_to_end(state, ask=lambda text, default: "q" if text == "Skill" else default)
    assert stopped.value.exit_code == 0
    with session() as s:
        again = load(s, state.id)
    assert again.decisions == state.decisions and again.status == "active"
    play_to_end(again, ask=lambda text, default: "Hawkeye" if text == "Skill" else default)
    assert "Hawkeye" in [s for skills in pilots(runner).values() for s in skills]
