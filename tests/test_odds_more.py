"""`meks odds ladder` and `meks odds skill`: duels of stock Meks, and what a skill is worth."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from campaigns.odds import bot_force, ladder
from cli.app import app
from meks.analysis.odds import duel_force, duel_scenario, paired_difference, simulate
from meks.game.catalog import Catalog, Size
from meks.game.pilots import available_skills, skill_label
from meks.game.vocabulary import Side
from tests.engine_helpers import duel_scenario as helper_duel_scenario

FORCE = "meks:\n  - {design: VIPER}\n  - {design: WASP}\n  - {design: WASP}\n"
STOCK = ["WASP", "VIPER", "DEMON", "SABER", "SAGITARII", "DRAKEN", "THOR", "WARTHOG", "ODIN"]


@pytest.fixture
def force(tmp_path: Path) -> str:
    path = tmp_path / "force.yaml"
    path.write_text(FORCE)
    return str(path)


def run_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# ---- the duel ------------------------------------------------------------------------------

def test_duel_scenario_matches_the_test_helper(catalog: Catalog) -> None:
    ours = duel_scenario("Woods")
    theirs = helper_duel_scenario("Woods", combat_rounds=3, break_contact="withdraw")
    assert ours.house_rules == theirs.house_rules
    assert ours.turn_limit == theirs.turn_limit == 12
    assert ours.victory == theirs.victory
    assert ours.side(Side.ATTACKER).setup == theirs.side(Side.ATTACKER).setup
    assert ours.side(Side.DEFENDER).setup == theirs.side(Side.DEFENDER).setup
    forces = {Side.ATTACKER: duel_force(catalog.design("THOR")),
              Side.DEFENDER: duel_force(catalog.design("WASP"))}
    from meks.engine.controllers import Baseline

    def make() -> dict[Side, Baseline]:
        return {s: Baseline() for s in Side}

    a = simulate(ours, forces, 3, range(20), make, catalog)
    b = simulate(theirs, forces, 3, range(20), make, catalog)
    assert (a.attacker, a.defender, a.draws, a.turns) == (b.attacker, b.defender, b.draws,
                                                          b.turns)


# ---- the ladder ----------------------------------------------------------------------------

def test_ladder_on_one_terrain(runner: CliRunner) -> None:
    data = run_json(runner, "ladder", "--runs", "6", "--terrain", "plains")
    assert data["terrains"] == ["Plains"]
    assert [m["mek"] for m in data["meks"]] == STOCK
    assert data["duels"] == 36 * 6
    for m in data["meks"]:
        assert m["duels"] == 8 * 6 == m["wins"] + m["draws"] + m["losses"]
        assert m["win_rate"] == pytest.approx((m["wins"] + m["draws"] / 2) / m["duels"])
        assert m["per_point"] == pytest.approx(m["win_rate"] / m["price"])
        assert m["terrain"]["Plains"]["win_rate"] == m["win_rate"]
    # every duel has one winner, or is a draw for both
    assert sum(m["wins"] for m in data["meks"]) == sum(m["losses"] for m in data["meks"])
    assert sum(m["win_rate"] * m["duels"] for m in data["meks"]) == pytest.approx(36 * 6)


def test_ladder_depends_only_on_the_seed_never_on_jobs() -> None:
    one = ladder(["Plains", "Urban"], runs=4, seed=5)
    two = ladder(["Urban", "Plains"][::-1], runs=4, seed=5, jobs=2)
    assert one == two
    assert ladder(["Plains", "Urban"], runs=4, seed=6) != one


def test_ladder_table_fits_80_columns(runner: CliRunner) -> None:
    result = runner.invoke(app, ["odds", "ladder", "--runs", "2", "-t", "Plains", "-t",
                                 "Desert", "-t", "Woods", "-t", "Urban", "-t", "Highlands",
                                 "-t", "Moors"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("per pt" in line and "Moor" in line for line in lines)
    assert sum(1 for line in lines if line.split()[:1] and line.split()[0] in STOCK) == 9


def test_ladder_plot_is_svg(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "ladder.svg"
    result = runner.invoke(app, ["odds", "ladder", "--runs", "2", "-t", "Moors", "--plot",
                                 str(path)])
    assert result.exit_code == 0, result.stderr
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert all(name in texts for name in STOCK)
    bars = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.find(
        "{http://www.w3.org/2000/svg}title") is not None]
    assert len(bars) == 9


def test_ladder_plot_as_png_draws_the_svg_chart(runner: CliRunner, tmp_path: Path) -> None:
    from PIL import Image

    from cli.odds_plot import BAR, HEIGHT, PNG_SCALE, WIDTH

    for name in ("ladder.svg", "ladder.PNG"):
        result = runner.invoke(app, ["--quiet", "odds", "ladder", "--runs", "2", "-t", "Moors",
                                     "--plot", str(tmp_path / name)])
        assert result.exit_code == 0, result.stderr
        assert "Chart written" not in result.stdout  # --quiet: the data, no confirmation
    image = Image.open(tmp_path / "ladder.PNG")
    assert image.format == "PNG" and image.size == (WIDTH * PNG_SCALE, HEIGHT * PNG_SCALE)
    pixels = image.convert("RGB")
    bar = tuple(int(BAR[i:i + 2], 16) for i in (1, 3, 5))
    svg = "{http://www.w3.org/2000/svg}"
    bars = [r for r in ET.parse(tmp_path / "ladder.svg").getroot().iter(f"{svg}rect")
            if r.find(f"{svg}title") is not None]
    assert len(bars) == 9
    for rect in bars:  # every SVG bar is in the PNG, as tall: bar colour inside, none above
        x = (float(rect.get("x", 0)) + float(rect.get("width", 0)) / 2) * PNG_SCALE
        top = float(rect.get("y", 0)) * PNG_SCALE
        height = float(rect.get("height", 0)) * PNG_SCALE
        if height >= 4:
            assert pixels.getpixel((int(x), int(top + height / 2))) == bar
        assert pixels.getpixel((int(x), int(top) - 3)) != bar
    # some text was drawn: dark pixels in the title's band, across the top
    title = pixels.crop((0, 0, WIDTH * PNG_SCALE, 34 * PNG_SCALE)).convert("L")
    assert title.getextrema()[0] < 100  # type: ignore[operator]


def test_ladder_refuses_bad_input(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["odds", "ladder", "--plot", str(tmp_path / "x.gif")])
    assert result.exit_code == 2 and ".svg" in result.stderr and ".png" in result.stderr
    assert not (tmp_path / "x.gif").exists()
    result = runner.invoke(app, ["odds", "ladder", "--plot", str(tmp_path / ".svg")])
    assert result.exit_code == 2 and "ladder.svg" in result.stderr
    result = runner.invoke(app, ["odds", "ladder", "--plot", str(tmp_path / "no" / "x.svg")])
    assert result.exit_code == 2 and "cannot be written: its folder does not exist" in result.stderr
    assert "Fighting" not in result.stderr and not result.stdout  # refused before any duel
    (tmp_path / "dir.svg").mkdir()
    result = runner.invoke(app, ["odds", "ladder", "--plot", str(tmp_path / "dir.svg")])
    assert result.exit_code == 2 and "meks replaces only regular files" in \
        " ".join(result.stderr.split())
    result = runner.invoke(app, ["odds", "ladder", "--runs", "2", "-t", "Swamp"])
    assert result.exit_code == 1 and "Swamp" in result.stderr
    result = runner.invoke(app, ["odds", "ladder", "--runs", "0"])
    assert result.exit_code == 2


# ---- skill gains ---------------------------------------------------------------------------

def test_skill_gains_for_a_force_file(runner: CliRunner, force: str, catalog: Catalog
                                      ) -> None:
    data = run_json(runner, "skill", force, "--scenario", "opening-shots", "--side",
                    "attacker", "--against", force, "--pilot", "WASP-2", "--runs", "12")
    assert data["unit"] == "WASP-2" and data["held"] == []
    assert {r["skill"] for r in data["skills"]} == {  # the WASP is Light
        skill_label(s, Size.LIGHT) for s in available_skills([], catalog)}
    assert "Chassis Familiarity (Light)" in {r["skill"] for r in data["skills"]}
    gains = [r["gain"] for r in data["skills"]]
    assert gains == sorted(gains, reverse=True)
    base = data["baseline"]["p"]
    for r in data["skills"]:
        # common random numbers: the gain is exactly the difference of the two chances
        assert r["gain"] == pytest.approx(r["p"] - base)
        assert r["gain_low"] <= r["gain"] <= r["gain_high"]
        assert r["gain"] * 12 == pytest.approx(r["better_runs"] - r["worse_runs"])
    table = runner.invoke(app, ["odds", "skill", force, "--scenario", "opening-shots",
                                "--side", "attacker", "--against", force, "--runs", "4"])
    assert table.exit_code == 0 and "Gain 95% interval" in table.stdout
    assert "can learn no skill yet" not in table.stdout  # Regular pilots can
    green = Path(force).with_name("green.yaml")
    green.write_text(FORCE.replace("{design: VIPER}", "{design: VIPER, pilot: Bo, level: Green}"))
    table = runner.invoke(app, ["odds", "skill", str(green), "--scenario", "opening-shots",
                                "--side", "attacker", "--against", force, "--pilot", "Bo",
                                "--runs", "2"])
    assert table.exit_code == 0, table.stderr
    assert "Bo is Green and can learn no skill yet" in " ".join(table.stdout.split())


def test_skill_gains_depend_only_on_the_seed(runner: CliRunner, force: str) -> None:
    args = ("skill", force, "--scenario", "opening-shots", "--side", "defender",
            "--against", force, "--runs", "20", "--seed", "4")
    assert run_json(runner, *args, "--jobs", "1") == run_json(runner, *args, "--jobs", "2")


def test_skill_gains_for_a_company_pilot_against_the_bot(runner: CliRunner) -> None:
    for args in (["company", "create", "Hawks"], ["mek", "buy", "Hawks", "VIPER"],
                 ["mek", "buy", "Hawks", "WASP"], ["mek", "buy", "Hawks", "WASP"],
                 ["pilot", "hire", "Hawks", "Ada"], ["pilot", "hire", "Hawks", "Bo"],
                 ["pilot", "hire", "Hawks", "Cy"],
                 ["pilot", "assign", "Hawks", "Ada", "VIPER-1"],
                 ["pilot", "assign", "Hawks", "Bo", "WASP-1"],
                 ["pilot", "assign", "Hawks", "Cy", "WASP-2"],
                 ["muster", "Hawks", "--scenario", "opening-shots", "--side", "defender",
                  "VIPER-1", "WASP-1", "WASP-2"]):
        assert runner.invoke(app, args).exit_code == 0, args
    before = runner.invoke(app, ["roster", "export", "Hawks"]).stdout
    data = run_json(runner, "skill", "Hawks:Bo", "--scenario", "opening-shots", "--side",
                    "defender", "--runs", "4")
    assert data["pilot"] == "Bo" and data["unit"] == "WASP-1"
    assert data["opponent"] == "Bot (attacker)" and data["opponent_units"]
    assert len(data["skills"]) == 16
    assert runner.invoke(app, ["roster", "export", "Hawks"]).stdout == before
    result = runner.invoke(app, ["odds", "skill", "Hawks:Nobody", "--scenario",
                                 "opening-shots", "--side", "defender", "--runs", "4"])
    assert result.exit_code == 1 and "Nobody" in result.stderr
    result = runner.invoke(app, ["odds", "skill", "Hawks:Bo", "--scenario", "opening-shots",
                                 "--side", "attacker", "--runs", "4"])
    assert result.exit_code == 1 and "defender" in result.stderr


def test_skill_names_a_company_pilot_by_id_or_by_a_name_with_a_colon(
        runner: CliRunner) -> None:
    for args in (["company", "create", "Hawks"], ["company", "create", "Red:Star"],
                 ["mek", "buy", "Hawks", "VIPER"], ["mek", "buy", "Hawks", "WASP"],
                 ["mek", "buy", "Hawks", "WASP"], ["pilot", "hire", "Hawks", "Ada:Two"],
                 ["pilot", "hire", "Hawks", "Bo"], ["pilot", "hire", "Hawks", "Cy"],
                 ["pilot", "assign", "Hawks", "Ada:Two", "VIPER-1"],
                 ["pilot", "assign", "Hawks", "Bo", "WASP-1"],
                 ["pilot", "assign", "Hawks", "Cy", "WASP-2"],
                 ["muster", "Hawks", "--scenario", "opening-shots", "--side", "defender",
                  "VIPER-1", "WASP-1", "WASP-2"]):
        assert runner.invoke(app, args).exit_code == 0, args
    bo = next(p["id"] for p in json.loads(runner.invoke(
        app, ["pilot", "list", "Hawks", "--json"]).stdout) if p["name"] == "Bo")
    base = ("--scenario", "opening-shots", "--side", "defender", "--runs", "2",
            "--controller", "baseline")
    for ref, pilot, unit in (("Hawks:Ada:Two", "Ada:Two", "VIPER-1"),
                             (f"Hawks:{bo}", "Bo", "WASP-1"), (f"hawks:#{bo}", "Bo", "WASP-1"),
                             ("Hawks:WASP-2", "Cy", "WASP-2")):
        data = run_json(runner, "skill", ref, *base)
        assert (data["pilot"], data["unit"]) == (pilot, unit), ref
    result = runner.invoke(app, ["odds", "skill", "Red:Star:Bo", *base])
    assert result.exit_code == 1 and "Red:Star has no force mustered" in result.stderr


def test_skill_refuses_bad_input(runner: CliRunner, force: str) -> None:
    base = ["odds", "skill", force, "--scenario", "opening-shots", "--runs", "4"]
    result = runner.invoke(app, [*base, "--side", "middle"])
    assert result.exit_code == 2 and "'middle' is not a side" in result.stderr
    result = runner.invoke(app, ["odds", "skill", "Hawks", "--scenario", "opening-shots",
                                 "--side", "attacker", "--runs", "4"])
    assert result.exit_code == 2 and "COMPANY:PILOT" in result.stderr
    result = runner.invoke(app, ["odds", "skill", "Hawks:Ada", "--scenario", "opening-shots",
                                 "--side", "attacker", "--runs", "4", "--pilot", "Ada"])
    assert result.exit_code == 2 and "COMPANY:PILOT" in result.stderr
    result = runner.invoke(app, [*base, "--side", "attacker", "--pilot", "Nobody"])
    assert result.exit_code == 1 and "Nobody" in result.stderr
    result = runner.invoke(app, ["odds", "skill", force, "--scenario", "nowhere", "--side",
                                 "attacker", "--runs", "4"])
    assert result.exit_code == 1 and "No scenario" in result.stderr
    result = runner.invoke(app, [*base, "--side", "attacker", "--controller", "genius"])
    assert result.exit_code == 2 and "'genius' is not a controller" in result.stderr


def test_bot_force_and_paired_difference(catalog: Catalog) -> None:
    from campaigns.files.scenarios import get_scenario

    scenario = get_scenario("opening-shots")
    force = bot_force(scenario, Side.ATTACKER, catalog)
    rules = scenario.side(Side.ATTACKER)
    assert sum(u.points for u in force.units) <= rules.budget
    assert rules.size_problems([u.design.size for u in force.units if u.design]) == []
    assert all(u.pilot is not None and u.pilot.level == "Regular" for u in force.units)
    assert len({u.name for u in force.units}) == len(force.units)
    assert paired_difference(0, 0, 50) == (0.0, 0.0, 0.0)
    gain, low, high = paired_difference(10, 2, 100)
    assert gain == pytest.approx(0.08) and low < 0.08 < high


# ---- meks odds duel -----------------------------------------------------------------------

def test_odds_duel_gives_exact_and_engine_chances_in_catalog_spelling(
        runner: CliRunner) -> None:
    data = run_json(runner, "duel", "wasp", "viper", "-t", "woods", "--pilots",
                    "green,veteran", "--runs", "40")
    assert (data["a"], data["b"], data["terrain"], data["pilots"]) == (
        "WASP", "VIPER", "Woods", ["Green", "Veteran"])
    assert sum(data["exact"].values()) == pytest.approx(1.0)
    assert data["monte_carlo"]["runs"] == 40
    assert "exact_fractions" not in data
    table = runner.invoke(app, ["odds", "duel", "WASP", "VIPER", "--runs", "10"])
    assert table.exit_code == 0 and "WASP (Regular) against VIPER (Regular)" in table.stdout


def test_odds_duels_fought_on_several_processes_are_the_ones_fought_on_one(
        runner: CliRunner) -> None:
    """``--jobs`` only shares the engine's duels out (run i rolls the dice of seed + i
    wherever it is fought): the counts are those of ``engine_duel`` in this process."""
    from meks.analysis.duel import engine_duel

    args = ("duel", "DRAKEN", "SABER", "--runs", "130", "--seed", "7")
    one = run_json(runner, *args, "--jobs", "1")
    assert run_json(runner, *args, "--jobs", "2") == one
    here = engine_duel("DRAKEN", "SABER", runs=130, seed=7)
    assert one["monte_carlo"]["runs"] == 130
    assert (one["monte_carlo"]["a"], one["monte_carlo"]["b"], one["monte_carlo"]["draw"]) \
        == (here.a / 130, here.b / 130, here.draw / 130)


def test_odds_duel_fractions_reach_the_json_as_text(runner: CliRunner) -> None:
    from fractions import Fraction

    data = run_json(runner, "duel", "WASP", "WASP", "--runs", "4", "--fractions")
    exact = {k: Fraction(v) for k, v in data["exact_fractions"].items()}
    assert sum(exact.values()) == 1 and exact["a"] == exact["b"]
    assert data["exact"] == {k: float(v) for k, v in exact.items()}


@pytest.mark.parametrize(("args", "code", "says"), [
    (["--pilots", "Regular"], 2, "LEVEL,LEVEL"),
    (["--pilots", "Regular,Regular,Green"], 2, "LEVEL,LEVEL"),
    (["--pilots", "Regular,Bogus"], 1, "'Green', 'Regular', 'Veteran' or 'Elite'"),
    (["-t", "Swamp"], 1, "'Plains', 'Desert', 'Woods', 'Urban', 'Highlands' or 'Moors'"),
])
def test_odds_duel_refuses_bad_input_and_names_what_it_takes(
        runner: CliRunner, args: list[str], code: int, says: str) -> None:
    result = runner.invoke(app, ["odds", "duel", "WASP", "VIPER", "--runs", "2", *args])
    assert result.exit_code == code and says in " ".join(result.stderr.split()), result.stderr
