from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meks.game.catalog import Catalog, load_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")  # read before tests set it
# When the suite runs in parallel (pytest-xdist), each worker process is named gw0, gw1, ...
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def _worker_server(url: str | None) -> str | None:
    """The server database this process tests against: MEKS_TEST_DB itself, or, for each
    parallel worker, a database of its own beside it (``meks_ci_gw0`` for ``meks_ci``), so
    that workers never empty each other's schema."""
    if not url or not WORKER:
        return url
    from sqlalchemy.engine import make_url

    base = make_url(url)
    return base.set(database=f"{base.database}_{WORKER}").render_as_string(hide_password=False)


# e.g. postgresql+psycopg://meks:meks@127.0.0.1/meks; the role needs CREATEDB to run in parallel
SERVER = _worker_server(os.environ.get("MEKS_TEST_DB"))


@pytest.fixture(scope="session", autouse=True)
def _worker_database() -> Iterator[None]:
    """A parallel worker's own server database, made afresh for the run and dropped after."""
    main = os.environ.get("MEKS_TEST_DB")
    if not (main and SERVER and main != SERVER):
        yield
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = make_url(SERVER).database
    engine = create_engine(main, isolation_level="AUTOCOMMIT")
    try:
        _drop_database(engine, name, last_try_raises=True)
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield
        if "db.engine" in sys.modules:
            sys.modules["db.engine"].dispose_all()
        # (left behind if it will not go: the next run drops it before making it afresh)
        _drop_database(engine, name, last_try_raises=False)
    finally:
        engine.dispose()


def _drop_database(engine: Any, name: str, last_try_raises: bool) -> None:
    """Drop a worker's database, its connections forced off. The server's own background
    workers (autovacuum) run as another role, which the test role may not force off: the
    drop is refused while one is connected, so it is tried again a few times."""
    import time

    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    for attempt in range(10):
        try:
            with engine.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except DBAPIError:
            if attempt == 9:
                if last_try_raises:
                    raise
                return
            time.sleep(0.5)


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


# The slow tests that take minutes, longest first: under pytest-xdist they start at once on
# different workers instead of queueing behind each other at the end of the run.
LONGEST = ("test_duel.py", "test_compiled.py", "test_bot.py", "test_concurrency.py")


@pytest.hookimpl(trylast=True)  # after -m has deselected what this run leaves out
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """pytest-xdist (``--dist worksteal``) first hands each worker an even, contiguous share
    of the tests in this order. Put the slow modules at the heads of different shares, each
    module whole (its fixtures, such as the compiled engine, are built once), so that the
    run ends when the last quick test does, not when a long one started last does."""
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers < 2:
        return
    modules: dict[str, list[pytest.Item]] = {}
    quick: list[pytest.Item] = []
    for item in items:
        if item.get_closest_marker("slow"):
            modules.setdefault(item.path.name, []).append(item)
        else:
            quick.append(item)
    if not modules:
        return
    order = sorted(modules, key=lambda m: (LONGEST.index(m) if m in LONGEST else len(LONGEST)))
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for n, name in enumerate(order):
        heads[n % workers].extend(modules[name])
    share = len(items) // workers
    arranged: list[pytest.Item] = []
    for n, head in enumerate(heads):
        arranged.extend(head)
        room = share * (n + 1) - len(arranged) if n < workers - 1 else len(quick)
        arranged.extend(quick[:max(0, room)])
        del quick[:max(0, room)]
    items[:] = arranged
