from __future__ import annotations

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


@pytest.fixture(autouse=True)
def temp_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test works on a database of its own, never the user's."""
    path = tmp_path / "meks-test.db"
    monkeypatch.setenv("MEKS_DB", str(path))
    monkeypatch.setenv("MEKS_SCENARIOS_DIR", str(tmp_path / "user-scenarios"))
    monkeypatch.setenv("CI", "true")
    from cli import state

    state.set_db(None)
    yield path
    import sys

    if "db.engine" in sys.modules:  # close connections only if a test opened any
        sys.modules["db.engine"].dispose_all()
