"""Issue 27 item 1: the campaign house rule treasury. The company's points pay for the Meks,
Regular pilots, parts, repairs and overhauls it buys; each battle pays by its result;
salvaged parts can be sold; a company that cannot field a legal force goes broke, a result
the campaign shows. Kept in the database (migration 12), through undo, export and import,
and old databases and backups come up to it."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select
from typer.testing import CliRunner

from campaigns.treasury import PAY, SALE_SHARE
from cli.app import app


def run(runner: CliRunner, *args: str, code: int = 0, given: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=given)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "unexpected problem" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def run_json(runner: CliRunner, *args: str) -> Any:
    return json.loads(run(runner, *args, "--json"))


def snapshot(company: str) -> dict[str, Any]:
    from campaigns.company import get_company
    from campaigns.files.roster import snapshot as take
    from cli.state import session

    with session() as s:
        return take(s, get_company(s, company))


def set_treasury(company: str, points: int) -> None:
    """Put the company's campaign treasury at ``points`` (as if spent or earned)."""
    from campaigns.company import get_company
    from campaigns.treasury import treasury_campaign
    from cli.state import session

    with session() as s:
        row = treasury_campaign(s, get_company(s, company))
        assert row is not None
        row.treasury = points
        s.add(row)


def treasury_of(company: str) -> int | None:
    campaigns = snapshot(company)["campaigns"]
    return campaigns[-1].get("treasury") if campaigns else None


@pytest.fixture
def hawks(runner: CliRunner) -> str:
    run(runner, "company", "create", "Hawks")
    view = run_json(runner, "campaign", "start", "Hawks", "--seed", "5", "--treasury")
    assert view["treasury"] == PAY.start
    return "Hawks"


def test_treasury_on_in_the_built_in_plan_and_switched_by_start(
        runner: CliRunner, hawks: str) -> None:
    """The built-in plan has the house rule in every step (docs/rules.md R3.9: the figures
    held with it); a campaign starts with PAY.start points; --no-treasury leaves none, and
    the printed plan has none."""
    run(runner, "company", "create", "Doves")
    assert run_json(runner, "campaign", "start", "Doves")["treasury"] == PAY.start
    run(runner, "company", "create", "Larks")
    assert "treasury" not in run_json(runner, "campaign", "start", "Larks", "--printed")
    view = run_json(runner, "campaign", "status", hawks)
    assert view["treasury"] == PAY.start
    assert all(step["house_rules"] == {"treasury": True} for step in view["plan"])
    assert f"Treasury: {PAY.start} points." in run(runner, "campaign", "status", hawks)
    run(runner, "company", "create", "Owls")
    off = run_json(runner, "campaign", "start", "Owls", "--no-treasury")
    assert "treasury" not in off
    assert all("house_rules" not in step for step in off["plan"])


def test_plan_house_rule_treasury_is_validated(runner: CliRunner, tmp_path: Path) -> None:
    """A plan's house_rules may switch treasury on; a value that is not a yes or no is a
    usage error naming it (exit 2)."""
    run(runner, "company", "create", "Kites")
    plan = tmp_path / "plan.yaml"
    plan.write_text("name: Paid\nhouse_rules: {treasury: true}\n"
                    "scenarios:\n  - {scenario: head-to-head, side: attacker}\n")
    view = run_json(runner, "campaign", "start", "Kites", "--plan", str(plan))
    assert view["treasury"] == PAY.start
    run(runner, "company", "create", "Rooks")
    plan.write_text("house_rules: {treasury: lots}\n"
                    "scenarios:\n  - {scenario: head-to-head, side: attacker}\n")
    err = run(runner, "campaign", "start", "Rooks", "--plan", str(plan), code=2)
    assert "house_rules.treasury" in err


def test_buy_refused_when_the_treasury_is_short(runner: CliRunner, hawks: str) -> None:
    """A Mek bought during a treasury campaign is paid from it; one that costs more than it
    holds is refused in one sentence, with nothing bought and nothing paid."""
    bought = run_json(runner, "mek", "buy", hawks, "DRAKEN")
    assert bought["treasury"] == PAY.start - 24
    set_treasury(hawks, 11)
    err = run(runner, "mek", "buy", hawks, "VIPER", code=1)
    assert "treasury holds 11 points" in err and "VIPER-1" in err and "costs 12" in err
    assert treasury_of(hawks) == 11
    assert [m["callsign"] for m in snapshot(hawks)["meks"]] == ["DRAKEN-1"]
    assert run_json(runner, "mek", "buy", hawks, "WASP")["treasury"] == 2


def test_buying_without_a_treasury_costs_nothing(runner: CliRunner) -> None:
    run(runner, "company", "create", "Owls")
    run(runner, "campaign", "start", "Owls", "--no-treasury")
    assert "treasury" not in run_json(runner, "mek", "buy", "Owls", "THOR")
    assert run(runner, "mek", "buy", "Owls", "WASP").strip() == "Bought WASP-1 (WASP, 9 points)."


def test_buying_says_what_the_treasury_holds_now(runner: CliRunner, hawks: str) -> None:
    said = run(runner, "mek", "buy", hawks, "WASP").strip()
    assert said == f"Bought WASP-1 (WASP, 9 points); the treasury holds {PAY.start - 9}."


def test_undo_gives_back_what_the_treasury_paid(runner: CliRunner, hawks: str) -> None:
    run(runner, "mek", "buy", hawks, "THOR")
    assert treasury_of(hawks) == PAY.start - 28
    said = run(runner, "company", "undo", hawks)
    assert treasury_of(hawks) == PAY.start
    # the buy's own summary names what the treasury held after it; the undo says what now
    assert f"The treasury now holds {PAY.start} points." in said.split("\n", 1)[1]
    assert run_json(runner, "mek", "buy", hawks, "WASP")["treasury"] == PAY.start - 9
    assert run_json(runner, "company", "undo", hawks)["treasury"] == PAY.start


def test_muster_pays_hire_fees_and_what_meks_owe_from_the_treasury(
        runner: CliRunner, hawks: str) -> None:
    """A Regular's hire fee and a Mek's owed points are paid at the muster that pays them;
    a muster replacing the waiting one gives back what that one paid first; a muster the
    treasury cannot pay for is refused, naming the treasury."""
    from campaigns.company import get_company
    from cli.state import session
    from db.models import Mek

    callsign = run_json(runner, "mek", "buy", hawks, "WASP")["callsign"]
    run(runner, "pilot", "hire", hawks, "Ana", "--regular")
    run(runner, "pilot", "assign", hawks, "Ana", callsign)
    with session() as s:
        company = get_company(s, hawks)
        mek = s.exec(Mek.__table__.select().where(Mek.company_id == company.id)).first()
        row = s.get(Mek, mek.id)
        row.owed = 4
        s.add(row)
    after_buy = PAY.start - 9
    mustered = run_json(runner, "muster", hawks, "--budget", "30", callsign)
    assert mustered["paid"] == 5 + 4 and mustered["treasury"] == after_buy - 9
    again = run_json(runner, "muster", hawks, "--budget", "30", callsign)
    assert again["replaced"] and again["treasury"] == after_buy - 9
    run(runner, "company", "undo", hawks)  # back to the first muster
    run(runner, "company", "undo", hawks)  # and to before it: fee and parts owed again
    assert treasury_of(hawks) == after_buy
    set_treasury(hawks, 8)
    err = run(runner, "muster", hawks, "--budget", "30", callsign, code=1)
    assert "cost 9 points but the treasury holds 8" in err
    assert treasury_of(hawks) == 8


def test_a_battle_pays_by_its_result(runner: CliRunner, hawks: str) -> None:
    """Each campaign battle pays PAY.win, PAY.draw or PAY.loss by its result; the step's
    record keeps what was spent getting ready, the pay and the treasury after it."""
    result = run_json(runner, "campaign", "next", hawks, "--runs", "0")
    assert result["income"] == PAY.for_result(result["result"])
    assert result["spent"] > 0  # a new company buys its first force
    assert result["treasury"] == PAY.start - result["spent"] + result["income"]
    stored = run_json(runner, "campaign", "status", hawks)
    assert stored["results"][0]["treasury"] == result["treasury"] == stored["treasury"]
    out = run(runner, "campaign", "next", hawks, "--runs", "0")
    assert "Treasury: " in out and " at the start, spent" in out and "points now" in out


def test_pay_by_result_numbers() -> None:
    """Pay by result: a win pays more than a draw, a draw more than a loss, and a loss
    still pays something (a company that loses runs short slowly, not at once)."""
    assert PAY.for_result("win") == PAY.win > PAY.for_result("draw") == PAY.draw
    assert PAY.draw > PAY.for_result("loss") == PAY.loss > 0


def test_sale_of_salvage_into_the_treasury(runner: CliRunner, hawks: str) -> None:
    """Parts in the stockpile sell for their catalog price divided by SALE_SHARE, rounded
    up (a system priced as on a Light Mek); a part the stockpile lacks is refused with
    nothing sold; --all sells the rest."""
    from campaigns.company import get_company
    from campaigns.parts import SYSTEM, WEAPON, Part, store_parts
    from cli.state import session
    from meks.game.catalog import Size, load_catalog

    catalog = load_catalog()
    with session() as s:
        company = get_company(s, hawks)
        store_parts(s, company.id or 0, [Part(WEAPON, "Laser"), Part(WEAPON, "Laser"),
                                         Part(SYSTEM, "Jammer")])
    laser = math.ceil(catalog.weapon("Laser").price / SALE_SHARE)
    jammer = math.ceil(catalog.system("Jammer").price_for(catalog.for_size(Size.LIGHT))
                       / SALE_SHARE)
    sold = run_json(runner, "campaign", "sell", hawks, "Laser")
    assert sold["points"] == laser and sold["treasury"] == PAY.start + laser
    err = run(runner, "campaign", "sell", hawks, "Laser", "Laser", code=1)
    assert "stockpile holds 1 Laser, not the 2 named; nothing was sold" in " ".join(err.split())
    err = run(runner, "campaign", "sell", hawks, "Jammer", "--all", code=2)
    assert "not both" in err  # a part named with --all does not sell the whole stockpile
    assert "Name the parts to sell" in run(runner, "campaign", "sell", hawks, code=2)
    assert treasury_of(hawks) == PAY.start + laser
    rest = run_json(runner, "campaign", "sell", hawks, "--all")
    assert rest["points"] == laser + jammer
    assert "stockpile" not in snapshot(hawks)
    assert "empty" in run(runner, "campaign", "sell", hawks, "--all", code=1)


def test_a_mek_sold_pays_into_the_treasury(runner: CliRunner, hawks: str) -> None:
    """A Mek sold during a treasury campaign pays half its price, rounded up, with the parts
    it lost taken off its worth and less what it owes (never below 0); the text says so,
    undo takes the sale back, and without a treasury a sale pays nothing."""
    from campaigns.company import get_company
    from cli.state import session
    from db.models import Mek

    run(runner, "mek", "buy", hawks, "THOR")  # 28 points
    run(runner, "mek", "buy", hawks, "DRAKEN")  # 24 points
    start = treasury_of(hawks)
    assert start == PAY.start - 52
    out = run(runner, "mek", "sell", hawks, "THOR-1")
    assert "Sold THOR-1 for 14 points (half its worth of 28); the treasury holds" in \
        " ".join(out.split())
    assert treasury_of(hawks) == start + 14
    run(runner, "company", "undo", hawks)
    assert treasury_of(hawks) == start
    with session() as s:  # the DRAKEN lost a Laser (5) and owes 3 points of repairs
        company = get_company(s, hawks)
        mek = s.exec(select(Mek).where(Mek.company_id == company.id,
                                       Mek.callsign == "DRAKEN-1")).one()
        mek.lost, mek.owed = json.dumps([{"kind": "weapon", "part": "Laser"}]), 3
        s.add(mek)
    from meks.game.catalog import load_catalog

    laser = load_catalog().weapon("Laser").price
    sold = run_json(runner, "mek", "sell", hawks, "DRAKEN-1")
    assert sold["paid"] == math.ceil((24 - laser) / SALE_SHARE) - 3
    assert (sold["worth"], sold["owed"]) == (24 - laser, 3)
    assert sold["treasury"] == treasury_of(hawks) == start + sold["paid"]
    run(runner, "company", "create", "Owls")
    run(runner, "mek", "buy", "Owls", "WASP")
    sold = run_json(runner, "mek", "sell", "Owls", "WASP-1")
    assert "paid" not in sold and "treasury" not in sold
    assert run(runner, "mek", "sell", "Owls", "WASP-1", code=1)  # sold already


def test_what_the_treasury_held_as_each_step_began_reconciles_it(runner: CliRunner,
                                                                   hawks: str) -> None:
    """Each step records what the treasury held as it began, so that a Mek bought or sold by
    hand between steps shows: the step's line says it, and campaign show lists the change
    against the step before."""
    run(runner, "mek", "buy", hawks, "VIPER")  # 12 points, by hand
    step = run_json(runner, "campaign", "next", hawks)
    assert step["held"] == PAY.start - 12
    assert step["treasury"] == step["held"] - step["spent"] + step["income"]
    shown = run_json(runner, "campaign", "show", hawks)
    assert shown["steps"][0]["by_hand"] == -12 and shown["treasury"] == step["treasury"]
    second = run_json(runner, "campaign", "next", hawks)
    assert second["held"] == step["treasury"]  # nothing by hand between them
    assert "by_hand" not in run_json(runner, "campaign", "show", hawks)["steps"][1]
    said = " ".join(run(runner, "campaign", "show", hawks).split())
    assert "The treasury changed between steps, outside their getting ready (Meks bought " \
           "or sold by hand, parts sold, or a step undone and fought again): before step 1 " \
           "-12." in said


def test_selling_needs_a_treasury(runner: CliRunner) -> None:
    run(runner, "company", "create", "Owls")
    run(runner, "campaign", "start", "Owls", "--printed")
    err = run(runner, "campaign", "sell", "Owls", "Laser", code=1)
    assert "no campaign with a treasury" in err and "--treasury" in err


def test_broke_is_a_result_the_campaign_shows(runner: CliRunner, hawks: str) -> None:
    """A company that cannot field a legal force with the Meks it owns and the points in
    its treasury goes broke: campaign next shows it (exit 0, --json result 'broke'), the
    campaign ends with status broke, nothing of the preparation is kept, and campaign
    status, run and next say so."""
    set_treasury(hawks, 20)  # Opening Shots needs a Medium and two Lights: 30 at least
    before = snapshot(hawks)
    result = run_json(runner, "campaign", "next", hawks)
    assert result["result"] == "broke" and result["finished"]
    assert "20 points" in result["reason"]
    after = snapshot(hawks)
    assert after["meks"] == before["meks"] == [] and after["pilots"] == []
    assert after["support"] == [] and after["musters"] == []
    view = run_json(runner, "campaign", "status", hawks)
    assert view["status"] == "broke" and view["next"] is None
    assert view["broke_at"]["scenario"] == "opening-shots-campaign"
    shown = run_json(runner, "campaign", "show", hawks)  # the same step, and why
    assert shown["broke_at"] == {"scenario": "opening-shots-campaign", "side": "attacker"}
    assert shown["broke"].startswith("Broke before step 1 (opening-shots-campaign)")
    out = run(runner, "campaign", "status", hawks)
    assert "broke" in out and "could not field a legal force" in out
    out = run(runner, "campaign", "run", hawks)
    assert "(broke)" in out and "Broke:" in out
    err = " ".join(run(runner, "campaign", "next", hawks, code=1).split())
    assert "ended broke before step 1 (opening-shots-campaign)" in err  # not "no campaign"
    assert "begin a new one with 'meks campaign start Hawks'" in err
    history = run_json(runner, "company", "history", hawks)
    assert "went broke" in history[0]["summary"]


def test_a_broke_campaign_shows_what_was_spent_by_hand_before_it(
        runner: CliRunner, hawks: str, tmp_path: Path) -> None:
    """Meks bought by hand after the last step are part of why the company went broke:
    'campaign show' (and --json's broke_by_hand) says by how much they changed the
    treasury, and the report's treasury chart ends at what it held, marked broke."""
    run(runner, "mek", "buy", hawks, "THOR")  # 28, and neither fits Opening Shots
    run(runner, "mek", "buy", hawks, "DRAKEN")  # 24
    broke = run_json(runner, "campaign", "next", hawks)
    assert broke["result"] == "broke"
    # selling those Meks would pay for a force: the reason says how, and to undo first
    assert "Selling its Meks ('meks mek sell Hawks CALLSIGN' pays half what one is worth) " \
        "may pay for one: 'meks company undo Hawks' takes the campaign back to this step " \
        "first." in broke["reason"], broke["reason"]
    shown = run_json(runner, "campaign", "show", hawks)
    assert shown["broke_by_hand"] == -52 and shown["treasury"] == PAY.start - 52
    said = " ".join(run(runner, "campaign", "show", hawks).split())
    assert "bought or sold by hand since the campaign began changed the treasury by -52" \
        in said
    page = tmp_path / "broke.html"
    run(runner, "campaign", "report", hawks, "-o", str(page))
    chart = page.read_text(encoding="utf-8").split('id="chart-treasury"')[1]
    assert ">broke<" in chart.split("</figure>")[0]


def test_undoing_going_broke_restarts_the_step_with_nothing_else_to_take_back(
        runner: CliRunner, hawks: str) -> None:
    """Going broke keeps nothing of the step's preparation, so its undo puts the campaign
    back at the step and says nothing of a battle left standing (there is none)."""
    set_treasury(hawks, 0)
    assert run_json(runner, "campaign", "next", hawks)["result"] == "broke"
    said = run(runner, "company", "undo", hawks)
    assert "went broke" in said and "battle" not in said
    undone = run_json(runner, "company", "history", hawks)[0]
    assert undone["command"] == "undo"
    assert run_json(runner, "campaign", "status", hawks)["status"] == "active"


def test_going_broke_with_salvage_unsold_says_how_to_sell_it_and_go_on(
        runner: CliRunner, hawks: str) -> None:
    """A company that goes broke while its stockpile holds parts is told so, and how to take
    the step back and sell them; done, its campaign goes on."""
    from campaigns.company import get_company
    from campaigns.parts import WEAPON, Part, store_parts
    from cli.state import session

    for design in ("VIPER", "WASP"):  # a second WASP (9 points) is still to buy
        run(runner, "mek", "buy", hawks, design)
    with session() as s:  # 5 Rail Cannons sell for 2 points each
        store_parts(s, get_company(s, hawks).id or 0, [Part(WEAPON, "Rail Cannon")] * 5)
    set_treasury(hawks, 0)
    broke = run_json(runner, "campaign", "next", hawks)
    assert broke["result"] == "broke", broke
    assert "the 5 parts in its stockpile" in broke["reason"]
    assert "meks company undo Hawks" in broke["reason"]
    assert "meks campaign sell Hawks --all" in broke["reason"]
    run(runner, "company", "undo", hawks)
    assert run_json(runner, "campaign", "sell", hawks, "--all")["treasury"] == 10
    assert run_json(runner, "campaign", "next", hawks, "--runs", "0")["result"] != "broke"


def test_broke_shown_by_campaign_next_and_run(runner: CliRunner, hawks: str) -> None:
    set_treasury(hawks, 0)
    out = run(runner, "campaign", "run", hawks)
    assert "BROKE" in out and "Campaign summary" in out
    run(runner, "company", "create", "Owls")
    run(runner, "campaign", "start", "Owls", "--treasury")
    set_treasury("Owls", 0)
    played = run_json(runner, "campaign", "run", "Owls")
    assert played["played"][-1]["result"] == "broke"
    assert played["campaign"]["status"] == "broke"


def test_a_regular_hired_before_opening_shots_flies_as_its_provided_regular_R3_3(
        runner: CliRunner, hawks: str) -> None:
    """Opening Shots provides a Regular and two Greens, so a company that hired its Regular
    and bought the classic force (a VIPER and two WASPs, the whole budget of 30) fields it
    as a muster by hand would: the Regular's fee is waived, not taken from the budget, and
    the company is not broke."""
    for design in ("VIPER", "WASP", "WASP"):
        run(runner, "mek", "buy", hawks, design)
    run(runner, "pilot", "hire", hawks, "Vera", "--regular")
    run(runner, "pilot", "hire", hawks, "Bo")
    ready = treasury_of(hawks)
    result = run_json(runner, "campaign", "next", hawks, "--runs", "0")
    assert result["result"] != "broke" and result["spent"] == 0
    assert result["treasury"] == ready + result["income"]
    shown = run_json(runner, "company", "show", hawks)
    assert shown["last_muster"]["cost"] == shown["last_muster"]["budget"] == 30  # no fee
    assert "Vera" in {p["pilot"] for p in result["pilots"]}  # she flew


def test_regulars_whose_fees_do_not_fit_stay_at_home_and_greens_fly_R3_3(
        runner: CliRunner, hawks: str) -> None:
    """Three Regulars hired and put in the classic Opening Shots force: one flies as the
    Regular the scenario provides; the other two fees would break the budget of 30, so those
    two stay at home, still owing their fees, and two free Green pilots fly in their place.
    The company is not broke."""
    for design, pilot in (("VIPER", "Ana"), ("WASP", "Bo"), ("WASP", "Cy")):
        callsign = run_json(runner, "mek", "buy", hawks, design)["callsign"]
        run(runner, "pilot", "hire", hawks, pilot, "--regular")
        run(runner, "pilot", "assign", hawks, pilot, callsign)
    result = run_json(runner, "campaign", "next", hawks, "--runs", "0")
    assert result["result"] != "broke" and result["spent"] == 0
    shown = run_json(runner, "company", "show", hawks)
    assert shown["last_muster"]["cost"] == 30
    flew = {p["pilot"] for p in result["pilots"]}
    assert len(flew) == 3 and "Ana" in flew and not flew & {"Bo", "Cy"}  # two new Greens
    pilots = {p["name"]: p for p in shown["pilots"]}
    assert [pilots[n]["mek"] for n in ("Bo", "Cy")] == [None, None]
    owing = {p["name"]: p["hire_cost"] for p in snapshot(hawks)["pilots"]}
    assert owing["Bo"] == owing["Cy"] == 5 and owing["Ana"] == 0


def test_fees_due_waives_one_fee_for_each_provided_pilot_of_its_level() -> None:
    from campaigns.musters import fees_due

    owing = [("Regular", 5), ("Green", 0), ("Regular", 5), ("Veteran", 5)]
    assert fees_due(owing, {}) == [5, 0, 5, 5]
    assert fees_due(owing, {"Regular": 1, "Green": 2}) == [0, 0, 5, 5]
    assert fees_due(owing, {"Regular": 3}) == [0, 0, 0, 5]


def test_a_short_company_fields_what_it_can_pay_for(runner: CliRunner, hawks: str) -> None:
    """The scenario's budget caps the force; the treasury decides what is bought towards
    it: with 33 points a new company fields the cheapest legal Opening Shots force (a
    VIPER and two WASPs, 30), not more."""
    set_treasury(hawks, 33)
    result = run_json(runner, "campaign", "next", hawks, "--runs", "0")
    assert sorted(result["bought"]) == ["VIPER-1", "WASP-1", "WASP-2"]
    assert result["spent"] == 30


def test_treasury_kept_through_export_and_import(runner: CliRunner, hawks: str,
                                                 tmp_path: Path) -> None:
    run(runner, "mek", "buy", hawks, "WASP")
    out = tmp_path / "hawks.json"
    run(runner, "roster", "export", hawks, "--format", "json", "-o", str(out))
    assert json.loads(out.read_text())["campaigns"][0]["treasury"] == PAY.start - 9
    run(runner, "roster", "import", str(out), "--name", "Copy")
    assert treasury_of("Copy") == PAY.start - 9
    assert "sound" in run(runner, "db", "check")


def test_migration_12_and_a_backup_from_before_the_treasury(
        runner: CliRunner, tmp_path: Path, temp_database: str) -> None:
    """Migration 12 on a database of schema 11, and a backup made at schema 11 restored:
    the campaign keeps no treasury and goes on as it began, buying freely."""
    from db.backup import dump
    from db.engine import engine_for
    from db.migrations import LATEST, applied_versions
    from tests.test_campaign_link import _blank, without_treasuries, write_old_database

    run(runner, "company", "create", "Old")
    run(runner, "campaign", "start", "Old", "--seed", "4", "--no-treasury")
    run(runner, "mek", "buy", "Old", "THOR")
    old = json.loads(json.dumps(dump(engine_for(temp_database)), default=str))
    old["schema_version"] = 11
    without_treasuries(old["tables"])
    backup = tmp_path / "v11.json"
    backup.write_text(json.dumps(old))
    _blank(temp_database)
    write_old_database(temp_database, old, version=11, absent=())
    with engine_for(temp_database).connect() as conn:
        assert applied_versions(conn)[-1] == LATEST
    for restored in (False, True):
        if restored:
            run(runner, "db", "restore", str(backup), "--yes")
        assert "treasury" not in snapshot("Old")["campaigns"][0]
        assert "sound" in run(runner, "db", "check")
        assert "treasury" not in run_json(runner, "mek", "buy", "Old", "THOR")


# ---- the muster at the terminal (issue 27 item 1) -------------------------------------------

@pytest.fixture
def at_terminal(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A terminal (``interactive``), and a battle that is not fought (``play_to_end``
    only notes the play it was given)."""
    import cli.play_run
    import cli.state

    seen: dict[str, Any] = {}
    monkeypatch.setattr(cli.state, "interactive", lambda: True)
    monkeypatch.setattr(cli.play_run, "play_to_end",
                        lambda state, **options: seen.update(play=state.id))
    return seen


def mustered(company: str) -> list[str]:
    from sqlmodel import col, select

    from campaigns.company import get_company
    from campaigns.files.stored import stored_force
    from cli.state import session
    from db.models import Mek, Muster

    with session() as s:
        company_row = get_company(s, company)
        row = s.exec(select(Muster).where(
            Muster.company_id == company_row.id).order_by(col(Muster.id).desc())).first()
        assert row is not None
        return sorted(s.get(Mek, e["mek"]).callsign for e in stored_force(s, row))


def test_enter_takes_the_suggested_muster(runner: CliRunner, hawks: str,
                                         at_terminal: dict[str, Any]) -> None:
    out = " ".join(run(runner, "campaign", "next", hawks, "--play", "--runs", "0",
                       given="\n").split())
    assert "Suggested: buy VIPER, buy WASP, buy WASP (30 points, 30 of it from the " \
           "treasury)" in out
    assert at_terminal["play"] and mustered(hawks) == ["VIPER-1", "WASP-1", "WASP-2"]
    assert treasury_of(hawks) == PAY.start - 30


def test_the_player_chooses_what_to_field_buy_or_leave_at_home(
        runner: CliRunner, hawks: str, at_terminal: dict[str, Any]) -> None:
    """The player's third WASP is fielded and the second left at home, a VIPER bought;
    a force that breaks the composition, or that the
    treasury cannot pay for, is explained and asked for again."""
    for design in ("WASP", "WASP", "WASP"):
        run(runner, "mek", "buy", hawks, design)
    set_treasury(hawks, 14)
    result = runner.invoke(app, ["campaign", "next", hawks, "--play", "--runs", "0"],
                           input="WASP-1, WASP-2\nDRAKEN, WASP-1, WASP-2\n"
                           "buy VIPER, WASP-1, WASP-3\n")
    assert result.exit_code == 0, result.stderr
    assert "WASP-3" in result.stdout and "home" in result.stdout
    err = " ".join(result.stderr.split())
    assert "needs exactly 1 Medium Mek, not 0" in err
    assert "it costs 24 points to buy and repair, but the treasury holds 14" in err
    assert at_terminal["play"]
    assert mustered(hawks) == ["VIPER-1", "WASP-1", "WASP-3"]
    assert treasury_of(hawks) == 2


def test_a_refused_choice_is_asked_again_and_q_changes_nothing(
        runner: CliRunner, hawks: str, at_terminal: dict[str, Any]) -> None:
    before = snapshot(hawks)
    result = runner.invoke(app, ["campaign", "next", hawks, "--play", "--runs", "0"],
                           input="WASP\nTHOR, WASP, WASP\nq\n")
    assert result.exit_code == 0, result.stderr
    err = " ".join(result.stderr.split())
    assert "needs exactly 1 Medium Mek, not 0" in err
    assert "budget is 30" in err and "Stopped; nothing was changed." in result.stdout
    assert "play" not in at_terminal
    after = snapshot(hawks)
    assert after["meks"] == before["meks"] and after["campaigns"] == before["campaigns"]
    assert after["support"] == before["support"] == []


def test_one_point_in_the_treasury_is_said_in_the_singular(
        runner: CliRunner, hawks: str) -> None:
    set_treasury(hawks, 10)
    run(runner, "mek", "buy", hawks, "WASP")  # 9 points
    assert run_json(runner, "company", "history", hawks)[0]["summary"].endswith(
        "Treasury: 1 point.")
    assert "Treasury: 1 point." in run(runner, "campaign", "status", hawks)


def test_a_problem_repeated_in_a_choice_is_said_once(
        runner: CliRunner, hawks: str, at_terminal: dict[str, Any]) -> None:
    result = runner.invoke(app, ["campaign", "next", hawks, "--play", "--runs", "0"],
                           input="WASPP, WASPP," + "x," * 50 + "x\nq\n")
    assert result.exit_code == 0, result.stderr
    err = " ".join(result.stderr.split())
    assert err.count("'WASPP' is neither") == 1 and err.count("'x' is neither") == 1


def test_choose_with_the_tool_fighting_and_auto_without_a_terminal(
        runner: CliRunner, hawks: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """campaign next --choose asks at the muster and the tool fights; without a terminal
    (as in CI) nothing is asked and the tool's choice is taken; --auto never asks."""
    import cli.state

    result = run_json(runner, "campaign", "next", hawks, "--runs", "0", "--choose")
    assert sorted(result["bought"]) == ["VIPER-1", "WASP-1", "WASP-2"]  # no terminal
    monkeypatch.setattr(cli.state, "interactive", lambda: True)
    result = runner.invoke(app, ["campaign", "next", hawks, "--runs", "0", "--choose",
                                 "--json"], input="buy WASP\n")
    assert result.exit_code == 0, result.stderr
    assert "Muster for At the Hot Gates" in result.stderr  # questions on stderr
    # (the test runner echoes the typed answer on standard output; a terminal shows it)
    bought = json.loads(result.stdout[result.stdout.index("{"):])["bought"]
    assert len(bought) == 1 and bought[0].startswith("WASP-"), bought
    out = run(runner, "campaign", "next", hawks, "--runs", "0", "--auto")
    assert "Muster for" not in out  # --auto (the default) never asks


def test_the_treasury_keeps_the_estimated_odds_of_the_built_in_scenarios() -> None:
    """The treasury changes nothing in a battle, so a built-in scenario under it keeps its
    fitted odds curves (the campaign's odds are estimated, not fought)."""
    from campaigns.files.scenario_model import rules_digest
    from campaigns.plans import step_scenario
    from meks.analysis.estimate import model_for

    plain = step_scenario({"scenario": "head-to-head"})
    paid = step_scenario({"scenario": "head-to-head", "house_rules": {"treasury": True}})
    assert paid.house_rules.treasury and rules_digest(paid) == rules_digest(plain)
    assert model_for(paid, rules_digest(paid)) is not None
    salvage = step_scenario({"scenario": "head-to-head", "house_rules": {"salvage": "winner"}})
    assert rules_digest(salvage) != rules_digest(plain)


def test_broke_at_the_terminal(runner: CliRunner, hawks: str,
                               at_terminal: dict[str, Any]) -> None:
    """campaign next --play for a broke company asks nothing, shows the result and ends
    the campaign (exit 0); no play begins."""
    set_treasury(hawks, 29)
    out = run(runner, "campaign", "next", hawks, "--play", "--runs", "0")
    assert "BROKE" in out and "Muster for" not in out and "play" not in at_terminal
    assert run_json(runner, "campaign", "status", hawks)["status"] == "broke"


def test_a_pilot_whose_mek_stays_home_keeps_no_fee_back_from_the_force_R3_3(
        runner: CliRunner, tmp_path: Path) -> None:
    """Only the hire fees of the pilots who would fly are kept back from what the force may
    cost. A Regular whose ODIN is too big for At the Hot Gates stays at home with no empty
    cockpit for her: her fee is not held back, so the treasury still buys a second Mek (for
    a free Green pilot) rather than fielding one WASP alone."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("house_rules: {treasury: true}\n"
                    "scenarios:\n  - {scenario: at-the-hot-gates-campaign, side: attacker}\n")
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--plan", str(plan), "--seed", "2")
    set_treasury("Hawks", 100)
    for design, pilot in (("ODIN", "Zed"), ("WASP", "Yan")):
        callsign = run_json(runner, "mek", "buy", "Hawks", design)["callsign"]
        run(runner, "pilot", "hire", "Hawks", pilot, "--regular")
        run(runner, "pilot", "assign", "Hawks", pilot, callsign)
    run(runner, "pilot", "hire", "Hawks", "Cole")  # a Green, free
    set_treasury("Hawks", 15)  # two fees of 5 would leave 5: no WASP (9) to buy
    result = run_json(runner, "campaign", "next", "Hawks", "--runs", "0")
    assert result["bought"] == ["WASP-2"], result["bought"]
    flew = {p["pilot"]: p["mek"] for p in result["pilots"]}
    assert flew == {"Yan": "WASP-1", "Cole": "WASP-2"}  # Zed stays home, owing her fee
    owing = {p["name"]: p["hire_cost"] for p in snapshot("Hawks")["pilots"]}
    assert owing["Zed"] == 5 and owing["Yan"] == 0
