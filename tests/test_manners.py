"""Terminal manners: shell completion, NO_COLOR, 80 columns, --json wherever data is shown,
and --quiet."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cli.app import app

REPO = Path(__file__).resolve().parent.parent
COLOUR = re.compile(r"\x1b\[(3[0-9]|9[0-7]|38;|4[0-9])")


def invoke(runner: CliRunner, *args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stderr)
    return result.stdout


@pytest.fixture
def company(runner: CliRunner) -> str:
    for args in (["company", "create", "Hawks"], ["mek", "buy", "Hawks", "DRAKEN"],
                 ["mek", "buy", "Hawks", "WASP"], ["pilot", "hire", "Hawks", "Vera Long-Name"],
                 ["pilot", "assign", "Hawks", "Vera Long-Name", "DRAKEN-1"],
                 ["support", "roll", "Hawks", "--count", "2", "--seed", "1"],
                 ["muster", "Hawks", "--budget", "40", "DRAKEN-1"],
                 ["battle", "record", "Hawks", "--result", "win", "--auto", "--seed", "2"]):
        invoke(runner, *args)
    return "Hawks"


SHOWING = [
    ["catalog", "chassis"], ["catalog", "weapons"], ["catalog", "systems"],
    ["catalog", "designs"], ["catalog", "skills"], ["catalog", "support"],
    ["catalog", "show", "ODIN"], ["catalog", "check"], ["company", "list"],
    ["company", "show", "Hawks"], ["company", "history", "Hawks"], ["mek", "list", "Hawks"],
    ["pilot", "list", "Hawks"], ["pilot", "show", "Hawks", "Vera Long-Name"],
    ["scenario", "list"], ["scenario", "show", "citadel"], ["db", "path"], ["db", "check"],
]


@pytest.mark.parametrize("args", SHOWING, ids=lambda a: " ".join(a))
def test_every_view_fits_80_columns_and_has_json(runner: CliRunner, company: str,
                                                 args: list[str]) -> None:
    out = invoke(runner, *args)
    # A path on a line of its own is printed whole, however long, for scripts to read.
    database = os.environ["MEKS_DB"]
    assert all(len(line) <= 80 for line in out.splitlines() if line != database), out
    json.loads(invoke(runner, *args, "--json"))


def test_no_color_is_honoured_even_when_colour_is_forced(company: str,
                                                        temp_database: str) -> None:
    env = {**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "1", "MEKS_DB": temp_database}
    for args in (["catalog", "check"], ["company", "show", "Hawks"],
                 ["catalog", "show", "nothing-like-this"], ["campaign", "start", "Hawks"],
                 ["campaign", "next", "Hawks"]):  # its step's line is bold otherwise
        proc = subprocess.run([sys.executable, "-m", "cli", *args], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 or (args[1] == "show" and args[2] != "Hawks"), proc.stderr
        # no escape code at all: no colour, and no bold either
        assert "\x1b[" not in proc.stdout + proc.stderr, (args, proc.stdout, proc.stderr)


def test_quiet_prints_only_errors_and_requested_data(runner: CliRunner) -> None:
    assert invoke(runner, "--quiet", "company", "create", "Quiet Ones") == ""
    assert invoke(runner, "-q", "mek", "buy", "Quiet Ones", "WASP") == ""
    assert invoke(runner, "-q", "pilot", "hire", "Quiet Ones", "Sam") == ""
    assert json.loads(invoke(runner, "-q", "mek", "list", "Quiet Ones", "--json"))
    result = runner.invoke(app, ["-q", "mek", "buy", "Quiet Ones", "NOPE"])
    assert result.exit_code == 1 and "NOPE" in result.stderr


def test_shell_completion_script(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    # Typer otherwise guesses the shell from the parent process, which a test run started
    # by a scheduler or service may not have; with guessing off it takes the shell named.
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    out = invoke(runner, "--show-completion", "bash")
    assert "_MEKS_COMPLETE" in out or "meks" in out
    assert "--install-completion" in invoke(runner, "--help")


def test_battle_reports_fit_80_columns(runner: CliRunner, tmp_path: Path) -> None:
    force = tmp_path / "f.yaml"
    force.write_text("meks:\n  - {design: VIPER}\n  - {design: WASP}\n  - {design: WASP}\n")
    out = invoke(runner, "battle", "auto", "opening-shots", "-a", str(force), "-d",
                 str(force), "--seed", "3", "--rolls")
    assert max(len(line) for line in out.splitlines()) <= 80


def _commands(group: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every command under ``group`` (Typer's own Click types), with its path of names."""
    out = []
    for name, command in group.commands.items():
        out.append(((*path, name), command))
        if hasattr(command, "commands"):
            out.extend(_commands(command, (*path, name)))
    return out


def test_help_paragraphs_have_no_hard_line_breaks() -> None:
    """Typer's Rich help prints a line break inside a paragraph as it is, cutting sentences
    in the middle at any width but the source's. So every command's help reaches Typer with
    each paragraph on one line (``MeksGroup`` joins the lines of the docstrings)."""
    broken = []
    for path, command in _commands(typer.main.get_command(app)):
        text = command.help or ""
        if not text or any("\n" in part for part in text.split("\n\n")):
            broken.append(" ".join(path))
    assert not broken, broken

