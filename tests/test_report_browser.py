"""The campaign and battle reports in a real browser (issue 27, item 3, must hold): headless
Chromium, driven by Playwright, opens each page with no console error, no script run and no
request outside the file, shows every hostile name as text, and prints to PDF on A4 and on
Letter with the company's names in the text, every word inside the page and no table wider
than the paper."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import IN_CI
from tests.test_print import BROWSER, FLAGS, PAPERS, Printed, need_browser, read_pdf, run

COMPANY = "<script>alert(1)</script> & Sons"
CALLSIGN = '"><img src=x onerror=alert(1)>'
PILOT = "O'Hara <b>bold</b>"
# the printable width of each paper at the page's 12 mm margins, in CSS pixels (96 a inch)
PRINTABLE = {"a4": (210 - 24) / 25.4 * 96, "letter": (215.9 - 24) / 25.4 * 96}


class Watched:
    """What a page did while it was open: console lines, uncaught errors, requests."""

    def __init__(self) -> None:
        self.console: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []


@pytest.fixture
def browser() -> Iterator[Any]:
    need_browser()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a dev install has it
        message = "the playwright package is needed (pip install -e '.[dev]')"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=BROWSER,
                                     args=[f for f in FLAGS if f != "--headless"])
        try:
            yield launched
        finally:
            launched.close()


def open_page(browser: Any, file: Path) -> tuple[Any, Watched]:
    """The page ``file`` open in a fresh context with no network: any request but the
    file's own is recorded and refused."""
    watched = Watched()
    context = browser.new_context(offline=True, java_script_enabled=True)
    page = context.new_page()
    page.on("console", lambda m: watched.console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: watched.errors.append(str(e)))
    page.on("request", lambda r: watched.requests.append(r.url))
    url = file.as_uri()
    page.route("**/*", lambda route: route.continue_() if route.request.url == url
               else route.abort())
    page.goto(url, wait_until="load")
    return page, watched


def printed(page: Any, paper: str, pdf: Path) -> Printed:
    _, pdftotext = need_browser()
    page.emulate_media(media="print")
    page.pdf(path=str(pdf), format={"a4": "A4", "letter": "Letter"}[paper],
             print_background=True, prefer_css_page_size=True)
    return read_pdf(pdftotext, pdf)


def fits(page: Any, paper: str) -> list[str]:
    """What would be cut at the paper's printable width: the page, or any table, wider
    than it."""
    page.emulate_media(media="print")
    page.set_viewport_size({"width": int(PRINTABLE[paper]), "height": 1000})
    return list(page.evaluate("""() => {
        const wide = [];
        const width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > width) wide.push('page');
        for (const t of document.querySelectorAll('table, .turns, figure'))
            if (t.getBoundingClientRect().right > width + 0.5) wide.push(t.id || t.className);
        return wide;
    }"""))


# At a phone's width a cell whose text wraps is at least this wide and each row at most this
# tall (squeezed into the window, the step table's Pilots column was 42 px and a row 660 px).
PHONE, NARROWEST, TALLEST = 360, 80, 420


def phone_layout(page: Any) -> list[str]:
    """What reads badly at a phone's width: the page scrolling sideways, a table cell
    narrower than NARROWEST px with its text on more than a line, a row taller than TALLEST
    px, and a word broken across lines that would have fitted its cell whole (only a name
    wider than its cell may break)."""
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": PHONE, "height": 800})
    return list(page.evaluate("""([narrowest, tallest]) => {
        const bad = [];
        const width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > width) bad.push('page scrolls sideways');
        for (const table of document.querySelectorAll('table.record')) {
            for (const row of table.querySelectorAll('tbody tr')) {
                const tall = row.getBoundingClientRect().height;
                if (tall > tallest) bad.push(`${table.id}: a row ${tall} px tall`);
                for (const cell of row.cells) {
                    const wide = cell.getBoundingClientRect().width;
                    const all = document.createRange();
                    all.selectNodeContents(cell);
                    const lines = new Set(Array.from(all.getClientRects())
                        .filter(r => r.width > 0).map(r => Math.round(r.bottom)));
                    if (wide < narrowest && lines.size > 1)
                        bad.push(`${table.id}: ${lines.size} lines in a cell ${wide} px wide`);
                    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                    for (let text = walk.nextNode(); text; text = walk.nextNode()) {
                        for (const word of text.data.matchAll(/[^\\s-]+/g)) {
                            const range = document.createRange();
                            range.setStart(text, word.index);
                            range.setEnd(text, word.index + word[0].length);
                            const parts = Array.from(range.getClientRects())
                                .filter(r => r.width > 0);
                            const whole = parts.reduce((sum, r) => sum + r.width, 0);
                            if (parts.length > 1 && whole <= cell.clientWidth)
                                bad.push(`${table.id}: "${word[0]}" broken`);
                        }
                    }
                }
            }
        }
        return bad;
    }""", [NARROWEST, TALLEST]))


def check_clean(page: Any, watched: Watched, file: Path, title: str) -> None:
    assert watched.console == [] and watched.errors == [], (watched.console, watched.errors)
    assert watched.requests == [file.as_uri()], watched.requests
    assert page.title() == title  # a script run would have had its way with the page
    injected = page.evaluate(
        "() => document.querySelectorAll('script, img, iframe, object, embed, b, a').length")
    assert injected == 0


@pytest.fixture
def campaign_page(runner: CliRunner, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A company of hostile names one step into the built-in campaign, and its report."""
    run(runner, "company", "create", COMPANY)
    run(runner, "mek", "buy", COMPANY, "VIPER", "--callsign", CALLSIGN)
    run(runner, "pilot", "hire", COMPANY, PILOT)
    run(runner, "pilot", "assign", COMPANY, PILOT, CALLSIGN)
    run(runner, "campaign", "start", COMPANY, "--seed", "5")
    run(runner, "campaign", "next", COMPANY)
    shown = json.loads(run(runner, "campaign", "show", COMPANY, "--json"))
    page = tmp_path / "campaign.html"
    run(runner, "campaign", "report", COMPANY, "-o", str(page))
    return page, shown


def test_the_campaign_report_opens_offline_and_prints_on_a4_and_letter(
        browser: Any, campaign_page: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    file, shown = campaign_page
    step = shown["steps"][0]
    assert CALLSIGN in [p["mek"] for p in step["pilots"]], "the company's own VIPER fought"
    page, watched = open_page(browser, file)
    check_clean(page, watched, file, f"{COMPANY}: {shown['campaign']}")
    text = page.evaluate("() => document.body.innerText")
    for name in (COMPANY, CALLSIGN, PILOT):
        assert name in text
    assert page.locator("figure svg").count() >= 2  # the odds and the pilots' charts
    assert page.locator(f"#battle-{step['battle_id']} .turn").count() >= 2
    # On a phone's width the steps are cards and the battles scroll on their own: every
    # cell wide enough to read, no row a screen tall, no word cut, the page not sideways.
    assert phone_layout(page) == []
    for paper, (width, height) in PAPERS.items():
        assert fits(page, paper) == [], paper
        pdf = printed(page, paper, tmp_path / f"campaign-{paper}.pdf")
        assert pdf.size == pytest.approx((width, height), abs=1), paper
        solid = "".join(pdf.text.split())  # a long name may wrap at any character
        for name in (COMPANY, CALLSIGN, PILOT, "Opening Shots"):
            assert "".join(name.split()) in solid, (paper, name)
        outside = [w for w in pdf.words if w[1] < 0 or w[2] < 0 or w[3] > width
                   or w[4] > height]
        assert not outside, (paper, outside[:5])
        # each battle's map begins on a page of its own, after the record and the charts
        assert len(pdf.pages) >= 2
        assert any(p.startswith("Step 1: Opening Shots") for p in pdf.pages), paper
    page.context.close()


def test_a_campaign_that_went_broke_says_so_in_its_report(
        browser: Any, runner: CliRunner, tmp_path: Path) -> None:
    """A campaign that ended broke records no step for it: the report says where and why
    it ended, and what the treasury holds, rather than an empty table and no treasury."""
    run(runner, "company", "create", "Skint")
    run(runner, "campaign", "start", "Skint", "--seed", "2")
    run(runner, "mek", "buy", "Skint", "ODIN")
    run(runner, "mek", "buy", "Skint", "THOR")
    assert json.loads(run(runner, "campaign", "next", "Skint", "--json"))["result"] == "broke"
    shown = json.loads(run(runner, "campaign", "show", "Skint", "--json"))
    assert shown["status"] == "broke" and shown["treasury"] == 5 and shown["steps"] == []
    said = " ".join(run(runner, "campaign", "show", "Skint").split())
    assert "Broke before step 1 (opening-shots-campaign): the company's Meks and the 5 " \
           "points in its treasury (what was bought or sold by hand since the campaign " \
           "began changed the treasury by -55) could not field a legal force" in said
    file = tmp_path / "broke.html"
    run(runner, "campaign", "report", "Skint", "-o", str(file))
    page, watched = open_page(browser, file)
    check_clean(page, watched, file, f"Skint: {shown['campaign']}")
    text = " ".join(page.evaluate("() => document.body.innerText").split())
    assert "Treasury now: 5 points." in text and "keeps no treasury" not in text
    assert page.locator("#broke").inner_text().startswith("Broke before step 1")
    # the treasury chart ends at what the treasury held when it went broke
    assert page.locator("#chart-treasury text", has_text="broke").count() == 1
    page.context.close()


def test_the_battle_report_opens_offline_and_prints(
        browser: Any, campaign_page: tuple[Path, dict[str, Any]], runner: CliRunner,
        tmp_path: Path) -> None:
    _, shown = campaign_page
    battle_id = shown["steps"][0]["battle_id"]
    file = tmp_path / "battle.html"
    run(runner, "battle", "report", str(battle_id), "-o", str(file))
    page, watched = open_page(browser, file)
    check_clean(page, watched, file, f"Battle {battle_id}: Opening Shots (campaign)")
    assert page.locator(".turn").first.locator(".zone").count() == 9
    # the reveal: a heading for each side's, what was kept from it listed beneath
    headings = page.locator(".reveal h4").all_inner_texts()
    assert headings[0].startswith("What the defender kept") or \
        headings[0] == "The defender kept nothing from the attacker."
    assert headings[1].startswith(("What the attacker kept", "The attacker kept nothing"))
    assert not any(item.startswith("What the")
                   for item in page.locator(".reveal li").all_inner_texts())
    pdf = printed(page, "letter", tmp_path / "battle.pdf")
    assert COMPANY in pdf.text and "Set-up" in pdf.text and "What was hidden" in pdf.text
    assert fits(page, "a4") == []
    page.context.close()


def test_hostile_names_right_to_left_and_zero_width_show_as_text(
        browser: Any, tmp_path: Path) -> None:
    """Every kind of name the page shows (company, campaign, scenario, pilot, Mek, salvage,
    units on the map, the reveal, chart labels) set to markup, a right-to-left override or
    zero-width characters: each is text in the page, nothing is injected, no script runs."""
    from tests.test_record import HOSTILE, hostile_page

    file = tmp_path / "hostile.html"
    file.write_text(hostile_page(), encoding="utf-8")
    page, watched = open_page(browser, file)
    check_clean(page, watched, file, HOSTILE[0])
    text = page.evaluate("() => document.body.innerText")
    for name in HOSTILE:
        assert name in text, name
    svg_text = page.evaluate(
        "() => Array.from(document.querySelectorAll('svg text')).map(t => t.textContent)")
    assert any(HOSTILE[0] in t for t in svg_text)
    assert phone_layout(page) == []  # a long name wraps in its card, the page does not widen
    pdf = printed(page, "a4", tmp_path / "hostile.pdf")
    assert "<script>alert(1)</script>" in pdf.text
    page.context.close()
