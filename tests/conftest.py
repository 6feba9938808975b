from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meks.catalog import Catalog, load_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


SERVER = os.environ.get("MEKS_TEST_DB")  # e.g. postgresql+psycopg://meks:meks@127.0.0.1/meks
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")  # read before tests set it


def _reset_server(url: str) -> None:
    """Empty the test server's database: every test starts from a blank schema."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


@pytest.fixture(autouse=True)
def temp_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Every test works on a database of its own, never the user's: a file in the test's
    folder, or, when MEKS_TEST_DB names a server (CI runs the suite a second time so), that
    server's database emptied first. A server that cannot be reached fails the test."""
    if "db.engine" in sys.modules:
        sys.modules["db.engine"].dispose_all()
    if SERVER:
        _reset_server(SERVER)
        path = SERVER
    else:
        path = str(tmp_path / "meks-test.db")
    monkeypatch.setenv("MEKS_DB", path)
    monkeypatch.setenv("MEKS_SCENARIOS_DIR", str(tmp_path / "user-scenarios"))
    monkeypatch.setenv("CI", "true")
    from cli import state

    state.set_db(None)
    yield path
    if "db.engine" in sys.modules:  # close connections only if a test opened any
        sys.modules["db.engine"].dispose_all()
