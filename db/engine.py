"""Where the data lives, and opening it.

The database is chosen by ``--db`` (a path or a URL), then the ``MEKS_DB`` environment
variable, then ``meks.db`` in the per-user data directory. SQLite connections set
``busy_timeout``, WAL and ``foreign_keys=ON`` (in that order), and every transaction starts
with ``BEGIN IMMEDIATE``, so two ``meks`` processes at once queue for the write lock instead
of failing with "database is locked". Any other SQLAlchemy URL (PostgreSQL for a shared
league) works the same way; nothing outside this package knows which one is in use.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlmodel import Session

from db.migrations import migrate
from meks.errors import InputError, MeksError

ENV_VAR = "MEKS_DB"
BUSY_TIMEOUT_MS = 60_000


class DatabaseError(MeksError):
    """The database cannot be opened or used."""


class NoDatabase(DatabaseError):
    """There is no database where one was asked for, and the command does not make one."""


class UnreadableDatabase(DatabaseError):
    """The path given for the database is a folder, or a file that is not a database."""

    exit_code = 2


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("meks", appauthor=False)) / "meks.db"


def resolve(db: str | None = None) -> str:
    """The database in use, as given: ``--db``, else ``MEKS_DB``, else the default file."""
    return db or os.environ.get(ENV_VAR) or str(default_path())


def to_url(location: str) -> str:
    """An SQLAlchemy URL for a path or URL."""
    if "://" in location:
        return location
    return "sqlite:///" + str(Path(location).expanduser().resolve())


def describe(location: str) -> str:
    """The location fit to print: a path as is, a URL without its password."""
    if "://" not in location:
        return str(Path(location).expanduser().resolve())
    from sqlalchemy.engine import make_url

    try:
        return make_url(location).render_as_string(hide_password=True)
    except Exception:
        return location


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # let the begin hook issue BEGIN itself
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def _sqlite_begin(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")


_engines: dict[str, Engine] = {}


def _sqlite_file(url: str) -> Path | None:
    """The file an SQLite URL names, or None (another database, or one in memory)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def engine_for(location: str, create: bool = True) -> Engine:
    """The engine for ``location``, created, migrated and cached on first use.

    ``create=False`` is for commands that only read: a database file that does not exist,
    or is empty, raises ``NoDatabase`` instead of being made (with its folder). A folder, or
    a file that is not an SQLite database, raises ``UnreadableDatabase``."""
    url = to_url(location)
    if url in _engines:
        return _engines[url]
    try:
        if url.startswith("sqlite"):
            file = _sqlite_file(url)
            if file is not None:
                _check_file(file, location, create)
                file.parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)
        else:
            engine = create_engine(url, pool_pre_ping=True)
        with engine.begin() as conn:
            migrate(conn)
    except ModuleNotFoundError as exc:
        raise InputError(describe(location), [
            f"the database driver {exc.name!r} is not installed "
            "(for PostgreSQL: pip install 'meks[postgres]')"]) from None
    except DBAPIError as exc:
        if url.startswith("sqlite") and "not a database" in str(exc.orig):
            raise UnreadableDatabase(
                f"Cannot open the database at {describe(location)}: the file is not an SQLite "
                "database. Check the path given with --db or MEKS_DB.") from None
        raise DatabaseError(
            f"Cannot open the database at {describe(location)}: {_reason(exc)}. "
            "Check the path or URL given with --db or MEKS_DB."
        ) from None
    except (SQLAlchemyError, OSError) as exc:
        raise DatabaseError(
            f"Cannot open the database at {describe(location)}: {_reason(exc)}. "
            "Check the path or URL given with --db or MEKS_DB."
        ) from None
    _engines[url] = engine
    return engine


def _check_file(file: Path, location: str, create: bool) -> None:
    if file.is_dir():
        raise UnreadableDatabase(
            f"Cannot open the database at {describe(location)}: it is a folder, not a file. "
            "Give a file's path with --db or MEKS_DB.")
    if create:
        return
    # An empty file holds no database yet: SQLite would make one in it, which a command
    # that only reads must not do.
    try:
        if file.stat().st_size > 0:
            return
        why = " (the file is empty)"
    except (FileNotFoundError, NotADirectoryError):
        why = ""
    raise NoDatabase(
        f"No database at {describe(location)}{why}. "
        "Check the path given with --db or MEKS_DB; a command that changes data (such as "
        "'meks company create') makes it.")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OperationalError) and exc.orig is not None:
        return str(exc.orig).splitlines()[0]
    if isinstance(exc, SQLAlchemyError):
        return str(exc).splitlines()[0]
    return str(exc)


def dispose_all() -> None:
    """Close every cached engine (tests switch databases between cases)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()


def _driver_reason(exc: DBAPIError) -> str:
    """What the database said, in its first line: never the statement, never its values."""
    text = str(exc.orig if exc.orig is not None else exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__).rstrip(".")


@contextmanager
def transaction(location: str, create: bool = True) -> Iterator[Session]:
    """A session whose work is committed together at the end, or not at all. ``create``:
    as for ``engine_for``."""
    engine = engine_for(location, create)
    try:
        with Session(engine, expire_on_commit=False) as session, session.begin():
            yield session
    except IntegrityError:
        # Only a change racing another one can get here: the use-cases check what they
        # store, and changes to one company take turns (db.locks).
        raise DatabaseError(
            f"The change clashed with another one made to the database at "
            f"{describe(location)} at the same moment; nothing was changed, so try again."
        ) from None
    except DBAPIError as exc:
        raise DatabaseError(
            f"The database at {describe(location)} could not complete the change "
            f"({_driver_reason(exc)}); nothing was changed, so try again."
        ) from None
