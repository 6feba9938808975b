"""Issue 27 item 4: play sheets that match the company. A Mek's card carries the heat rating
and the weapons the battle would field it with (wear, lost parts), the points it owes sit in
a column of their own, a muster's sheet shows its scenario (map, set-up, victory), and both
sheets end with a quick reference whose numbers come from the catalog and the rules. The
browser checks (one page, no cut table, hostile names) are in tests/test_print.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from campaigns import roster_io
from campaigns.reports.sheet import MekCard, PlaySheet
from campaigns.reports.sheet_render import BOX, md, to_html, to_markdown
from cli.app import app
from meks.game.catalog import Band, Catalog, Size
from meks.game.criticals import CRITICAL_TABLE
from meks.game.reference import critical_effects, turn_sequence
from meks.game.rules import skill_of
from tests.test_print import COMPANY, build_company

WORN = "Worn Co"
SCENARIOS = Path(__file__).resolve().parent.parent / "campaigns" / "files" / "scenarios"
LOST = [{"kind": "weapon", "part": "Rail Cannon"}, {"kind": "system", "part": "Point Defense"}]


def invoke(runner: CliRunner, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result.stdout


def flat(text: str) -> str:
    return " ".join(text.split())


def worn_company(runner: CliRunner, tmp_path: Path) -> dict[str, Any]:
    """The printing test's company, imported again as WORN with its DRAKEN 'Anvil' worn by
    3 battles (R3.8: one point of heat rating gone), one Rail Cannon and its Point Defense
    lost and not replaced (R3.7), and 3 points owed for them."""
    doc = build_company(runner, tmp_path)
    anvil = next(m for m in doc["meks"] if m["callsign"] == "Anvil")
    anvil.update(wear=3, owed=3, lost=LOST)
    path = tmp_path / "worn.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    invoke(runner, "roster", "import", str(path), "--name", WORN)
    return json.loads(invoke(runner, "roster", "export", WORN, "--format", "json"))


def field_scenario(tmp_path: Path) -> str:
    """Head to Head on a map with Woods, Urban and Moors, a set-up rule naming a zone, and
    two rounds of zone combat (and room for the company's three support results), saved
    among the player's own scenarios."""
    data = yaml.safe_load((SCENARIOS / "5-head-to-head.yaml").read_text())
    data.update(id="mixed-ground", name="Mixed Ground")
    data["terrain"].update({3: "Urban", 5: "Woods", 7: "Moors"})
    data["defender"]["setup"]["rules"] = [{"at_least": 1, "kind": "mek", "zones": [3]}]
    data["house_rules"] = {"combat_rounds": 2}
    data["attacker"]["support_rolls"] = data["defender"]["support_rolls"] = 3  # those waiting
    folder = tmp_path / "user-scenarios"
    folder.mkdir(exist_ok=True)
    (folder / "mixed-ground.yaml").write_text(yaml.safe_dump(data))
    return "mixed-ground"


def card_of(sheet: PlaySheet, callsign: str) -> MekCard:
    return next(c for c in sheet.meks if c.callsign == callsign)


def test_a_worn_mek_prints_the_heat_rating_and_weapons_the_battle_fields_it_with(
        runner: CliRunner, tmp_path: Path, catalog: Catalog) -> None:
    """Issue 27 item 4 (R3.7, R3.8): 'Anvil' (a DRAKEN at wear 3, a Rail Cannon and the Point
    Defense lost) prints the heat rating of the unit the battle builds from its muster, one
    less than its chassis, with that many boxes, on the roster and on the muster sheet, in
    Markdown and HTML; its lost parts are named and left out of its weapons and systems."""
    from campaigns.forces import muster_force
    from cli.state import session
    from meks.engine.units import build_unit
    from meks.game.vocabulary import Side

    doc = worn_company(runner, tmp_path)
    scenario = field_scenario(tmp_path)
    invoke(runner, "muster", WORN, "Anvil", "--scenario", scenario, "--side", "attacker")
    with session() as s:
        _, _, force = muster_force(s, WORN, scenario)
    fielded = build_unit(force.units[0], "A1", Side.ATTACKER, catalog)
    heavy = catalog.for_size(Size.HEAVY)
    assert fielded.heat_rating(moors=False) == heavy.heat - 1  # what the battle plays with
    roster = roster_io.play_sheet(doc)
    muster = roster_io.sheet.muster_sheet(doc_after_muster(runner), catalog)
    assert muster is not None
    for card in (card_of(roster, "Anvil"), card_of(muster, "Anvil")):
        assert card.heat == fielded.heat_rating(moors=False)
        assert (card.wear, card.heat_lost) == (3, 1)
        assert card.lost == ("Rail Cannon", "Point Defense")
        assert [w.name for w in card.weapons] == [w.name for w in fielded.weapons]
        assert [s.name for s in card.systems] == [s.system.name for s in fielded.systems]
        assert "Point Defense" not in [s.name for s in card.systems]
    design = catalog.design("DRAKEN")
    assert design.weapons.count("Rail Cannon") == 2
    assert [w.name for w in card_of(roster, "Anvil").weapons].count("Rail Cannon") == 1
    heat = heavy.heat - 1
    line = (f"- **Heat rating** {heat} (-1 for wear: 3 battles since new or overhauled): "
            + " ".join([BOX] * heat))
    assert line in invoke(runner, "roster", "export", WORN, "--format", "md")
    assert line in invoke(runner, "muster", "sheet", WORN)
    assert "- **Lost parts** Rail Cannon, Point Defense" in invoke(runner, "muster", "sheet",
                                                                   WORN)
    for page in (invoke(runner, "roster", "export", WORN, "--format", "html"),
                 invoke(runner, "muster", "sheet", WORN, "--format", "html")):
        assert f"<b>Heat rating</b>{heat} (-1 for wear: 3 battles since new or overhauled)" \
            in page
        assert f'aria-label="{heat} boxes, 0 ticked"' in page
        assert f'aria-label="{heavy.heat} boxes' not in page.split("Anvil", 1)[1].split(
            "</section>", 1)[0]
        assert "<b>Lost parts</b>Rail Cannon, Point Defense" in page


def doc_after_muster(runner: CliRunner) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(invoke(runner, "roster", "export", WORN, "--format",
                                            "json"))
    return doc


def test_points_owed_have_a_column_of_their_own_issue_27(
        runner: CliRunner, tmp_path: Path) -> None:
    """Issue 27 item 4: the muster's table shows each Mek's price, its pilot's hire and the
    points it owes in separate columns that add up to the muster's cost; the muster sheet
    has the same columns and a total equal to the cost; the roster's stable table has an
    Owed column."""
    worn_company(runner, tmp_path)
    out = invoke(runner, "muster", WORN, "Anvil", "Sting", "--budget", "60")
    result = json.loads(invoke(runner, "muster", WORN, "Anvil", "Sting", "--budget", "60",
                               "--json"))
    anvil = next(f for f in result["force"] if f["mek"] == "Anvil")
    assert (anvil["price"], anvil.get("owed")) == (24, 3)
    assert result["cost"] == sum(f["price"] + f.get("hire", 0) + f.get("owed", 0)
                                 for f in result["force"])
    header = flat(out.splitlines()[2])
    assert header == "Mek Design Pilot Level Price Hire Owed Cost"
    assert "Anvil DRAKEN Ana Green 24 - 3 27" in flat(out)
    text = invoke(runner, "muster", "sheet", WORN)
    assert "| Mek | Design | Pilot | Price | Hire | Owed | Cost |" in text
    assert "| Anvil | DRAKEN | Ana | 24 | - | 3 | 27 |" in text
    assert f"| Total |   |   |   |   |   | {result['cost']} |" in text
    assert f"Cost: {result['cost']} of 60 points" in text
    doc = doc_after_muster(runner)
    stable = next(t for t in roster_io.play_sheet(doc).tables if t.title == "Stable")
    assert "Owed" in stable.columns


def test_the_muster_sheet_shows_the_scenario_map_set_up_and_victory(
        runner: CliRunner, tmp_path: Path) -> None:
    """Issue 27 item 4: a muster for a scenario prints its nine zones with their terrain
    (north up, 1 to 9), who sets up where and the set-up rule naming a zone, both sides'
    set-up and victory conditions as the scenario's own data words them, and the result at
    the turn limit."""
    from campaigns.files.scenarios import get_scenario
    from meks.game.vocabulary import Side

    worn_company(runner, tmp_path)
    scenario_id = field_scenario(tmp_path)
    invoke(runner, "muster", WORN, "Anvil", "--scenario", scenario_id, "--side", "defender")
    scenario = get_scenario(scenario_id)
    text = invoke(runner, "muster", "sheet", WORN)
    assert (f"## Scenario: Mixed Ground (mixed-ground), {scenario.turn_limit} turns; the "
            "company is the defender") in text
    rows = [line for line in text.splitlines() if line.startswith("| **")]
    cells = [cell.strip() for row in rows for cell in row.strip("|").split(" | ")]
    assert [c.split("<br>")[0] for c in cells] == [
        f"**{z}** {scenario.terrain_of(z)}" for z in range(1, 10)]
    assert "<br>Defender sets up<br>\\>= 1 Mek" in cells[2]
    assert "Attacker sets up" in cells[0] and "sets up" not in cells[4]
    for side in Side:
        rules = scenario.side(side)
        assert rules.setup is not None and md(rules.setup.describe()) in text
        condition = scenario.victory.condition(side)
        assert condition is not None
        assert md(f"{side.value.capitalize()} wins when {condition.describe()}.") in text
    assert "At the turn limit (12 turns) otherwise: the side that destroyed more" in text
    page = invoke(runner, "muster", "sheet", WORN, "--format", "html")
    assert '<table class="map">' in page and "Defender sets up" in page
    assert "Mixed Ground" in page and "House rules: combat_rounds: 2." in page


def test_the_quick_reference_takes_its_numbers_from_the_catalog_and_the_rules(
        runner: CliRunner, tmp_path: Path, catalog: Catalog) -> None:
    """Issue 27 item 4: the quick reference lists the turn as meks.game.rules words it (with the
    scenario's cap on rounds), the catalog's terrain table with the scenario's zones of each
    terrain, the critical table of meks.game.rules, and each mustered Mek's to-hit rolls with its
    pilot's level (and Accuracy) already applied."""
    worn_company(runner, tmp_path)
    scenario_id = field_scenario(tmp_path)
    invoke(runner, "muster", WORN, "Anvil", "Viper <script>alert(1)</script>", "--scenario",
           scenario_id, "--side", "attacker")
    sheet = roster_io.sheet.muster_sheet(doc_after_muster(runner), catalog)
    assert sheet is not None and sheet.reference is not None
    ref = sheet.reference
    assert ref.turn == turn_sequence(2) and "up to 2 rounds" in ref.turn[3]
    assert [r[:4] for r in ref.terrain.rows] == [
        (t.name, f"{t.move:+d}", f"{t.to_hit:+d}", f"{t.heat:+d}" if t.heat else "-")
        for t in catalog.terrain]
    zones = {r[0]: r[4] for r in ref.terrain.rows}
    assert (zones["Urban"], zones["Woods"], zones["Moors"]) == ("3", "5", "7")
    assert zones["Plains"] == "1, 2, 4, 6, 8, 9" and zones["Desert"] == "-"
    assert [(r[0], r[1]) for r in ref.critical.rows] == [
        (str(face), name) for face, (_, name) in enumerate(CRITICAL_TABLE.faces, start=1)]
    assert f"on 1-{CRITICAL_TABLE.reactor.need - 1} the reactor explodes" in ref.critical.rows[3][2]
    assert [r[2] for r in ref.critical.rows] == [t for _, _, t in critical_effects()]
    green, regular = catalog.level("Green"), catalog.level("Regular")
    rows = {(r[0], r[2]): r[3:] for r in ref.to_hit.rows}
    for callsign, level, accuracy in (("Anvil", green, False),
                                      ("Viper <script>alert(1)</script>", regular, True)):
        card = card_of(sheet, callsign)
        # a Targeting Array's +1 (one target) is the Mek's own; the VIPER carries one
        array = 1 if "Targeting Array" in [s.name for s in card.systems] else 0
        for line in card.weapons:
            weapon = catalog.weapon(line.name)
            cells = rows[(callsign, weapon.name)]
            if weapon.to_hit is None:
                assert cells == (weapon.to_hit_text, "-", "-")
                continue
            for band, cell in zip(Band, cells, strict=True):
                need = weapon.to_hit_at(band)
                if need is None:
                    assert cell == "-"
                    continue
                expected = f"{max(1, min(6, need - level.to_hit - array))}+"
                if accuracy and skill_of(weapon.family) == "Accuracy":
                    expected += f" ({max(1, min(6, need - level.to_hit - array - 1))}+ Accuracy)"
                assert cell == expected, (callsign, weapon.name, band)
    assert any("(" in c for (who, _), cells in rows.items() if who != "Anvil" for c in cells)
    assert f"Anvil: applied Green {green.to_hit:+d}." in ref.to_hit_notes
    assert "Viper <script>alert(1)</script>: applied Targeting Array +1." in ref.to_hit_notes
    text = to_markdown(sheet)
    assert "## Quick reference" in text and md(ref.turn[0]) in text
    roster = roster_io.play_sheet(doc_after_muster(runner))
    assert roster.reference is not None and roster.reference.turn == turn_sequence(3)
    assert "## Quick reference" in invoke(runner, "roster", "export", COMPANY, "-f", "md")


HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>',
           "Ri\u202eght to left", "Zero\u200bwidth\u2060joined"]


def hostile_doc(runner: CliRunner, tmp_path: Path) -> dict[str, Any]:
    """A roster document whose company, callsigns, designs, pilots and skill names are
    hostile text, written into the document itself (past the checks names get when they
    are typed or imported), so that only the sheet's own escaping stands between them and
    the page."""
    doc = build_company(runner, tmp_path)
    doc["company"]["name"] = HOSTILE[0] + " & " + HOSTILE[1]
    for n, mek in enumerate(doc["meks"]):
        mek["callsign"] = HOSTILE[n % len(HOSTILE)] + f" {n}"
    for n, pilot in enumerate(doc["pilots"]):
        pilot["name"] = HOSTILE[(n + 1) % len(HOSTILE)] + f" {n}"
    return doc


def test_hostile_names_are_text_on_the_html_sheet(runner: CliRunner, tmp_path: Path) -> None:
    """Issue 27 (must hold): the HTML comes from a template that escapes every value: a
    '<script>' or '"><img onerror>' name is text, right-to-left overrides and zero-width
    characters are not on the page; the Markdown escapes the same names."""
    from campaigns.reports.sheet_render import _templates

    assert _templates().autoescape is True
    doc = hostile_doc(runner, tmp_path)
    page = roster_io.to_html(doc)
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    assert "\u202e" not in page and "\u200b" not in page and "\u2060" not in page
    assert "Right to left" in page and "Zerowidthjoined" in page
    text = roster_io.to_markdown(doc)
    assert "<script>" not in text and "\u202e" not in text
    plain = to_html(roster_io.play_sheet(doc))
    assert plain == page
