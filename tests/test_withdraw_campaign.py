"""Issue 17 items 4 and 5 outside the engine: bail_out (R6.12) and withdrawal (R6.13) in
'battle auto', 'battle record', campaigns (with every campaign house rule on), undo,
export/import and db check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tests.test_salvage import run, run_json, scenario_file, snapshot, wolves

__all__ = ["wolves"]  # the fixture, shared


def test_bail_out_and_withdrawal_recorded_at_the_table_R6_12_R6_13(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    """battle record --bailed MEK strikes the Mek off and keeps its pilot; --withdrew (with
    a loss) and --overran (with a win) are recorded and reported. Each is refused (exit 1,
    nothing stored) with its rule off, against the result, or with the pilot recorded dead;
    undo restores the company exactly."""
    plain = ("VIPER-1", "WASP-1", "WASP-2")
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker", *plain)
    before = snapshot(wolves)
    err = run(runner, "battle", "record", wolves, "--result", "loss", "--bailed", "WASP-1",
              "--auto", code=1)
    assert "house rule 'bail_out' is off" in err
    err = run(runner, "battle", "record", wolves, "--result", "loss", "--withdrew", "--auto",
              code=1)
    assert "house rule 'withdrawal' is off" in err
    assert snapshot(wolves) == before
    rules = scenario_file(tmp_path, "rules-on", bail_out=True, withdrawal=True)
    run(runner, "muster", wolves, "--scenario", rules, "--side", "attacker", *plain)
    before = snapshot(wolves)
    err = run(runner, "battle", "record", wolves, "--result", "win", "--withdrew", "--auto",
              code=1)
    assert "withdraws loses" in err and "--result loss" in err
    err = run(runner, "battle", "record", wolves, "--result", "loss", "--overran", "--auto",
              code=1)
    assert "overruns wins" in err
    err = run(runner, "battle", "record", wolves, "--result", "loss", "--bailed", "WASP-1",
              "--dead", "Bo", "--auto", code=1)
    assert "survives" in err
    assert snapshot(wolves) == before
    data = run_json(runner, "battle", "record", wolves, "--result", "loss", "--withdrew",
                    "--bailed", "WASP-1", "--auto", "--seed", "3")
    assert data["withdrawal"] == "withdrew"
    bo = next(p for p in data["pilots"] if p["pilot"] == "Bo")
    assert bo["bailed_out"] and bo["mek_destroyed"] and not bo.get("dead")
    after = snapshot(wolves)
    assert {p["name"]: p["status"] for p in after["pilots"]}["Bo"] == "active"
    history = run(runner, "company", "history", wolves)
    assert "withdrew" in history
    out = run(runner, "battle", "record", wolves, "--result", "win", "--overran", "--auto",
              "--seed", "4", code=1)  # the muster is used: nothing waits for a battle
    assert "no muster waiting" in out
    assert "sound" in run(runner, "db", "check")
    exported = tmp_path / "wolves.json"
    run(runner, "roster", "export", wolves, "--format", "json", "-o", str(exported))
    run(runner, "roster", "import", str(exported), "--name", "Copy")
    def plain(doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in row.items() if k not in ("id", "mek")} for row in doc[key]]

    copy = snapshot("Copy")
    assert plain(copy, "meks") == plain(after, "meks")
    assert plain(copy, "pilots") == plain(after, "pilots")
    run(runner, "company", "undo", wolves)
    assert snapshot(wolves) == before


def test_bail_out_and_withdrawal_in_battle_auto_R6_12_R6_13(
        runner: CliRunner, tmp_path: Path) -> None:
    """'battle auto' with both rules on: the bot bails out and withdraws in some battles; the
    JSON summary names the side and the Meks bailed out of; the report says it."""
    import yaml

    rules = tmp_path / "rules.yaml"
    data = yaml.safe_load((Path(__file__).resolve().parent.parent / "campaigns/files/scenarios"
                           / "5-head-to-head.yaml").read_text())
    data.update(id="rules-on", house_rules={"bail_out": True, "withdrawal": True})
    rules.write_text(yaml.safe_dump(data))
    blue, red = tmp_path / "blue.yaml", tmp_path / "red.yaml"
    blue.write_text("meks:\n  - {design: VIPER, pilot: Dee, level: Veteran}\n"
                    "  - {design: WASP, pilot: Eve, level: Green}\n"
                    "  - {design: WASP, pilot: Fay, level: Green}\n")
    red.write_text("meks:\n  - {design: VIPER, pilot: Ann, level: Elite}\n"
                   "  - {design: WASP, pilot: Bea, level: Veteran}\n"
                   "  - {design: WASP, pilot: Cat, level: Veteran}\n")
    args = ("battle", "auto", str(rules), "-a", str(blue), "-d", str(red), "--seed", "13")
    summary = run_json(runner, *args)
    assert summary["withdrawal"] == {"side": "defender", "by": "withdraw"}
    assert summary["reason"] == "the defender withdrew after turn 2"
    assert sorted(u["name"] for u in summary["units"] if u.get("bailed_out")) == [
        "VIPER-1 (D)", "WASP-1 (D)"]
    text = run(runner, *args)
    assert "WASP-1 (D) is abandoned: its pilot bails out and survives; the Mek is lost." in text
    assert "Defender decides: withdraw" in text


def test_a_campaign_with_every_house_rule_runs_end_to_end_R3_6_R3_7_R3_8_R6_12_R6_13(
        runner: CliRunner, tmp_path: Path) -> None:
    """'meks campaign run' of a plan with salvage, spare_parts (paid repairs), wear,
    bail_out and withdrawal all on plays every scenario; its summary has lines for the
    parts salvaged, the repairs, the wear and the withdrawals; db check passes."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: Every Rule\nhouse_rules: {salvage: winner, repair: paid, "
                    "spare_parts: true, wear: true, bail_out: true, withdrawal: true}\n"
                    "scenarios:\n"
                    + "".join(f"  - {{scenario: {s}, side: {side}}}\n" for s, side in (
                        ("opening-shots", "defender"), ("head-to-head", "attacker"),
                        ("head-to-head", "defender"), ("opening-shots", "defender"))))
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--plan", str(plan), "--seed", "11")
    out = run(runner, "campaign", "run", "Hawks")
    for line in ("Parts salvaged:", "Repairs:", "Wear:", "Withdrawals and overruns:"):
        assert line in out
    flat = " ".join(out.split())
    # seed 11: a Head to Head ends early (a withdrawal or an overrun), and parts are salvaged
    assert "Head to Head:" in flat.split("Withdrawals and overruns:")[1]  # the last line
    assert "Parts salvaged: none" not in flat
    status = run_json(runner, "campaign", "status", "Hawks")
    assert status["status"] == "finished"
    assert all(step["house_rules"]["withdrawal"] is True for step in status["plan"])
    assert "sound" in run(runner, "db", "check")
    # the whole company, stockpile, wear and points owed included, exports and imports
    exported = tmp_path / "hawks.json"
    run(runner, "roster", "export", "Hawks", "-o", str(exported))
    run(runner, "roster", "import", str(exported), "--name", "Hawks Copy")
    copied = tmp_path / "copy.json"
    run(runner, "roster", "export", "Hawks Copy", "-o", str(copied))

    def kept(path: Path) -> tuple[object, ...]:
        doc = json.loads(path.read_text())
        return (doc.get("stockpile"), [(m.get("wear"), m.get("owed"), m.get("lost"))
                                       for m in doc["meks"]],
                [r.get("withdrawal") for c in doc["campaigns"] for r in c["results"]])
    assert kept(copied) == kept(exported)
    assert set(kept(exported)[2]) & {"withdrew", "overran", "enemy withdrew", "overrun"}
