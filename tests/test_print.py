"""Printable play sheets, checked in a real browser (issue 18, item 1): headless Chromium
prints the HTML roster and muster sheets to PDF on A4 and on Letter, and the PDF's text
holds every Mek, weapon, system, pilot, skill text and support result, with no word outside
the page and no Mek card split over two pages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from meks.game.catalog import Catalog
from meks.game.pilots import base_skill
from tests.conftest import IN_CI

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
PDFTOTEXT = shutil.which("pdftotext")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]
PAPERS = {"a4": (595.0, 842.0), "letter": (612.0, 792.0)}  # page sizes in PDF points


def need_browser() -> tuple[str, str]:
    if BROWSER and PDFTOTEXT:
        return BROWSER, PDFTOTEXT
    message = "Chromium and pdftotext are needed (.ci/run installs chromium and poppler-utils)"
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


def run(runner: CliRunner, *args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stderr)
    return result.stdout


def print_pdf(browser: str, page: Path, pdf: Path, screenshot: Path | None = None) -> None:
    profile = pdf.parent / f"profile-{pdf.stem}"
    outputs = [f"--print-to-pdf={pdf}"] + ([f"--screenshot={screenshot}"] if screenshot else [])
    for output in outputs:
        subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}",
                        "--window-size=1000,1400", "--no-pdf-header-footer", output,
                        page.as_uri()], check=True, capture_output=True, timeout=120)
    assert pdf.read_bytes().startswith(b"%PDF")


def flat(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Printed:
    pages: list[str]  # each page's text, whitespace folded
    words: list[tuple[int, float, float, float, float, str]]  # page, box, word
    size: tuple[float, float]

    @property
    def text(self) -> str:
        return " ".join(self.pages)


def read_pdf(pdftotext: str, pdf: Path) -> Printed:
    """The PDF's text page by page (in reading order) and every word's box."""
    raw = subprocess.run([pdftotext, "-raw", str(pdf), "-"], check=True, capture_output=True,
                         text=True).stdout
    pages = [flat(p) for p in raw.split("\f") if p.strip()]
    boxes = subprocess.run([pdftotext, "-bbox", str(pdf), "-"], check=True,
                           capture_output=True, text=True).stdout
    words = []
    size = (0.0, 0.0)
    for n, page in enumerate(re.findall(r"<page (.*?)</page>", boxes, re.S)):
        size = (float(re.search(r'width="([\d.]+)"', page)[1]),  # type: ignore[index]
                float(re.search(r'height="([\d.]+)"', page)[1]))  # type: ignore[index]
        for x0, y0, x1, y1, word in re.findall(
                r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" '
                r'yMax="([\d.-]+)">(.*?)</word>', page):
            words.append((n, float(x0), float(y0), float(x1), float(y1), word))
    return Printed(pages, words, size)


# ---- a company to play with -----------------------------------------------------------------

COMPANY = "Iron & Ash"
STOCK = [("WASP", "Sting"), ("VIPER", "Viper <script>alert(1)</script>"), ("DRAKEN", "Anvil"),
         ("THOR", "Hammerfall"), ("ODIN", "Thunder")]
CUSTOM = ("Hunter", "Custom Hunter Mk II")
PILOTS = ["Vera", "Jonas O'Hara", "Ana", "Bram", "Cass", "Dee"]
RESERVE = "Reserve Ray"
SKILLS = {"Jonas O'Hara": ["Accuracy", "Chassis Familiarity (Medium)"],
          "Dee": ["Maneuver", "Ice Man", "Log Hero"]}


def build_company(runner: CliRunner, tmp_path: Path) -> dict[str, Any]:
    """A company of varied Meks (five stock sizes and a custom design), each with a pilot,
    a Regular pilot with skills, a reserve pilot, and three support results waiting. Skills
    are only earned in battle, so they are written into the roster, with as many scenarios
    as they take, and imported."""
    design = tmp_path / "hunter.yaml"
    design.write_text(f"name: {CUSTOM[1]}\nsize: Heavy\n"
                      "weapons: [Rail Cannon, Vulcan Cannon, Twin Laser]\n"
                      "systems: [Heat Sink, Jammer]\n", encoding="utf-8")
    run(runner, "company", "create", "Draft")
    meks = [*STOCK, (str(design), CUSTOM[0])]
    for (mek_design, callsign), pilot in zip(meks, PILOTS, strict=True):
        run(runner, "mek", "buy", "Draft", mek_design, "--callsign", callsign)
        run(runner, "pilot", "hire", "Draft", pilot,
            *(["--regular"] if pilot in SKILLS else []))
        run(runner, "pilot", "assign", "Draft", pilot, callsign)
    run(runner, "pilot", "hire", "Draft", RESERVE)
    run(runner, "support", "roll", "Draft", "--count", "3", "--seed", "11")
    doc = json.loads(run(runner, "roster", "export", "Draft", "--format", "json"))
    for pilot in doc["pilots"]:  # a skill a scenario at most (R2.3)
        pilot["skills"] = SKILLS.get(pilot["name"], [])
        pilot["scenarios"] = max(pilot["scenarios"], len(pilot["skills"]))
    path = tmp_path / "company.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run(runner, "roster", "import", str(path), "--name", COMPANY)
    return json.loads(run(runner, "roster", "export", COMPANY, "--format", "json"))


def expected_texts(doc: dict[str, Any], catalog: Catalog, support: list[dict[str, Any]]
                   ) -> list[str]:
    """Every name and rule text a sheet of ``doc`` must print, read from the catalog."""
    texts = [doc["company"]["name"]]
    for mek in doc["meks"]:
        texts += [mek["callsign"], mek["design"]]
        design = mek["custom_design"] or {
            "weapons": catalog.design(mek["design"]).weapons,
            "systems": catalog.design(mek["design"]).systems}
        for name in design["weapons"]:
            weapon = catalog.weapon(name)
            texts += [weapon.name, weapon.to_hit_text, weapon.special]
        for name in design["systems"]:
            texts += [catalog.system(name).name, catalog.system(name).effect]
    for pilot in doc["pilots"]:
        texts.append(pilot["name"])
        texts += [catalog.skill(base_skill(label)).effect for label in pilot["skills"]]
        texts += pilot["skills"]
    for roll in support:
        texts += [roll["result"], catalog.support_entry(roll["result"]).effect]
    return [flat(t) for t in texts if t]


def test_play_sheet_prints_every_mek_weapon_system_pilot_skill_and_support_on_a4_and_letter(
        runner: CliRunner, tmp_path: Path, catalog: Catalog) -> None:
    """Issue 18 item 1 (must hold): Chromium prints the roster's HTML play sheet on A4 and
    on Letter; each PDF holds every Mek, weapon (to hit, special rule), system effect, pilot,
    skill text and support result waiting; every word lies inside the page; each Mek's card
    is on one page."""
    browser, pdftotext = need_browser()
    doc = build_company(runner, tmp_path)
    assert len(doc["support"]) == 3 and any(p["skills"] for p in doc["pilots"])
    wanted = expected_texts(doc, catalog, doc["support"])
    for paper, (width, height) in PAPERS.items():
        page = tmp_path / f"roster-{paper}.html"
        run(runner, "roster", "export", COMPANY, "--format", "html", "--paper", paper,
            "-o", str(page))
        pdf = tmp_path / f"roster-{paper}.pdf"
        print_pdf(browser, page, pdf)
        printed = read_pdf(pdftotext, pdf)
        assert printed.size == pytest.approx((width, height), abs=1), paper
        assert len(printed.pages) > 1  # enough Meks for page breaks to matter
        missing = [t for t in wanted if t not in printed.text]
        assert not missing, (paper, missing)
        assert "Hits" in printed.text and "Heat rating" in printed.text and "AR" in printed.text
        outside = [w for w in printed.words if w[1] < 0 or w[2] < 0 or w[3] > width
                   or w[4] > height]
        assert not outside, (paper, outside[:5])
        for mek in doc["meks"]:  # a card is not split: its heading and pilot share a page
            pilot = next(p["name"] for p in doc["pilots"] if p["mek"] == mek["id"])
            first = next(n for n, p in enumerate(printed.pages) if mek["callsign"] in p)
            assert f"Pilot: {pilot}" in printed.pages[first], (paper, mek["callsign"])


def test_muster_sheet_prints_the_mustered_force_and_its_support(
        runner: CliRunner, tmp_path: Path, catalog: Catalog) -> None:
    """Issue 18 item 1: 'meks muster sheet COMPANY --format html' prints, through Chromium,
    only the Meks mustered with their pilots, weapons, systems and skill texts, and the
    support results the muster took; Meks left at home are not on it."""
    browser, pdftotext = need_browser()
    doc = build_company(runner, tmp_path)
    run(runner, "muster", COMPANY, "Anvil", "Sting", CUSTOM[0], "--budget", "200")
    page = tmp_path / "muster.html"
    run(runner, "muster", "sheet", COMPANY, "-o", str(page), "--paper", "letter")
    pdf = tmp_path / "muster.pdf"
    print_pdf(browser, page, pdf)
    printed = read_pdf(pdftotext, pdf)
    mustered = {"Anvil", "Sting", CUSTOM[0]}
    force = {**doc, "meks": [m for m in doc["meks"] if m["callsign"] in mustered],
             "pilots": [p for p in doc["pilots"]
                        if p["mek"] in {m["id"] for m in doc["meks"]
                                        if m["callsign"] in mustered}]}
    missing = [t for t in expected_texts(force, catalog, doc["support"])
               if t not in printed.text]
    assert not missing, missing
    for absent in ("Hammerfall", "Thunder", RESERVE):
        assert absent not in printed.text
    assert not [w for w in printed.words if w[3] > printed.size[0] or w[4] > printed.size[1]]


def test_roster_sheet_shows_a_picture_of_the_sheet(runner: CliRunner, tmp_path: Path) -> None:
    """The HTML roster also renders as a screen picture (PNG) in Chromium."""
    browser, _ = need_browser()
    build_company(runner, tmp_path)
    page = tmp_path / "roster.html"
    run(runner, "roster", "export", COMPANY, "--format", "html", "-o", str(page))
    png = tmp_path / "roster.png"
    print_pdf(browser, page, tmp_path / "roster.pdf", png)
    assert png.read_bytes().startswith(b"\x89PNG")


# ---- issue 27 item 4: the scenario, the quick reference, hostile names ----------------------

def page_of(printed: Printed, text: str) -> int:
    return next(n for n, p in enumerate(printed.pages) if text in p)


def test_quick_reference_prints_on_one_page_and_no_table_is_cut_on_a4_and_letter(
        runner: CliRunner, tmp_path: Path) -> None:
    """Issue 27 item 4 (must hold): the muster sheet of a worn Mek and a Regular pilot, for
    a scenario, printed by Chromium on A4 and on Letter: the quick reference (turn, terrain,
    to hit, critical hits) is whole on one page of its own; the map, the set-up, the
    points table and every row of every reference table share a page with their heading;
    the worn heat rating is printed; no word lies outside the page."""
    from campaigns import roster_io
    from meks.game.catalog import load_catalog
    from tests.test_sheets_match import WORN, doc_after_muster, field_scenario, worn_company

    browser, pdftotext = need_browser()
    worn_company(runner, tmp_path)
    scenario = field_scenario(tmp_path)
    run(runner, "muster", WORN, "Anvil", "Viper <script>alert(1)</script>", "Sting",
        "--scenario", scenario, "--side", "attacker")
    sheet = roster_io.sheet.muster_sheet(doc_after_muster(runner), load_catalog())
    assert sheet is not None and sheet.reference is not None and sheet.scenario is not None
    ref = sheet.reference
    for paper, (width, height) in PAPERS.items():
        page = tmp_path / f"muster-{paper}.html"
        run(runner, "muster", "sheet", WORN, "-o", str(page), "--paper", paper)
        pdf = tmp_path / f"muster-{paper}.pdf"
        print_pdf(browser, page, pdf)
        printed = read_pdf(pdftotext, pdf)
        assert printed.size == pytest.approx((width, height), abs=1), paper
        assert not [w for w in printed.words if w[1] < 0 or w[2] < 0 or w[3] > width
                    or w[4] > height], paper
        first = page_of(printed, "Quick reference")
        on_page = printed.pages[first]
        assert on_page.startswith("Quick reference"), (paper, on_page[:80])  # a page its own
        wanted = [*ref.turn, ref.critical_check,
                  *(cell for table in (ref.terrain, ref.to_hit, ref.critical)
                    for row in table.rows for cell in row),
                  *ref.to_hit_notes]
        missing = [flat(t) for t in wanted if flat(t) not in on_page]
        assert not missing, (paper, missing[:5])
        assert all("Quick reference" not in p for p in printed.pages[first + 1:])
        heat = next(c.heat for c in sheet.meks if c.callsign == "Anvil")
        assert f"Heat rating {heat} (-1 for wear: 3 battles since new or overhauled)" \
            in printed.text
        # no table is cut: each one's heading and last row are on one page
        map_page = page_of(printed, "Map (north is up)")
        for cell in sheet.scenario.zones:
            assert f"{cell.zone} {cell.terrain}" in printed.pages[map_page], (paper, cell)
        assert "Budget" in printed.pages[page_of(printed, "Set-up")]
        points = page_of(printed, "Points Mek Design")
        assert f"Total {sheet.force.rows[-1][-1]}" in printed.pages[points]  # type: ignore[union-attr]
        for heading in ("Anvil DRAKEN (Heavy)", "Sting WASP (Light)"):  # a card is whole
            card = page_of(printed, heading)
            assert "Pilot:" in printed.pages[card].split(heading, 1)[1], (paper, heading)


CONSOLE = re.compile(r":CONSOLE[:(]")


def open_in_chromium(browser: str, page: Path, tmp_path: Path) -> tuple[str, list[str], str]:
    """Load ``page`` in headless Chromium: the DOM after any script ran, the console
    messages the page wrote, and the network requests the page made itself (every URL
    but the file's own; the browser's own background requests are not the page's)."""
    netlog = tmp_path / f"net-{page.stem}.json"
    done = subprocess.run([browser, *FLAGS, f"--user-data-dir={tmp_path / 'dom-profile'}",
                           "--enable-logging=stderr", "--v=0", f"--log-net-log={netlog}",
                           "--dump-dom", page.as_uri()],
                          check=True, capture_output=True, text=True, timeout=120)
    console = [line for line in done.stderr.splitlines() if CONSOLE.search(line)]
    events = json.loads(netlog.read_text())["events"]
    # A request's start names its initiator: the page's origin (a file's is "null"), or
    # "not an origin" for the browser's own.
    started = [e["params"] for e in events
               if "url" in e.get("params", {}) and "initiator" in e["params"]]
    requests = sorted({p["url"] for p in started if p["initiator"] != "not an origin"
                       and not p["url"].startswith(("file:", "data:"))})
    return done.stdout, console, "\n".join(requests)


def test_hostile_names_show_as_text_in_chromium_with_no_console_error_or_request(
        runner: CliRunner, tmp_path: Path) -> None:
    """Issue 27 (must hold): a sheet whose company, callsigns and pilots are
    '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', right-to-left overrides
    and zero-width characters, opened in Chromium: the DOM holds no script, image or
    element the names would make, the page writes nothing to the console and asks for
    nothing outside the file, and the printed PDF shows the names as text. A control page
    with a script and a remote image shows both checks can fail."""
    from html.parser import HTMLParser

    from campaigns import roster_io
    from tests.test_sheets_match import HOSTILE, hostile_doc

    browser, pdftotext = need_browser()
    control = tmp_path / "control.html"
    control.write_text('<!doctype html><title>c</title><script>console.error("x")</script>'
                       '<img src="http://example.invalid/x.png">', encoding="utf-8")
    _, console, requests = open_in_chromium(browser, control, tmp_path)
    assert console and "http://example.invalid/x.png" in requests

    doc = hostile_doc(runner, tmp_path)
    page = tmp_path / "hostile.html"
    page.write_text(roster_io.to_html(doc, "a4"), encoding="utf-8")
    dom, console, requests = open_in_chromium(browser, page, tmp_path)
    assert not console, console
    assert not requests, requests

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: set[str] = set()
            self.attrs: set[str] = set()

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.add(tag)
            self.attrs.update(name for name, _ in attrs)

    parsed = Tags()
    parsed.feed(dom)
    assert not parsed.tags & {"script", "img", "iframe", "object", "embed", "link"}
    assert not parsed.attrs & {"onerror", "onload", "src", "href"}
    pdf = tmp_path / "hostile.pdf"
    print_pdf(browser, page, pdf)
    printed = read_pdf(pdftotext, pdf)
    for text in ("<script>alert(1)</script> & \"><img src=x onerror=alert(1)>",
                 "<script>alert(1)</script> 0", '"><img src=x onerror=alert(1)> 1',
                 "Right to left", "Zerowidthjoined"):
        assert text in printed.text, text
    assert "\u202e" not in printed.text and "\u200b" not in printed.text
    assert HOSTILE[0] in printed.text
