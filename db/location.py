"""Where the database is: ``--db``, ``MEKS_DB`` or the default file, as a path, an
SQLAlchemy URL or a PostgreSQL keyword connection string, and how to print it without its
passwords."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

from sqlalchemy.exc import ArgumentError

from db.errors import BadURL
from db.redact import MASK, SECRET_KEYS, reason, shown

ENV_VAR = "MEKS_DB"


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("meks", appauthor=False)) / "meks.db"


def resolve(db: str | None = None) -> str:
    """The database in use, as given: ``--db``, else ``MEKS_DB``, else the default file.
    ``--db`` given empty, or either made of spaces, names no database and is refused
    (``BadURL``, exit 2) rather than passed over; ``MEKS_DB`` set empty counts as unset, as
    the shell's ``MEKS_DB=`` means."""
    env = os.environ.get(ENV_VAR)
    for given, named in ((db, "--db"), (env or None, ENV_VAR)):
        if given is not None and not given.strip():
            raise BadURL(f"{named} is {'empty' if not given else 'blank'}; give a database "
                         "file's path or a URL, or leave it out for the default file.")
        if given:
            return given
    return str(default_path())


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
                     f"({reason(exc, location)}); check the URL given with --db or "
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
