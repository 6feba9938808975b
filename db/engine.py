"""Opening the database (``db.location`` says which one).

SQLite connections set ``busy_timeout``, WAL and ``foreign_keys=ON`` (in that order), and
every transaction that may write starts with ``BEGIN IMMEDIATE``, so two ``meks`` processes
that change the database at once queue for the write lock instead of failing with "database
is locked"; one that only reads (``reading``: the commands that show, list and export, and
the check that a database opened is up to date) starts with a plain ``BEGIN`` and, in WAL
mode, waits for no writer. Any other SQLAlchemy URL (PostgreSQL for a shared league) works
the same way; nothing outside this package knows which one is in use.

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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    SQLAlchemyError,
)
from sqlmodel import Session

from db.errors import (
    RESTORE_ADVICE,
    SQLITE_HEADER,
    BadURL,
    DamagedDatabase,
    DatabaseError,
    NewerDatabase,
    NoDatabase,
    ReadOnlyDatabase,
    UnreadableDatabase,
)
from db.location import describe, to_url
from db.migrations import LATEST, NewerSchema, applied_versions, migrate, up_to_date
from db.redact import reason
from meks.game.errors import InputError, os_reason
from meks.game.text import printable

BUSY_TIMEOUT_MS = 60_000


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # let the begin hook issue BEGIN itself
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


# An execution option: the transaction only reads (``reading``).
READS = "meks_reads"


def _sqlite_begin(conn: Any) -> None:
    # A transaction that may write takes the write lock as it begins, so that writers queue
    # for it (busy_timeout) rather than fail halfway; one that only reads takes none, and in
    # WAL mode reads the last state committed while another process writes.
    conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get(READS)
                         else "BEGIN IMMEDIATE")


def reading(engine: Engine) -> Engine:
    """``engine`` for a transaction that only reads: on SQLite it waits for no writer."""
    return engine.execution_options(**{READS: True})


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
            # checked first in a transaction that only reads, so that opening a database
            # another process is writing waits for nothing when it is up to date
            with reading(engine).begin() as conn:
                _check_ours(conn, location)
                if locked:
                    _check_read_only_schema(conn, location)
                current = locked or up_to_date(conn)
            if not current:
                with engine.connect() as conn, _foreign_keys_off(conn), conn.begin():
                    _migrate(conn, location)
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
                     f"({reason(exc, location)}); check the URL given with --db or "
                     "MEKS_DB.") from None
    except DBAPIError as exc:
        if url.startswith("sqlite") and _sqlite_code(exc) == _SQLITE_NOTADB:
            raise _not_sqlite(location) from None
        known = explain(exc, location)
        if known is not None:
            raise known from None
        if _bad_conninfo(exc):
            raise BadURL(f"The database URL {describe(location)} cannot be used "
                         f"({reason(exc, location)}); check the URL given with --db or "
                         "MEKS_DB.") from None
        raise DatabaseError(
            f"Cannot open the database at {describe(location)}: {reason(exc, location)}. "
            "Check the path or URL given with --db or MEKS_DB."
        ) from None
    except (SQLAlchemyError, OSError) as exc:
        raise DatabaseError(
            f"Cannot open the database at {describe(location)}: {reason(exc, location)}. "
            "Check the path or URL given with --db or MEKS_DB."
        ) from None
    _engines[url] = engine
    return engine


@contextmanager
def _foreign_keys_off(conn: Connection) -> Iterator[None]:
    """SQLite's foreign keys off on ``conn`` until the block ends, for migrations that make
    a table again (which SQLite takes only with them off, and only outside a transaction:
    the block begins its own). The migration checks the links itself before it ends."""
    if conn.dialect.name != "sqlite":
        yield
        return
    driver = conn.connection.driver_connection
    assert driver is not None
    driver.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        driver.execute("PRAGMA foreign_keys = ON")


def _migrate(conn: Any, location: str) -> None:
    """``migrate``, with a migration that finds a table or column already there (its record
    of migrations was changed outside meks) said as such."""
    try:
        migrate(conn)
    except DBAPIError as exc:
        text = str(exc.orig)
        if getattr(exc.orig, "sqlstate", None) in ("42P07", "42701") or (
                _sqlite_code(exc) == 1 and ("already exists" in text
                                            or "duplicate column" in text)):
            raise DatabaseError(
                f"The database at {describe(location)} holds tables its record of "
                f"migrations does not account for ({reason(exc, location).rstrip('.')}): "
                f"its tables were changed outside meks, so {RESTORE_ADVICE}.") from None
        raise


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


# Tables every meks database has had since its first migration: a database that holds them
# but no record of migrations is one of ours whose record was dropped outside meks.
_OURS = frozenset({"company", "mek", "pilot", "event"})


def _refuse_foreign(names: set[str], location: str) -> None:
    if names and "schema_migrations" not in names and names >= _OURS:
        raise DatabaseError(
            f"The database at {describe(location)} holds meks's tables but not its record of "
            f"migrations (schema_migrations): its tables were changed outside meks, so "
            f"{RESTORE_ADVICE}.")
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
    if mode is not None and _header(file) not in (b"", SQLITE_HEADER):
        raise _not_sqlite(location)  # told before SQLite is asked: it may not read the file
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


def _header(file: Path) -> bytes:
    """The first bytes of ``file``, as many as ``SQLITE_HEADER`` holds: what it is, read
    rather than told by its size (a file of /proc says it holds none); none if it cannot be
    read (opening it says why)."""
    try:
        with open(file, "rb") as data:
            return data.read(len(SQLITE_HEADER))
    except OSError:
        return b""


def _not_sqlite(location: str) -> UnreadableDatabase:
    return UnreadableDatabase(
        f"Cannot open the database at {describe(location)}: the file is not an SQLite "
        "database. Check the path given with --db or MEKS_DB.")


_SQLITE_BUSY = 5
_SQLITE_READONLY = 8
_SQLITE_IOERR = 10
_SQLITE_FULL = 13
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
        return DamagedDatabase(reason(exc, location), describe(location), refused=True)
    if _missing_part(exc):
        return DatabaseError(
            f"The database at {describe(location)} lacks part of what meks keeps in it "
            f"({reason(exc, location).rstrip('.')}), so nothing was changed; its tables were "
            f"changed outside meks, so {RESTORE_ADVICE}.")
    if _sqlite_code(exc) == _SQLITE_BUSY:
        return DatabaseError(
            f"The database at {describe(location)} is busy: another program (another meks "
            f"command, say) has been changing it for over {BUSY_TIMEOUT_MS // 1000} s, so "
            "nothing was changed; try again when it has finished.")
    if _sqlite_code(exc) in (_SQLITE_FULL, _SQLITE_IOERR):
        why = ("the disk is full" if _sqlite_code(exc) == _SQLITE_FULL
               else "the disk failed to read or write it: it may be full or failing")
        return DatabaseError(
            f"The database at {describe(location)} could not be written ({why}), so nothing "
            "was changed; free some space on its disk and try again.")
    if _sqlite_code(exc) == _SQLITE_READONLY:
        return ReadOnlyDatabase(
            f"The database file {describe(location)} is read-only, so nothing was changed; "
            "make the file and its folder writable to change it (reading it works as it is).")
    if getattr(exc.orig, "sqlstate", None) == "25006":  # PostgreSQL: read-only transaction
        return ReadOnlyDatabase(
            f"The database at {describe(location)} is read-only, so nothing was changed; "
            "ask its administrator for write access to change it.")
    return None


def _missing_part(exc: DBAPIError) -> bool:
    """Whether ``exc`` says a table or column meks made is not there (dropped or renamed
    by another program): trying again cannot help."""
    if getattr(exc.orig, "sqlstate", None) in ("42P01", "42703"):  # PostgreSQL
        return True
    text = str(exc.orig)
    return _sqlite_code(exc) == 1 and (text.startswith(("no such table", "no such column"))
                                       or "has no column named" in text)


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
    return reading(engine)


@contextmanager
def transaction(location: str, create: bool = True, snapshot: bool = False,
                reads: bool = False) -> Iterator[Session]:
    """A session whose work is committed together at the end, or not at all. ``create``:
    as for ``engine_for``; ``snapshot``: every read sees the database as of one moment
    (``consistent``), and nothing is written; ``reads``: nothing is written (``reading``:
    no waiting for another process that writes)."""
    engine = engine_for(location, create)
    if snapshot:
        engine = consistent(engine)
    elif reads:
        engine = reading(engine)
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
            f"({reason(exc, location).rstrip('.')}); nothing was changed, so try again."
        ) from None
