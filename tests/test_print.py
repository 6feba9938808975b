"""The printable roster, checked in a real browser: headless Chromium renders the HTML
export to PDF and PNG, and the PDF's text holds every Mek and pilot."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from tests.conftest import IN_CI

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
PDFTOTEXT = shutil.which("pdftotext")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]


def need_browser() -> tuple[str, str]:
    if BROWSER and PDFTOTEXT:
        return BROWSER, PDFTOTEXT
    message = "Chromium and pdftotext are needed (.ci/run installs chromium and poppler-utils)"
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


def test_html_roster_renders_in_a_real_browser_with_every_mek_and_pilot(
        runner: CliRunner, tmp_path: Path) -> None:
    browser, pdftotext = need_browser()
    company = "Iron & Ash"
    steps = [["company", "create", company]]
    meks = [("DRAKEN", "Anvil"), ("WASP", "Sting"), ("ODIN", "Thunder <Titan>")]
    pilots = ["Vera", "Jonas O'Hara", "Ana"]
    for (design, callsign), pilot in zip(meks, pilots, strict=True):
        steps += [["mek", "buy", company, design, "--callsign", callsign],
                  ["pilot", "hire", company, pilot],
                  ["pilot", "assign", company, pilot, callsign]]
    steps.append(["pilot", "hire", company, "Reserve Ray"])
    for args in steps:
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.stderr
    page = tmp_path / "roster.html"
    result = runner.invoke(app, ["roster", "export", company, "--format", "html", "-o",
                                 str(page)])
    assert result.exit_code == 0, result.stderr
    pdf, png = tmp_path / "roster.pdf", tmp_path / "roster.png"
    profile = tmp_path / "profile"
    for output in (f"--print-to-pdf={pdf}", f"--screenshot={png}"):
        subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", "--window-size=1000,1400",
                        "--no-pdf-header-footer", output, page.as_uri()],
                       check=True, capture_output=True, timeout=120)
    assert pdf.read_bytes().startswith(b"%PDF")
    assert png.read_bytes().startswith(b"\x89PNG")
    text = subprocess.run([pdftotext, "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    flat = " ".join(text.split())
    for name in [company, *(c for _, c in meks), *pilots, "Reserve Ray", "DRAKEN", "ODIN"]:
        assert name in flat, f"{name!r} missing from the printed roster"
