from __future__ import annotations

import pytest
from typer.testing import CliRunner

from meks.catalog import Catalog, load_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
