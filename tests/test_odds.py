"""`meks odds SCENARIO`: Monte Carlo chances that depend only on the seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app
from meks.analysis.odds import wilson

FORCE = "meks:\n  - {design: VIPER}\n  - {design: WASP}\n  - {design: WASP}\n"


@pytest.fixture
def force(tmp_path: Path) -> str:
    path = tmp_path / "force.yaml"
    path.write_text(FORCE)
    return str(path)


def odds(runner: CliRunner, *args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_odds_report_shape_and_sums(runner: CliRunner, force: str) -> None:
    data = odds(runner, "opening-shots", "-a", force, "-d", force, "--runs", "120")
    shares = [data[k]["p"] for k in ("attacker", "defender", "draw")]  # type: ignore[index]
    assert abs(sum(shares) - 1) < 1e-9
    for key in ("attacker", "defender", "draw"):
        part = data[key]
        assert part["low"] <= part["p"] <= part["high"]  # type: ignore[index]
    assert 1 <= data["expected_turns"] <= 12  # type: ignore[operator]
    assert len(data["units"]) == 6  # type: ignore[arg-type]
    table = runner.invoke(app, ["odds", "opening-shots", "-a", force, "-d", force, "--runs",
                                "60"]).stdout
    assert "95% interval" in table and "Survives" in table


def test_each_unit_is_shown_with_its_pilot(runner: CliRunner, tmp_path: Path,
                                          force: str) -> None:
    """A force file's units are named by design; the pilot a player named is shown beside
    each (a pilot left unnamed has the name the force gives it)."""
    named = tmp_path / "named.yaml"
    named.write_text("meks:\n  - {design: VIPER, pilot: Ana}\n  - {design: WASP, pilot: Bo}\n"
                     "  - {design: WASP}\n")
    data = odds(runner, "opening-shots", "-a", str(named), "-d", force, "--runs", "8")
    attackers = [u for u in data["units"] if u["side"] == "attacker"]  # type: ignore[attr-defined]
    assert [(u["name"], u["pilot"]) for u in attackers][:2] == [("VIPER-1", "Ana"),
                                                                ("WASP-1", "Bo")]
    assert attackers[2]["pilot"]  # unnamed, but a pilot all the same
    table = runner.invoke(app, ["odds", "opening-shots", "-a", str(named), "-d", force,
                                "--runs", "8"]).stdout
    assert "Pilot" in table and "Ana" in table and "Bo" in table


def test_odds_depend_only_on_the_seed_never_on_jobs(runner: CliRunner, force: str) -> None:
    one = odds(runner, "opening-shots", "-a", force, "-d", force, "--runs", "120", "--seed",
               "9", "--jobs", "1")  # --jobs defaults to the CPUs available: say one
    two = odds(runner, "opening-shots", "-a", force, "-d", force, "--runs", "120", "--seed",
               "9", "--jobs", "2")
    assert one == two
    other = odds(runner, "opening-shots", "-a", force, "-d", force, "--runs", "120",
                 "--seed", "10")
    assert other != one


def test_odds_for_a_company_store_nothing(runner: CliRunner, force: str) -> None:
    for args in (["company", "create", "Hawks"], ["mek", "buy", "Hawks", "VIPER"],
                 ["mek", "buy", "Hawks", "WASP"], ["mek", "buy", "Hawks", "WASP"],
                 ["pilot", "hire", "Hawks", "A"], ["pilot", "hire", "Hawks", "B"],
                 ["pilot", "hire", "Hawks", "C"], ["pilot", "assign", "Hawks", "A", "VIPER-1"],
                 ["pilot", "assign", "Hawks", "B", "WASP-1"],
                 ["pilot", "assign", "Hawks", "C", "WASP-2"],
                 ["muster", "Hawks", "--scenario", "opening-shots", "--side", "defender",
                  "VIPER-1", "WASP-1", "WASP-2"]):
        assert runner.invoke(app, args).exit_code == 0
    before = runner.invoke(app, ["roster", "export", "Hawks"]).stdout
    data = odds(runner, "opening-shots", "-a", force, "-d", "Hawks", "--runs", "50")
    assert data["defender"]["name"] == "Hawks"  # type: ignore[index]
    assert runner.invoke(app, ["roster", "export", "Hawks"]).stdout == before


def test_odds_between_force_files_make_no_database(runner: CliRunner, force: str,
                                                    tmp_path: Path) -> None:
    """Odds store nothing: between force files they open no database (a mistyped --db
    leaves no file or folder behind, as with 'battle auto'), and with a company where no
    database is they say so, as every command that only reads does."""
    missing = tmp_path / "typo_dir" / "x.db"
    for args in (["odds", "opening-shots", "-a", force, "-d", force, "--runs", "2"],
                 ["odds", "skill", force, "-s", "opening-shots", "--side", "attacker",
                  "--against", force, "--runs", "2", "--controller", "baseline"]):
        result = runner.invoke(app, ["--db", str(missing), *args])
        assert result.exit_code == 0, result.stderr
    for args in (["odds", "opening-shots", "-a", force, "-d", "Hawks", "--runs", "2"],
                 ["odds", "skill", "Hawks:Ada", "-s", "opening-shots", "--side", "attacker",
                  "--runs", "2"]):
        result = runner.invoke(app, ["--db", str(missing), *args])
        assert result.exit_code == 1 and f"No database at {missing}." in result.stderr
    assert not missing.parent.exists()


def test_odds_refuse_bad_input(runner: CliRunner, force: str) -> None:
    result = runner.invoke(app, ["odds", "nowhere", "-a", force, "-d", force])
    assert result.exit_code == 1 and "No scenario" in result.stderr
    result = runner.invoke(app, ["odds", "opening-shots", "-a", force, "-d", force,
                                 "--controller", "genius"])
    assert result.exit_code == 2 and "'genius' is not a controller" in result.stderr


@given(st.integers(min_value=1, max_value=100_000), st.data())
def test_wilson_interval_holds_its_estimate(runs: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(min_value=0, max_value=runs))
    low, high = wilson(successes, runs)
    assert 0.0 <= low <= successes / runs <= high <= 1.0
    assert (low == 0.0) == (successes == 0) and (high == 1.0) == (successes == runs)


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == pytest.approx(0.0) and wilson(10, 10)[1] == pytest.approx(1.0)
