"""`meks catalog` and `meks design check`: tables, JSON, exit codes and clean errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app


def run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("what", ["chassis", "weapons", "systems", "designs", "skills",
                                  "support"])
def test_catalog_tables_and_json(runner: CliRunner, what: str) -> None:
    code, out, err = run(runner, "catalog", what)
    assert code == 0 and err == ""
    assert out.strip()
    code, out, _ = run(runner, "catalog", what, "--json")
    assert code == 0
    assert isinstance(json.loads(out), list)


def test_catalog_designs_json_carries_prices_and_parts(runner: CliRunner) -> None:
    _, out, _ = run(runner, "catalog", "designs", "--json")
    designs = {d["name"]: d for d in json.loads(out)}
    assert list(designs) == ["WASP", "VIPER", "DEMON", "SABER", "SAGITARII", "DRAKEN", "THOR",
                             "WARTHOG", "ODIN"]
    odin = designs["ODIN"]
    assert (odin["size"], odin["price"], odin["computed_price"]) == ("Titan", 27, 33)
    assert designs["DRAKEN"]["weapons"] == ["Rail Cannon", "Rail Cannon", "Hammer Missile",
                                            "CIWS"]
    assert designs["DRAKEN"]["systems"] == ["Director", "Point Defense"]


def test_catalog_designs_table_names_every_stock_mek(runner: CliRunner) -> None:
    _, out, _ = run(runner, "catalog", "designs")
    for name in ("WASP", "SAGITARII", "ODIN"):
        assert name in out


@pytest.mark.parametrize(
    ("query", "kind", "name"),
    [("rail", "weapon", "Rail Cannon"), ("ODIN", "design", "ODIN"),
     ("masking", "system", "Masking & Insulation"), ("ice man", "skill", "Ice Man"),
     ("gun sled", "support", "Gun Sled"), ("heavy", "chassis", None)],
)
def test_catalog_show_one_item(runner: CliRunner, query: str, kind: str,
                               name: str | None) -> None:
    code, out, _ = run(runner, "catalog", "show", query)
    assert code == 0
    code, out, _ = run(runner, "catalog", "show", query, "--json")
    data = json.loads(out)
    assert data["type"] == kind
    if name:
        assert data["name"] == name


def test_catalog_show_unknown_name_exits_1_with_suggestions(runner: CliRunner) -> None:
    code, out, err = run(runner, "catalog", "show", "Lazer")
    assert code == 1
    assert out == ""
    assert "Lazer" in err and "Laser" in err
    assert "Traceback" not in err


def test_catalog_check_reports_odin_and_exits_0(runner: CliRunner) -> None:
    code, out, _ = run(runner, "catalog", "check")
    assert code == 0
    assert "ODIN" in out and "27" in out and "33" in out
    _, out, _ = run(runner, "catalog", "check", "--json")
    differing = [d["name"] for d in json.loads(out) if d["price"] != d["computed_price"]]
    assert differing == ["ODIN"]


def write(tmp_path: Path, text: str, name: str = "design.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_design_check_legal_design(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, "name: Hunter\nsize: Heavy\nweapons: [Rail Cannon, rail, Howitzer,"
                           " CIWS]\nsystems: [Targeting Array, Jammer]\n")
    code, out, err = run(runner, "design", "check", path)
    assert code == 0, err
    assert "Legal" in out and "24" in out
    code, out, _ = run(runner, "design", "check", path, "--json")
    data = json.loads(out)
    assert data["legal"] and data["price"] == data["computed_price"] == 24
    assert data["weapons"] == ["Rail Cannon", "Rail Cannon", "Howitzer", "CIWS"]


def test_design_check_illegal_design_lists_every_problem_on_its_own_line(
        runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, "name: Monster\nsize: Light\nweapons: [PPC, Cannon, Cannon, CIWS,"
                           " CIWS]\nsystems: [Director, Jammer, Jammer]\n")
    code, _, err = run(runner, "design", "check", path)
    assert code == 1
    lines = [line for line in err.splitlines() if line.strip().startswith("- ")]
    assert len(lines) == 6
    assert any("Director" in line and "R1.6" in line for line in lines)
    code, out, _ = run(runner, "design", "check", path, "--json")
    assert code == 1
    assert len(json.loads(out)["problems"]) == 6


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: X\nsize: [\n", "line 3"),
        ("name: X\nweapons: [Cannon]\n", "missing required key 'size'"),
        ("name: X\nsize: Light\nweapons: 5\n", "expected a list"),
        ("name: X\nsize: Enormous\n", "Enormous"),
        ("name: X\nsize: Light\nwepons: []\n", "did you mean 'weapons'"),
        ("!!python/object/apply:os.system ['echo pwned']\n", "tags are not"),
        ("- just\n- a list\n", "expected a mapping"),
        ("", "empty"),
    ],
)
def test_design_check_unreadable_file_exits_2_naming_the_file(
        runner: CliRunner, tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    code, out, err = run(runner, "design", "check", path)
    assert code == 2, (out, err)
    assert path in err.replace("\n", "")
    assert expected in err
    assert "Traceback" not in err


def test_design_check_missing_file_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    code, _, err = run(runner, "design", "check", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert "no such file" in err


def test_design_check_binary_file_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"\xff\xfe\x00\x01")
    code, _, err = run(runner, "design", "check", str(path))
    assert code == 2
    assert "UTF-8" in err


def test_bad_usage_exits_2(runner: CliRunner) -> None:
    code, _, _ = run(runner, "catalog", "nonsense")
    assert code == 2
    code, _, _ = run(runner, "design", "check")
    assert code == 2


def test_version(runner: CliRunner) -> None:
    code, out, _ = run(runner, "--version")
    assert code == 0 and out.startswith("meks ")
    assert out.rstrip().endswith(("(plain engine)", "(compiled engine)"))


@pytest.mark.parametrize("name", ["wasp", "W.A.S.P.", "Draken"])
def test_design_check_refuses_a_stock_design_name_R1_8(
        runner: CliRunner, tmp_path: Path, name: str) -> None:
    path = write(tmp_path, f"name: {name}\nsize: Light\nweapons: [Cannon]\n")
    code, _, err = run(runner, "design", "check", path)
    assert code == 1
    assert "give your design its own name" in " ".join(err.split()) and "R1.8" in err


@pytest.mark.parametrize("name", ['"Hor\\nnet"', '"Hor\\tnet"', '"Hor\\u200bnet"'])
def test_design_check_refuses_control_characters_in_the_name(
        runner: CliRunner, tmp_path: Path, name: str) -> None:
    path = write(tmp_path, f"name: {name}\nsize: Light\nweapons: [Cannon]\n")
    code, _, err = run(runner, "design", "check", path)
    assert code == 2
    assert "on one line" in " ".join(err.split())
