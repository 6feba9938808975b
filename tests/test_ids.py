"""Ids typed on the command line: a number no database can hold names nothing (exit 1),
never a crash; digits that are not 0-9 are names, not ids."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.app import app

HUGE = str(2**64 + 7)  # more than any database stores in an id


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    """stdout, or on failure stderr as plain words (usage errors come in a wrapped box)."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "unexpected" not in result.stderr
    if code == 0:
        return result.stdout
    return " ".join(result.stderr.replace("│", " ").split())


@pytest.fixture
def hawks(runner: CliRunner) -> str:
    run(runner, "company", "create", "Hawks")
    run(runner, "mek", "buy", "Hawks", "WASP")
    run(runner, "pilot", "hire", "Hawks", "Vera")
    return "Hawks"


@pytest.mark.parametrize("args", [
    ["company", "show", HUGE], ["campaign", "status", HUGE], ["campaign", "start", HUGE],
    ["roster", "export", HUGE], ["mek", "list", HUGE], ["pilot", "list", HUGE],
    ["company", "show", "²"],
], ids=lambda a: " ".join(a[:2]) + (" superscript" if a[-1] == "²" else ""))
def test_a_company_named_by_a_number_too_large_for_an_id_is_not_found(
        runner: CliRunner, hawks: str, args: list[str]) -> None:
    assert "No company is called" in run(runner, *args, code=1)


def test_meks_and_pilots_named_by_a_number_too_large_for_an_id_are_not_found(
        runner: CliRunner, hawks: str) -> None:
    assert "no pilot called" in run(runner, "pilot", "show", hawks, HUGE, code=1)
    assert "no pilot called" in run(runner, "pilot", "show", hawks, "#" + HUGE, code=1)
    assert "no Mek called" in run(runner, "pilot", "assign", hawks, "Vera", HUGE, code=1)
    assert "no Mek called" in run(runner, "mek", "sell", hawks, "#" + HUGE, code=1)
    run(runner, "pilot", "show", hawks, "#1")  # an id that fits still works


@pytest.mark.parametrize("command", ["show", "replay"])
def test_a_battle_id_too_large_to_store_is_not_found(runner: CliRunner,
                                                     command: str) -> None:
    run(runner, "company", "create", "Somebody")  # a database to look in
    assert "No battle has id" in run(runner, "battle", command, HUGE, code=1)


def test_a_play_id_too_large_to_store_is_not_found() -> None:
    from campaigns.company import NotFound
    from campaigns.play import load
    from cli.state import session

    with pytest.raises(NotFound, match="No play has id"), session() as s:
        load(s, 2**64)


def test_numbers_no_battle_or_muster_could_hold_are_usage_errors(runner: CliRunner,
                                                                 hawks: str) -> None:
    run(runner, "pilot", "assign", hawks, "Vera", "WASP-1")
    assert "less than or equal to 10000" in run(runner, "muster", hawks, "--budget", HUGE,
                                                "WASP-1", code=2)
    run(runner, "muster", hawks, "--budget", "50", "WASP-1")
    err = run(runner, "battle", "record", hawks, "--result", "win", "--auto",
              "--kills", f"Vera={HUGE}", code=2)
    assert "at most 1000" in err
    assert "whole number" in run(runner, "battle", "record", hawks, "--result", "win",
                                 "--auto", "--kills", "Vera=²", code=2)


def test_digits_other_than_0_to_9_are_not_die_values(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from campaigns.files.dicefile import read_dice_file
    from meks.game.errors import InputError

    file = tmp_path / "dice.txt"
    file.write_text("1 ² 3\n")
    with pytest.raises(InputError, match=r"expected a die value .*, found text '²'"):
        read_dice_file(file)


def test_digits_other_than_0_to_9_are_not_a_choice_at_the_terminal() -> None:
    import io

    from rich.console import Console

    from cli.play import Terminal
    from cli.prompts import Option
    from meks.game.vocabulary import Side

    answers = iter(["²", "\u0661", "2"])  # superscript two, Arabic-Indic one
    out = io.StringIO()
    terminal = Terminal(Console(file=out), Side.ATTACKER,
                        ask=lambda _text, _default: next(answers))
    terminal.flush = lambda _battle: None  # type: ignore[method-assign]
    options = [Option("first", 1), Option("second", 2)]
    assert terminal.choose(None, "Which?", options) == 2  # type: ignore[arg-type]
    assert out.getvalue().count("Type a number from 1 to 2") == 2
    answers = iter(["² 1", "1"])
    assert terminal.choose_many(None, "Which?", options, [], 2) == [1]  # type: ignore[arg-type]
