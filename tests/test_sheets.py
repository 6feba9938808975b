"""Play sheets without a browser (issue 18, item 1): the Markdown sheet, the one model both
formats render, escaping, and 'meks muster sheet' with its errors. The browser checks are
in tests/test_print.py."""

from __future__ import annotations

import json
from pathlib import Path

from markupsafe import escape
from typer.testing import CliRunner

from campaigns import roster_io
from campaigns.reports.sheet_render import BOX, TICKED, md
from cli.app import app
from meks.game.catalog import Catalog, Size
from tests.test_print import COMPANY, CUSTOM, RESERVE, build_company, expected_texts, flat


def invoke(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def unescape_md(text: str) -> str:
    return text.replace("\\", "")


def test_markdown_sheet_holds_every_mek_weapon_system_pilot_skill_and_support(
        runner: CliRunner, tmp_path: Path, catalog: Catalog) -> None:
    """Issue 18 item 1: the same play sheet as Markdown: every Mek, weapon (to hit, special
    rule), system effect, pilot, skill text and support result waiting, read from the
    catalog, with Hits and heat rating as boxes."""
    doc = build_company(runner, tmp_path)
    code, text, err = invoke(runner, "roster", "export", COMPANY, "--format", "md")
    assert code == 0, err
    plain = flat(unescape_md(text))
    missing = [t for t in expected_texts(doc, catalog, doc["support"]) if t not in plain]
    assert not missing, missing
    hits = catalog.for_size(Size.LIGHT).hits
    assert f"- **Hits** {' '.join([BOX] * hits)}" in text
    assert "## Support waiting" in text and "## Pilots without a Mek" in text
    assert RESERVE in text


def test_html_and_markdown_render_one_model(runner: CliRunner, tmp_path: Path) -> None:
    """Issue 18 item 1: both formats are drawn from one sheet model, so every value of that
    model is printed by both (escaped for each)."""
    build_company(runner, tmp_path)
    doc = json.loads(invoke(runner, "roster", "export", COMPANY, "--format", "json")[1])
    sheet = roster_io.play_sheet(doc)
    page = roster_io.to_html(doc)
    text = roster_io.to_markdown(doc)
    values: list[str] = []
    for card in sheet.meks:
        values += [card.callsign, card.design, card.move, f"{card.heat}", f"{card.armor}"]
        values += [v for w in card.weapons for v in (w.name, w.family, w.band, w.to_hit,
                                                     w.special)]
        values += [v for s in card.systems for v in (s.name, s.effect)]
        assert card.pilot is not None
        values += [card.pilot.name, card.pilot.level]
        values += [v for s in card.pilot.skills for v in (s.name, s.text)]
    values += [v for s in sheet.support for v in (s.result, s.effect)]
    values += [p.name for p in sheet.reserves]
    for value in filter(None, values):
        assert str(escape(value)) in page, value
        assert md(value) in text, value


def test_heat_rating_on_the_sheet_is_the_engines(runner: CliRunner, tmp_path: Path,
                                                 catalog: Catalog) -> None:
    """The heat rating printed is the one the engine plays with (R6.10): a Heat Sink adds
    one, and so does Chassis Familiarity for the size the pilot flies; AR and move are the
    chassis'."""
    doc = build_company(runner, tmp_path)
    cards = {c.callsign: c for c in roster_io.play_sheet(doc).meks}
    heavy, medium = catalog.for_size(Size.HEAVY), catalog.for_size(Size.MEDIUM)
    custom = cards[CUSTOM[0]]
    assert custom.custom and custom.heat == heavy.heat + 1  # its Heat Sink
    assert (custom.armor, custom.move, custom.hits) == (heavy.armor, str(heavy.move),
                                                        heavy.hits)
    viper = next(c for c in cards.values() if c.design == "VIPER")
    assert viper.heat == medium.heat + 1  # Jonas O'Hara: Chassis Familiarity (Medium)
    assert viper.pilot is not None and viper.pilot.modifiers == (
        ("move", 0), ("to hit", 0), ("skill roll", 0))  # Regular
    anvil = cards["Anvil"]
    assert anvil.heat == heavy.heat and anvil.pilot is not None
    green = catalog.level("Green")
    assert anvil.pilot.modifiers == (("move", green.move), ("to hit", green.to_hit),
                                     ("skill roll", green.skill_roll))


def test_damage_carried_comes_ticked(runner: CliRunner, tmp_path: Path) -> None:
    """Hits a Mek carries from an earlier battle are printed as ticked boxes."""
    doc = build_company(runner, tmp_path)
    anvil = next(m for m in doc["meks"] if m["callsign"] == "Anvil")
    anvil["damage"] = 2
    text = roster_io.to_markdown(doc)
    assert f"- **Hits** {TICKED} {TICKED} {BOX} {BOX}" in text
    assert roster_io.to_html(doc).count('class="box hit"') == 2


def test_a_callsign_holding_html_prints_as_text(runner: CliRunner, tmp_path: Path) -> None:
    """Issue 18 item 1: every name is escaped: a '<script>' callsign is text on the sheet."""
    build_company(runner, tmp_path)
    code, page, _ = invoke(runner, "roster", "export", COMPANY, "--format", "html")
    assert code == 0
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Iron &amp; Ash" in page


def test_paper_sets_the_css_page_size(runner: CliRunner, tmp_path: Path) -> None:
    """--paper a4|letter sets the @page size; without it the printer's paper is used."""
    build_company(runner, tmp_path)
    pages = {paper: invoke(runner, "roster", "export", COMPANY, "--format", "html",
                           *(["--paper", paper] if paper else []))[1]
             for paper in ("a4", "letter", None)}
    assert "size: A4;" in pages["a4"] and "size: letter;" in pages["letter"]
    assert "@page { margin" in pages[None] and "@page { size" not in pages[None]
    assert "break-inside: avoid" in pages[None]
    code, _, err = invoke(runner, "roster", "export", COMPANY, "--format", "md", "--paper",
                          "a4")
    assert code == 2 and "only the html sheet has a page size" in err
    code, _, err = invoke(runner, "roster", "export", COMPANY, "--format", "html", "--paper",
                          "a5")
    assert code == 2 and "use a4 or letter" in err


def test_muster_sheet_shows_the_waiting_muster(runner: CliRunner, tmp_path: Path,
                                               catalog: Catalog) -> None:
    """Issue 18 item 1: 'meks muster sheet COMPANY' prints the Meks mustered with their
    pilots and the support results the muster took (Markdown by default), and writes HTML
    to a .html file."""
    doc = build_company(runner, tmp_path)
    assert invoke(runner, "muster", COMPANY, "Anvil", CUSTOM[0], "--budget", "200")[0] == 0
    code, text, err = invoke(runner, "muster", "sheet", COMPANY)
    assert code == 0, err
    assert "Muster waiting for its battle" in text
    assert "### Anvil" in text and f"### {CUSTOM[0]}" in text and "Sting" not in text
    assert RESERVE not in text
    for roll in doc["support"]:
        assert md(catalog.support_entry(roll["result"]).effect) in text
    target = tmp_path / "force.html"
    code, out, err = invoke(runner, "muster", "sheet", COMPANY, "-o", str(target))
    assert code == 0, err
    assert "html muster sheet" in out and target.read_text("utf-8").startswith("<!doctype html>")


def test_muster_sheet_errors_are_plain(runner: CliRunner, tmp_path: Path) -> None:
    """Issue 18 item 1: no company, no muster waiting, an unknown format: one sentence each,
    exit 1 (refused) or 2 (bad usage), never a traceback."""
    code, _, err = invoke(runner, "muster", "sheet", "Nobody")
    # A SQLite file does not exist yet; a PostgreSQL server's database always does.
    nothing = "No database at" in err or "No company is called 'Nobody'" in err
    assert code == 1 and nothing and "Traceback" not in err
    assert invoke(runner, "company", "create", "Quiet Co")[0] == 0
    code, _, err = invoke(runner, "muster", "sheet", "Nobody")
    assert code == 1 and "Nobody" in err and "Traceback" not in err
    code, _, err = invoke(runner, "muster", "sheet", "Quiet Co")
    assert code == 1
    assert "Quiet Co has no muster waiting for its battle" in err
    assert "meks muster \"Quiet Co\" MEK" in err
    code, _, err = invoke(runner, "muster", "sheet", "Quiet Co", "--format", "pdf")
    assert code == 2 and "use html or md" in err


def test_muster_help_names_the_sheet_and_recording_still_works(runner: CliRunner) -> None:
    """'meks muster --help' is the help of recording a force and names 'meks muster sheet';
    a usage error names the command as typed."""
    code, out, _ = invoke(runner, "muster", "--help")
    assert code == 0 and "--budget" in out and "meks muster sheet COMPANY" in out
    code, out, _ = invoke(runner, "muster", "sheet", "--help")
    assert code == 0 and "--paper" in out and "--format" in out
    code, _, err = invoke(runner, "muster")
    assert code == 2 and "meks muster record" not in err and "Missing argument" in err


def test_a_pilots_record_on_the_sheet_says_one_kill_and_one_scenario() -> None:
    from campaigns.reports.sheet import PilotCard
    from campaigns.reports.sheet_render import record_text

    def card(kills: int, scenarios: int) -> PilotCard:
        return PilotCard("Vera", "Regular", (), (), kills, scenarios, "active")

    assert record_text(card(1, 1)) == "1 kill, 1 scenario"
    assert record_text(card(0, 2)) == "0 kills, 2 scenarios"
