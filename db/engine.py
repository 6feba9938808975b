"""Where the data lives, and opening it.

The database is chosen by ``--db`` (a path or a URL), then the ``MEKS_DB`` environment
variable, then ``meks.db`` in the per-user data directory. SQLite connections set
``busy_timeout``, WAL and ``foreign_keys=ON`` (in that order), and every transaction starts
with ``BEGIN IMMEDIATE``, so two ``meks`` processes at once queue for the write lock instead
of failing with "database is locked". Any other SQLAlchemy URL (PostgreSQL for a shared
league) works the same way; nothing outside this package knows which one is in use.

A database is refused, before anything is written to it, when a newer meks made it (its
schema is above the one this version knows). An SQLite file that is read-only (no write
permission for this user, no write bit at all, or a read-only folder) is opened read-only
(SQLite's ``mode=ro``, and ``immutable=1`` when no other connection's journal is beside
it), so it can be read, and a change to it is refused in one sentence. A damaged file is
named as damaged. A URL that cannot be read is bad usage (exit 2), and no message ever
shows a password (see ``db.redact``).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    SQLAlchemyError,
)
from sqlmodel import Session

from db.migrations import LATEST, NewerSchema, applied_versions, migrate
from db.redact import MASK, SECRET_KEYS, scrub, shown
from meks.game.errors import InputError, MeksError, os_reason
from meks.game.text import printable

ENV_VAR = "MEKS_DB"
BUSY_TIMEOUT_MS = 60_000


class DatabaseError(MeksError):
    """The database cannot be opened or used."""


class NoDatabase(DatabaseError):
    """There is no database where one was asked for, and the command does not make one."""


class UnreadableDatabase(DatabaseError):
    """The path given for the database is a folder, or a file that is not a database."""

    exit_code = 2


class BadURL(DatabaseError):
    """The URL given for the database cannot be read, or names no kind of database."""

    exit_code = 2


class NewerDatabase(DatabaseError):
    """The database was written by a newer meks; this one neither reads nor writes it."""


class DamagedDatabase(DatabaseError):
    """The database file is corrupt; ``detail`` says what SQLite found."""

    def __init__(self, detail: str, where: str | None = None, refused: bool = False) -> None:
        super().__init__(damaged(detail, where, refused))
        self.detail = detail


class ReadOnlyDatabase(DatabaseError):
    """A change was asked of a database that can only be read."""


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("meks", appauthor=False)) / "meks.db"


def resolve(db: str | None = None) -> str:
    """The database in use, as given: ``--db``, else ``MEKS_DB``, else the default file."""
    return db or os.environ.get(ENV_VAR) or str(default_path())


# libpq's keyword connection string: 'host=db.example dbname=league user=ana password=x',
# each value plain or in single quotes (with \' and \\ inside)
_DSN_PAIR = re.compile(r"\s*([A-Za-z_]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']+)")
_DSN_NAMES = frozenset({"host", "hostaddr", "port", "dbname", "user", "service"})


def keyword_dsn(location: str) -> dict[str, str] | None:
    """The settings of a PostgreSQL keyword connection string ('host=... dbname=...'), or
    None when ``location`` is not one (a URL, a file's path). It must be all KEY=VALUE pairs
    and name at least one of host, hostaddr, port, dbname, user or service."""
    if "://" in location or "=" not in location:
        return None
    settings: dict[str, str] = {}
    at = 0
    while location[at:].strip():
        found = _DSN_PAIR.match(location, at)
        if found is None:
            return None
        value = found.group(2)
        if value.startswith("'"):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        settings[found.group(1).lower()] = value
        at = found.end()
    return settings if settings.keys() & _DSN_NAMES else None


def _dsn_url(settings: dict[str, str], location: str) -> str:
    """The URL of the PostgreSQL database a keyword connection string names."""
    from sqlalchemy.engine import URL

    rest = dict(settings)
    port = rest.pop("port", None)
    if port is not None and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        raise BadURL(f"The database connection string {describe(location)} has the port "
                     f"{port!r}, which is not a number between 1 and 65535; check the "
                     "connection string given with --db or MEKS_DB.")
    url = URL.create("postgresql+psycopg", username=rest.pop("user", None),
                     password=rest.pop("password", None), host=rest.pop("host", None),
                     port=int(port) if port is not None else None,
                     database=rest.pop("dbname", None), query=rest)
    return url.render_as_string(hide_password=False)


def to_url(location: str) -> str:
    """An SQLAlchemy URL for a path, a URL or a PostgreSQL keyword connection string. A URL
    that cannot be read, or that names no kind of database SQLAlchemy knows, raises
    ``BadURL`` (exit 2)."""
    dsn = keyword_dsn(location)
    if dsn is not None:
        location = _dsn_url(dsn, location)
    if "://" not in location:
        return "sqlite:///" + str(_absolute(location))
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import NoSuchModuleError

    example = ("give one such as postgresql+psycopg://USER@HOST/DATABASE, or a file's "
               "path, with --db or MEKS_DB")
    try:
        url = make_url(location)
        port = url.port
    except (ArgumentError, ValueError) as exc:
        what = "has a port that is not a number" if "int()" in str(exc) else "cannot be read"
        raise BadURL(f"The database URL {describe(location)} {what}; {example}.") from None
    if port is not None and not 0 < port < 65536:
        raise BadURL(f"The database URL {describe(location)} has the port {port}, which is "
                     f"not between 1 and 65535; {example}.")
    try:
        with warnings.catch_warnings():  # said once, when the engine is made
            warnings.simplefilter("ignore")
            url.get_dialect()().create_connect_args(url)  # reads the URL; connects nowhere
    except NoSuchModuleError:
        raise BadURL(f"The database URL {describe(location)} names no kind of database meks "
                     f"knows ({url.drivername!r}); {example}.") from None
    except ArgumentError as exc:
        raise BadURL(f"The database URL {describe(location)} cannot be used "
                     f"({_reason(exc, location)}); check the URL given with --db or "
                     "MEKS_DB.") from None
    except ModuleNotFoundError:
        pass  # a known kind whose driver is missing: said when the engine is made
    return location


def describe(location: str) -> str:
    """The location fit to print: a path as is, a URL or a keyword connection string
    without its passwords."""
    dsn = keyword_dsn(location)
    if dsn is not None:
        shown_settings = {k: (MASK if k in SECRET_KEYS else v) for k, v in dsn.items()}
        return " ".join(f"{k}={_dsn_value(v)}" for k, v in shown_settings.items())
    if "://" not in location:
        return str(_absolute(location))
    return shown(location)


def _dsn_value(value: str) -> str:
    if value and not re.search(r"[\s'\\]", value):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _absolute(location: str) -> Path:
    """The file ``location`` names, absolute, its links followed where they can be (a link
    that leads back to itself, or a name too long, is kept as given: opening it says why)."""
    path = Path(location).expanduser()
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of links (RuntimeError before Python 3.13)
        return Path(os.path.abspath(path))


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # let the begin hook issue BEGIN itself
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def _sqlite_begin(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def _sqlite_read_connect(dbapi_connection: Any, _record: Any) -> None:
    # A read-only file: no journal mode is set (that would write), no write lock is taken.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def _sqlite_read_begin(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN")


def read_only(file: Path) -> bool:
    """Whether the SQLite database ``file`` (which exists) can only be read here: this user
    may not write it, or it has no write bit at all (which holds for root too, whom the
    permissions would not stop), or its folder cannot take the journal SQLite writes
    beside it (likewise)."""
    try:
        mode = file.stat().st_mode
        folder_mode = file.parent.stat().st_mode
    except OSError:
        return False
    return (not mode & 0o222 or not os.access(file, os.W_OK)
            or not folder_mode & 0o222 or not os.access(file.parent, os.W_OK | os.X_OK))


def _read_only_engine(url: str, file: Path) -> Engine:
    """An engine that opens ``file`` read-only. When a journal of another connection is
    beside it (``-wal`` or ``-journal`` with content, or ``-shm``), SQLite reads it too
    (``mode=ro``); otherwise the file is all there is and it is opened ``immutable``, so
    SQLite creates no ``-wal``/``-shm`` files (it could not in a read-only folder)."""
    import sqlite3
    from urllib.request import pathname2url

    def beside(suffix: str) -> Path:
        return file.with_name(file.name + suffix)

    journal = beside("-shm").exists() or any(
        beside(suffix).exists() and beside(suffix).stat().st_size > 0
        for suffix in ("-wal", "-journal"))
    uri = f"file:{pathname2url(str(file))}?mode=ro" + ("" if journal else "&immutable=1")

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                               check_same_thread=False)

    engine = create_engine(url, creator=connect)
    event.listen(engine, "connect", _sqlite_read_connect)
    event.listen(engine, "begin", _sqlite_read_begin)
    return engine


_engines: dict[str, Engine] = {}


def database_files(location: str) -> list[Path]:
    """The files an SQLite database at ``location`` keeps its data in (the database and the
    journals SQLite writes beside it), or none: another kind of database, one in memory, or
    a location that cannot be read (which opening it reports)."""
    try:
        file = _sqlite_file(to_url(location))
    except (DatabaseError, ArgumentError, ValueError):
        return []
    if file is None:
        return []
    return [file, *(file.with_name(file.name + end) for end in ("-wal", "-shm", "-journal"))]


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
    a file that is not an SQLite database, raises ``UnreadableDatabase``; a URL that cannot
    be read, ``BadURL``; a database a newer meks wrote, ``NewerDatabase`` (before anything
    is written to it); a damaged file, ``DamagedDatabase``. A read-only SQLite file is
    opened read-only (see ``read_only``)."""
    url = to_url(location)
    if url in _engines:
        return _engines[url]
    locked = False
    try:
        if url.startswith("sqlite"):
            file = _sqlite_file(url)
            if file is not None:
                _check_file(file, location, create)
                _check_sqlite_ours(file, location)
                locked = file.exists() and file.stat().st_size > 0 and read_only(file)
                if not file.parent.exists():
                    file.parent.mkdir(parents=True, exist_ok=True)
            if locked and file is not None:
                engine = _read_only_engine(url, file)
            else:
                engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
                event.listen(engine, "connect", _sqlite_connect)
                event.listen(engine, "begin", _sqlite_begin)
        else:
            engine = create_engine(url, pool_pre_ping=True)
        try:
            with engine.begin() as conn:
                _check_ours(conn, location)
                if locked:
                    _check_read_only_schema(conn, location)
                else:
                    migrate(conn)
        except BaseException:
            engine.dispose()  # a refused database keeps no connection open
            raise
    except ModuleNotFoundError as exc:
        raise InputError(describe(location), [
            f"the database driver {exc.name!r} is not installed "
            "(for PostgreSQL: pip install 'meks[postgres]')"]) from None
    except NewerSchema as exc:
        raise NewerDatabase(
            f"The database at {describe(location)} was written by a newer version of meks "
            f"(schema {exc.version}; this one knows up to {LATEST}); upgrade meks to use it."
        ) from None
    except ArgumentError as exc:  # a URL SQLAlchemy reads but cannot use as given
        raise BadURL(f"The database URL {describe(location)} cannot be used "
                     f"({_reason(exc, location)}); check the URL given with --db or "
                     "MEKS_DB.") from None
    except DBAPIError as exc:
        if url.startswith("sqlite") and _sqlite_code(exc) == _SQLITE_NOTADB:
            raise UnreadableDatabase(
                f"Cannot open the database at {describe(location)}: the file is not an SQLite "
                "database. Check the path given with --db or MEKS_DB.") from None
        known = explain(exc, location)
        if known is not None:
            raise known from None
        if _bad_conninfo(exc):
            raise BadURL(f"The database URL {describe(location)} cannot be used "
                         f"({_reason(exc, location)}); check the URL given with --db or "
                         "MEKS_DB.") from None
        raise DatabaseError(
            f"Cannot open the database at {describe(location)}: {_reason(exc, location)}. "
            "Check the path or URL given with --db or MEKS_DB."
        ) from None
    except (SQLAlchemyError, OSError) as exc:
        raise DatabaseError(
            f"Cannot open the database at {describe(location)}: {_reason(exc, location)}. "
            "Check the path or URL given with --db or MEKS_DB."
        ) from None
    _engines[url] = engine
    return engine


class ForeignDatabase(DatabaseError):
    """A database that holds another program's tables and none of meks's."""

    exit_code = 2


def _check_ours(conn: Any, location: str) -> None:
    """Refuse, before anything is written, a database that is not empty and not one meks
    made: it holds tables or views but not ``schema_migrations``, which every meks database
    has from its first migration. An empty one (a new file, an empty schema) is made
    ours."""
    from sqlalchemy import inspect

    found = inspect(conn)
    _refuse_foreign(set(found.get_table_names()) | set(found.get_view_names()), location)


def _check_sqlite_ours(file: Path, location: str) -> None:
    """``_check_ours`` for an SQLite file, read-only and before the connection that would
    switch the file to WAL (which writes its header) is made."""
    import sqlite3
    from urllib.request import pathname2url

    try:
        if file.stat().st_size == 0:
            return
        journal = any(file.with_name(file.name + suffix).exists()
                      for suffix in ("-shm", "-wal", "-journal"))
        # without a journal beside it the file is all there is: read it as immutable, which
        # makes no -wal or -shm file beside it
        uri = f"file:{pathname2url(str(file))}?mode=ro" + ("" if journal else "&immutable=1")
        conn = sqlite3.connect(uri, uri=True)
        try:
            names = {row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                "AND name NOT LIKE 'sqlite_%'")}
        finally:
            conn.close()
    except (OSError, sqlite3.Error):  # no file yet, or not a database: said when opened
        return
    _refuse_foreign(names, location)


def _refuse_foreign(names: set[str], location: str) -> None:
    if names and "schema_migrations" not in names:
        shown_names = ", ".join(sorted(names)[:3]) + (", ..." if len(names) > 3 else "")
        raise ForeignDatabase(
            f"The database at {describe(location)} belongs to another program (it holds "
            f"{len(names)} table{'s' * (len(names) != 1)} of its own: {shown_names}) and "
            "meks will not add its tables to it; give a new file or an empty database with "
            "--db or MEKS_DB.")


def _check_read_only_schema(conn: Any, location: str) -> None:
    """A read-only database is used only if it needs no migration (which would write)."""
    versions = applied_versions(conn)
    newest = versions[-1] if versions else 0
    if newest > LATEST:
        raise NewerSchema(newest)
    if newest < LATEST:
        raise ReadOnlyDatabase(
            f"The database file {describe(location)} is read-only and was written by an "
            f"older meks (schema {newest}); make it writable once so that this version can "
            f"bring it up to schema {LATEST}.")


def _check_file(file: Path, location: str, create: bool) -> None:
    import stat

    if any(0xD800 <= ord(c) <= 0xDFFF for c in str(file)):  # bytes os.fsdecode could not read
        raise UnreadableDatabase(
            f"Cannot open the database at {printable(describe(location))}: its name holds "
            "bytes that are not UTF-8 text, which SQLite cannot take. Give the file another "
            "name, with --db or MEKS_DB.")
    try:
        mode: int | None = os.stat(file).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:  # a loop of links, a name too long
        raise UnreadableDatabase(
            f"Cannot open the database at {describe(location)} ({os_reason(exc)}). Give a "
            "database file's path with --db or MEKS_DB.") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise UnreadableDatabase(
            f"Cannot open the database at {describe(location)}: it is a folder, not a file. "
            "Give a file's path with --db or MEKS_DB.")
    if mode is not None and not stat.S_ISREG(mode):
        raise UnreadableDatabase(
            f"Cannot open the database at {describe(location)}: it is not a regular file (a "
            "pipe, a device or a socket). Give a database file's path with --db or MEKS_DB.")
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
        f"No database at {describe(location)}{why}. A command that changes data (such as "
        "'meks company create') makes it; to use another database, name it with --db or "
        "MEKS_DB.")


_SQLITE_READONLY = 8
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26


def _sqlite_code(exc: DBAPIError) -> int | None:
    """The primary SQLite result code behind ``exc``, or None (another database)."""
    code = getattr(exc.orig, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_damage(exc: DBAPIError) -> bool:
    """Whether ``exc`` says the database file is corrupt."""
    return _sqlite_code(exc) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def _bad_conninfo(exc: DBAPIError) -> bool:
    """Whether the server's driver refused the connection's settings themselves (an
    unknown option or a malformed value in the URL), before reaching any server."""
    try:
        import psycopg
    except ModuleNotFoundError:  # pragma: no cover - without the PostgreSQL extra
        return False
    return type(exc.orig) is psycopg.ProgrammingError


def explain(exc: BaseException, location: str) -> DatabaseError | None:
    """The player's error for a database failure that has one, else None: a damaged file,
    a table or column that is gone, a change refused because the database is read-only."""
    if not isinstance(exc, DBAPIError):
        return None
    if is_damage(exc):
        return DamagedDatabase(_reason(exc, location), describe(location), refused=True)
    if _missing_part(exc):
        return DatabaseError(
            f"The database at {describe(location)} lacks part of what meks keeps in it "
            f"({_reason(exc, location).rstrip('.')}), so nothing was changed; its tables were "
            f"changed outside meks, so {RESTORE_ADVICE}.")
    if _sqlite_code(exc) == _SQLITE_READONLY:
        return ReadOnlyDatabase(
            f"The database file {describe(location)} is read-only, so nothing was changed; "
            "make the file and its folder writable to change it (reading it works as it is).")
    if getattr(exc.orig, "sqlstate", None) == "25006":  # PostgreSQL: read-only transaction
        return ReadOnlyDatabase(
            f"The database at {describe(location)} is read-only, so nothing was changed; "
            "ask its administrator for write access to change it.")
    return None


def damaged(detail: str, where: str | None = None, refused: bool = False) -> str:
    """The one sentence that says a database file (at ``where``) is damaged; ``refused``:
    it also says that the command changed nothing. Its advice can be followed: meks cannot
    open a damaged file even to back it up or restore over it, so the backup goes into a
    new file (``RESTORE_ADVICE``)."""
    file = f"The database file {where}" if where else "The database file"
    note = ", so nothing was changed" if refused else ""
    return f"{file} is damaged ({detail}){note}; {RESTORE_ADVICE}."


# What to do with a database meks can no longer use: 'meks db restore' reads a backup into a
# new database (a damaged file, or one missing a table, cannot be opened to be replaced).
RESTORE_ADVICE = ("restore it from a backup with 'meks db restore' into a new file, such as "
                  "'meks --db new.db db restore BACKUP', and use that one from then on")


def _missing_part(exc: DBAPIError) -> bool:
    """Whether ``exc`` says a table or column meks made is not there (dropped or renamed
    by another program): trying again cannot help."""
    if getattr(exc.orig, "sqlstate", None) in ("42P01", "42703"):  # PostgreSQL
        return True
    text = str(exc.orig)
    return _sqlite_code(exc) == 1 and (text.startswith(("no such table", "no such column"))
                                       or "has no column named" in text)


def _reason(exc: BaseException, location: str | None = None) -> str:
    """The first line of what went wrong, without any password."""
    text = str(exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc)
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return scrub(first, location)


def dispose_all() -> None:
    """Close every cached engine (tests switch databases between cases)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()



def consistent(engine: Engine) -> Engine:
    """``engine`` for work that reads many tables and must see them all as of one moment
    (a backup, ``db check``): on PostgreSQL its transactions are REPEATABLE READ, one
    snapshot for every statement, where the default would let a change committed meanwhile
    show in the later tables only. An SQLite transaction sees one moment already."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="REPEATABLE READ")
    return engine


@contextmanager
def transaction(location: str, create: bool = True,
                snapshot: bool = False) -> Iterator[Session]:
    """A session whose work is committed together at the end, or not at all. ``create``:
    as for ``engine_for``; ``snapshot``: every read sees the database as of one moment
    (``consistent``)."""
    engine = engine_for(location, create)
    if snapshot:
        engine = consistent(engine)
    with translated(location), Session(engine, expire_on_commit=False) as session, \
            session.begin():
        yield session


@contextmanager
def translated(location: str) -> Iterator[None]:
    """Work on the database at ``location`` whose failures reach the player as one sentence
    (see ``explain``); any other that the database reports says it could not complete."""
    try:
        yield
    except IntegrityError:
        # Only a change racing another one can get here: the use-cases check what they
        # store, and changes to one company take turns (db.locks).
        raise DatabaseError(
            f"The change clashed with another one made to the database at "
            f"{describe(location)} at the same moment; nothing was changed, so try again."
        ) from None
    except DBAPIError as exc:
        known = explain(exc, location)
        if known is not None:
            raise known from None
        raise DatabaseError(
            f"The database at {describe(location)} could not complete the change "
            f"({_reason(exc, location).rstrip('.')}); nothing was changed, so try again."
        ) from None
