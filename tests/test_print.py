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
from meks.catalog import Catalog
from meks.pilots import base_skill
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
    are only earned in battle, so they are written into the roster and imported."""
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
    for pilot in doc["pilots"]:
        pilot["skills"] = SKILLS.get(pilot["name"], [])
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
