"""Issue 18, items 2 and 3: help that reads well, and views that fit 80 columns."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cli.app import app
from cli.help_format import limits_sentence

# Python's names for a value's type, as Typer labels them: <str>, <bool>, <list[str]>,
# <int range>, <path>, <float> ...
PLACEHOLDER = re.compile(r"<[a-z][a-z_\[\], ]*>")
RANGE = re.compile(r"\d\s*<=\s*x|x\s*[<>]=")


def _commands(group: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [path]
    for name, command in getattr(group, "commands", {}).items():
        out.extend(_commands(command, (*path, name)))
    return out


COMMANDS = _commands(typer.main.get_command(app))


def _help(runner: CliRunner, path: tuple[str, ...]) -> str:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, (path, result.output)
    return result.stdout


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "meks")
def test_every_help_at_80_columns_has_no_placeholder_issue18_item2(
        runner: CliRunner, path: tuple[str, ...]) -> None:
    """Every command's --help at 80 columns: no Python type label (<str>, <bool>,
    <list[str]>, <int range>), no range written as 1<=x<=N (so none split over two
    lines), no choice list cut at a '|', and no line wider than 80."""
    out = _help(runner, path)
    assert len(COMMANDS) > 50
    assert not PLACEHOLDER.findall(out), out
    assert not RANGE.search(out), out
    assert not re.search(r"\|\s*│?\s*$|│\s+\|", out, re.M), out  # a list broken at a bar
    assert max(len(line) for line in out.splitlines()) <= 80, out


FIXED_SETS = [
    (("battle", "record"), "--result", ["win", "loss", "draw"]),
    (("battle", "play"), "--side", ["attacker", "defender"]),
    (("battle", "play"), "--controller", ["bot", "baseline"]),
    (("battle", "auto"), "--controller", ["bot", "baseline"]),
    (("campaign", "next"), "--controller", ["bot", "baseline"]),
    (("campaign", "run"), "--controller", ["bot", "baseline"]),
    (("demo",), "--controller", ["bot", "baseline"]),
    (("odds", "ladder"), "--controller", ["baseline", "bot"]),
    (("muster",), "--side", ["attacker", "defender"]),
    (("muster",), "--max-size", ["Light", "Medium", "Heavy", "Assault", "Titan"]),
    (("support", "roll"), "--side", ["attacker", "defender"]),
    (("demo",), "--difficulty", ["easy", "normal", "hard"]),
    (("campaign", "start"), "--difficulty", ["easy", "normal", "hard"]),
    (("mek", "buy"), "--pricing", ["printed", "computed"]),
    (("odds", "battle"), "--controller", ["baseline", "bot"]),
    (("odds", "skill"), "--side", ["attacker", "defender"]),
    (("odds", "skill"), "--controller", ["baseline", "bot"]),
    (("odds", "duel"), "--terrain", ["Plains", "Desert", "Woods", "Urban", "Highlands",
                                     "Moors"]),
    (("odds", "duel"), "--pilots", ["Green", "Regular", "Veteran", "Elite"]),
    (("odds", "ladder"), "--terrain", ["Plains", "Desert", "Woods", "Urban", "Highlands",
                                       "Moors"]),
]


@pytest.mark.parametrize(("path", "option", "choices"), FIXED_SETS,
                         ids=lambda v: " ".join(v) if isinstance(v, tuple) else None)
def test_options_with_a_fixed_set_of_values_list_them_issue18_item2(
        runner: CliRunner, path: tuple[str, ...], option: str, choices: list[str]) -> None:
    """An option that takes one of a fixed set of values lists every one of them on its
    own row of the help (as its label, e.g. win|loss|draw, or in its help text)."""
    out = _help(runner, path)
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if re.search(rf"{option}\b", line))
    row = [lines[start]]
    for line in lines[start + 1:]:
        if re.match(r"│\s*(\*\s+)?-", line) or not line.startswith("│"):
            break
        row.append(line)
    text = " ".join(row)
    missing = [c for c in choices if not re.search(rf"\b{c}\b", text)]
    assert not missing, (option, missing, text)


def test_choice_typed_options_show_their_choices_issue18_item2(runner: CliRunner) -> None:
    """Any option Typer knows as a choice (an Enum or a Literal) shows every choice."""
    root = typer.main.get_command(app)
    for path in COMMANDS:
        command: Any = root
        for name in path:
            command = command.commands[name]
        for param in command.params:
            choices = getattr(getattr(param, "type_descriptor", None), "choices", None)
            if choices and param.metavar is None:
                out = _help(runner, path)
                for choice in choices:
                    assert str(getattr(choice, "value", choice)) in out, (path, param.name)


@pytest.mark.parametrize(("low", "high", "words"), [
    (1, 10_000_000, "From 1 to 10,000,000."), (0, 2**63 - 1, "At least 0."),
    (None, 5, "At most 5."), (None, None, None)])
def test_number_limits_are_said_in_words_issue18_item2(low: int | None, high: int | None,
                                                       words: str | None) -> None:
    """A number's limits join the option's help as a sentence; an upper limit that only
    guards the database (2**63 - 1) is left out."""
    assert limits_sentence(low, high) == words


def test_arguments_keep_their_names_in_errors_issue18_item2(runner: CliRunner) -> None:
    """Arguments are named in capitals in the usage line and in a missing-argument error."""
    result = runner.invoke(app, ["muster"], env={"COLUMNS": "80"})
    assert result.exit_code == 2
    assert "COMPANY MEK..." in result.output and "'COMPANY'" in result.output


def _out(runner: CliRunner, *args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": "80"})
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


def _fits(out: str) -> None:
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80, out


def test_catalog_weapons_fit_80_columns_in_two_lines_a_weapon_issue18_item3(
        runner: CliRunner, catalog: Any) -> None:
    """The weapons table is one line a weapon at 80 columns, each special rule below it
    under the weapon's name: in all at most two lines a weapon and a few for the titles
    (it was 110 lines, every cell wrapped; the two titles and header take ten)."""
    out = _out(runner, "catalog", "weapons")
    _fits(out)
    lines = out.splitlines()
    assert len(lines) <= 2 * len(catalog.weapons) + 10, out  # 39 for 15 today
    for weapon in catalog.weapons:
        row = next(line for line in lines if line.strip().startswith(weapon.name))
        assert weapon.to_hit_text in row and weapon.mount.value in row
        if weapon.special:  # the rule's first words follow the name in the notes
            words = " ".join(weapon.special.split()[:3])
            assert any(line.strip().startswith(weapon.name) and words in line
                       for line in lines), (weapon.name, out)


def test_catalog_systems_fit_80_columns_issue18_item3(runner: CliRunner,
                                                      catalog: Any) -> None:
    """Systems: one line a system, then each effect in full under its name."""
    out = _out(runner, "catalog", "systems")
    _fits(out)
    flat = " ".join(out.split())
    for system in catalog.systems:
        assert " ".join(system.effect.split()) in flat, system.name
    assert len(out.splitlines()) <= 4 * len(catalog.systems) + 8


def test_scenario_list_names_a_file_in_full_at_80_columns_issue18_item3(
        runner: CliRunner, tmp_path: Any) -> None:
    """A scenario of your own is named by its file in your scenarios folder, folded over
    lines rather than cut to an ellipsis, and the table fits 80 columns."""
    import os
    from pathlib import Path

    folder = Path(os.environ["MEKS_SCENARIOS_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    text = (Path(__file__).parent.parent / "campaigns/files/scenarios" / "6-citadel.yaml"
            ).read_text()
    name = "my-own-citadel-raid-with-a-rather-long-file-name.yaml"
    (folder / name).write_text(text.replace("id: citadel", "id: my-own-raid", 1))
    out = _out(runner, "scenario", "list")
    _fits(out)
    assert "…" not in out
    row = [line for line in out.splitlines() if "my-own-raid" in line]
    assert row
    start = out.splitlines().index(row[0])
    tail = "".join(line.rstrip().rsplit("  ", 1)[-1].strip()
                   for line in out.splitlines()[start:start + 6])
    assert name in tail, out
    # The folder is named in full, folded over lines when the path is longer than one.
    assert str(folder) in "".join(out.split())


def test_odds_duel_fractions_fit_80_columns_issue18_item3(runner: CliRunner) -> None:
    """--fractions: each exact chance as numerator over denominator, the digits folded
    under the label, every line within 80 columns."""
    out = _out(runner, "odds", "duel", "WASP", "DRAKEN", "--fractions", "--runs", "1")
    _fits(out)
    lines = out.splitlines()
    label = lines.index("  WASP (first) wins:")
    after = lines[label + 1:]
    # (the numerator may take more than one line: the duel's chain is three rounds a turn)
    slash = next(i for i, line in enumerate(after) if line.startswith("    / "))
    assert slash >= 1 and all(line.startswith("    ") for line in after[:slash])


def test_ladder_chart_title_fits_the_picture_issue18_item3() -> None:
    """With every terrain and a large run count the chart's title and subtitle lie
    inside the picture, measured with the font the PNG is drawn in."""
    from cli.odds_plot import WIDTH, Text, _font, ladder_chart

    data = {"terrains": ["Plains", "Desert", "Woods", "Urban", "Highlands", "Moors"],
            "runs_per_pairing": 10_000_000,
            "meks": [{"mek": "WASP", "price": 12, "per_point": 0.04}]}
    texts = [s for s in ladder_chart(data) if isinstance(s, Text) and s.y < 60]
    assert len(texts) >= 2 and "Moors" in " ".join(t.text for t in texts)
    for text in texts:
        width = _font(text.size).getlength(text.text) + (2 if text.bold else 0)
        assert width <= WIDTH - 10, (text.text, width)


@pytest.mark.parametrize("width", [80, 60, 40])
def test_campaign_muster_menu_never_cuts_a_callsign(width: int) -> None:
    """The muster a player chooses at the terminal names each Mek by the callsign to type
    back: on a narrow terminal the table gives way to a line a Mek, callsign first, rather
    than cutting the callsign short."""
    from rich.console import Console

    from cli.campaign_views import muster_menu

    callsigns = ["Thunderbolt-Longname", "Anvil", "Grasshopper-The-Second"]
    owned = [{"callsign": c, "design": d, "size": s, "price": p, "owes": o}
             for c, d, s, p, o in zip(callsigns, ["VIPER", "WASP", "WASP"],
                                      ["Medium", "Light", "Light"], [12, 9, 9], [0, 5, 0],
                                      strict=True)]
    menu: Any = {"scenario": "opening-shots", "name": "Opening Shots", "side": "attacker",
                 "budget": 30, "treasury": 12, "max_size": None,
                 "composition": {"Medium": 1, "Light": 2}, "owned": owned,
                 "suggestion": ["Thunderbolt-Longname", "Anvil", "WASP"], "cost": 30,
                 "paid": 5}
    console = Console(width=width, record=True, color_system=None)
    console.print(muster_menu(menu))
    out = console.export_text()
    assert max(len(line.rstrip()) for line in out.splitlines()) <= width, out
    assert "…" not in out
    for callsign in callsigns:
        line = next(line for line in out.splitlines() if callsign in line)
        assert line.lstrip().startswith(callsign), out
    if width < 76:  # the table needs 76 columns: each Mek on its own lines instead
        assert "Thunderbolt-Longname: VIPER, Medium, counts 12, pays 0 now, suggested" \
            in " ".join(out.split())


def test_a_table_too_wide_for_a_narrow_terminal_is_shown_row_by_row(runner: CliRunner) -> None:
    """Where a table could not keep its words whole ("Open/ing/Shot/s"), each row is shown
    as "heading: value" lines instead; where it fits, the table is as ever."""
    run = runner.invoke
    assert run(app, ["company", "create", "Wolves"]).exit_code == 0
    assert run(app, ["mek", "buy", "Wolves", "VIPER"]).exit_code == 0
    assert run(app, ["pilot", "hire", "Wolves", "Ash"]).exit_code == 0
    assert run(app, ["pilot", "assign", "Wolves", "Ash", "VIPER-1"]).exit_code == 0
    for columns in (40, 60):
        narrow = run(app, ["company", "show", "Wolves"], env={"COLUMNS": str(columns)})
        assert narrow.exit_code == 0, narrow.output
        lines = [line.rstrip() for line in narrow.stdout.splitlines()]
        assert max(len(line) for line in lines) <= columns, narrow.stdout
        assert "  Callsign: VIPER-1" in lines and "  Design: VIPER" in lines
        assert "  Pilot: Ash" in lines and "  Name: Ash" in lines
    wide = run(app, ["company", "show", "Wolves"], env={"COLUMNS": "120"})
    assert "Callsign: VIPER-1" not in wide.stdout
    assert any("Callsign" in line and "Design" in line for line in wide.stdout.splitlines())
