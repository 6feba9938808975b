"""The record at the terminal and in a page (issue 27, items 2 and 3): `meks battle list`,
`meks campaign show`, and the HTML of `campaign report` and `battle report` read without a
browser (tests/test_report_browser.py opens them in Chromium)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app

BLUE = """\
name: Blue Lance
meks:
  - {design: VIPER, pilot: Dee}
  - {design: WASP, pilot: Eve}
  - {design: WASP, pilot: Fay}
"""


def run(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout if code == 0 else result.stderr


def run_json(runner: CliRunner, *args: str) -> Any:
    return json.loads(run(runner, *args, "--json"))


@pytest.fixture
def wolves(runner: CliRunner) -> str:
    run(runner, "company", "create", "Wolves")
    for design, pilot in (("VIPER", "Ana"), ("WASP", "Bo"), ("WASP", "Cy")):
        callsign = run_json(runner, "mek", "buy", "Wolves", design)["callsign"]
        run(runner, "pilot", "hire", "Wolves", pilot)
        run(runner, "pilot", "assign", "Wolves", pilot, callsign)
    return "Wolves"


def fight(runner: CliRunner, company: str, tmp_path: Path, seed: int) -> dict[str, Any]:
    blue = tmp_path / "blue.yaml"
    blue.write_text(BLUE)
    run(runner, "muster", company, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    return run_json(runner, "battle", "auto", "opening-shots", "-a", company, "-d", str(blue),
                    "--seed", str(seed))


# ---- battle list ----------------------------------------------------------------------------

def test_battle_list_counts_each_sides_meks_destroyed_from_the_stored_log(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    fought = fight(runner, wolves, tmp_path, 11)
    listed = run_json(runner, "battle", "list", wolves)
    assert listed["company"] == "Wolves" and len(listed["battles"]) == 1
    row = listed["battles"][0]
    destroyed = {side: sum(1 for u in fought["units"] if u["side"] == side
                           and u["state"] == "destroyed") for side in ("attacker", "defender")}
    result = {"attacker": "win", "defender": "loss", "draw": "draw"}[fought["winner"]]
    assert row == {"id": fought["battle_id"], "date": row["date"], "scenario": "opening-shots",
                   "seat": "attacker", "mode": "auto", "result": result,
                   "turns": fought["turns"], "kills": destroyed["defender"],
                   "losses": destroyed["attacker"], "odds_before": None, "campaign": None}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT.*", row["date"])
    table = run(runner, "battle", "list", wolves)
    assert "opening-shots" in table and "attacker" in table and result in table


def test_a_battle_recorded_at_the_table_is_listed_with_no_kills_or_losses(
        runner: CliRunner, wolves: str) -> None:
    run(runner, "muster", wolves, "--scenario", "opening-shots", "--side", "attacker",
        "VIPER-1", "WASP-1", "WASP-2")
    run(runner, "battle", "record", wolves, "--result", "win", "--kills", "Bo=1", "--auto",
        "--seed", "3")
    row = run_json(runner, "battle", "list", wolves)["battles"][0]
    assert (row["mode"], row["seat"], row["result"]) == ("table", "attacker", "win")
    assert row["kills"] is None and row["losses"] is None and row["turns"] is None
    assert "—" in run(runner, "battle", "list", wolves)


def test_battle_list_of_a_company_with_no_battles_says_so(runner: CliRunner,
                                                         wolves: str) -> None:
    assert run_json(runner, "battle", "list", wolves)["battles"] == []
    assert "no battle yet" in run(runner, "battle", "list", wolves)


def test_an_unknown_battle_points_to_battle_list(runner: CliRunner, wolves: str,
                                                tmp_path: Path) -> None:
    for command in ("show", "replay"):
        err = " ".join(run(runner, "battle", command, "999", code=1).split())
        assert "No battle has id 999" in err and "meks battle list COMPANY" in err
    err = " ".join(run(runner, "battle", "report", "999", "-o",
                       str(tmp_path / "x.html"), code=1).split())
    assert "meks battle list COMPANY" in err and not (tmp_path / "x.html").exists()


def test_battle_list_of_an_unknown_company_is_refused(runner: CliRunner) -> None:
    # SQLite: no file yet; PostgreSQL: the database is there, with no company in it
    first = run(runner, "battle", "list", "Nobody", code=1)
    assert "No database" in first or "No company is called 'Nobody'" in first
    run(runner, "company", "create", "Somebody")
    assert "No company is called" in run(runner, "battle", "list", "Nobody", code=1)


# ---- campaign show --------------------------------------------------------------------------

@pytest.fixture
def campaign(runner: CliRunner) -> dict[str, Any]:
    """A company one step into the built-in campaign (the odds estimated, nothing fought
    for them)."""
    run(runner, "company", "create", "Hawks")
    run(runner, "campaign", "start", "Hawks", "--seed", "5")
    return run_json(runner, "campaign", "next", "Hawks")


def test_campaign_show_gives_each_step_its_battle_odds_result_kills_losses_and_pilots(
        runner: CliRunner, campaign: dict[str, Any]) -> None:
    shown = run_json(runner, "campaign", "show", "Hawks")
    assert (shown["company"], shown["position"], shown["of"]) == ("Hawks", 1, 6)
    step = shown["steps"][0]
    odds = campaign["odds"]
    assert step["battle_id"] == campaign["battle_id"] and step["result"] == campaign["result"]
    assert step["odds_before"] == {"win": round(odds["win"]["p"], 4),
                                   "draw": round(odds["draw"]["p"], 4),
                                   "loss": round(odds["loss"]["p"], 4), "runs": 0}
    lost = sum(1 for p in campaign["pilots"] if p.get("mek_destroyed"))
    assert step["losses"] == lost
    assert step["kills"] >= sum(p["kills"] for p in campaign["pilots"])
    assert step["treasury"] == campaign.get("treasury") is not None  # the plan's treasury
    assert step["salvage"] == campaign.get("salvage", [])
    assert [p["pilot"] for p in step["pilots"]] == [p["pilot"] for p in campaign["pilots"]]
    for p, reported in zip(step["pilots"], campaign["pilots"], strict=True):
        assert p["kills"] == p["total_kills"] == reported["kills"]
        assert p["level"] in ("Green", "Regular", "Veteran", "Elite")
    listed = run_json(runner, "battle", "list", "Hawks")["battles"]
    assert listed[0]["odds_before"] == step["odds_before"]["win"]
    assert listed[0]["campaign"] == shown["campaign"]
    table = run(runner, "campaign", "show", "Hawks")
    assert f"{step['odds_before']['win']:.0%}" in table and "Treasury" in table
    assert step["pilots"][0]["pilot"] in table
    # each step by its scenario's name, which wraps at its spaces in 80 columns
    assert step["name"] == "Opening Shots (campaign)"
    assert "Opening Shots" in table and "opening-shots-campaign" not in table


def test_a_steps_treasury_shows_as_a_column_when_recorded(
        runner: CliRunner, campaign: dict[str, Any], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The treasury branch records a figure in the step; until it does, the column shows
    '—'. Written here into the stored step as that rule would."""
    from sqlmodel import select

    from cli.state import session
    from db.models import Campaign

    monkeypatch.chdir(tmp_path)
    assert "—" in run(runner, "campaign", "show", "Hawks").split("Treasury")[1].split("\n")[2]
    with session() as s:
        row = s.exec(select(Campaign)).one()
        results = json.loads(row.results)
        results[0]["treasury"] = 4321
        row.results = json.dumps(results)
        s.add(row)
    assert run_json(runner, "campaign", "show", "Hawks")["steps"][0]["treasury"] == 4321
    assert "4321" in run(runner, "campaign", "show", "Hawks")
    page = Path.cwd() / "treasury.html"
    run(runner, "campaign", "report", "Hawks", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    chart = html.split('id="chart-treasury"')[1].split("</figure>")[0]
    assert "<svg" in chart and ">4321<" in chart


def test_the_report_of_an_imported_campaign_says_its_battles_came_without_logs(
        runner: CliRunner, campaign: dict[str, Any], tmp_path: Path) -> None:
    """A roster carries a battle's result, not its log: the campaign page of an imported
    company is written all the same, each battle saying why it has no map."""
    roster, page = tmp_path / "hawks.json", tmp_path / "imported.html"
    run(runner, "roster", "export", "Hawks", "-o", str(roster))
    run(runner, "roster", "import", str(roster), "--name", "Copy")
    run(runner, "campaign", "report", "Copy", "-o", str(page))
    text = " ".join(page.read_text(encoding="utf-8").split())
    assert "which carries a battle&#39;s result but not its log" in text


def test_pilot_levels_are_counted_back_from_now_through_the_promotions() -> None:
    from campaigns.record import _levels_after

    steps = [{"pilots": [{"pilot": "Ana", "promoted": "Green -> Regular"}, {"pilot": "Bo"}]},
             {"pilots": [{"pilot": "Ana"}, {"pilot": "Bo", "promoted": "Regular -> Veteran"}]},
             {"pilots": [{"pilot": "Ana", "promoted": "Regular -> Veteran"}]}]
    assert _levels_after(steps, {"Ana": "Veteran", "Bo": "Veteran"}) == [
        {"Ana": "Regular", "Bo": "Regular"}, {"Ana": "Regular", "Bo": "Veteran"},
        {"Ana": "Veteran"}]


def test_campaign_show_without_a_campaign_is_refused(runner: CliRunner, wolves: str) -> None:
    err = " ".join(run(runner, "campaign", "show", wolves, code=1).split())
    assert "has no campaign" in err and "meks campaign start" in err


# ---- the battle's map ----------------------------------------------------------------------

def log_positions(events: list[dict[str, Any]]) -> dict[int, dict[str, int]]:
    """Where each unit stands after each turn, read from the log's set-up, move and arrival
    lines alone (an account independent of the replay the map is drawn from)."""
    where: dict[str, int] = {}
    gone: set[str] = set()
    after: dict[int, dict[str, int]] = {}
    turn = 0
    for e in events:
        if e["turn"] != turn:
            after[turn] = {u: z for u, z in where.items() if u not in gone}
            turn = e["turn"]
        unit = e.get("unit")
        if e["kind"] == "setup" and unit:
            found = re.search(r"sets up (?:hidden )?in zone (\d)", e["text"])
            if found:
                where[unit] = int(found[1])
        elif e["kind"] in ("move", "arrive") and unit and e.get("value"):
            where[unit] = int(e["value"])
        elif e["kind"] == "exit" and unit:
            gone.add(unit)
    after[turn] = {u: z for u, z in where.items() if u not in gone}
    return after


def test_the_map_puts_every_unit_where_the_log_says_it_stood(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    from campaigns.reports.pages import battle_map
    from cli.state import session
    from db.models import BattleLog

    fought = fight(runner, wolves, tmp_path, 11)
    with session() as s:
        found = battle_map(s, fought["battle_id"])
        events = json.loads(s.get(BattleLog, fought["battle_id"]).log)
    assert found.problem is None
    expected = log_positions(events)
    assert expected[0], "the log sets units up"
    seen_turns = set()
    for t in found.turns:
        for turn in range(t.turn, (t.last or t.turn) + 1):
            seen_turns.add(turn)
            placed = {u.id: u.zone for u in t.units if u.state in ("standing", "destroyed")
                      and not u.decoy}
            logged = {u: z for u, z in expected[turn].items() if u in placed
                      or any(p.id == u and p.state == "standing" for p in t.units)}
            assert {u: placed[u] for u in logged} == logged, turn
    assert seen_turns == set(range(fought["turns"] + 1))
    destroyed = [u["name"] for u in fought["units"] if u["state"] == "destroyed"]
    assert sorted(n for t in found.turns for n in t.destroyed) == sorted(destroyed)
    engaged = {e["value"] for e in events if e["kind"] == "engage"}
    assert engaged <= {z for t in found.turns for z in t.combat}


def test_the_battle_report_draws_the_set_up_in_its_zones(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    fought = fight(runner, wolves, tmp_path, 11)
    page = tmp_path / "battle.html"
    said = run(runner, "battle", "report", str(fought["battle_id"]), "-o", str(page))
    assert "Wrote battle" in said
    html = page.read_text(encoding="utf-8")
    setup = html.split('data-turn="0"')[1].split('data-turn=')[0]
    zones = dict(re.findall(r'data-zone="(\d)">(.*?)</div>', setup, re.S))
    from cli.state import session
    from db.models import BattleLog

    with session() as s:
        events = json.loads(s.get(BattleLog, fought["battle_id"]).log)
    for e in events:
        found = re.search(r"^(.*) \([^()]*\) sets up in zone (\d)", e["text"])
        if e["kind"] == "setup" and found:
            assert f"<bdi>{found[1]}</bdi>" in zones[found[2]], (found[1], found[2])
    assert "What was hidden" in html


def test_the_campaign_report_sets_the_odds_expected_against_the_wins(
        runner: CliRunner, campaign: dict[str, Any], tmp_path: Path) -> None:
    page = tmp_path / "campaign.html"
    run(runner, "campaign", "report", "Hawks", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    won = int(campaign["result"] == "win")
    assert (f"Over the 1 battle with odds, the odds expected "
            f"{campaign['odds']['win']['p']:.1f} wins; the company won {won}.") in html
    assert 'id="chart-odds"' in html and 'id="chart-pilots"' in html
    # the built-in plan keeps a treasury: its chart is drawn
    assert 'id="chart-treasury"' in html and "No treasury was recorded" not in html
    assert f'id="battle-{campaign["battle_id"]}"' in html


def test_a_report_goes_only_to_an_html_file_in_a_folder_that_exists(
        runner: CliRunner, wolves: str, tmp_path: Path) -> None:
    err = " ".join(run(runner, "battle", "report", "1", "-o", str(tmp_path / "r.txt"),
                       code=2).split())
    assert "ending .html" in err
    err = " ".join(run(runner, "campaign", "report", wolves, "-o",
                       str(tmp_path / "no" / "r.html"), code=2).split())
    where = tmp_path / "no" / "r.html"  # said as every file that cannot be written is
    assert err == f"Error: {where}: cannot be written: its folder does not exist"
    assert not (tmp_path / "no").exists()
    (tmp_path / "afile").write_text("x")  # a file where a folder should be: said alike
    for args in (("campaign", "report", wolves), ("roster", "export", wolves)):
        where = tmp_path / "afile" / "r.html"
        err = " ".join(run(runner, *args, "-o", str(where), code=2).split())
        assert err == f"Error: {where}: cannot be written: what should be its folder is a file"


# ---- the pages escape what they show ---------------------------------------------------------

HOSTILE = ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>',
           "\u202eevil\u202c right-to-left", "zero\u200bwidth\u200d")


def hostile_record() -> dict[str, Any]:
    """A campaign record as ``campaign_record`` makes it, every name in it hostile."""
    script, img, rtl, zw = HOSTILE
    pilots = [{"pilot": name, "mek": img, "kills": 1, "total_kills": 2, "level": "Regular",
               "promoted": None, "new_skill": None, "mek_destroyed": False, "dead": False}
              for name in HOSTILE]
    step = {"step": 1, "scenario": script, "name": rtl, "side": "attacker", "battle_id": 7,
            "odds_before": {"win": 0.4, "draw": 0.1, "loss": 0.5, "runs": 0},
            "result": "win", "reason": zw, "turns": 5, "kills": 2, "losses": 1,
            "salvage": [img], "treasury": 12, "bought": [], "pilots": pilots}
    return {"company": script, "campaign": img, "id": 1, "status": "active",
            "difficulty": "normal", "seed": 1, "position": 1, "of": 6, "plan": [],
            "record": {"win": 1, "loss": 0, "draw": 0}, "steps": [step]}


def hostile_page() -> str:
    from campaigns.reports.charts import odds_chart, pilots_chart, treasury_chart
    from campaigns.reports.pages import BattleMap, Placed, TurnMap, _render

    record = hostile_record()
    steps = record["steps"]
    units = [Placed("A1", "attacker", HOSTILE[0], "WASP", 5, "standing", hidden=True),
             Placed("D1", "defender", HOSTILE[1], "WASP", 5, "destroyed"),
             Placed("D2", "defender", HOSTILE[2], "WASP", None, "waiting")]
    battle = BattleMap(7, HOSTILE[3], {"attacker": HOSTILE[0], "defender": HOSTILE[1]}, "won",
                       dict.fromkeys(range(1, 10), "Plains"),
                       [TurnMap(0, units, [5], [HOSTILE[1]])],
                       {"attacker": [HOSTILE[0]], "defender": [HOSTILE[1]]})
    charts = {"odds": odds_chart(steps), "treasury": treasury_chart(steps),
              "pilots": pilots_chart(steps)}
    return _render("campaign.html.j2", title=HOSTILE[0], record=record, maps={7: battle},
                   charts=charts, battles=[{"id": 7, "date": "2026-01-01", "scenario": HOSTILE[1],
                                            "seat": "attacker", "result": "win", "turns": 5,
                                            "kills": 2, "losses": 1, "odds_before": 0.4}])


def test_every_name_in_the_page_is_escaped_text() -> None:
    html = hostile_page()
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    # right-to-left and zero-width characters kept as they are, each name isolated
    assert "<bdi>\u202eevil\u202c right-to-left</bdi>" in html
    assert "zero\u200bwidth\u200d" in html
    # the charts carry the names as escaped text too
    svg = html[html.index("<svg"):]
    assert "&lt;script&gt;" in svg
    # and nothing leaves the page: no address, no external file
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?:https?:|//|file:)", html)
    assert "@import" not in html and "url(" not in html.replace("url(#", "")


def test_a_name_with_dollars_is_not_read_as_mathematics() -> None:
    from campaigns.reports.charts import pilots_chart

    step = hostile_record()["steps"][0]
    step["pilots"][0]["pilot"] = "$x^2$ and _under"
    svg = pilots_chart([step])
    assert svg is not None and "$x^2$ and _under" in svg


def test_a_played_steps_odds_go_with_its_play_and_come_back() -> None:
    """A campaign battle played at the terminal keeps its step in the play's spec; the odds
    before it go there too, and a step stored before they did reads with none."""
    from campaigns.campaign_step import Step, odds_before
    from meks.game.vocabulary import Side

    view = {"runs": 0, "win": {"p": 0.41234}, "draw": {"p": 0.01}, "loss": {"p": 0.57766}}
    odds = odds_before(view)
    assert odds == {"win": 0.4123, "draw": 0.01, "loss": 0.5777, "runs": 0}
    step = Step(3, 1, Side.DEFENDER, ["Panzer"], [], [], odds)
    assert Step.from_data(3, 1, json.loads(json.dumps(step.data()))) == step
    old = {k: v for k, v in step.data().items() if k != "odds"}
    assert Step.from_data(3, 1, old).odds is None
    assert odds_before(None) is None


def _story(steps: int) -> dict[str, Any]:
    """A campaign of ``steps`` steps and two pilots, one who learns a skill with a long word
    in the fourth (the shape of the table that cut "Familiarity" in two)."""
    def progress(name: str, **more: object) -> dict[str, object]:
        return {"pilot": name, "kills": 0, "total_kills": 1, "level": "Regular",
                "promoted": None, "new_skill": None, "dead": False, "mek_destroyed": False,
                **more}

    return {"company": "Hawks", "campaign": "Six", "difficulty": "normal",
            "status": "finished", "of": steps, "record": {"win": 1, "loss": 0, "draw": 0},
            "steps": [{"step": i + 1, "name": "Citadel", "scenario": "citadel",
                       "side": "defender", "battle_id": i + 1, "odds_before": None,
                       "result": "win", "kills": 0, "losses": 0, "salvage": [],
                       "treasury": None,
                       "pilots": [progress("Ash", mek_destroyed=True,
                                           promoted="Green -> Regular" if i == 0 else None),
                                  progress("Dara", new_skill="Chassis Familiarity (Assault)"
                                           if i == 3 else "Steady Hand")]}
                      for i in range(steps)]}


@pytest.mark.parametrize("width", [80, 50])
def test_campaign_show_keeps_a_skills_words_whole_where_the_width_allows(width: int) -> None:
    """Six steps of pilots fit 80 columns with "Familiarity" whole (folded, it read
    "Familiarit" and "y"); narrower, every step's column is still shown and long words
    fold as before."""
    import io

    from rich.console import Console

    from cli.record_views import campaign_show

    out = io.StringIO()
    Console(file=out, width=width, no_color=True).print(
        campaign_show(_story(6)))  # type: ignore[arg-type]
    text = out.getvalue()
    pilots = text.split("Pilots:")[1]
    header = next(line for line in pilots.splitlines() if "Pilot" in line)
    assert header.split() == ["Pilot", "1", "2", "3", "4", "5", "6"]
    assert max(len(line) for line in text.splitlines()) <= width
    if width == 80:
        assert "Familiarity" in pilots


def test_the_kills_chart_of_a_campaign_without_kills_runs_from_0_in_whole_numbers() -> None:
    import re

    from campaigns.reports.charts import pilots_chart

    steps: Any = [{"step": n, "pilots": [{"pilot": "Ana", "total_kills": 0, "level": "Green"}]}
                  for n in (1, 2)]
    labels = set(re.findall(r">([\u2212-]?[0-9][0-9.]*)<", pilots_chart(steps) or ""))
    assert labels and all(label.isdigit() for label in labels), labels


def test_a_name_the_chart_font_lacks_a_glyph_for_warns_of_nothing() -> None:
    """An emoji in a pilot's name: the browser draws it, and matplotlib's warning that its own
    font has no glyph for it stays off the user's screen."""
    import warnings

    from campaigns.reports.charts import pilots_chart

    steps: Any = [{"step": 1, "pilots": [{"pilot": "Ana \N{ROCKET}", "total_kills": 1,
                                         "level": "Green"}]}]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        svg = pilots_chart(steps) or ""
    assert "Ana \N{ROCKET}" in svg


def test_pilots_with_the_same_figures_each_show_in_the_pilots_chart() -> None:
    """Four pilots with the same kills and level at every step: each one's line, in the kills
    chart and in the level chart, is drawn apart from the others (it lay under the next one),
    with a mark of its own, and the same steps draw the same chart again."""
    from campaigns.reports.charts import pilots_chart

    names = ("Ash", "Brook", "Cole", "Dara")
    steps: Any = [{"step": n, "pilots": [{"pilot": p, "total_kills": n - 1, "level": "Green"}
                                         for p in names]} for n in (1, 2, 3)]
    svg = pilots_chart(steps) or ""
    assert svg == pilots_chart(steps)
    # each pilot's line is a path and its marks: the kills chart's four, the level chart's,
    # then the key's
    lines = re.findall(r'<g id="line2d_\d+">\s*<path d="([^"]+)"[^>]*? style="[^"]*'
                       r'stroke: (#\w+);.*?<use xlink:href="#(\w+)"', svg, re.S)
    assert len(lines) == 12
    for chart in (lines[0:4], lines[4:8]):
        ys = [[float(pair.split()[1]) for pair in points.strip("M ").split("L")]
              for points, _, _ in chart]
        for a, b in itertools.pairwise(ys):
            assert all(y_b - y_a >= 2 for y_a, y_b in zip(a, b, strict=True)), (a, b)
        assert len({colour for _, colour, _ in chart}) == len({m for _, _, m in chart}) == 4
